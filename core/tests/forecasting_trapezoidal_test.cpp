// The forecasting trapezoidal rule (nsh/schemes/forecasting_trapezoidal.hpp,
// docs/half-explicit-tdg.md "The forecasting trapezoidal rule"): hand-computed exact Rational
// steps (a resting step, a separating contact that half-explicit-tdg holds and this scheme lets
// fall and bounce), exact agreement with half-explicit-tdg on a persistent linear contact, the
// round-off drift of G^T u on a resting contact in double (which the velocity-level scheme does
// not have) and the zero tests that hold the contact through it, and the nonlinear path against
// the linear one through the adapter. Its orders (2 without contact and on a resting contact,
// 1 with the O(h) penetration on the bouncing ball) are measured beside half-explicit-tdg's in
// half_explicit_tdg_test.cpp.
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/model/nonlinear_model.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/forecasting_trapezoidal.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "half_explicit_tdg_support.hpp"

namespace nsh {
namespace {
using namespace hets_test;

template <class S>
ForecastingTrapezoidal<S> make_ftr(const std::string& spec = "forecasting-trapezoidal") {
  return ForecastingTrapezoidal<S>(Registry::builtin().resolve(spec));
}

TEST(ForecastingTrapezoidal, RestingStepIsTheHandComputedOneInRational) {
  // q0 = 0, u0 = 0, gravity 10, h = 1/50: A_0 = {0}; G^T a_1 = -10 + lambda_1 = 0 gives
  // z_1 = h lambda_1 = 1/5, u_1 = 0, q_1 = 0; u* = -1/5; the shift -G^T (u_0 + u_1)/2 = 0, so
  // h/2 lambda_2 = 1/10 and u_1 = 0. Recorded: no velocity-level LCP, the whole impulse
  // h/2 (lambda_1 + lambda_2) = 1/5 as forecast_impulse.
  using Q = Rational;
  const Q h = Q(1) / 50;
  const LinearModel<Q> model = hets_ball<Q>(Q(10), Q(0));
  auto scheme = make_ftr<Q>();
  State<Q> state{Q(0), Vector<Q>::Zero(1), Vector<Q>::Zero(1)};
  scheme.initialize(model, state, h);
  StepSummary<Q> s;
  scheme.step(state, s);
  EXPECT_EQ(state.q(0), Q(0));
  EXPECT_EQ(state.v(0), Q(0));
  EXPECT_TRUE(s.index_set.empty());
  EXPECT_EQ(s.impulse(0), Q(0));
  EXPECT_EQ(s.forecast_impulse(0), Q(1) / 5);
  EXPECT_FALSE(s.lcp_solved);
  EXPECT_EQ(s.external_impulse(0) + s.forecast_impulse(0), Q(0));  // momentum
  EXPECT_EQ(scheme.info().family, "forecasting-trapezoidal");
}

TEST(ForecastingTrapezoidal, ASeparatingContactFallsAndBouncesWhereHalfExplicitTdgHoldsIt) {
  // q0 = -1/100 (closed), u0 = 1/10 (separating), gravity 10, e = 1/2, h = 1/50.
  // Here: U_0 > 0, so A_0 = {} and u_1 = 1/10 - 1/5 = -1/10, q_1 = -1/100 + 1/100 (1/10 - 1/10)
  // = -1/100, closed with U_1 < 0: an impact with u* = 1/10 - 1/5 = -1/10, U_1 = -e u* = 1/20,
  // Lambda = 3/20. half-explicit-tdg: A_0 = {0}, G^T u_1 >= 0 gives u_1 = 0, q_1 = -9/1000, no
  // impact, and 0 <= G^T u_1 holds the ball at u = 0.
  using Q = Rational;
  const Q h = Q(1) / 50;
  const LinearModel<Q> model = hets_ball<Q>(Q(10), Q(1) / 2);
  const State<Q> start{Q(0), Vector<Q>::Constant(1, Q(-1) / 100),
                       Vector<Q>::Constant(1, Q(1) / 10)};
  auto scheme = make_ftr<Q>();
  State<Q> state = start;
  scheme.initialize(model, state, h);
  StepSummary<Q> s;
  scheme.step(state, s);
  EXPECT_EQ(state.q(0), Q(-1) / 100);
  EXPECT_EQ(state.v(0), Q(1) / 20);
  ASSERT_EQ(s.index_set, std::vector<Index>{0});
  EXPECT_EQ(s.impulse(0), Q(3) / 20);
  EXPECT_EQ(s.velocity_newton(0), Q(-1) / 10);
  EXPECT_EQ(s.forecast_impulse(0), Q(0));
  EXPECT_TRUE(s.lcp.ok());

  HalfExplicitTdg<Q> hets(Registry::builtin().resolve("half-explicit-tdg"));
  State<Q> other = start;
  hets.initialize(model, other, h);
  hets.step(other, s);
  EXPECT_EQ(other.q(0), Q(-9) / 1000);
  EXPECT_EQ(other.v(0), Q(0));
}

TEST(ForecastingTrapezoidal, APenetratedBallWithASmallBounceSinksSteadily) {
  // Found by the report's bouncing ball at h = 1/400 (the end of the Zeno phase): once a bounce
  // leaves the ball below the ground with a separating velocity smaller than h g, every step is
  // a free forecast (U_n > 0: not in A_n) and an impact, and the map has the fixed point
  // u = e h g / (1 + e), which descends by h/2 (2 u - h g) = -h^2 g (1 - e) / (2 (1 + e)) per
  // step: an O(h) drift per unit time, unbounded in time. Here g = 10, e = 1/2, h = 1/50:
  // u = 1/15 after every step, and q falls by 1/1500 per step, exactly. half-explicit-tdg (its
  // forecast holds G^T u_1 >= 0 on every closed contact) climbs out from the same state.
  using Q = Rational;
  const Q h = Q(1) / 50;
  const LinearModel<Q> model = hets_ball<Q>(Q(10), Q(1) / 2);
  const State<Q> start{Q(0), Vector<Q>::Constant(1, Q(-1) / 100),
                       Vector<Q>::Constant(1, Q(1) / 15)};
  auto scheme = make_ftr<Q>();
  State<Q> state = start;
  scheme.initialize(model, state, h);
  StepSummary<Q> s;
  for (int k = 1; k <= 20; ++k) {
    scheme.step(state, s);
    ASSERT_EQ(state.v(0), Q(1) / 15) << "step " << k;
    ASSERT_EQ(state.q(0), Q(-1) / 100 - Q(k) / 1500) << "step " << k;
    ASSERT_EQ(s.index_set, std::vector<Index>{0}) << "step " << k;  // an impact every step
  }
  HalfExplicitTdg<Q> hets(Registry::builtin().resolve("half-explicit-tdg"));
  State<Q> other = start;
  hets.initialize(model, other, h);
  for (int k = 0; k < 20; ++k) hets.step(other, s);
  EXPECT_GT(other.q(0), start.q(0));
}

TEST(ForecastingTrapezoidal, CoincidesExactlyWithHalfExplicitTdgOnAPersistentLinearContact) {
  // With a constant G, G^T u is integrated exactly: from G^T u_0 = 0 the acceleration-level
  // constraints keep G^T u_1 = G^T u_{n+1} = 0, the velocity-level problems' solution, so the two
  // schemes step the same states (only the record differs).
  using Q = Rational;
  const LinearModel<Q> model = coupled_resting<Q>();
  State<Q> a{Q(0), Vector<Q>::Zero(2), Vector<Q>::Zero(2)};
  a.q(0) = Q(1) / 2;
  State<Q> b = a;
  auto ftr = make_ftr<Q>();
  HalfExplicitTdg<Q> hets(Registry::builtin().resolve("half-explicit-tdg"));
  const Q h = Q(1) / 16;
  ftr.initialize(model, a, h);
  hets.initialize(model, b, h);
  StepSummary<Q> sa, sb;
  for (int k = 0; k < 32; ++k) {
    ftr.step(a, sa);
    hets.step(b, sb);
    ASSERT_EQ(a.q, b.q) << "step " << k + 1;
    ASSERT_EQ(a.v, b.v) << "step " << k + 1;
    EXPECT_EQ(a.v(1), Q(0));
    EXPECT_EQ(sa.forecast_impulse(0), sb.forecast_impulse(0) + sb.impulse(0));
  }
}

TEST(ForecastingTrapezoidal, RoundOffDriftsInGTuAndTheRestingContactIsHeld) {
  // The acceleration-level constraints act on increments of G^T u and never bring it back to 0:
  // on the resting contact of coupled_resting (T = 20, h = 1/64) double round-off accumulates in
  // G^T u (about 4e-15 at T, where half-explicit-tdg's velocity-level solve keeps 7e-18) and in
  // the gap (4e-14). The zero tests that decide "closed" and "separating" scale with the steps
  // taken (HalfExplicitTdg::drift_steps), so the contact stays in the acceleration-level set. With
  // the fixed tests of the step's own scale it left at t = 6.59 (when |q| passed near 0), fell
  // freely for a step and was stopped by the impact step 8.2e-4 below the ground (h^2 |a| / 2).
  const LinearModel<double> model = coupled_resting<double>();
  const double h = 1.0 / 64;
  double ftr_velocity = 0, ftr_gap = 0, hets_velocity = 0, hets_gap = 0;
  for (int which = 0; which < 2; ++which) {
    const std::unique_ptr<Scheme<double>> scheme = Registry::builtin().make<double>(
        which == 0 ? "forecasting-trapezoidal" : "half-explicit-tdg");
    State<double> x{0.0, Vector<double>::Zero(2), Vector<double>::Zero(2)};
    x.q(0) = 0.5;
    const auto traj = record<double>(*scheme, model, x, h, 20.0);
    double velocity = 0, gap = 0;
    for (const State<double>& s : traj.states) {
      velocity = std::max(velocity, std::abs(s.v(1)));
      gap = std::max(gap, std::abs(s.q(1)));
    }
    (which == 0 ? ftr_velocity : hets_velocity) = velocity;
    (which == 0 ? ftr_gap : hets_gap) = gap;
  }
  SCOPED_TRACE(::testing::Message()
               << "forecasting-trapezoidal: |G^T u| " << ftr_velocity << ", |g| " << ftr_gap
               << "; half-explicit-tdg: |G^T u| " << hets_velocity << ", |g| " << hets_gap);
  EXPECT_LT(hets_velocity, 1e-15);
  EXPECT_LT(hets_gap, 1e-15);
  EXPECT_GT(ftr_velocity, 100 * hets_velocity);  // the drift is there
  const double fall = h * h * 10 / 2;            // one free step under the contact force's 10
  EXPECT_LT(ftr_gap, 1e-9 * fall);               // and the contact was never dropped
}

TEST(ForecastingTrapezoidal, StepsALinearModelBehindTheNonlinearInterfaceAsTheLinearPath) {
  // Nonlinear models in double and 50 digits (the curvature term of nsh/model/nonlinear_model.hpp
  // gap_curvature; zero for a constant G), not in Rational (trigonometric geometry).
  EXPECT_TRUE(make_ftr<double>().accepts_nonlinear());
  EXPECT_TRUE(make_ftr<Real50>().accepts_nonlinear());
  EXPECT_FALSE(make_ftr<Rational>().accepts_nonlinear());
  // The bouncing ball (impacts, then rest) and the coupled resting contact through the adapter:
  // the same states as the linear path to round-off, step by step.
  const LinearModel<double> ball = hets_ball<double>(10.0, 0.5);
  const LinearModel<double> coupled = coupled_resting<double>();
  for (const LinearModel<double>* model : {&ball, &coupled}) {
    const LinearModelAdapter<double> adapter(*model);
    State<double> start{0.0, Vector<double>::Zero(model->dofs()),
                        Vector<double>::Zero(model->dofs())};
    start.q(0) = model == &ball ? 1.0 : 0.5;
    auto linear = make_ftr<double>();
    auto nonlinear = make_ftr<double>();
    const auto a = record<double>(linear, *model, start, 1.0 / 64, 4.0);
    const auto b = record<double>(nonlinear, adapter, start, 1.0 / 64, 4.0);
    ASSERT_EQ(a.states.size(), b.states.size());
    for (std::size_t k = 0; k < a.states.size(); ++k) {
      ASSERT_LT(max_abs(Vector<double>(a.states[k].q - b.states[k].q)), 1e-12) << "node " << k;
      ASSERT_LT(max_abs(Vector<double>(a.states[k].v - b.states[k].v)), 1e-12) << "node " << k;
    }
    for (std::size_t k = 0; k < a.steps.size(); ++k)
      ASSERT_EQ(a.steps[k].index_set, b.steps[k].index_set) << "step " << k + 1;
  }
}

TEST(ForecastingTrapezoidal, RefusesBadOptions) {
  EXPECT_THROW(make_ftr<double>("forecasting-trapezoidal:r=0"), SpecError);
  EXPECT_THROW(make_ftr<double>("forecasting-trapezoidal:fallback=pgs"), SpecError);
  EXPECT_EQ(make_ftr<double>("forecasting-trapezoidal:fallback=enumeration").info().spec,
            "forecasting-trapezoidal:fallback=enumeration,max_iterations=50,r=delassus,"
            "tolerance=0");
}

}  // namespace
}  // namespace nsh
