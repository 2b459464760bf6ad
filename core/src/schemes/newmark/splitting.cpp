// What the Newmark family and Krenk-Hogsberg share: the double instantiation, the option names
// and the one rho_inf map. Real50 and Rational are instantiated in newmark_real50.cpp and
// newmark_rational.cpp (Boost.Multiprecision + Eigen is slow to compile).
#include "splitting.hxx"

namespace nsh {

const char* to_string(NewmarkImpactLaw law) {
  switch (law) {
    case NewmarkImpactLaw::smooth:
      return "smooth";
    case NewmarkImpactLaw::previous:
      return "previous";
  }
  return "unknown";
}

const char* to_string(NewmarkActivation activation) {
  switch (activation) {
    case NewmarkActivation::position:
      return "position";
    case NewmarkActivation::position_velocity:
      return "position-velocity";
  }
  return "unknown";
}

template class NewmarkSplitting<double>;

NewmarkParameters AlphaFormOptions::parameters() const {
  const Rational half = Rational(1) / 2;
  NewmarkParameters p;
  if (rho) {
    p.alpha_m = (2 * *rho - 1) / (*rho + 1);
    p.alpha_f = *rho / (*rho + 1);
    p.gamma = half + p.alpha_f - p.alpha_m;
    p.beta = (p.gamma + half) * (p.gamma + half) / 4;
  } else {
    p.alpha_m = *alpha_m;
    p.alpha_f = *alpha_f;
    p.gamma = *gamma;
    p.beta = *beta;
  }
  return p;
}

bool AlphaFormOptions::resolve_form(const std::string& scheme) {
  const Rational half = Rational(1) / 2;
  const bool explicit_form = alpha_m || alpha_f || beta || gamma;
  if (!explicit_form) {
    if (!rho) rho = half;
    return false;
  }
  if (rho)
    throw SpecError(scheme + ":rho",
                    "rho cannot be combined with alpha_m, alpha_f, beta or gamma; give either " +
                        scheme + ":rho=R or " + scheme +
                        ":alpha_m=..,alpha_f=..[,beta=..,gamma=..]");
  for (const auto& [key, value] : {std::pair{"alpha_m", &alpha_m}, std::pair{"alpha_f", &alpha_f}})
    if (!*value)
      throw SpecError(scheme + ":" + key,
                      "the explicit form needs both alpha_m and alpha_f (beta and gamma "
                      "default to the second-order, rho-consistent values)");
  const bool gamma_given = gamma.has_value();
  if (!gamma) gamma = half + *alpha_f - *alpha_m;
  if (!beta) beta = (*gamma + half) * (*gamma + half) / 4;
  return gamma_given;
}

}  // namespace nsh
