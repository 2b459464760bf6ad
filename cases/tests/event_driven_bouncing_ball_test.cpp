// The event-driven reference on the bouncing ball against its closed form (bouncing_ball.hpp):
// impact times, impact velocities, apex heights, the accumulation time and the rest after it.
#include <nsh/scalar.hpp>

#include <nsh/cases/bouncing_ball.hpp>
#include <nsh/driver.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using nsh::EventKind;
using nsh::Real50;
using nsh::cases::BouncingBall;
using nsh::cases::test::load;
using nsh::cases::test::relative_error;
using nsh::cases::test::to_double;

template <class Scalar>
void check_ball(const Scalar& tol) {
  const auto c = load<Scalar>("bouncing-ball");
  const auto ball = BouncingBall<Scalar>::from_case(c.model, c.initial);
  const auto events = nsh::compute_events<Scalar>(c.model, c.initial, c.T);
  std::vector<nsh::Event<Scalar>> impacts;
  std::vector<nsh::Event<Scalar>> accumulations;
  for (const auto& ev : events) {
    if (ev.kind == EventKind::impact) impacts.push_back(ev);
    if (ev.kind == EventKind::accumulation) accumulations.push_back(ev);
  }
  ASSERT_GE(impacts.size(), 10u);
  for (std::size_t k = 0; k < 10; ++k) {
    const Scalar t_exact = ball.impact_time(static_cast<nsh::Index>(k + 1));
    const Scalar U_exact = ball.impact_velocity(static_cast<nsh::Index>(k + 1));
    EXPECT_LE(relative_error(impacts[k].t, t_exact), tol) << "impact " << k + 1;
    EXPECT_LE(relative_error(impacts[k].U_minus, U_exact), tol) << "impact " << k + 1;
    EXPECT_LE(relative_error(impacts[k].U_plus, Scalar(-ball.restitution * U_exact)), tol);
    // Newton's law: the kinetic energy drops by the factor e^2.
    EXPECT_LE(relative_error(impacts[k].E_after,
                             Scalar(ball.restitution * ball.restitution * impacts[k].E_before)),
              tol);
  }
  ASSERT_EQ(accumulations.size(), 1u);
  const Scalar t_inf = ball.accumulation_time();
  EXPECT_LE(relative_error(accumulations[0].t, t_inf), tol);
  for (const auto& ev : impacts) EXPECT_LE(ev.t, t_inf);
  // After the accumulation the ball rests: one contact_closes, nothing else.
  const auto& last = events.back();
  EXPECT_EQ(last.kind, EventKind::contact_closes);
  nsh::EventDrivenFlow<Scalar> flow(c.model, c.initial);
  flow.advance_to(c.T);
  EXPECT_LE(nsh::abs_value<Scalar>(flow.state().q(0)), tol);
  EXPECT_LE(nsh::abs_value<Scalar>(flow.state().v(0)), tol);
  ASSERT_EQ(flow.closed_set().size(), 1u);
}

TEST(EventDrivenBouncingBall, Real50ImpactTimesAndAccumulationToE35) {
  check_ball<Real50>(Real50("1e-35"));
}

TEST(EventDrivenBouncingBall, DoubleImpactTimesAndAccumulation) {
  check_ball<double>(1e-12);
}

TEST(EventDrivenBouncingBall, Real50ApexHeightsToE35) {
  const auto c = load<Real50>("bouncing-ball");
  const auto ball = BouncingBall<Real50>::from_case(c.model, c.initial);
  nsh::EventDrivenFlow<Real50> flow(c.model, c.initial);
  for (nsh::Index k = 1; k <= 10; ++k) {
    flow.advance_to(ball.apex_time(k));
    // Closed form e^(2k) q0 for a ball dropped from rest.
    Real50 expected = c.initial.q(0);
    for (nsh::Index j = 0; j < 2 * k; ++j) expected *= ball.restitution;
    EXPECT_LE(relative_error(flow.state().q(0), expected), Real50("1e-35")) << "apex " << k;
    EXPECT_LE(nsh::abs_value<Real50>(flow.state().v(0)), Real50("1e-35"));
  }
}

TEST(EventDrivenBouncingBall, SchemeSamplesTheExactTrajectoryOnTheGrid) {
  const auto c = load<Real50>("bouncing-ball");
  const auto ball = BouncingBall<Real50>::from_case(c.model, c.initial);
  auto scheme = nsh::Registry::builtin().make<Real50>("event-driven");
  EXPECT_EQ(scheme->info().family, "event-driven");
  const Real50 h = Real50(1) / 50;
  const auto traj = nsh::record<Real50>(*scheme, c.model, c.initial, h, c.T);
  ASSERT_EQ(traj.states.size(), 151u);
  Real50 worst(0), identity(0), momentum(0);
  for (std::size_t k = 0; k < traj.states.size(); ++k) {
    const auto exact = ball.state(traj.states[k].t);
    worst = std::max(worst, nsh::abs_value<Real50>(traj.states[k].q(0) - exact.q(0)));
    worst = std::max(worst, nsh::abs_value<Real50>(traj.states[k].v(0) - exact.v(0)));
  }
  for (std::size_t k = 0; k < traj.steps.size(); ++k) {
    const auto& s = traj.steps[k];
    identity = std::max(identity, nsh::abs_value<Real50>(s.energy_identity_defect()));
    // M [v] = external impulse + G P over the step (impulses plus the resting force).
    const Real50 dv = traj.states[k + 1].v(0) - traj.states[k].v(0);
    momentum = std::max(momentum, nsh::abs_value<Real50>(c.model.M(0, 0) * dv -
                                                         s.external_impulse(0) - s.impulse(0)));
  }
  EXPECT_LE(worst, Real50("1e-35"));
  EXPECT_LE(identity, Real50("1e-40"));
  EXPECT_LE(momentum, Real50("1e-40"));
  // Resting at the end: the step impulse is m g h.
  EXPECT_LE(relative_error(traj.steps.back().impulse(0), Real50(-c.model.F(0) * h)),
            Real50("1e-40"));
}

}  // namespace
