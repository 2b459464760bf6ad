// The suite has power: every mutant (mutant:*) fails at least one property it claims, and
// the required Moreau–Jean counterexample is found and replays.
#include <nsh/case_file.hpp>
#include <nsh/driver.hpp>
#include <nsh/properties/check.hpp>
#include <nsh/properties/runner.hpp>

#include <gtest/gtest.h>

namespace nsh::properties {

TEST(Mutants, EveryMutantIsRejected) {
  CheckOptions options;
  int mutants = 0;
  for (const auto& provider : providers())
    for (const auto& mutant : provider->mutants()) {
      ++mutants;
      bool rejected = false;
      for (const auto& v : check_mutant(mutant, options)) rejected |= v.outcome == Outcome::fail;
      EXPECT_TRUE(rejected) << mutant << " survived every claimed property";
    }
  EXPECT_GE(mutants, 16);
}

TEST(Mutants, LyingSummariesAndLostOrderAreCaughtByWhatNshRecomputes) {
  // Each passes every property that trusts what it reports; each is caught by the property
  // that recomputes from the states (issue 18): the after-velocity of the state (the kit
  // derives it), E_alg from the exposed acceleration-like variable, the order in Real50 over
  // three decades.
  const struct {
    const char* mutant;
    const char* property;
  } cases[] = {{"mutant:mj-lying-impulse", "newton_restitution"},
               {"mutant:mj-lying-impulse", "momentum_balance"},
               {"mutant:newmark-faked-energy", "algorithmic_energy_decay"},
               {"mutant:genalpha-gamma-off", "observed_order"}};
  CheckOptions options;
  for (const auto& c : cases) {
    const Verdict v = check_property(c.mutant, c.property, options);
    EXPECT_EQ(v.outcome, Outcome::fail) << c.mutant << " / " << c.property << ": " << v.note;
  }
  // The gamma-off mutant keeps every energy claim: only the order shows it.
  for (const char* property : {"energy_identity", "algorithmic_energy_decay"})
    EXPECT_EQ(check_property("mutant:genalpha-gamma-off", property, options).outcome, Outcome::pass)
        << property;
}

TEST(Check, PositionActivationGainsEnergyAndTheCaseFileReplays) {
  CheckOptions options;
  options.force = true;
  options.restitution = RestitutionRange{"0", "0"};
  const Verdict v = check_property("moreau-jean:theta=0.5,activation=position",
                                   "moreau_jean_energy_dissipation", options);
  ASSERT_EQ(v.outcome, Outcome::fail);
  ASSERT_TRUE(v.counterexample);
  // Replay the printed case file exactly and find the energy increase again.
  const auto lc = load_linear_case<Rational>(parse_case_text(v.counterexample->case_file));
  auto scheme = Registry::builtin().make<Rational>("moreau-jean:theta=1/2,activation=position");
  const auto traj = record(*scheme, lc.model, lc.initial, *lc.h, lc.T);
  bool increased = false;
  for (const auto& s : traj.steps) increased |= (s.E_after - s.E_before) - (s.W_ext + s.W_damp) > 0;
  EXPECT_TRUE(increased);
}

TEST(Check, SameSeedSameVerdict) {
  CheckOptions options;
  options.cases = 30;
  options.seed = 7;
  const Verdict a = check_property("mutant:mj-dropped-damping", "energy_identity", options);
  const Verdict b = check_property("mutant:mj-dropped-damping", "energy_identity", options);
  ASSERT_EQ(a.outcome, b.outcome);
  ASSERT_EQ(a.outcome, Outcome::fail);
  EXPECT_EQ(a.counterexample->case_file, b.counterexample->case_file);
}

TEST(Check, HealthyMoreauJeanPassesItsClaims) {
  CheckOptions options;
  options.cases = 40;
  for (const auto& v : run_checks({"moreau-jean"}, {"all"}, options))
    EXPECT_NE(v.outcome, Outcome::fail) << v.property << ": " << v.note;
}

}  // namespace nsh::properties
