// The planar friction problem as an LCP, solved by Lemke (see nsh/friction/lemke.hpp).

#include <nsh/friction/lemke.hpp>

#include <nsh/error.hpp>
#include <nsh/lcp/lemke.hpp>

#include <string>

namespace nsh {

template <class Scalar>
void friction_lcp(const FrictionProblem<Scalar>& problem, Matrix<Scalar>& A, Vector<Scalar>& q) {
  if (problem.tangent_dimension != 1)
    throw InputError("tangent_dimension",
                     "the LCP form is for d = 1, got " + std::to_string(problem.tangent_dimension));
  const Index m = problem.contacts();
  const Matrix<Scalar>& W = problem.W;
  A = Matrix<Scalar>::Zero(4 * m, 4 * m);
  q = Vector<Scalar>::Zero(4 * m);
  // Rows/columns of contact a: 4a = P_N, 4a+1 = P+, 4a+2 = P-, 4a+3 = beta.
  // D maps [P_N, P+, P-] to [P_N, P_T]: sign of each LCP unknown in the friction unknown.
  const Scalar sign[3] = {Scalar(1), Scalar(1), Scalar(-1)};
  const Index source[3] = {0, 1, 1};  // the friction row (N or T) each LCP unknown feeds
  for (Index a = 0; a < m; ++a) {
    for (Index c = 0; c < m; ++c)
      for (Index i = 0; i < 3; ++i)
        for (Index j = 0; j < 3; ++j)
          A(4 * a + i, 4 * c + j) = sign[i] * sign[j] * W(2 * a + source[i], 2 * c + source[j]);
    A(4 * a + 1, 4 * a + 3) = Scalar(1);                    //  U_T + beta
    A(4 * a + 2, 4 * a + 3) = Scalar(1);                    // -U_T + beta
    A(4 * a + 3, 4 * a) = problem.friction_coefficient(a);  // mu P_N - P+ - P-
    A(4 * a + 3, 4 * a + 1) = Scalar(-1);
    A(4 * a + 3, 4 * a + 2) = Scalar(-1);
    q(4 * a) = problem.b(2 * a);
    q(4 * a + 1) = problem.b(2 * a + 1);
    q(4 * a + 2) = -problem.b(2 * a + 1);
  }
}

template <class Scalar>
FrictionResult<Scalar> solve_friction_lemke(const FrictionProblem<Scalar>& problem,
                                            const FrictionOptions<Scalar>& options) {
  Matrix<Scalar> A;
  Vector<Scalar> q;
  friction_lcp(problem, A, q);
  LcpOptions<Scalar> lcp_options;
  lcp_options.max_iterations = options.max_iterations;
  lcp_options.relative_tolerance = options.relative_tolerance;
  const LcpResult<Scalar> lcp = solve_lcp_lemke(A, q, lcp_options);

  FrictionResult<Scalar> result;
  result.method = FrictionMethod::lemke;
  result.iterations = lcp.iterations;
  const Index m = problem.contacts();
  result.P.resize(2 * m);
  for (Index a = 0; a < m; ++a) {
    result.P(2 * a) = lcp.z(4 * a);
    result.P(2 * a + 1) = lcp.z(4 * a + 1) - lcp.z(4 * a + 2);
  }
  FrictionStatus status = FrictionStatus::solved;
  switch (lcp.status) {
    case LcpStatus::solved:
    case LcpStatus::uncertified:  // the friction certificate judges the point itself
      break;
    case LcpStatus::no_solution:
      status = FrictionStatus::no_solution;
      break;
    case LcpStatus::max_iterations:
      status = FrictionStatus::max_iterations;
      break;
    case LcpStatus::singular:
      status = FrictionStatus::singular;
      break;
  }
  certify_friction_result(problem, options, status, lcp.message, result);
  return result;
}

#define NSH_INSTANTIATE_FRICTION_LEMKE(Scalar)                                                  \
  template void friction_lcp(const FrictionProblem<Scalar>&, Matrix<Scalar>&, Vector<Scalar>&); \
  template FrictionResult<Scalar> solve_friction_lemke(const FrictionProblem<Scalar>&,          \
                                                       const FrictionOptions<Scalar>&);

NSH_INSTANTIATE_FRICTION_LEMKE(double)
NSH_INSTANTIATE_FRICTION_LEMKE(Real50)
NSH_INSTANTIATE_FRICTION_LEMKE(Rational)

}  // namespace nsh
