// The event-driven reference's claims (claims.cpp, checked on its events by
// event_provider.cpp): the healthy reference passes every one, and each claim rejects a mutant.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/properties/check.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/properties/mutants.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace nsh::properties {
namespace {

const std::vector<std::string> claimed{"newton_restitution", "signorini_complementarity",
                                       "impact_work_nonpositive", "energy_conservation",
                                       "double_vs_real50"};

CheckOptions few(int cases = 25) {
  CheckOptions options;
  options.cases = cases;
  options.seed = 4;
  return options;
}

TEST(EventDrivenClaims, EveryClaimIsCheckedByTheEventProvider) {
  const auto knowing = providers_for("event-driven");
  ASSERT_FALSE(knowing.empty());
  EXPECT_EQ(knowing.front()->name(), "event-driven");
  for (const auto& p : claimed) EXPECT_TRUE(knowing.front()->claims("event-driven", p)) << p;
  // Step-level properties stay with the scheme provider, where event-driven claims nothing.
  EXPECT_FALSE(knowing.front()->claims("event-driven", "lcp_certificate"));
}

TEST(EventDrivenClaims, TheHealthyReferencePassesEveryClaim) {
  for (const auto& v : run_checks({"event-driven"}, {"all"}, few())) {
    EXPECT_NE(v.outcome, Outcome::fail)
        << v.property << ": " << v.note << "\n"
        << (v.counterexample
                ? v.counterexample->values.front().second + "\n" + v.counterexample->case_file
                : std::string());
    if (std::find(claimed.begin(), claimed.end(), v.property) != claimed.end()) {
      EXPECT_EQ(v.outcome, Outcome::pass) << v.property << ": " << v.note;
      EXPECT_GT(v.cases_run, 0) << v.property;
    }
  }
}

Outcome outcome(const std::string& spec, const std::string& property) {
  return run_checks({spec}, {property}, few()).front().outcome;
}

TEST(EventDrivenClaims, WrongRestitutionIsRejected) {
  const std::string m = "mutant:ed-restitution-plus-tenth";
  EXPECT_EQ(outcome(m, "newton_restitution"), Outcome::fail);
  EXPECT_EQ(outcome(m, "energy_conservation"), Outcome::fail);  // e = 1 becomes 11/10
  EXPECT_EQ(outcome(m, "impact_work_nonpositive"), Outcome::fail);
}

TEST(EventDrivenClaims, LateEventsAreRejected) {
  const std::string m = "mutant:ed-late-event";
  EXPECT_EQ(outcome(m, "signorini_complementarity"), Outcome::fail);
  EXPECT_EQ(outcome(m, "double_vs_real50"), Outcome::fail);
}

TEST(EventDrivenClaims, TheMutantsAreListedForNshCheckMutants) {
  std::vector<std::string> listed;
  for (const auto& p : providers())
    for (const auto& m : p->mutants()) listed.push_back(m);
  for (const char* name : {"mutant:ed-restitution-plus-tenth", "mutant:ed-late-event"})
    EXPECT_TRUE(std::any_of(listed.begin(), listed.end(), [&](const std::string& s) {
      return s.rfind(name, 0) == 0;
    })) << name;
}

// The trace the provider judges: the bouncing ball's first impact at sqrt(2/g) with
// U+ = -e U-, and grid samples at t0 + k h.
TEST(EventTrace, BouncingBallEventsAndGrid) {
  LinearModel<double> model;
  model.M = Matrix<double>::Constant(1, 1, 1);
  model.F = Vector<double>::Constant(1, -9.81);
  model.G = Matrix<double>::Constant(1, 1, 1);
  model.w = Vector<double>::Constant(1, 0);
  model.e = Vector<double>::Constant(1, 0.5);
  fill_defaults(model);
  State<double> x0{0, Vector<double>::Constant(1, 1), Vector<double>::Constant(1, 0)};
  const auto trace = trace_events<double>("event-driven", model, x0, 0.25, 4);
  ASSERT_EQ(trace.grid.size(), 5u);
  EXPECT_DOUBLE_EQ(trace.grid[4].t, 1.0);
  ASSERT_GE(trace.events.size(), 1u);
  EXPECT_NEAR(trace.events[0].t, std::sqrt(2 / 9.81), 1e-13);
  EXPECT_NEAR(trace.events[0].U_plus, -0.5 * trace.events[0].U_minus, 1e-13);
  const auto late = trace_events<double>("mutant:ed-late-event", model, x0, 0.25, 4);
  EXPECT_GT(late.events[0].t - trace.events[0].t, 1e-10);  // sqrt(eps) / |U-| later
  EXPECT_THROW(trace_events<double>("moreau-jean", model, x0, 0.25, 4), SpecError);
}

}  // namespace
}  // namespace nsh::properties
