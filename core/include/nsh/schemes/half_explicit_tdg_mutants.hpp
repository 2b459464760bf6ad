#pragma once
// Deliberately broken half-explicit-tdg schemes, registered as "mutant:<name>". Each is the
// step of nsh/schemes/half_explicit_tdg.hpp (docs/half-explicit-tdg.md) with exactly one defect,
// and each reports the SchemeInfo and the summary the healthy scheme would, so that the shared
// property suite must find the defect from the states and the StepSummary alone.
//
//   mutant:hets-explicit-constraint  no velocity-level solve at the end of a non-impulsive step:
//                                    lambda_2 = lambda_1, the constraint imposed on the explicit
//                                    forecast u_1 only (caught by signorini_complementarity)
//   mutant:hets-unsplit              lambda_1 forgotten in the non-impulsive step (impulsive and
//                                    non-impulsive forces not split), while the summary reports
//                                    the forecast impulse h/2 lambda_1 (caught by
//                                    momentum_balance)
//   mutant:hets-wrong-r              r = 0 with Newton stopped on its own prox residual, which
//                                    is then zero at z = 0: a non-solution reported as certified
//                                    (caught by lcp_certificate)
//   mutant:hets-newton-previous      impact law 0 <= U_{n+1} + e U_n _|_ Lambda (u_n instead of
//                                    u*), while reporting U_newton = G^T u* (caught by
//                                    newton_restitution)
//
// Double only: a mutant exists to be caught on the CI path.

#include <nsh/registry.hpp>

namespace nsh {

/// Registers every mutant:hets-* scheme.
void register_half_explicit_tdg_mutants(Registry& registry);

}  // namespace nsh
