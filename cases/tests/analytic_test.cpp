// The closed forms behind analytic_state(): consistency with the case files and with the
// equations of motion.
#include <nsh/scalar.hpp>

#include <nsh/cases/analytic.hpp>
#include <nsh/cases/bouncing_ball.hpp>
#include <nsh/cases/oscillator.hpp>
#include <nsh/error.hpp>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using nsh::Real50;
using nsh::cases::test::load;

TEST(Analytic, OscillatorSatisfiesItsEquationOfMotion) {
  // Central difference of the closed form in Real50: m q'' + c q' + k q = F(t) to O(dt^2).
  for (const std::string name : {"free-oscillator", "forced-oscillator"}) {
    const auto c = load<Real50>(name);
    const Real50 dt("1e-12");
    for (int i = 0; i <= 10; ++i) {
      const Real50 t = Real50(i) * Real50("0.7");
      const auto s = nsh::cases::analytic_state<Real50>(name, t);
      const auto sp = nsh::cases::analytic_state<Real50>(name, t + dt);
      const auto sm = nsh::cases::analytic_state<Real50>(name, t - dt);
      const Real50 acc = (sp.v(0) - sm.v(0)) / (2 * dt);
      const Real50 vel = (sp.q(0) - sm.q(0)) / (2 * dt);
      const Real50 residual = c.model.M(0, 0) * acc + c.model.C(0, 0) * s.v(0) +
                              c.model.K(0, 0) * s.q(0) - c.model.force(t)(0);
      EXPECT_LE(nsh::abs_value<Real50>(residual), Real50("1e-20")) << name << " t=" << i;
      EXPECT_LE(nsh::abs_value<Real50>(vel - s.v(0)), Real50("1e-20"));
    }
    const auto s0 = nsh::cases::analytic_state<Real50>(name, c.initial.t);
    EXPECT_LE(nsh::abs_value<Real50>(s0.q(0) - c.initial.q(0)), Real50("1e-45"));
    EXPECT_LE(nsh::abs_value<Real50>(s0.v(0) - c.initial.v(0)), Real50("1e-45"));
  }
}

TEST(Analytic, BouncingBallClosedForm) {
  const auto c = load<Real50>("bouncing-ball");
  const auto b = nsh::cases::BouncingBall<Real50>::from_case(c.model, c.initial);
  using std::sqrt;
  const Real50 t1 = sqrt(Real50(2) * c.initial.q(0) / b.gravity);
  EXPECT_LE(nsh::abs_value<Real50>(b.impact_time(1) - t1), Real50("1e-45"));
  const Real50 e = b.restitution;
  EXPECT_LE(nsh::abs_value<Real50>(b.accumulation_time() - t1 * (1 + e) / (1 - e)),
            Real50("1e-45"));
  // Heights at the apexes e^(2k) q0 and the state just before/at impacts.
  for (nsh::Index k = 1; k <= 5; ++k) {
    Real50 h = c.initial.q(0);
    for (nsh::Index j = 0; j < 2 * k; ++j) h *= e;
    EXPECT_LE(nsh::abs_value<Real50>(b.apex_height(k) - h), Real50("1e-45"));
    const auto at = b.state(b.impact_time(k));
    EXPECT_LE(nsh::abs_value<Real50>(at.q(0)), Real50("1e-45"));
    EXPECT_GT(at.v(0), Real50(0));  // right-continuous: post-impact
  }
  const auto rest = nsh::cases::analytic_state<Real50>("bouncing-ball", c.T);
  EXPECT_EQ(rest.q(0), Real50(0));
  EXPECT_EQ(rest.v(0), Real50(0));
}

TEST(Analytic, CasesWithoutClosedFormSayWhy) {
  EXPECT_FALSE(nsh::cases::try_analytic_state<double>("impacting-bar", 0.5));
  EXPECT_THROW(nsh::cases::analytic_state<double>("two-contact-forced", 0.5), nsh::InputError);
  EXPECT_FALSE(nsh::cases::has_analytic<nsh::Rational>("bouncing-ball"));
  EXPECT_TRUE(nsh::cases::has_analytic<nsh::Rational>("two-body"));
}

}  // namespace
