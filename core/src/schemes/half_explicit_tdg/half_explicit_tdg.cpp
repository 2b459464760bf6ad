// Half-explicit time-discontinuous Galerkin scheme: the double instantiation and the registry
// entry. Real50 and Rational are instantiated in half_explicit_tdg_real50.cpp and
// half_explicit_tdg_rational.cpp.
#include "half_explicit_tdg.hxx"

namespace nsh {

template class HalfExplicitTdg<double>;
template LcpResult<double> half_explicit_prox_newton(const Matrix<double>&, const Vector<double>&,
                                                     const Vector<double>&, Index,
                                                     const LcpOptions<double>&, bool, LcpMethod);

void register_half_explicit_tdg(Registry& registry) {
  SchemeEntry entry;
  entry.name = "half-explicit-tdg";
  entry.summary =
      "half-explicit time-discontinuous Galerkin, lowest order: velocity-level prox "
      "constraints by semismooth Newton, split impulsive and non-impulsive forces (Schindler, "
      "Rezaei, Kursawe, Acary 2015; MBSim HETS2)";
  entry.options = {
      {"r",
       "delassus",
       "prox parameter: delassus (r_i = 1/W_ii, as MBSim) or a positive number",
       {}},
      {"tolerance", "0", "relative natural-map tolerance of the certificate; 0: 4096 eps", {}},
      {"max_iterations", "50", "semismooth Newton iterations before the fallback", {}},
      {"fallback",
       "lemke",
       "LCP solver when Newton does not certify (none: a StepError)",
       {"lemke", "enumeration", "none"}},
      // No default value, so that the canonical spec of a frictionless run is unchanged.
      {"friction",
       "",
       "one-step Coulomb friction solver (docs/half-explicit-tdg.md); unset: lemke for d = 1 "
       "(exact in rational), alart-curnier for d = 2; rational arithmetic accepts lemke only",
       {"lemke", "alart-curnier", "pgs"}},
  };
  set_factories<HalfExplicitTdg>(entry, /*rational=*/true);
  entry.representatives = {"half-explicit-tdg"};
  registry.add(std::move(entry));
}

}  // namespace nsh
