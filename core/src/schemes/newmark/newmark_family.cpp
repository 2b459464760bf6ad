// Nonsmooth Newmark / HHT / generalized-alpha and Krenk-Hogsberg: the double instantiation, the
// option names and the registry entries. Real50 and Rational are instantiated in
// newmark_family_real50.cpp and newmark_family_rational.cpp (Boost.Multiprecision + Eigen is
// slow to compile).
#include "newmark_family.hxx"

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
template class NewmarkFamily<double>;
template class KrenkHogsberg<double>;

NewmarkParameters NewmarkOptions::parameters() const {
  return NewmarkParameters{Rational(0), Rational(0), beta, gamma};
}

NewmarkParameters HhtOptions::parameters() const {
  NewmarkParameters p;
  p.alpha_m = 0;
  p.alpha_f = -alpha;
  p.gamma = Rational(1) / 2 - alpha;
  p.beta = (1 - alpha) * (1 - alpha) / 4;
  return p;
}

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

void GenAlphaOptions::resolve(const std::string& scheme) {
  const bool gamma_given = resolve_form(scheme);
  if (!rho && !gamma_given && (*gamma < 0 || *gamma > 2))
    throw SpecError(scheme + ":gamma",
                    "the default gamma = 1/2 + alpha_f - alpha_m = " + format_scalar(*gamma) +
                        " is outside [0, 2]; give gamma explicitly");
}

void KrenkHogsbergOptions::resolve(const std::string& scheme) {
  resolve_form(scheme);
  if (!rho && (!(*gamma > 0) || *gamma > 2))
    throw SpecError(scheme + ":gamma",
                    "gamma = " + format_scalar(*gamma) +
                        " is out of range; accepted: a number in (0, 2] (the default is "
                        "1/2 + alpha_f - alpha_m)");
}

namespace {

template <template <class> class SchemeT, class Own>
void add_newmark_member(Registry& registry, const std::string& name, const std::string& summary) {
  SchemeEntry entry;
  entry.name = name;
  entry.summary = summary;
  entry.options = declared_options<NewmarkFamilyOptions<Own>>();
  set_factories<SchemeT>(entry, /*rational=*/true);
  registry.add(std::move(entry));
}

}  // namespace

void register_newmark_family(Registry& registry) {
  add_newmark_member<NewmarkFamily, NewmarkOptions>(
      registry, "newmark",
      "nonsmooth Newmark (Chen-Acary-Virlez-Bruls splitting: smooth step, then impulse LCP)");
  add_newmark_member<NewmarkFamily, HhtOptions>(
      registry, "hht", "nonsmooth HHT-alpha (Chen-Acary-Virlez-Bruls splitting)");
  add_newmark_member<NewmarkFamily, GenAlphaOptions>(
      registry, "gen-alpha",
      "nonsmooth generalized-alpha (Chen-Acary-Virlez-Bruls splitting), from rho_inf or "
      "explicit parameters");
  add_newmark_member<KrenkHogsberg, KrenkHogsbergOptions>(
      registry, "krenk-hogsberg",
      "nonsmooth Krenk-Hogsberg alpha-scheme: mean-value equation of motion, first-order filter "
      "on K[q], "
      "algorithmic energy decays also with damping (derived, see header)");
}

}  // namespace nsh
