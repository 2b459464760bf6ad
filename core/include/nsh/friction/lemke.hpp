#pragma once
// The planar (d = 1) friction problem as an LCP, solved by Lemke (Stewart, Trinkle, IJNME
// 39:2673-2691, 1996; Anitescu, Potra, Nonlinear Dynamics 14:231-247, 1997; docs/friction.md).
//
// The tangential impulse is split P_T = P+ - P- (P+, P- >= 0) and a slack beta >= 0 (the
// sliding speed |U_T| at a sliding contact) is added. Per contact a, with U = W P + b:
//
//   0 <= U_N                 _|_  P_N  >= 0
//   0 <=  U_T + beta         _|_  P+   >= 0
//   0 <= -U_T + beta         _|_  P-   >= 0
//   0 <= mu P_N - P+ - P-    _|_  beta >= 0
//
// Unknowns z = [P_N, P+, P-, beta] per contact (contact-major, 4m), so the LCP matrix is
//
//   A = [ D W D^T   E ]    D = per contact [1 0; 0 1; 0 -1] (maps [P_N, P_T] to [P_N, P+, P-]),
//       [ Mu - E^T  0 ]    E = the +1 of beta in the P+ and P- rows, Mu = mu_a in the P_N column,
//
// and q = [b_N, b_T, -b_T, 0]. z^T A z = P^T W P + sum_a mu_a P_N beta >= 0 on z >= 0 (the E
// parts cancel), so A is copositive, though not copositive-plus (z^T A z = 0 at P_N > 0, beta
// = 0 does not make (A + A^T) z vanish). Existence and Lemke's termination come from the
// mechanics (Stewart-Trinkle, Anitescu-Potra) where W is positive definite; the friction test
// checks that Lemke ends with a solution on random positive definite W, and that on singular
// (only semidefinite) W, where Painleve-like problems have no solution at all, it ends on a
// secondary ray only where exact enumeration of the LCP finds no solution either. When a
// contact sticks, beta = 0 and P+, P- may both be positive; only P_T = P+ - P- is reported.
// Every pivot is exact in Rational, and the certificate of the friction form is then exactly
// zero.

#include <nsh/friction/solver.hpp>
#include <nsh/lcp/lcp.hpp>

namespace nsh {

/// The LCP (A, q) above for a d = 1 problem (InputError on d != 1).
template <class Scalar>
void friction_lcp(const FrictionProblem<Scalar>& problem, Matrix<Scalar>& A, Vector<Scalar>& q);

/// Lemke on friction_lcp, mapped back to P = [P_N, P+ - P-] and certified in the friction form.
/// iterations = Lemke pivots. The problem must be valid with d = 1.
template <class Scalar>
FrictionResult<Scalar> solve_friction_lemke(const FrictionProblem<Scalar>& problem,
                                            const FrictionOptions<Scalar>& options = {});

}  // namespace nsh
