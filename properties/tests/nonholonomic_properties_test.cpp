// The nonholonomic provider (properties/src/nonholonomic_provider.cpp): dla passes THEORY 5's
// claims on the drawn rolling-disk and knife-edge cases, and each of its mutants is rejected by
// the property its defect breaks (docs/nonholonomic.md "Properties and claims").
#include <nsh/properties/check.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace nsh::properties {
namespace {

TEST(NonholonomicProperties, DlaPassesEveryClaim) {
  CheckOptions options;
  int claimed = 0;
  for (const auto& v : run_checks({"dla"}, {"all"}, options)) {
    EXPECT_NE(v.outcome, Outcome::fail) << v.property << ": " << v.note;
    if (v.property.rfind("nonholonomic_", 0) == 0) {
      EXPECT_EQ(v.outcome, Outcome::pass) << v.property << ": " << v.note;
      ++claimed;
    }
  }
  EXPECT_EQ(claimed, 7);
}

TEST(NonholonomicProperties, EachMutantIsCaughtByThePropertyItsDefectBreaks) {
  // forms-at-previous-node passes every other claim (its post-impact velocity is off by O(h),
  // energy, constraints and the impact point are kept): only the reflection property sees it.
  const struct {
    const char* mutant;
    const char* property;
  } cases[] = {{"mutant:dla-equal-substeps", "nonholonomic_impact_energy_order"},
               {"mutant:dla-constraint-at-node", "nonholonomic_discrete_constraints"},
               {"mutant:dla-constraint-at-node", "nonholonomic_smooth_energy"},
               {"mutant:dla-impact-off-boundary", "nonholonomic_impact_point"},
               {"mutant:dla-impact-forms-at-previous-node", "nonholonomic_impact_reflection"}};
  CheckOptions options;
  for (const auto& c : cases) {
    const auto verdicts = run_checks({c.mutant}, {c.property}, options);
    ASSERT_EQ(verdicts.size(), 1u);
    EXPECT_EQ(verdicts[0].outcome, Outcome::fail) << c.mutant << " / " << c.property;
    ASSERT_TRUE(verdicts[0].counterexample) << c.mutant;
    EXPECT_NE(verdicts[0].counterexample->case_file.find("\"family\": \"nonholonomic\""),
              std::string::npos);
  }
  for (const auto& v : run_checks({"mutant:dla-impact-forms-at-previous-node"}, {"all"}, options)) {
    if (v.property.rfind("nonholonomic_", 0) == 0) {
      EXPECT_EQ(v.outcome == Outcome::fail, v.property == "nonholonomic_impact_reflection")
          << v.property << ": " << v.note;
    }
  }
  // And the suite's own rule: every mutant is rejected by a claimed property.
  for (const char* mutant :
       {"mutant:dla-equal-substeps", "mutant:dla-constraint-at-node",
        "mutant:dla-impact-off-boundary", "mutant:dla-impact-forms-at-previous-node"}) {
    bool rejected = false;
    for (const auto& v : check_mutant(mutant, options)) rejected |= v.outcome == Outcome::fail;
    EXPECT_TRUE(rejected) << mutant;
  }
}

TEST(NonholonomicProperties, SameSeedSameVerdictAndOtherSchemesAreNotJudged) {
  CheckOptions options;
  options.seed = 3;
  const auto a =
      run_checks({"mutant:dla-impact-off-boundary"}, {"nonholonomic_impact_point"}, options);
  const auto b =
      run_checks({"mutant:dla-impact-off-boundary"}, {"nonholonomic_impact_point"}, options);
  ASSERT_TRUE(a[0].counterexample && b[0].counterexample);
  EXPECT_EQ(a[0].counterexample->case_file, b[0].counterexample->case_file);
  // moreau-jean is not of the nonholonomic family: the properties do not apply to it.
  const auto mj = run_checks({"moreau-jean"}, {"nonholonomic_admissible"}, options);
  ASSERT_EQ(mj.size(), 1u);
  EXPECT_EQ(mj[0].outcome, Outcome::not_applicable);
}

}  // namespace
}  // namespace nsh::properties
