// forecasting-trapezoidal under the property suite (docs/half-explicit-tdg.md "The forecasting
// trapezoidal rule"): its claims pass and each of its mutants is caught by the property its
// defect breaks.
#include <nsh/properties/check.hpp>
#include <nsh/properties/mutants.hpp>
#include <nsh/properties/runner.hpp>

#include <gtest/gtest.h>

namespace nsh::properties {

TEST(ForecastingTrapezoidalCheck, PassesItsClaims) {
  CheckOptions options;
  options.cases = 60;
  int passed = 0;
  for (const auto& v : run_checks({"forecasting-trapezoidal"}, {"all"}, options)) {
    EXPECT_NE(v.outcome, Outcome::fail) << v.property << ": " << v.note;
    passed += v.outcome == Outcome::pass ? 1 : 0;
  }
  EXPECT_GE(passed, 7);
}

TEST(ForecastingTrapezoidalCheck, EachMutantIsCaughtByThePropertyItBreaks) {
  register_builtin_mutants();
  const struct {
    const char* mutant;
    const char* property;
  } cases[] = {{"mutant:ftr-unsplit", "momentum_balance"},
               {"mutant:ftr-newton-forecast", "newton_restitution"}};
  CheckOptions options;
  options.cases = 100;
  for (const auto& c : cases) {
    const Verdict v = check_property(c.mutant, c.property, options);
    EXPECT_EQ(v.outcome, Outcome::fail) << c.mutant << " / " << c.property << ": " << v.note;
  }
}

}  // namespace nsh::properties
