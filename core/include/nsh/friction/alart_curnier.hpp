#pragma once
// Prox / Alart-Curnier semismooth Newton for the one-step friction problem (Alart, Curnier,
// CMAME 92:353-375, 1991; Schindler et al., CMAME 290:250-276, 2015, the prox form of MBSim;
// docs/friction.md). Per contact a, with U = W P + b, s_N = P_N - r_N U_N and
// rho = mu_a max(0, s_N) (Alart-Curnier's augmented radius):
//
//   F_N = P_N - max(0, s_N)
//   F_T = P_T - proj_{rho D}(P_T - r_T U_T),     D the unit disk (an interval for d = 1),
//
// r_N = prox_scale / W_NN and one r_T = prox_scale d / trace(W_TT) per contact (MBSim takes r
// from the Delassus diagonal; a single tangential r keeps the fixed points of F on the maximal-
// dissipation direction). F(P) = 0 iff P solves the problem: where F_N = 0, max(0, s_N) = P_N,
// so rho = mu P_N, the radius of seed 002's form P_T = proj_{mu P_N D}(P_T - r_T U_T) (which the
// certificate evaluates). The augmented radius is what Newton iterates on: with the radius
// mu max(0, P_N) the same Newton failed on 4 in 1000 random planar problems, with the augmented
// one on 1 in 1000 (and 0 in 1000 spatial ones), the pgs fallback taking those.
// The generalised Jacobian, row by row: normal active (s_N > 0) r_N W_N., else e_N^T;
// tangential with y = P_T - r_T U_T inside the disk (||y|| <= rho) r_T W_T., outside
// E_T - (rho/||y||)(I - y y^T/||y||^2)(E_T - r_T W_T.) - mu y/||y|| (e_N - r_N W_N.)^T [s_N > 0].
// The step solves J d = -F (complete pivoting), is globalised by an Armijo search on |F|^2 / 2
// with the gradient J^T F as fallback (as the LCP's prox Newton, nsh/lcp/prox_newton.hpp),
// starts at P = 0 and stops on the certificate. iterations = Newton steps.
// W_NN <= 0 or tr W_TT <= 0 leaves r undefined: status singular.

#include <nsh/friction/solver.hpp>

namespace nsh {

/// Newton only, without the pgs fallback (solve_friction adds it). The problem must be valid.
template <class Scalar>
FrictionResult<Scalar> solve_friction_alart_curnier(const FrictionProblem<Scalar>& problem,
                                                    const FrictionOptions<Scalar>& options = {});

}  // namespace nsh
