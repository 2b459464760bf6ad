#pragma once
// Siconos 4.4's integrators as nsh schemes (docs/siconos.md), built where Siconos is found
// (NSH_WITH_SICONOS): each adapter builds the Siconos model from an nsh LinearModel
// (LagrangianLinearTIDS, one LagrangianLinearTIR + NewtonImpactNSL per contact), steps Siconos'
// own TimeStepping (or EventDriven) one step at a time and reports the step from Siconos'
// state (q, v, the impulses lambda(1), index set 1). Everything nsh can recompute from those
// states it recomputes; nothing Siconos says about its own step is trusted.
//
//   siconos:moreau-jean      MoreauJeanOSI(theta [, gamma]) + LCP (Lemke). Claims: nsh's
//                            moreau-jean with the index set MoreauJeanOSI.hpp documents,
//                            I_1 = {g <= 0 predicted, U_k <= 0}.
//   siconos:schatzman-paoli  SchatzmanPaoliOSI(theta) + LCP (Lemke) at position level, its
//                            start-up ending at nsh's state. Claims: penetration_bound at e = 0.
//   siconos:d1-minus-linear  D1MinusLinearOSI + TimeSteppingD1Minus (impact and contact-force
//                            LCPs). Claims: Newton's law of its impact LCP at t_{k+1}.
//   siconos:event-driven     LsodarOSI + EventDriven (impact and acceleration LCPs), stepped to
//                            each grid point, a time event; the step's impulse is the sum over
//                            its impacts. Claims: penetration_bound.
//   siconos:newmark-alpha    NewMarkAlphaOSI(rho, position level) + EventDriven (impact,
//                            acceleration and position LCPs), stepped as siconos:event-driven;
//                            the DS's K and C that Siconos 4.4 negates in place are given back.
//                            Claims: penetration_bound.
//
// The adapters are double only (Siconos is), refuse frictional models (ModelError naming mu),
// and are not part of `--scheme all`: nsh's own verdicts do not depend on Siconos.

#include <nsh/registry.hpp>

namespace nsh::siconos {

/// Register the adapters and their claims (nsh::properties::register_scheme). Idempotent.
void register_schemes(Registry& registry = Registry::builtin());

}  // namespace nsh::siconos
