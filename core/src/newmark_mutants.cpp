// Deliberately broken members of the Newmark family, registered as "mutant:<name>": each
// reports the ledger and SchemeInfo of the scheme it pretends to be, so the shared property
// suite must catch it from the StepSummary alone (core/tests/newmark_family_test.cpp checks
// that each one violates an identity or a decay check).
#include <nsh/schemes/newmark_family.hpp>

namespace nsh {
namespace {

/// The mutant's spec under the name of the scheme it pretends to be.
SchemeSpec as_scheme(const SchemeSpec& spec, const std::string& name) {
  SchemeSpec out = SchemeSpec::parse(name);
  for (const auto& [key, value] : spec.options()) out.set(key, value);
  return out;
}

/// newmark-gamma-shift: the velocity update and the iteration matrix use gamma + 1/10, the
/// ledger, E_alg and the spec say gamma (breaks the energy identity and the order).
template <class Scalar>
class NewmarkGammaShiftMutant : public NewmarkFamily<Scalar> {
 public:
  explicit NewmarkGammaShiftMutant(const SchemeSpec& spec)
      : NewmarkFamily<Scalar>(as_scheme(spec, "newmark"), NewmarkMutation::gamma_shift) {}
};

/// genalpha-wrong-alpha-f: alpha_f = 1/(rho+1) instead of rho/(rho+1) in the filter (alpha_f
/// > 1/2 for rho < 1), the ledger says rho/(rho+1) (breaks the identity and the decay).
template <class Scalar>
class GenAlphaWrongAlphaFMutant : public NewmarkFamily<Scalar> {
 public:
  explicit GenAlphaWrongAlphaFMutant(const SchemeSpec& spec)
      : NewmarkFamily<Scalar>(as_scheme(spec, "gen-alpha"), NewmarkMutation::wrong_alpha_f) {}
};

/// newmark-impact-previous-claims-smooth: the LCP uses Moreau's U_k + e U_k law, the spec and
/// velocity_newton claim the smooth law (E_alg grows by +0.376 in docs/theory.md §3.4).
template <class Scalar>
class NewmarkPreviousClaimsSmoothMutant : public NewmarkFamily<Scalar> {
 public:
  explicit NewmarkPreviousClaimsSmoothMutant(const SchemeSpec& spec)
      : NewmarkFamily<Scalar>(as_scheme(spec, "newmark"),
                              NewmarkMutation::impact_previous_claims_smooth) {}
};

/// genalpha-gamma-off: gamma = 1/2 + alpha_f - alpha_m + 1/1000 in the dynamics and the
/// (honest) ledger, while the spec claims the second-order gamma: every energy property holds
/// (the shift is dissipative), and only the local truncation error's slope shows the lost order.
template <class Scalar>
class GenAlphaGammaOffMutant : public NewmarkFamily<Scalar> {
 public:
  explicit GenAlphaGammaOffMutant(const SchemeSpec& spec)
      : NewmarkFamily<Scalar>(as_scheme(spec, "gen-alpha"), NewmarkMutation::gamma_off_order) {}
};

/// newmark-faked-energy: steps beta - 1/12 (second order still, honest mechanical ledger) and
/// fills E_alg_after = E_alg_before - |D| from the decay the claimed beta promises: only an
/// E_alg recomputed from the exposed acceleration-like variable and the claimed parameters
/// tells.
template <class Scalar>
class NewmarkFakedEnergyMutant : public NewmarkFamily<Scalar> {
 public:
  explicit NewmarkFakedEnergyMutant(const SchemeSpec& spec)
      : NewmarkFamily<Scalar>(as_scheme(spec, "newmark"),
                              NewmarkMutation::faked_algorithmic_energy) {}
};

std::vector<SchemeOption> options(std::vector<SchemeOption> own) {
  own.push_back({"activation",
                 "position-velocity",
                 "index set: position or position-velocity",
                 {"position-velocity", "position"}});
  own.push_back(
      {"lcp", "lemke", "one-step LCP solver", {"lemke", "enumeration", "pgs", "fb", "prox"}});
  return own;
}

}  // namespace

void register_newmark_mutants(Registry& registry) {
  {
    SchemeEntry entry;
    entry.name = "mutant:newmark-gamma-shift";
    entry.summary =
        "newmark whose velocity update uses gamma + 1/10 while its ledger reports gamma";
    entry.options = options({{"beta", "1/4", "Newmark beta in [0, 1]", {}},
                             {"gamma", "1/2", "Newmark gamma in [0, 1] (claimed)", {}},
                             {"impact", "smooth", "Newton law", {"smooth", "previous"}}});
    set_factories<NewmarkGammaShiftMutant>(entry, true);
    entry.is_mutant = true;
    registry.add(std::move(entry));
  }
  {
    SchemeEntry entry;
    entry.name = "mutant:genalpha-wrong-alpha-f";
    entry.summary =
        "gen-alpha:rho=R with alpha_f = 1/(R+1) in the filter while the ledger uses R/(R+1)";
    entry.options = options({{"rho", "1/2", "rho_inf in [0, 1]", {}},
                             {"impact", "smooth", "Newton law", {"smooth", "previous"}}});
    set_factories<GenAlphaWrongAlphaFMutant>(entry, true);
    entry.is_mutant = true;
    registry.add(std::move(entry));
  }
  {
    SchemeEntry entry;
    entry.name = "mutant:genalpha-gamma-off";
    entry.summary =
        "gen-alpha:rho=R stepping gamma + 1/1000 (honest ledger) while claiming second order";
    entry.options = options({{"rho", "1/2", "rho_inf in [0, 1]", {}},
                             {"impact", "smooth", "Newton law", {"smooth", "previous"}}});
    set_factories<GenAlphaGammaOffMutant>(entry, true);
    entry.is_mutant = true;
    registry.add(std::move(entry));
  }
  {
    SchemeEntry entry;
    entry.name = "mutant:newmark-faked-energy";
    entry.summary =
        "newmark stepping beta - 1/12 while its E_alg is filled from the claimed beta's decay";
    entry.options = options({{"beta", "1/4", "Newmark beta in [0, 1] (claimed)", {}},
                             {"gamma", "1/2", "Newmark gamma in [0, 1]", {}},
                             {"impact", "smooth", "Newton law", {"smooth", "previous"}}});
    set_factories<NewmarkFakedEnergyMutant>(entry, true);
    entry.is_mutant = true;
    registry.add(std::move(entry));
  }
  {
    SchemeEntry entry;
    entry.name = "mutant:newmark-impact-previous-claims-smooth";
    entry.summary =
        "newmark whose impulse LCP uses Moreau's law U_{k+1} + e U_k but claims impact=smooth";
    entry.options = options({{"beta", "1/4", "Newmark beta in [0, 1]", {}},
                             {"gamma", "1/2", "Newmark gamma in [0, 1]", {}}});
    set_factories<NewmarkPreviousClaimsSmoothMutant>(entry, true);
    entry.is_mutant = true;
    registry.add(std::move(entry));
  }
}

}  // namespace nsh
