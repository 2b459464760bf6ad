// Half-explicit time-discontinuous Galerkin scheme: the double instantiation and the registry
// entry. Real50 and Rational are instantiated in half_explicit_tdg_real50.cpp and
// half_explicit_tdg_rational.cpp.
#include "half_explicit_tdg.hxx"

namespace nsh {

const char* to_string(HalfExplicitFallback fallback) {
  switch (fallback) {
    case HalfExplicitFallback::lemke:
      return "lemke";
    case HalfExplicitFallback::enumeration:
      return "enumeration";
    case HalfExplicitFallback::none:
      return "none";
  }
  return "unknown";
}

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
  entry.options = declared_options<HalfExplicitTdgOptions>();
  set_factories<HalfExplicitTdg>(entry);
  entry.representatives = {"half-explicit-tdg"};
  registry.add(std::move(entry));
}

}  // namespace nsh
