#pragma once
// Deliberately broken Moreau–Jean schemes, registered as "mutant:<name>". Each one is the
// theta-scheme of nsh/schemes/moreau_jean.hpp (docs/theory.md §2.1) with exactly one defect, and
// each reports the SchemeInfo (spec, family) and the energy ledger of the healthy scheme it
// pretends to be, so that the shared property suite (properties/) must find the defect from
// the states and the StepSummary alone. `nsh check --mutants` asserts that it does.
//
//   mutant:mj-wrong-sign           impact law 0 <= U_{k+1} - e U_k _|_ P (sign of e flipped)
//   mutant:mj-restitution-101      the LCP uses 1.01 e instead of e
//   mutant:mj-theta-past           dynamics use theta' = 1/(1 + max e) + 1/20 while the spec
//                                  (and the dissipation claim) say theta
//   mutant:mj-activation-position  index set g_k + h/2 U_k <= 0 without U_k <= 0, while the
//                                  spec says activation=position-velocity
//   mutant:mj-dropped-damping      C left out of the iteration matrix and the free velocity,
//                                  the ledger still reports W_damp = -h v_theta^T C v_theta
//   mutant:mj-position-vk          q_{k+1} = q_k + h v_k instead of q_k + h v_{k+theta}
//   mutant:mj-wrong-contact        the impulse of contact a is applied along G column a+1 (mod m)
//   mutant:mj-uncertified-lemke    Lemke's z perturbed by a relative 1/1000 (an inexact pivot)
//                                  and accepted as solved without recomputing the certificate
//   mutant:mj-lying-impulse        applies 9/10 of the impulse it reports
//
// Friction mutants (SchemeInfo::friction set, so they are held to the friction claims on
// frictional models; docs/friction.md "Moreau–Jean with friction"):
//   mutant:mj-friction-previous-radius      P_T clipped to the cone mu P_N of the previous
//                                           step's normal impulse (zero at a first impact)
//   mutant:mj-friction-wrong-sign           P_T applied and reported with the wrong sign
//   mutant:mj-friction-stick-while-sliding  the friction problem solved with 1000 mu, so a
//                                           contact that should slide sticks
//
// Double only: a mutant exists to be caught on the CI path.

#include <nsh/registry.hpp>

namespace nsh {

/// Registers every mutant:mj-* scheme.
void register_moreau_jean_mutants(Registry& registry);

}  // namespace nsh
