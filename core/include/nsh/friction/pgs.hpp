#pragma once
// Block projected Gauss-Seidel on the Coulomb cone (Jean, Moreau 1992 "NSGS"; Siconos'
// fc3d_nsgs with a projection local solver; docs/friction.md). One sweep visits the contacts in
// order; contact a sees the others frozen, q_a = b_a + sum_{c != a} W_ac P_c, and runs
// `local_iterations` passes of
//
//   P_N <- max(0, P_N - (W_aa P_a + q_a)_N / W_NN)                       (exact 1-D minimiser)
//   P_T <- proj_{mu P_N D}(P_T - (W_aa P_a + q_a)_T / lambda_max(W_TT))   (projected gradient)
//
// (for d = 1, lambda_max = W_TT and the tangential pass is also the exact minimiser), stopping
// early when a pass changes nothing beyond round-off. Starts at P = 0; after each sweep the
// certificate is evaluated and the sweeps stop when it holds. iterations = sweeps.
// W_NN <= 0 or W_TT = 0 leaves the step undefined: status singular.

#include <nsh/friction/solver.hpp>

namespace nsh {

/// The problem must be valid.
template <class Scalar>
FrictionResult<Scalar> solve_friction_pgs(const FrictionProblem<Scalar>& problem,
                                          const FrictionOptions<Scalar>& options = {});

}  // namespace nsh
