#include <nsh/cases/catalogue.hpp>

namespace nsh::cases {

const std::vector<CaseInfo>& catalogue() {
  static const std::vector<CaseInfo> cases = {
      {"bouncing-ball", "linear",
       "ball under gravity, e = 1/2: closed-form impact times t_k, apex heights e^(2k) q0, "
       "accumulation time t1 (1+e)/(1-e), then rest",
       "bouncing-ball.json", true},
      {"two-body", "linear",
       "seed 004: masses 2 and 3 meet at v_n = -2, e = 1/2: J = 18/5, v+ = (4/5, -1/5), "
       "K- = 5/2, K+ = 7/10 (exact rationals)",
       "two-body.json", true},
      {"free-flight", "linear",
       "seed 004: mass 2, gap 1 - 2s, contact at s = 1/2 with v- = -2, e = 0: J = 4, v+ = 0, "
       "K+ = 0 (exact rationals)",
       "free-flight.json", true},
      {"free-flight-elastic", "linear",
       "seed 004: as free-flight with e = 1: J = 8, v+ = 2, K+ = K- = 4 (exact rationals)",
       "free-flight-elastic.json", true},
      {"free-oscillator", "linear",
       "q'' + 4 q = 0, no contact: q = q0 cos 2t + (v0/2) sin 2t (order checks)",
       "free-oscillator.json", true},
      {"forced-oscillator", "linear",
       "q'' + q'/10 + 4 q = 1 + sin(3t)/2, no contact: closed form (damped homogeneous plus "
       "particular)",
       "forced-oscillator.json", true},
      {"bouncing-ball-penalty2", "linear",
       "the bouncing-ball drop (m = 1, g = 9.81, q0 = 1) on penalty2:kappa=1e4,damping=0: "
       "contact duration (pi + 2 atan(g/(omega V)))/omega -> pi/sqrt(kappa/m) for g -> 0, "
       "exit velocity +V = sqrt(2 g q0), penetration m g/kappa + sqrt((m g/kappa)^2 + m "
       "V^2/kappa)",
       "bouncing-ball-penalty2.json", false},
      {"oscillator-stop", "linear",
       "q'' + q = 0 against a stop at q = -1/2, e = 1/2: closed-form impact times and velocities "
       "U_k = -e^(k-1) sqrt(3)/2",
       "oscillator-stop.json", false},
      {"newton-cradle-3", "linear",
       "3 equal balls, e = 1, simultaneous contact: the impact LCP gives (-1/3, 2/3, 2/3) v, "
       "the textbook (0, 0, v)",
       "newton-cradle-3.json", true},
      {"newton-cradle-5", "linear",
       "5 equal balls, e = 1: the impact LCP gives (-3/5, 2/5, 2/5, 2/5, 2/5) v, the textbook "
       "(0, 0, 0, 0, v)",
       "newton-cradle-5.json", true},
      {"impacting-bar", "linear",
       "elastic bar, 100 elements, lumped mass, hits a rigid wall at t = 0: continuum contact "
       "time 2L/c = 2, exit velocity = -entry velocity, approached like N^(-2/3) (2.011661 "
       "here; N = 10^4: 2.000555)",
       "impacting-bar.json", false},
      {"impacting-bar-consistent", "linear",
       "as impacting-bar with the consistent mass matrix: continuum contact time 2, exit "
       "velocity +1",
       "impacting-bar-consistent.json", false},
      {"impacting-bar-1000-sparse", "linear",
       "impacting-bar-consistent with 1000 elements, stored sparse: continuum contact time 2L/c "
       "= 2, exit velocity +1; the event-driven reference opens the contact at t = 1.9974",
       "impacting-bar-1000-sparse.json", false},
      {"two-contact-forced", "linear",
       "2 masses, 2 stops, Rayleigh damping, harmonic force: no closed form, event-driven "
       "Real50 reference",
       "two-contact-forced.json", false},
      // Coulomb friction (docs/theory.md §9.2; closed forms in nsh/cases/friction.hpp).
      {"sliding-block", "linear",
       "block sliding on the ground, v0 = 2, mu = 1/2, g = 9.81: a = -mu g, stops at t* = "
       "v0/(mu g), x* = v0^2/(2 mu g); Moreau-Jean theta = 1: v_{k+1} = max(v_k - mu g h, 0) "
       "exactly",
       "sliding-block.json", true},
      {"incline-stick", "linear",
       "block at rest on a slope tan alpha = 3/4 with mu = 4/5: sticks iff tan alpha <= mu; "
       "friction force m g sin alpha",
       "incline-stick.json", true},
      {"incline-slide", "linear",
       "block on the slope tan alpha = 3/4 with mu = 1/2 < tan alpha: slides down with a = "
       "g (sin alpha - mu cos alpha) = g/5",
       "incline-slide.json", true},
      {"rolling-sphere", "linear",
       "solid sphere launched sliding at v0 without spin, mu = 1/5: starts to roll at t = "
       "2 v0/(7 mu g), then x' = 5 v0/7",
       "rolling-sphere.json", true},
      {"rolling-cylinder", "linear",
       "solid cylinder launched sliding at v0 without spin, mu = 1/5: starts to roll at t = "
       "v0/(3 mu g), then x' = 2 v0/3",
       "rolling-cylinder.json", true},
      {"oblique-impact", "linear",
       "disk hits the ground with v- = (1, -1), e = 1/2, mu = 1/5: Newton-Coulomb impact "
       "P_N = 3/2, sliding P_T = -3/10, v+ = (7/10, 1/2), phi'+ = -6 (sticks for mu >= 2/9: "
       "x'+ = 2/3) (exact rationals)",
       "oblique-impact.json", true},
      {"coulomb-oscillator", "linear",
       "block on a spring (k = 4, m = 1) on the ground, mu = 1/5, released from rest at x0 = 2: "
       "harmonic slides about +-mu m g/k, stops at t = pi/2 (reverses) and pi (sticks at "
       "x = 0.038); T = 3/2 inside the first slide (closed form: Den Hartog's stick-slip "
       "oscillator, double and 50 digits)",
       "coulomb-oscillator.json", true},
      {"bar-on-two-supports", "linear",
       "rigid bar on two frictional supports (normal forces 2/3 m g, 1/3 m g; mu = 1/5, 1/10) "
       "pulled by a spring k = 8, m = 2: a Coulomb oscillator along x with Phi = m g/6, stops "
       "at t = pi/2 (reverses) and pi (sticks); two simultaneous closed contacts",
       "bar-on-two-supports.json", true},
      // Nonlinear (lagrangian) family: formulas read by nsh::formula (docs/nonlinear-models.md).
      {"falling-rod", "lagrangian",
       "rigid rod (m = 1, length 2l = 1, I = m l^2/3) released tilted at phi = 1/2 with "
       "v = (1, 0, 0), falls on a floor on its two ends, e = 1/2, mu = 3/10: no closed form, the "
       "same model as the C++ nsh::cases::PlanarRod",
       "falling-rod.json", false},
      {"rocking-block", "lagrangian",
       "rigid block b = 1/5, c = 1/2 (tan alpha = 2/5) released from rest on one corner at "
       "phi0 = 1/5, e = 0, mu = 1: Housner's phi'+ = (1 - (3/2) sin^2 alpha) phi'- = (23/29) "
       "phi'- at the landing on the other corner, phi'- from energy about the pivot; the same "
       "model as the C++ nsh::cases::RockingBlock",
       "rocking-block.json", false},
      {"rod-on-corners", "lagrangian",
       "rigid rod (l = 1) falling across two corners (-1/2, 0), (1/2, 1/5), gaps = each "
       "corner's signed distance from the rod's line, e = 0, mu = 1/2: no closed form, the "
       "reference is a Moreau-Jean Real50 run at small h; the same model as the C++ "
       "nsh::cases::RodOnCorners",
       "rod-on-corners.json", false},
      {"particle-on-parabola", "lagrangian",
       "point mass dropped from rest at (1, 2) on the parabola y = x^2/2, e = 1/2, mu = 1/5: "
       "every formula rational, so moreau-jean runs it exactly (--precision rational, a short "
       "horizon: the exact numbers quadruple at each step in contact); no closed form after the "
       "first impact at t = sqrt(3/g)",
       "particle-on-parabola.json", false},
      {"rolling-disk-formulas", "lagrangian",
       "seed 003's rolling disk as a lagrangian file: the rolling constraints as one_forms with "
       "their kernel as distribution, the table's edge as two gaps, e = 1; dla and moreau-jean "
       "step it as the C++ rolling-disk (same nodes to round-off)",
       "rolling-disk-formulas.json", false},
      // Nonholonomic family (seed 003; nsh/nonholonomic/, docs/nonholonomic.md).
      {"rolling-disk", "nonholonomic",
       "seed 003: vertical disk rolling without slipping in a table of radius a = 5 (m = R = 1, "
       "I = 1/2, J = 1/4), from the centre with theta' = 2, phi' = 3/10: theta', phi' constant "
       "between impacts (x, y on circles), 6 impacts before T = 12 located to 50 digits "
       "(nsh events --precision 50), each an elastic reflection of (theta', phi') in "
       "diag(m R^2 + I, J): energy exactly conserved",
       "rolling-disk.json", false},
      {"knife-edge", "nonholonomic",
       "knife edge (skate) in front of the wall x = 1, s = 1, phi' = 1/2 from the origin: circles "
       "of radius |s/phi'| = 2, first impact at t = pi/3, each impact (s, phi') -> (-s, phi') "
       "exactly",
       "knife-edge.json", false},
      // First-order families (the sweeping/penalty helpers' cases; closed forms in core).
      {"sweeping-interval", "sweeping",
       "seed 004: x' in -1 - N_[0,1](x), x(0) = 1: x(t) = max(1 - t, 0); catching-up "
       "x_k = max(1 - k h, 0), sup error s(h - s)/h <= h/4",
       "sweeping-interval.json", false},
      {"sweeping-polygon", "sweeping",
       "2-D sweeping process in a quadrilateral under an affine drift: the state slides into "
       "the corner (0, 0) and stays",
       "sweeping-polygon.json", false},
      {"penalty-line", "penalty-line",
       "seed 004: C = [0, inf), f = -1: constrained x = 0; penalty path "
       "y = -(1 - exp(-kappa t))/kappa; explicit Euler y_2 = kappa h^2 - 2h",
       "penalty-line.json", false},
  };
  return cases;
}

const CaseInfo* find_case(const std::string& name) {
  for (const auto& c : catalogue())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace nsh::cases
