#include <nsh/detail/dense_lu.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/nonholonomic/nonholonomic_model.hpp>

#include <fmt/format.h>

#include <cmath>

namespace nsh {
namespace {

// A model that returns the wrong size is a programming error of the model; the message still
// says which quantity it was, so that a new model is quick to fix.
template <class Scalar>
void require_returned_shape(const char* what, const Matrix<Scalar>& A, Index rows, Index cols) {
  if (A.rows() != rows || A.cols() != cols)
    throw ModelError(what, fmt::format("the model returned a {}x{} matrix, expected {}x{}",
                                       A.rows(), A.cols(), rows, cols));
}

template <class Scalar>
void require_length(const char* what, const Vector<Scalar>& x, Index size) {
  if (x.size() != size)
    throw ModelError(what,
                     fmt::format("the model returned {} entries, expected {}", x.size(), size));
}

template <class Scalar>
void require_finite_initially(const std::string& field, const Matrix<Scalar>& A) {
  for (Index i = 0; i < A.rows(); ++i)
    for (Index j = 0; j < A.cols(); ++j)
      if (!is_finite(A(i, j)))
        throw ModelError(A.cols() == 1 ? fmt::format("{}[{}]", field, i)
                                       : fmt::format("{}[{}][{}]", field, i, j),
                         "is not finite at the initial state: " + format_scalar(A(i, j)));
}

template <class Scalar>
Vector<Scalar> solve(const Matrix<Scalar>& A, const Vector<Scalar>& b, const char* what) {
  detail::DenseLu<Scalar> lu;
  if (!lu.factor(A)) throw ModelError(what, "is singular");
  return lu.solve(b);
}

}  // namespace

template <class Scalar>
std::string NonholonomicModel<Scalar>::inequality_name(Index j) const {
  return fmt::format("g[{}]", j);
}

template <class Scalar>
std::string NonholonomicModel<Scalar>::reduced_velocity_name(Index i) const {
  return fmt::format("u[{}]", i);
}

template <class Scalar>
Matrix<Scalar> NonholonomicModel<Scalar>::mass(const Vector<Scalar>& q) const {
  Matrix<Scalar> M = do_mass(q);
  require_returned_shape("M", M, dofs(), dofs());
  return M;
}

template <class Scalar>
Scalar NonholonomicModel<Scalar>::potential(const Vector<Scalar>& q) const {
  return do_potential(q);
}

template <class Scalar>
Vector<Scalar> NonholonomicModel<Scalar>::potential_gradient(const Vector<Scalar>& q) const {
  Vector<Scalar> gradient = do_potential_gradient(q);
  require_length("grad V", gradient, dofs());
  return gradient;
}

template <class Scalar>
Matrix<Scalar> NonholonomicModel<Scalar>::one_forms(const Vector<Scalar>& q) const {
  Matrix<Scalar> A = do_one_forms(q);
  require_returned_shape("A", A, velocity_constraints(), dofs());
  return A;
}

template <class Scalar>
Matrix<Scalar> NonholonomicModel<Scalar>::distribution(const Vector<Scalar>& q) const {
  Matrix<Scalar> X = do_distribution(q);
  require_returned_shape("X", X, dofs(), dofs() - velocity_constraints());
  return X;
}

template <class Scalar>
Vector<Scalar> NonholonomicModel<Scalar>::inequality(const Vector<Scalar>& q) const {
  Vector<Scalar> g = do_inequality(q);
  require_length("g", g, inequalities());
  return g;
}

template <class Scalar>
Matrix<Scalar> NonholonomicModel<Scalar>::inequality_gradient(const Vector<Scalar>& q) const {
  Matrix<Scalar> gradient = do_inequality_gradient(q);
  require_returned_shape("grad g", gradient, dofs(), inequalities());
  return gradient;
}

template <class Scalar>
Scalar NonholonomicModel<Scalar>::energy(const Vector<Scalar>& q, const Vector<Scalar>& v) const {
  return Scalar(v.dot(mass(q) * v)) / 2 + potential(q);
}

template <class Scalar>
Matrix<Scalar> NonholonomicModel<Scalar>::reduced_metric(const Vector<Scalar>& q) const {
  const Matrix<Scalar> X = distribution(q);
  return X.transpose() * mass(q) * X;
}

template <class Scalar>
Vector<Scalar> NonholonomicModel<Scalar>::reduced_velocity(const Vector<Scalar>& q,
                                                           const Vector<Scalar>& v) const {
  const Matrix<Scalar> X = distribution(q);
  const Vector<Scalar> b = X.transpose() * (mass(q) * v);
  return solve<Scalar>(Matrix<Scalar>(X.transpose() * mass(q) * X), b, "G_r");
}

template <class Scalar>
State<Scalar> NonholonomicModel<Scalar>::exact_flow(const State<Scalar>& start,
                                                    const Scalar& tau) const {
  State<Scalar> end = do_exact_flow(start, tau);
  require_length("q", end.q, dofs());
  require_length("v", end.v, dofs());
  return end;
}

template <class Scalar>
State<Scalar> NonholonomicModel<Scalar>::do_exact_flow(const State<Scalar>&, const Scalar&) const {
  throw ModelError("model", "'" + name() + "' has no closed-form flow (no exact reference)");
}

template <class Scalar>
void NonholonomicModel<Scalar>::validate(const State<Scalar>& initial) const {
  const Index n = dofs(), r = velocity_constraints(), p = inequalities();
  if (n <= 0) throw ModelError("n", fmt::format("must be > 0, got {}", n));
  if (r < 0 || r >= n)
    throw ModelError(
        "A", fmt::format("{} velocity constraints for {} coordinates: need 0 <= r < n", r, n));
  if (p < 0) throw ModelError("g", fmt::format("{} inequalities", p));
  if (initial.q.size() != n)
    throw ModelError(
        "q0", fmt::format("expected {} entries (one per coordinate), got {}", n, initial.q.size()));
  if (initial.v.size() != n)
    throw ModelError(
        "v0", fmt::format("expected {} entries (one per coordinate), got {}", n, initial.v.size()));
  require_finite_initially<Scalar>("q0", initial.q);
  require_finite_initially<Scalar>("v0", initial.v);
  const Vector<Scalar>& q = initial.q;
  const Matrix<Scalar> M = mass(q);
  require_finite_initially<Scalar>("M", M);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < i; ++j)
      if (abs_value<Scalar>(M(i, j) - M(j, i)) >
          tolerance<Scalar>(abs_value<Scalar>(M(i, j)) + abs_value<Scalar>(M(j, i))))
        throw ModelError(fmt::format("M[{}][{}]", i, j),
                         "M is not symmetric: " + format_scalar(M(i, j)) + " vs M[" +
                             std::to_string(j) + "][" + std::to_string(i) +
                             "] = " + format_scalar(M(j, i)));
  // Positive definite: the pivots of Gaussian elimination without pivoting are all > 0.
  Matrix<Scalar> E = M;
  for (Index k = 0; k < n; ++k) {
    if (!(E(k, k) > Scalar(0)))
      throw ModelError(n == 1 ? std::string("M") : fmt::format("M[{}][{}]", k, k),
                       "M is not positive definite: pivot " + std::to_string(k) + " is " +
                           format_scalar(E(k, k)));
    for (Index i = k + 1; i < n; ++i) {
      const Scalar factor = E(i, k) / E(k, k);
      for (Index j = k; j < n; ++j) E(i, j) -= factor * E(k, j);
    }
  }
  const Matrix<Scalar> A = one_forms(q);
  const Matrix<Scalar> X = distribution(q);
  const Vector<Scalar> g = inequality(q);
  const Matrix<Scalar> gradient = inequality_gradient(q);
  require_finite_initially<Scalar>("A", A);
  require_finite_initially<Scalar>("X", X);
  require_finite_initially<Scalar>("g", g);
  require_finite_initially<Scalar>("grad g", gradient);
  require_finite_initially<Scalar>("grad V", potential_gradient(q));
  const Scalar basis_residual = max_abs(A * X);
  if (basis_residual > tolerance<Scalar>(Scalar(1) + max_abs(A) * max_abs(X) * Scalar(n)))
    throw ModelError("X", "is not a basis of ker A: |A X| = " + format_scalar(basis_residual));
  for (Index j = 0; j < p; ++j)
    if (g(j) > Scalar(0))
      throw ModelError("q0", "is outside the admissible set: " + inequality_name(j) +
                                 "(q0) = " + format_scalar(g(j)) + " > 0");
  const Scalar residual = max_abs(A * initial.v);
  const Scalar scale = max_abs(A) * max_abs(initial.v) * Scalar(n);
  if (residual > tolerance<Scalar>(scale))
    throw ModelError(
        "v0", "does not satisfy the velocity constraints: |A(q0) v0| = " + format_scalar(residual) +
                  " (v0 = " + format_vector(initial.v) + ")");
}

template <class Scalar>
Reflection<Scalar> continuous_reflection(const NonholonomicModel<Scalar>& model,
                                         const Vector<Scalar>& q, const Vector<Scalar>& v_minus,
                                         Index inequality) {
  if (inequality < 0 || inequality >= model.inequalities())
    throw ModelError("inequality", fmt::format("index {} of {}", inequality, model.inequalities()));
  const Matrix<Scalar> X = model.distribution(q);
  const Matrix<Scalar> G = model.reduced_metric(q);
  const Vector<Scalar> normal = X.transpose() * model.inequality_gradient(q).col(inequality);
  Reflection<Scalar> out;
  out.u_minus = model.reduced_velocity(q, v_minus);
  const Vector<Scalar> G_inv_n = solve<Scalar>(G, normal, "G_r");
  const Scalar denominator = normal.dot(G_inv_n);
  if (!(denominator > Scalar(0)))
    throw StepError(model.inequality_name(inequality) +
                    ": the boundary normal has no component in the constraint distribution "
                    "(n^T G_r^-1 n = " +
                    format_scalar(denominator) + "): the jump is undefined");
  out.normal_minus = normal.dot(out.u_minus);
  out.u_plus = out.u_minus - (Scalar(2) * out.normal_minus / denominator) * G_inv_n;
  out.normal_plus = normal.dot(out.u_plus);
  out.v_plus = X * out.u_plus;
  return out;
}

template <class Scalar>
Scalar sinc(const Scalar& z) {
  using std::sin;
  // Below |z| = 1/1000 the Taylor series converges to round-off in a few terms; above, sin(z)/z
  // loses nothing (no cancellation).
  if (abs_value<Scalar>(z) < Scalar(1) / 1000) {
    const Scalar z2 = z * z;
    Scalar term(1), sum(1);
    for (int k = 1; k < 40; ++k) {
      term *= -z2 / Scalar((2 * k) * (2 * k + 1));
      sum += term;
      if (abs_value<Scalar>(term) <= epsilon<Scalar>()) break;
    }
    return sum;
  }
  return sin(z) / z;
}

template class NonholonomicModel<double>;
template class NonholonomicModel<Real50>;
template Reflection<double> continuous_reflection<double>(const NonholonomicModel<double>&,
                                                          const Vector<double>&,
                                                          const Vector<double>&, Index);
template Reflection<Real50> continuous_reflection<Real50>(const NonholonomicModel<Real50>&,
                                                          const Vector<Real50>&,
                                                          const Vector<Real50>&, Index);
template double sinc<double>(const double&);
template Real50 sinc<Real50>(const Real50&);

}  // namespace nsh
