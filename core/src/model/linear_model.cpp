#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/model/linear_model.hpp>

#include "model_checks.hxx"
#include "model_copy.hxx"

#include <fmt/format.h>
#include <Eigen/Cholesky>

#include <cmath>

namespace nsh {
namespace {

template <class Scalar>
void require_shape(const std::string& field, const Matrix<Scalar>& A, Index rows, Index cols) {
  if (A.rows() != rows || A.cols() != cols)
    throw ModelError(
        field, fmt::format("expected a {}x{} matrix, got {}x{}", rows, cols, A.rows(), A.cols()));
}

template <class Scalar>
void require_finite(const std::string& field, const Matrix<Scalar>& A) {
  for (Index i = 0; i < A.rows(); ++i)
    for (Index j = 0; j < A.cols(); ++j)
      if (!is_finite(A(i, j)))
        throw ModelError(entry_name(field, i, j),
                         "is " + format_scalar(A(i, j)) + ", every entry must be finite");
}

template <class Scalar>
void require_symmetric(const std::string& field, const Matrix<Scalar>& A) {
  const Scalar tol = tolerance<Scalar>(max_abs(A), Scalar(8));
  for (Index i = 0; i < A.rows(); ++i)
    for (Index j = 0; j < i; ++j)
      if (abs_value<Scalar>(A(i, j) - A(j, i)) > tol)
        throw ModelError(field, fmt::format("must be symmetric, but {} = {} and {} = {}",
                                            entry_name(field, i, j), format_scalar(A(i, j)),
                                            entry_name(field, j, i), format_scalar(A(j, i))));
}

template <class Scalar>
void require_definite(const std::string& field, const Matrix<Scalar>& A, bool strict) {
  const Scalar tol = tolerance<Scalar>(max_abs(A), Scalar(16 * (A.rows() + 1)));
  const Index pivot = first_indefinite_pivot<Scalar>(A, strict, tol);
  if (pivot >= 0)
    throw ModelError(field,
                     fmt::format("must be symmetric positive {}definite, but elimination "
                                 "breaks down at pivot {} (diagonal entry {} = {})",
                                 strict ? "" : "semi", pivot, entry_name(field, pivot, pivot),
                                 format_scalar(A(pivot, pivot))));
}

}  // namespace

template <class Scalar>
Index first_indefinite_pivot(const Matrix<Scalar>& A, bool strict, const Scalar& tol) {
  // Symmetric Gaussian elimination on the largest remaining diagonal entry: a symmetric
  // matrix is PSD iff every pivot is >= 0 and a zero pivot has a zero row left; PD iff every
  // pivot is > 0. Returns the original index of the offending pivot.
  Matrix<Scalar> S = A;
  const Index n = S.rows();
  std::vector<Index> order(n);
  for (Index i = 0; i < n; ++i) order[i] = i;
  for (Index k = 0; k < n; ++k) {
    Index best = k;
    for (Index i = k + 1; i < n; ++i)
      if (S(i, i) > S(best, best)) best = i;
    if (best != k) {
      S.row(k).swap(S.row(best));
      S.col(k).swap(S.col(best));
      std::swap(order[k], order[best]);
    }
    const Scalar pivot = S(k, k);
    if (strict ? !(pivot > tol) : pivot < -tol) return order[k];
    if (!(pivot > tol)) {
      // Semidefinite with a (numerically) zero pivot: the rest of the row must vanish too,
      // and then every remaining diagonal entry is <= this one, hence zero as well.
      for (Index i = k; i < n; ++i)
        for (Index j = k; j < n; ++j)
          if (abs_value<Scalar>(S(i, j)) > tol) return order[i];
      return -1;
    }
    for (Index i = k + 1; i < n; ++i) {
      const Scalar factor = S(i, k) / pivot;
      for (Index j = k + 1; j < n; ++j) S(i, j) -= factor * S(k, j);
    }
    for (Index i = k + 1; i < n; ++i) S(i, k) = S(k, i) = Scalar(0);
  }
  return -1;
}

template <class Scalar>
bool LinearModel<Scalar>::has_harmonic_force() const {
  if (F_amplitude.size() == 0) return false;
  for (Index i = 0; i < F_amplitude.size(); ++i)
    if (F_amplitude(i) != Scalar(0)) return true;
  return false;
}

template <class Scalar>
Vector<Scalar> LinearModel<Scalar>::force(const Scalar& t) const {
  if (!has_harmonic_force()) return F;
  if constexpr (is_exact_v<Scalar>) {
    throw InputError("F_amplitude",
                     "a harmonic force needs sin(), which rational arithmetic cannot evaluate; "
                     "use --precision double or 50");
  } else {
    using std::sin;
    return F + F_amplitude * Scalar(sin(omega * t));
  }
}

template <class Scalar>
Scalar LinearModel<Scalar>::energy(const Vector<Scalar>& q, const Vector<Scalar>& v) const {
  return (v.dot(M * v) + q.dot(K * q)) / Scalar(2);
}

template <class Scalar>
Scalar LinearModel<Scalar>::max_restitution() const {
  Scalar m(0);
  for (Index i = 0; i < e.size(); ++i)
    if (e(i) > m) m = e(i);
  return m;
}

template <class Scalar>
bool LinearModel<Scalar>::has_friction() const {
  if (tangent_directions() == 0) return false;
  for (Index i = 0; i < mu.size(); ++i)
    if (mu(i) != Scalar(0)) return true;
  return false;
}

template <class Scalar>
void LinearModel<Scalar>::validate() const {
  const Index n = M.rows();
  if (n == 0) throw ModelError("M", "the model has no degrees of freedom (M is empty)");
  require_shape<Scalar>("M", M, n, n);
  require_shape<Scalar>("C", C, n, n);
  require_shape<Scalar>("K", K, n, n);
  require_finite<Scalar>("M", M);
  require_finite<Scalar>("C", C);
  require_finite<Scalar>("K", K);
  detail::require_loads_and_contacts<Scalar>(n, F, F_amplitude, omega, G, w, e);
  // Frictionless models may leave G_T and mu empty (models built in code without
  // fill_defaults): only a G_T with columns is checked for shape.
  const Index m = G.cols();
  if (G_T.cols() != 0 && (G_T.rows() != n || m == 0 || G_T.cols() % m != 0 || G_T.cols() / m > 2))
    throw ModelError("G_T", fmt::format("expected an {}x{} or {}x{} matrix ({} contacts times "
                                        "d = 1 or 2 tangent directions), or none without "
                                        "friction, got {}x{}",
                                        n, m, n, 2 * m, m, G_T.rows(), G_T.cols()));
  require_finite<Scalar>("G_T", G_T);
  if (mu.size() != 0 && mu.size() != m)
    throw ModelError("mu",
                     fmt::format("expected {} entries (one per contact), got {}", m, mu.size()));
  if (G_T.cols() != 0 && mu.size() == 0)
    throw ModelError("mu", "G_T gives tangent directions, so mu (one per contact) is required");
  for (Index i = 0; i < mu.size(); ++i)
    if (!is_finite(mu(i)) || mu(i) < Scalar(0))
      throw ModelError(fmt::format("mu[{}]", i),
                       "is " + format_scalar(mu(i)) + ", a friction coefficient must be >= 0");
  require_symmetric<Scalar>("M", M);
  require_symmetric<Scalar>("C", C);
  require_symmetric<Scalar>("K", K);
  require_definite<Scalar>("M", M, true);
  require_definite<Scalar>("C", C, false);
  require_definite<Scalar>("K", K, false);
  if constexpr (std::is_same_v<Scalar, double>)
    detail::require_finite_delassus<Scalar>(
        G, [this](const Matrix<Scalar>& B) { return Matrix<Scalar>(M.ldlt().solve(B)); });
}

template <class Scalar>
void fill_defaults(LinearModel<Scalar>& model) {
  const Index n = model.M.rows();
  if (model.C.size() == 0) model.C = Matrix<Scalar>::Zero(n, n);
  if (model.K.size() == 0) model.K = Matrix<Scalar>::Zero(n, n);
  if (model.F.size() == 0) model.F = Vector<Scalar>::Zero(n);
  if (model.G.size() == 0 && model.G.rows() == 0) model.G = Matrix<Scalar>::Zero(n, 0);
  if (model.w.size() == 0) model.w = Vector<Scalar>::Zero(model.G.cols());
  if (model.e.size() == 0) model.e = Vector<Scalar>::Zero(model.G.cols());
  if (model.G_T.size() == 0) model.G_T = Matrix<Scalar>::Zero(n, 0);
  if (model.mu.size() == 0) model.mu = Vector<Scalar>::Zero(model.G.cols());
}

template <class To, class From>
LinearModel<To> model_cast(const LinearModel<From>& model) {
  LinearModel<To> out;
  const auto cast = [](const auto& x) { return scalar_cast<To>(x); };
  detail::copy_matrices(out, model, cast);
  detail::copy_loads_and_contacts(out, model, cast);
  out.G_T = scalar_cast<To>(model.G_T);
  out.mu = scalar_cast<To>(model.mu);
  return out;
}

#define NSH_INSTANTIATE_MODEL(S)                \
  template struct LinearModel<S>;               \
  template void fill_defaults(LinearModel<S>&); \
  template Index first_indefinite_pivot(const Matrix<S>&, bool, const S&);
NSH_INSTANTIATE_MODEL(double)
NSH_INSTANTIATE_MODEL(Real50)
NSH_INSTANTIATE_MODEL(Rational)
#undef NSH_INSTANTIATE_MODEL

#define NSH_INSTANTIATE_CAST(To, From) \
  template LinearModel<To> model_cast(const LinearModel<From>&);
NSH_INSTANTIATE_CAST(double, double)
NSH_INSTANTIATE_CAST(double, Real50)
NSH_INSTANTIATE_CAST(double, Rational)
NSH_INSTANTIATE_CAST(Real50, double)
NSH_INSTANTIATE_CAST(Real50, Real50)
NSH_INSTANTIATE_CAST(Real50, Rational)
NSH_INSTANTIATE_CAST(Rational, double)
NSH_INSTANTIATE_CAST(Rational, Rational)
#undef NSH_INSTANTIATE_CAST

}  // namespace nsh
