#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/model/sparse_model.hpp>

#include "model_checks.hxx"
#include "model_copy.hxx"

#include <fmt/format.h>
#include <Eigen/SparseCholesky>

#include <vector>

namespace nsh {
namespace {

template <class Scalar>
void require_square(const std::string& field, const SparseMatrix<Scalar>& A, Index n) {
  if (A.rows() != n || A.cols() != n)
    throw ModelError(field,
                     fmt::format("expected a {}x{} matrix, got {}x{}", n, n, A.rows(), A.cols()));
}

template <class Scalar>
void require_finite_symmetric(const std::string& field, const SparseMatrix<Scalar>& A) {
  for (Index j = 0; j < A.outerSize(); ++j)
    for (typename SparseMatrix<Scalar>::InnerIterator it(A, j); it; ++it)
      if (!is_finite(it.value()))
        throw ModelError(fmt::format("{}[{}][{}]", field, it.row(), it.col()),
                         "is " + format_scalar(it.value()) + ", every entry must be finite");
  const SparseMatrix<Scalar> At = A.transpose();
  const SparseMatrix<Scalar> D = A - At;
  const Scalar tol = tolerance<Scalar>(max_abs(A), Scalar(8));
  for (Index j = 0; j < D.outerSize(); ++j)
    for (typename SparseMatrix<Scalar>::InnerIterator it(D, j); it; ++it)
      if (abs_value<Scalar>(it.value()) > tol) {
        const Index r = it.row(), c = it.col();
        throw ModelError(field, fmt::format("must be symmetric, but {}[{}][{}] = {} and "
                                            "{}[{}][{}] = {}",
                                            field, r, c, format_scalar(Scalar(A.coeff(r, c))),
                                            field, c, r, format_scalar(Scalar(A.coeff(c, r)))));
      }
}

// Positive (semi)definiteness by the pivots of a sparse LDL^T. Strict: A itself, every pivot
// above 16 (n + 1) eps |A|. Semidefinite: A + tau I with the same tau, every pivot > 0 (the
// number of negative pivots is the number of negative eigenvalues, Sylvester).
template <class Scalar>
void require_definite(const std::string& field, const SparseMatrix<Scalar>& A, bool strict) {
  const Index n = A.rows();
  const Scalar scale = max_abs(A);
  if (!strict && scale == Scalar(0)) return;
  const Scalar tau = tolerance<Scalar>(scale, Scalar(16 * (n + 1)));
  SparseMatrix<Scalar> S = A;
  if (!strict) {
    SparseMatrix<Scalar> I(n, n);
    I.setIdentity();
    S = A + I * tau;
  }
  Eigen::SimplicialLDLT<SparseMatrix<Scalar>> ldlt(S);
  const char* kind = strict ? "definite" : "semidefinite";
  if (ldlt.info() != Eigen::Success)
    throw ModelError(field, fmt::format("must be symmetric positive {}, but its sparse LDL^T "
                                        "factorization breaks down",
                                        kind));
  const Vector<Scalar> D = ldlt.vectorD();
  const Scalar bound = strict ? tau : Scalar(0);
  for (Index i = 0; i < n; ++i)
    if (!(D(i) > bound)) {
      const Index original = ldlt.permutationPinv().indices()(i);
      throw ModelError(field,
                       fmt::format("must be symmetric positive {}, but pivot {} of its sparse "
                                   "LDL^T is {} (row {} of the model)",
                                   kind, i, format_scalar(Scalar(D(i))), original));
    }
}

}  // namespace

template <class Scalar>
bool SparseLinearModel<Scalar>::has_harmonic_force() const {
  for (Index i = 0; i < F_amplitude.size(); ++i)
    if (F_amplitude(i) != Scalar(0)) return true;
  return false;
}

template <class Scalar>
Scalar SparseLinearModel<Scalar>::energy(const Vector<Scalar>& q, const Vector<Scalar>& v) const {
  return (v.dot(M * v) + q.dot(K * q)) / Scalar(2);
}

template <class Scalar>
void SparseLinearModel<Scalar>::validate() const {
  const Index n = M.rows();
  if (n == 0) throw ModelError("M", "the model has no degrees of freedom (M is empty)");
  require_square<Scalar>("M", M, n);
  require_square<Scalar>("C", C, n);
  require_square<Scalar>("K", K, n);
  detail::require_loads_and_contacts<Scalar>(n, F, F_amplitude, omega, G, w, e);
  require_finite_symmetric<Scalar>("M", M);
  require_finite_symmetric<Scalar>("C", C);
  require_finite_symmetric<Scalar>("K", K);
  require_definite<Scalar>("M", M, true);
  require_definite<Scalar>("C", C, false);
  require_definite<Scalar>("K", K, false);
  if constexpr (std::is_same_v<Scalar, double>)
    detail::require_finite_delassus<Scalar>(G, [this](const Matrix<Scalar>& B) {
      Eigen::SimplicialLDLT<SparseMatrix<Scalar>> ldlt(M);
      return Matrix<Scalar>(ldlt.solve(B));
    });
}

template <class Scalar>
void fill_defaults(SparseLinearModel<Scalar>& model) {
  const Index n = model.M.rows();
  if (model.C.rows() == 0) model.C.resize(n, n);
  if (model.K.rows() == 0) model.K.resize(n, n);
  if (model.F.size() == 0) model.F = Vector<Scalar>::Zero(n);
  if (model.G.size() == 0 && model.G.rows() == 0) model.G = Matrix<Scalar>::Zero(n, 0);
  if (model.w.size() == 0) model.w = Vector<Scalar>::Zero(model.G.cols());
  if (model.e.size() == 0) model.e = Vector<Scalar>::Zero(model.G.cols());
}

template <class Scalar>
SparseLinearModel<Scalar> to_sparse(const LinearModel<Scalar>& model) {
  // The sparse family has no tangent directions: a copy would silently drop the friction.
  if (model.has_friction())
    throw ModelError("mu",
                     "the model has Coulomb friction (some mu > 0 with G_T given); the "
                     "sparse family is frictionless, step the dense model");
  SparseLinearModel<Scalar> out;
  detail::copy_matrices(out, model, [](const Matrix<Scalar>& A) { return sparse_of(A); });
  detail::copy_loads_and_contacts(out, model, detail::same);
  return out;
}

template <class Scalar>
LinearModel<Scalar> to_dense(const SparseLinearModel<Scalar>& model, Index max_dofs) {
  if (model.dofs() > max_dofs)
    throw InputError("M", fmt::format("the sparse model has {} degrees of freedom; a dense copy "
                                      "is refused above {} (this scheme reads dense matrices)",
                                      model.dofs(), max_dofs));
  LinearModel<Scalar> out;
  detail::copy_matrices(out, model,
                        [](const SparseMatrix<Scalar>& A) { return Matrix<Scalar>(A); });
  detail::copy_loads_and_contacts(out, model, detail::same);
  return out;
}

template <class To, class From>
SparseLinearModel<To> sparse_model_cast(const SparseLinearModel<From>& model) {
  SparseLinearModel<To> out;
  detail::copy_matrices(out, model, [](const SparseMatrix<From>& A) {
    return SparseMatrix<To>(A.template cast<To>());
  });
  detail::copy_loads_and_contacts(out, model, [](const auto& x) { return scalar_cast<To>(x); });
  return out;
}

#define NSH_INSTANTIATE_SPARSE_MODEL(S)                           \
  template struct SparseLinearModel<S>;                           \
  template void fill_defaults(SparseLinearModel<S>&);             \
  template SparseLinearModel<S> to_sparse(const LinearModel<S>&); \
  template LinearModel<S> to_dense(const SparseLinearModel<S>&, Index);
NSH_INSTANTIATE_SPARSE_MODEL(double)
NSH_INSTANTIATE_SPARSE_MODEL(Real50)
#undef NSH_INSTANTIATE_SPARSE_MODEL

template SparseLinearModel<double> sparse_model_cast(const SparseLinearModel<double>&);
template SparseLinearModel<Real50> sparse_model_cast(const SparseLinearModel<double>&);
template SparseLinearModel<double> sparse_model_cast(const SparseLinearModel<Real50>&);

}  // namespace nsh
