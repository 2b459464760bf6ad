// Deliberately broken members of the Newmark family (nsh/properties/mutants.hpp), registered as
// "mutant:<name>". Each is the healthy NewmarkFamily built through its seam (the constructor
// taking the claimed spec, the ledger parameters, the stepped parameters and the Newton law of
// the LCP apart): the mutant chooses the numbers, the scheme reports the claimed spec, so the
// shared property suite must catch it from the StepSummary alone (properties/tests/
// mutants_test.cpp checks that each one violates an identity, a decay check or the order).
#include <nsh/registry.hpp>
#include <nsh/schemes/newmark_family.hpp>

#include <cmath>

namespace nsh::properties {
namespace {

/// What a member of the family steps and records: the parameters of its ledger and of its
/// step, and the Newton law of its LCP. A mutant derives its own from the healthy scheme's.
struct NewmarkChoice {
  NewmarkParameters ledger, dynamics;
  NewmarkImpactLaw law;
};

/// One mutant: the scheme it pretends to be, its choice of numbers, and whether it also fills
/// E_alg_after from the decay the claimed parameters promise instead of computing it.
struct NewmarkMutant {
  const char* pretends;
  NewmarkChoice (*choose)(const SchemeSpec& spec, NewmarkChoice healthy);
  bool fakes_algorithmic_energy;
};

/// The mutant's spec under the name of the scheme it pretends to be.
SchemeSpec as_newmark_member(const SchemeSpec& spec, const std::string& name) {
  SchemeSpec out = SchemeSpec::parse(name);
  for (const auto& [key, value] : spec.options()) out.set(key, value);
  return out;
}

NewmarkChoice healthy_choice(const SchemeSpec& claimed) {
  const NewmarkFamily<double> healthy(claimed);
  return {healthy.parameters(), healthy.parameters(), healthy.impact_law()};
}

/// The healthy scheme of the claimed spec built through its seam with the mutant's numbers.
template <class Scalar>
class LyingNewmark : public NewmarkFamily<Scalar> {
 public:
  LyingNewmark(const SchemeSpec& claimed, const NewmarkChoice& choice, bool fakes_energy)
      : NewmarkFamily<Scalar>(claimed, choice.ledger, choice.dynamics, choice.law),
        fakes_energy_(fakes_energy) {}

 protected:
  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override {
    NewmarkFamily<Scalar>::do_step(state, summary);
    if (!fakes_energy_ || !summary.has_algorithmic_energy) return;
    using std::abs;
    summary.E_alg_after = summary.E_alg_before - Scalar(abs(summary.algorithmic_dissipation));
  }

 private:
  bool fakes_energy_;
};

template <class Scalar>
std::unique_ptr<Scheme<Scalar>> make_lying_newmark(const SchemeSpec& spec,
                                                   const NewmarkMutant& mutant) {
  const SchemeSpec claimed = as_newmark_member(spec, mutant.pretends);
  return std::make_unique<LyingNewmark<Scalar>>(
      claimed, mutant.choose(spec, healthy_choice(claimed)), mutant.fakes_algorithmic_energy);
}

/// newmark-gamma-shift: the velocity update and the iteration matrix use gamma + 1/10, the
/// ledger, E_alg and the spec say gamma (breaks the energy identity and the order).
const NewmarkMutant gamma_shift{"newmark",
                                [](const SchemeSpec&, NewmarkChoice c) {
                                  c.dynamics.gamma += Rational(1) / 10;
                                  return c;
                                },
                                false};

/// genalpha-wrong-alpha-f: alpha_f = 1/(rho+1) instead of rho/(rho+1) in the filter (alpha_f
/// > 1/2 for rho < 1), the ledger says rho/(rho+1) (breaks the identity and the decay).
const NewmarkMutant wrong_alpha_f{
    "gen-alpha",
    [](const SchemeSpec& spec, NewmarkChoice c) {
      const Rational rho = parse_rational(spec.text("rho"), spec.name() + ":rho");
      c.dynamics.alpha_f = 1 / (rho + 1);  // the typo: 1/(rho+1) for rho/(rho+1)
      return c;
    },
    false};

/// genalpha-gamma-off: gamma = 1/2 + alpha_f - alpha_m + 1/1000 in the dynamics and the
/// (honest) ledger, while the spec claims the second-order gamma: every energy property holds
/// (the shift is dissipative), and only the local truncation error's slope shows the lost order.
const NewmarkMutant gamma_off{"gen-alpha",
                              [](const SchemeSpec&, NewmarkChoice c) {
                                c.ledger.gamma += Rational(1) / 1000;
                                c.dynamics = c.ledger;
                                return c;
                              },
                              false};

/// newmark-faked-energy: steps beta - 1/12 (second order still, but E_alg is no longer a
/// Lyapunov function) with an honest mechanical ledger, and fills E_alg_after = E_alg_before -
/// |D| from the decay the claimed beta promises: only an E_alg recomputed from the exposed
/// acceleration-like variable and the claimed parameters tells.
const NewmarkMutant faked_energy{"newmark",
                                 [](const SchemeSpec&, NewmarkChoice c) {
                                   c.ledger.beta -= Rational(1) / 12;
                                   c.dynamics = c.ledger;
                                   return c;
                                 },
                                 true};

/// newmark-impact-previous-claims-smooth: the LCP uses Moreau's U_k + e U_k law, the spec and
/// velocity_newton claim the smooth law (its spec has no impact option: the default, smooth)
/// (E_alg grows by +0.376 in docs/theory.md §3.4).
const NewmarkMutant previous_claims_smooth{"newmark",
                                           [](const SchemeSpec&, NewmarkChoice c) {
                                             c.law = NewmarkImpactLaw::previous;
                                             return c;
                                           },
                                           false};

std::vector<SchemeOption> newmark_mutant_options(std::vector<SchemeOption> own) {
  own.push_back({"activation",
                 "position-velocity",
                 "index set: position or position-velocity",
                 {"position-velocity", "position"}});
  own.push_back(
      {"lcp", "lemke", "one-step LCP solver", {"lemke", "enumeration", "pgs", "fb", "prox"}});
  return own;
}

void add_newmark_mutant(Registry& registry, const char* name, const NewmarkMutant& mutant,
                        const char* summary, std::vector<SchemeOption> own_options) {
  SchemeEntry entry;
  entry.name = name;
  entry.summary = summary;
  entry.options = newmark_mutant_options(std::move(own_options));
  const NewmarkMutant* m = &mutant;
  entry.make.get<double>() = [m](const SchemeSpec& s) { return make_lying_newmark<double>(s, *m); };
  entry.make.get<Real50>() = [m](const SchemeSpec& s) { return make_lying_newmark<Real50>(s, *m); };
  entry.make.get<Rational>() = [m](const SchemeSpec& s) {
    return make_lying_newmark<Rational>(s, *m);
  };
  entry.is_mutant = true;
  registry.add(std::move(entry));
}

}  // namespace

void register_newmark_mutants(Registry& registry) {
  add_newmark_mutant(
      registry, "mutant:newmark-gamma-shift", gamma_shift,
      "newmark whose velocity update uses gamma + 1/10 while its ledger reports gamma",
      {{"beta", "1/4", "Newmark beta in [0, 1]", {}},
       {"gamma", "1/2", "Newmark gamma in [0, 1] (claimed)", {}},
       {"impact", "smooth", "Newton law", {"smooth", "previous"}}});
  add_newmark_mutant(
      registry, "mutant:genalpha-wrong-alpha-f", wrong_alpha_f,
      "gen-alpha:rho=R with alpha_f = 1/(R+1) in the filter while the ledger uses R/(R+1)",
      {{"rho", "1/2", "rho_inf in [0, 1]", {}},
       {"impact", "smooth", "Newton law", {"smooth", "previous"}}});
  add_newmark_mutant(
      registry, "mutant:genalpha-gamma-off", gamma_off,
      "gen-alpha:rho=R stepping gamma + 1/1000 (honest ledger) while claiming second order",
      {{"rho", "1/2", "rho_inf in [0, 1]", {}},
       {"impact", "smooth", "Newton law", {"smooth", "previous"}}});
  add_newmark_mutant(
      registry, "mutant:newmark-faked-energy", faked_energy,
      "newmark stepping beta - 1/12 while its E_alg is filled from the claimed beta's decay",
      {{"beta", "1/4", "Newmark beta in [0, 1] (claimed)", {}},
       {"gamma", "1/2", "Newmark gamma in [0, 1]", {}},
       {"impact", "smooth", "Newton law", {"smooth", "previous"}}});
  add_newmark_mutant(
      registry, "mutant:newmark-impact-previous-claims-smooth", previous_claims_smooth,
      "newmark whose impulse LCP uses Moreau's law U_{k+1} + e U_k but claims impact=smooth",
      {{"beta", "1/4", "Newmark beta in [0, 1]", {}},
       {"gamma", "1/2", "Newmark gamma in [0, 1]", {}}});
}

}  // namespace nsh::properties
