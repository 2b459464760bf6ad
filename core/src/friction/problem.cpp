// Validation of the one-step friction problem (see nsh/friction/problem.hpp).

#include <nsh/friction/problem.hpp>

#include <nsh/error.hpp>
#include <nsh/format.hpp>

#include <string>
#include <vector>

namespace nsh {

namespace {

/// Positive semidefiniteness of a symmetric A by symmetric elimination with diagonal pivoting:
/// the largest remaining diagonal entry is the pivot; once it is <= tol, a PSD matrix has its
/// whole remaining Schur complement within tol (|a_ij|^2 <= a_ii a_jj), so any entry beyond
/// that, or a diagonal entry below -tol, proves an indefinite direction. Exact in Rational.
template <class Scalar>
void check_positive_semidefinite(const Matrix<Scalar>& W) {
  const Index n = W.rows();
  Matrix<Scalar> S = W;
  const Scalar tol = tolerance<Scalar>(max_abs(W), Scalar(64 * (n + 1)));
  std::vector<bool> done(static_cast<std::size_t>(n), false);
  for (Index step = 0; step < n; ++step) {
    Index p = -1;
    for (Index i = 0; i < n; ++i)
      if (!done[static_cast<std::size_t>(i)] && (p < 0 || S(i, i) > S(p, p))) p = i;
    if (S(p, p) <= tol) {
      for (Index i = 0; i < n; ++i) {
        if (done[static_cast<std::size_t>(i)]) continue;
        if (S(i, i) < -tol)
          throw InputError("W",
                           "must be positive semidefinite, but its Schur complement has "
                           "the negative diagonal entry " +
                               format_scalar(S(i, i)) + " at row " + std::to_string(i));
        for (Index j = 0; j < n; ++j)
          if (!done[static_cast<std::size_t>(j)] && abs_value<Scalar>(S(i, j)) > tol)
            throw InputError("W",
                             "must be positive semidefinite, but a Schur complement with "
                             "a zero diagonal has the entry " +
                                 format_scalar(S(i, j)) + " at " + entry_name("", i, j));
      }
      return;
    }
    done[static_cast<std::size_t>(p)] = true;
    for (Index i = 0; i < n; ++i) {
      if (done[static_cast<std::size_t>(i)] || S(i, p) == Scalar(0)) continue;
      const Scalar f = S(i, p) / S(p, p);
      for (Index j = 0; j < n; ++j)
        if (!done[static_cast<std::size_t>(j)]) S(i, j) -= f * S(p, j);
    }
  }
}

}  // namespace

template <class Scalar>
void FrictionProblem<Scalar>::validate() const {
  const FrictionProblem<Scalar>& problem = *this;
  const Index d = problem.tangent_dimension;
  if (d != 1 && d != 2)
    throw InputError("tangent_dimension",
                     "must be 1 (planar) or 2 (spatial), got " + std::to_string(d));
  const Index m = problem.friction_coefficient.size();
  const Index n = m * (1 + d);
  const Matrix<Scalar>& W = problem.W;
  if (W.rows() != W.cols())
    throw InputError(
        "W", "must be square, got " + std::to_string(W.rows()) + " x " + std::to_string(W.cols()));
  if (W.rows() != n)
    throw InputError("W", "must be " + std::to_string(n) + " x " + std::to_string(n) + " (" +
                              std::to_string(m) +
                              " contacts of size 1 + d = " + std::to_string(1 + d) + "), got " +
                              std::to_string(W.rows()) + " x " + std::to_string(W.cols()));
  if (problem.b.size() != n)
    throw InputError("b", "must have size " + std::to_string(n) + " (m (1 + d)), got " +
                              std::to_string(problem.b.size()));
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j)
      if (!is_finite(W(i, j)))
        throw InputError(entry_name("W", i, j), "is not finite: " + format_scalar(W(i, j)));
  for (Index i = 0; i < n; ++i)
    if (!is_finite(problem.b(i)))
      throw InputError("b[" + std::to_string(i) + "]",
                       "is not finite: " + format_scalar(problem.b(i)));
  for (Index a = 0; a < m; ++a) {
    const Scalar& mu = problem.friction_coefficient(a);
    const std::string field = "friction_coefficient[" + std::to_string(a) + "]";
    if (!is_finite(mu)) throw InputError(field, "is not finite: " + format_scalar(mu));
    if (mu < Scalar(0)) throw InputError(field, "must be >= 0, got " + format_scalar(mu));
  }
  // W = G^T M^-1 G computed in floating point is symmetric to the round-off of its n-term sums.
  const Scalar symmetry = tolerance<Scalar>(max_abs(W), Scalar(64 * (n + 1)));
  for (Index i = 0; i < n; ++i)
    for (Index j = i + 1; j < n; ++j)
      if (abs_value<Scalar>(W(i, j) - W(j, i)) > symmetry)
        throw InputError(entry_name("W", i, j), "must equal W[" + std::to_string(j) + "][" +
                                                    std::to_string(i) + "] (W is symmetric), got " +
                                                    format_scalar(W(i, j)) + " and " +
                                                    format_scalar(W(j, i)));
  check_positive_semidefinite(W);
}

template <class Scalar>
Vector<Scalar> local_velocity(const FrictionProblem<Scalar>& problem, const Vector<Scalar>& P) {
  Vector<Scalar> U = problem.b;
  U.noalias() += problem.W * P;
  return U;
}

#define NSH_INSTANTIATE_FRICTION_PROBLEM(Scalar) \
  template struct FrictionProblem<Scalar>;       \
  template Vector<Scalar> local_velocity(const FrictionProblem<Scalar>&, const Vector<Scalar>&);

NSH_INSTANTIATE_FRICTION_PROBLEM(double)
NSH_INSTANTIATE_FRICTION_PROBLEM(Real50)
NSH_INSTANTIATE_FRICTION_PROBLEM(Rational)

}  // namespace nsh
