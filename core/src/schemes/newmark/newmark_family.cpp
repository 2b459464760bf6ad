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

namespace {

std::vector<SchemeOption> common_options() {
  return {
      {"impact",
       "smooth",
       "Newton law pre-impact velocity: smooth (U~_{k+1}, the smooth end velocity; its impact "
       "work is provably <= 0) or previous (U_k, Moreau's form)",
       {"smooth", "previous"}},
      {"activation",
       "position-velocity",
       "index set: position (g(q_{k+1}) <= 0) or position-velocity (also the Newton law's "
       "pre-impact velocity <= 0)",
       {"position-velocity", "position"}},
      {"lcp",
       "lemke",
       "one-step LCP solver; rational arithmetic accepts lemke and enumeration only",
       {"lemke", "enumeration", "pgs", "fb", "prox"}},
  };
}

void add(Registry& registry, const std::string& name, const std::string& summary,
         std::vector<SchemeOption> options, bool krenk) {
  SchemeEntry entry;
  entry.name = name;
  entry.summary = summary;
  for (auto& o : common_options()) options.push_back(o);
  entry.options = std::move(options);
  if (krenk)
    set_factories<KrenkHogsberg>(entry, /*rational=*/true);
  else
    set_factories<NewmarkFamily>(entry, /*rational=*/true);
  registry.add(std::move(entry));
}

}  // namespace

void register_newmark_family(Registry& registry) {
  add(registry, "newmark",
      "nonsmooth Newmark (Chen-Acary-Virlez-Bruls splitting: smooth step, then impulse LCP)",
      {{"beta", "1/4", "Newmark beta, a number in [0, 1]", {}},
       {"gamma", "1/2", "Newmark gamma, a number in [0, 1]", {}}},
      false);
  add(registry, "hht", "nonsmooth HHT-alpha (Chen-Acary-Virlez-Bruls splitting)",
      {{"alpha", "-1/10", "HHT alpha, a number in [-1/3, 0]", {}}}, false);
  add(registry, "gen-alpha",
      "nonsmooth generalized-alpha (Chen-Acary-Virlez-Bruls splitting), from rho_inf or "
      "explicit parameters",
      {{"rho", "", "spectral radius at infinity rho_inf in [0, 1] (default 1/2)", {}},
       {"alpha_m", "", "explicit alpha_m in [-1, 1) (not with rho)", {}},
       {"alpha_f", "", "explicit alpha_f in [-1, 1) (not with rho)", {}},
       {"beta", "", "explicit beta in [0, 2] (default (gamma+1/2)^2/4; not with rho)", {}},
       {"gamma", "", "explicit gamma in [0, 2] (default 1/2+alpha_f-alpha_m; not with rho)", {}}},
      false);
  add(registry, "krenk-hogsberg",
      "nonsmooth Krenk-Hogsberg alpha-scheme: mean-value equation of motion, first-order filter "
      "on K[q], "
      "algorithmic energy decays also with damping (derived, see header)",
      {{"rho", "", "rho in [0, 1] (default 1/2), mapped by the generalized-alpha formulas", {}},
       {"alpha_m", "", "explicit alpha_m in [-1, 1) (not with rho)", {}},
       {"alpha_f", "", "explicit alpha_f in [-1, 1] (not with rho)", {}},
       {"beta", "", "explicit beta in [0, 2] (default (gamma+1/2)^2/4; not with rho)", {}},
       {"gamma", "", "explicit gamma in (0, 2] (default 1/2+alpha_f-alpha_m; not with rho)", {}}},
      true);
}

}  // namespace nsh
