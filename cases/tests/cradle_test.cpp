// Newton's cradle: the simultaneous velocity-level impact LCP (exact in Rational) against its
// closed-form prediction (cradle.hpp), and the event-driven reference agreeing with it. The
// textbook outcome (0, ..., 0, v) is a different answer, which the test records.
#include <nsh/scalar.hpp>

#include <nsh/cases/analytic.hpp>
#include <nsh/cases/cradle.hpp>
#include <nsh/impact_lcp.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using nsh::Index;
using nsh::Rational;
using nsh::cases::test::load;

class Cradle : public ::testing::TestWithParam<Index> {};

TEST_P(Cradle, ImpactLcpMatchesTheClosedFormExactly) {
  const Index N = GetParam();
  const auto c = load<Rational>("newton-cradle-" + std::to_string(N));
  nsh::State<Rational> at = c.initial;
  at.q += c.initial.v * (Rational(1) / 10);  // contact time of ball 1
  const auto g = c.model.gap(at.q);
  std::vector<Index> all;
  for (Index a = 0; a < c.model.contacts(); ++a) {
    EXPECT_EQ(g(a), Rational(0));
    all.push_back(a);
  }
  const auto r = nsh::solve_impact<Rational>(c.model, at.v, all);
  EXPECT_EQ(r.v_plus, nsh::cases::cradle_lcp_velocities(N, Rational(1)));
  EXPECT_EQ(r.impulse, nsh::cases::cradle_lcp_impulses(N, Rational(1)));
  EXPECT_NE(r.v_plus, nsh::cases::cradle_textbook_velocities(N, Rational(1)));
  // Momentum and kinetic energy conserved exactly (e = 1), as in the textbook answer.
  EXPECT_EQ(r.v_plus.sum(), c.initial.v.sum());
  EXPECT_EQ(r.kinetic_change, Rational(0));
  EXPECT_EQ(c.model.energy(at.q, r.v_plus), c.model.energy(at.q, at.v));
  // The closed form gives the same trajectory.
  const auto s =
      nsh::cases::analytic_state<Rational>("newton-cradle-" + std::to_string(N), Rational(1));
  EXPECT_EQ(s.v, r.v_plus);
}

TEST_P(Cradle, EventDrivenGivesTheLcpPrediction) {
  const Index N = GetParam();
  const auto c = load<double>("newton-cradle-" + std::to_string(N));
  const auto events = nsh::compute_events<double>(c.model, c.initial, c.T);
  ASSERT_FALSE(events.empty());
  for (const auto& ev : events) {
    EXPECT_EQ(ev.kind, nsh::EventKind::impact);
    EXPECT_NEAR(ev.t, 0.1, 1e-15);
  }
  nsh::EventDrivenFlow<double> flow(c.model, c.initial);
  flow.advance_to(c.T);
  const auto expected = nsh::scalar_cast<double>(nsh::cases::cradle_lcp_velocities(N, Rational(1)));
  for (Index i = 0; i < N; ++i) EXPECT_NEAR(flow.state().v(i), expected(i), 1e-14) << i;
}

INSTANTIATE_TEST_SUITE_P(Balls, Cradle, ::testing::Values(Index(3), Index(5)));

}  // namespace
