// The seed-004 worked examples (docs/theory.md §6 items 2, 3) reproduced exactly in Rational by the
// impact LCP, by the closed form, and (where registered) by one Moreau-Jean step; and by the
// event-driven reference in Real50.
#include <nsh/scalar.hpp>

#include <nsh/cases/analytic.hpp>
#include <nsh/cases/seed004.hpp>
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/impact_lcp.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using nsh::Rational;
using nsh::Real50;
using nsh::Vector;
using nsh::cases::test::load;

TEST(Seed004, TwoBodyImpactLcpIsExactInRational) {
  const auto c = load<Rational>("two-body");
  const auto facts = nsh::cases::two_body_facts();
  const auto r = nsh::solve_impact<Rational>(c.model, c.initial.v, {0});
  EXPECT_EQ(r.impulse(0), facts.J);
  EXPECT_EQ(r.v_plus(0), facts.v1_plus);
  EXPECT_EQ(r.v_plus(1), facts.v2_plus);
  EXPECT_EQ(r.U_minus(0), facts.v_n);
  EXPECT_EQ(r.U_plus(0), -facts.e * facts.v_n);
  const Rational K_minus = c.model.energy(c.initial.q, c.initial.v);
  const Rational K_plus = c.model.energy(c.initial.q, r.v_plus);
  EXPECT_EQ(K_minus, facts.K_minus);
  EXPECT_EQ(K_plus, facts.K_plus);
  EXPECT_EQ(K_plus - K_minus, facts.delta_K);
  EXPECT_EQ(r.kinetic_change, facts.delta_K);  // 1/2 (U+ + U-) J
  EXPECT_EQ(facts.delta_K,
            -(1 - facts.e * facts.e) * facts.v_n * facts.v_n / (2 * facts.inverse_reduced_mass));
  const Vector<Rational> ones = Vector<Rational>::Ones(2);
  EXPECT_EQ(ones.dot(c.model.M * c.initial.v), facts.momentum);
  EXPECT_EQ(ones.dot(c.model.M * r.v_plus), facts.momentum);
}

TEST(Seed004, TwoBodyClosedFormInRational) {
  const auto facts = nsh::cases::two_body_facts();
  const auto s = nsh::cases::analytic_state<Rational>("two-body", Rational(1));
  EXPECT_EQ(s.v(0), facts.v1_plus);
  EXPECT_EQ(s.v(1), facts.v2_plus);
  EXPECT_EQ(s.q(0), facts.v1_plus);
  EXPECT_EQ(s.q(1), facts.v2_plus);
}

TEST(Seed004, TwoBodyOneMoreauJeanStepIsExactInRational) {
  if (!nsh::Registry::builtin().contains("moreau-jean"))
    GTEST_SKIP() << "moreau-jean is not registered";
  const auto c = load<Rational>("two-body");
  const auto facts = nsh::cases::two_body_facts();
  auto scheme = nsh::Registry::builtin().make<Rational>("moreau-jean:theta=1/2");
  const auto traj =
      nsh::record<Rational>(*scheme, c.model, c.initial, Rational(1) / 100, Rational(1) / 100);
  ASSERT_EQ(traj.steps.size(), 1u);
  EXPECT_EQ(traj.steps[0].impulse(0), facts.J);
  EXPECT_EQ(traj.states[1].v(0), facts.v1_plus);
  EXPECT_EQ(traj.states[1].v(1), facts.v2_plus);
  EXPECT_EQ(traj.steps[0].E_after, facts.K_plus);
}

TEST(Seed004, FreeFlightBothEndpointsExactInRational) {
  for (const std::string name : {"free-flight", "free-flight-elastic"}) {
    const auto c = load<Rational>(name);
    const auto facts = nsh::cases::free_flight_facts(c.model.e(0));
    // g(s) = 1 - 2 s: the unique root on (0, 1] is -g/U.
    const Rational g0 = c.model.gap(c.initial.q)(0);
    const Rational U = c.model.local_velocity(c.initial.v)(0);
    EXPECT_EQ(-g0 / U, facts.contact_time) << name;
    EXPECT_EQ(U, facts.v_minus);
    nsh::State<Rational> at_contact = c.initial;
    at_contact.q += c.initial.v * facts.contact_time;
    EXPECT_EQ(c.model.gap(at_contact.q)(0), Rational(0));
    const auto r = nsh::solve_impact<Rational>(c.model, at_contact.v, {0});
    EXPECT_EQ(r.impulse(0), facts.J) << name;
    EXPECT_EQ(r.v_plus(0), facts.v_plus) << name;
    EXPECT_EQ(c.model.energy(at_contact.q, at_contact.v), facts.K_minus);
    EXPECT_EQ(c.model.energy(at_contact.q, r.v_plus), facts.K_plus) << name;
    EXPECT_EQ(c.model.gap(at_contact.q)(0) * r.impulse(0), Rational(0));  // g J = 0
    EXPECT_EQ(c.model.M(0, 0) * facts.v_minus + r.impulse(0), c.model.M(0, 0) * facts.v_plus);
    const auto s = nsh::cases::analytic_state<Rational>(name, Rational(1));
    EXPECT_EQ(s.v(0), facts.v_plus);
    EXPECT_EQ(s.q(0), facts.v_plus / 2);
  }
  EXPECT_THROW(nsh::cases::free_flight_facts(Rational(1) / 2), nsh::InputError);
}

TEST(Seed004, FreeFlightEventDrivenReal50) {
  for (const std::string name : {"free-flight", "free-flight-elastic"}) {
    const auto c = load<Real50>(name);
    const auto facts = nsh::cases::free_flight_facts(nsh::scalar_cast<Rational>(c.model.e(0)));
    const auto events = nsh::compute_events<Real50>(c.model, c.initial, c.T);
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events[0].kind, nsh::EventKind::impact);
    EXPECT_LE(nsh::abs_value<Real50>(events[0].t - Real50(1) / 2), Real50("1e-45"));
    EXPECT_LE(nsh::abs_value<Real50>(events[0].impulse - nsh::scalar_cast<Real50>(facts.J)),
              Real50("1e-45"));
    EXPECT_LE(nsh::abs_value<Real50>(events[0].U_plus - nsh::scalar_cast<Real50>(facts.v_plus)),
              Real50("1e-45"));
  }
}

TEST(Seed004, TwoBodyEventDrivenReal50ImpactAtT0) {
  const auto c = load<Real50>("two-body");
  const auto events = nsh::compute_events<Real50>(c.model, c.initial, c.T);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].t, Real50(0));
  EXPECT_LE(nsh::abs_value<Real50>(events[0].impulse - Real50(18) / 5), Real50("1e-45"));
  EXPECT_LE(nsh::abs_value<Real50>(events[0].E_after - Real50(7) / 10), Real50("1e-45"));
}

}  // namespace
