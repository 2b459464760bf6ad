// half-explicit-tdg under the property suite (docs/half-explicit-tdg.md): its claims pass, each
// of its mutants is caught by the property its defect breaks, and the two sentences it cannot
// claim are shown false by the search: no position-level penetration (penetration_bound) and
// no energy gain (without contact and damping the step is velocity Verlet: E is not monotone).
#include <nsh/properties/check.hpp>
#include <nsh/properties/runner.hpp>

#include <gtest/gtest.h>

namespace nsh::properties {

TEST(HalfExplicitTdgCheck, PassesItsClaims) {
  CheckOptions options;
  options.cases = 60;
  for (const auto& v : run_checks({"half-explicit-tdg"}, {"all"}, options))
    EXPECT_NE(v.outcome, Outcome::fail) << v.property << ": " << v.note;
}

TEST(HalfExplicitTdgCheck, EachMutantIsCaughtByThePropertyItBreaks) {
  const struct {
    const char* mutant;
    const char* property;
  } cases[] = {{"mutant:hets-explicit-constraint", "signorini_complementarity"},
               {"mutant:hets-unsplit", "momentum_balance"},
               {"mutant:hets-wrong-r", "lcp_certificate"},
               {"mutant:hets-wrong-r", "signorini_complementarity"},
               {"mutant:hets-newton-previous", "newton_restitution"}};
  CheckOptions options;
  options.cases = 100;
  for (const auto& c : cases) {
    const Verdict v = check_property(c.mutant, c.property, options);
    EXPECT_EQ(v.outcome, Outcome::fail) << c.mutant << " / " << c.property << ": " << v.note;
  }
}

TEST(HalfExplicitTdgCheck, EnergyGainIsFoundByTheForcedSearch) {
  // Not claimed (docs/half-explicit-tdg.md); forced, the search must find E rising.
  CheckOptions options;
  options.force = true;
  for (const char* property : {"moreau_jean_energy_dissipation", "energy_identity"}) {
    const Verdict v = check_property("half-explicit-tdg", property, options);
    EXPECT_EQ(v.outcome, Outcome::fail) << property << ": " << v.note;
    EXPECT_TRUE(v.counterexample.has_value()) << property;
  }
  for (const char* property : {"penetration_bound", "energy_identity"})
    EXPECT_EQ(check_property("half-explicit-tdg", property, CheckOptions{}).outcome,
              Outcome::not_claimed)
        << property;
}

TEST(HalfExplicitTdgCheck, PenetrationBoundFailsOnABallAtRestJustAboveTheGround) {
  // "Without any penetration" holds at velocity level only. A unit ball at rest at height
  // g_0 = h^2 |a| / 4 under gravity a = -8: the trapezoidal update puts it at g_1 = -h^2 |a| / 4
  // and the inelastic impact step sets U_1 = 0, so g_1 < min(0, g_0) - 2 h max(|U_0|, |U_1|)
  // = 0. Moreau–Jean keeps U_1 = -h |a| there and satisfies the bound.
  GeneratedCase c;
  c.origin = "designed: ball at rest h^2 |a| / 4 above the ground";
  c.model.M = Matrix<Rational>::Identity(1, 1);
  c.model.F = Vector<Rational>::Constant(1, Rational(-8));
  c.model.G = Matrix<Rational>::Identity(1, 1);
  c.model.e = Vector<Rational>::Zero(1);
  fill_defaults(c.model);
  c.model.validate();
  c.h = Rational(1) / 16;
  c.initial = State<Rational>{Rational(0), Vector<Rational>::Constant(1, c.h * c.h * 2),
                              Vector<Rational>::Zero(1)};
  c.steps = 1;
  const CaseOutcome hets = evaluate_case("half-explicit-tdg", "penetration_bound", c);
  ASSERT_TRUE(hets.evaluated) << hets.refusal;
  EXPECT_FALSE(hets.judgement.holds);
  const CaseOutcome mj = evaluate_case("moreau-jean", "penetration_bound", c);
  ASSERT_TRUE(mj.evaluated) << mj.refusal;
  EXPECT_TRUE(mj.judgement.holds) << mj.judgement.detail;
}

}  // namespace nsh::properties
