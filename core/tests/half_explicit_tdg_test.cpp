// The half-explicit time-discontinuous Galerkin scheme (docs/half-explicit-tdg.md,
// docs/theory.md §4): the step equations against hand-computed exact Rational steps, G^T u = 0
// exactly on a resting contact, order 2 without contact and on a resting contact under a
// varying force, order 1 and the O(h) position penetration on the bouncing ball, the energy
// behaviour without contact (velocity Verlet: a conserved shadow energy, E not monotone), the
// prox Newton and its fallback, and the spec errors.
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/model/nonlinear_model.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/half_explicit_tdg.hpp>

#include "half_explicit_tdg_support.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace nsh {
namespace {
using namespace hets_test;

template <class S>
HalfExplicitTdg<S> make_hets(const std::string& spec = "half-explicit-tdg") {
  return HalfExplicitTdg<S>(Registry::builtin().resolve(spec));
}

TEST(HalfExplicitTdg, ImpactStepIsTheHandComputedOneInRational) {
  // q0 = 1/100, u0 = -1, h = 1/50, gravity 10, e = 1/2: A_0 = {}, u_1 = -6/5,
  // q_1 = 1/100 + 1/100 (-1 - 6/5) = -3/250 (closed), U_1 < 0: impact with u* = -6/5,
  // Lambda = (1 + e) 6/5 = 9/5, u_1 = 3/5 = -e u*.
  const Rational h = Rational(1) / 50;
  const LinearModel<Rational> model = hets_ball<Rational>(Rational(10), Rational(1) / 2);
  auto scheme = make_hets<Rational>();
  State<Rational> state{Rational(0), Vector<Rational>::Constant(1, Rational(1) / 100),
                        Vector<Rational>::Constant(1, Rational(-1))};
  scheme.initialize(model, state, h);
  StepSummary<Rational> s;
  scheme.step(state, s);
  EXPECT_EQ(state.q(0), Rational(-3) / 250);
  EXPECT_EQ(state.v(0), Rational(3) / 5);
  ASSERT_EQ(s.index_set, std::vector<Index>{0});
  EXPECT_EQ(s.impulse(0), Rational(9) / 5);
  EXPECT_EQ(s.forecast_impulse(0), Rational(0));
  EXPECT_EQ(s.velocity_newton(0), Rational(-6) / 5);
  EXPECT_EQ(s.external_impulse(0), Rational(-1) / 5);
  EXPECT_TRUE(s.lcp.ok());
  EXPECT_EQ(s.lcp.certificate.natural_map, Rational(0));
  // Second step: A_1 = {0}, u_free = 3/5 - 1/5 = 2/5 >= 0 so lambda_1 = 0; q_2 = -3/250 +
  // 1/100 (3/5 + 2/5) = -1/500 (still closed), U_1 = 2/5 >= 0: non-impulsive, lambda_2 = 0.
  scheme.step(state, s);
  EXPECT_EQ(state.q(0), Rational(-1) / 500);
  EXPECT_EQ(state.v(0), Rational(2) / 5);
  EXPECT_EQ(s.impulse(0), Rational(0));
  EXPECT_EQ(s.velocity_newton(0), Rational(0));
  ASSERT_EQ(s.index_set, std::vector<Index>{0});
}

TEST(HalfExplicitTdg, RestingStepSplitsTheForceExactlyInRational) {
  // q0 = 0, u0 = 0, gravity 10, h = 1/50: z_1 = h lambda_1 = 1/5 (u_1 = 0, q_1 = 0), u* = -1/5,
  // the forecast impulse h/2 lambda_1 = 1/10, and z_2 = h/2 lambda_2 = 1/10, u_1 = 0.
  const Rational h = Rational(1) / 50;
  const LinearModel<Rational> model = hets_ball<Rational>(Rational(10), Rational(0));
  auto scheme = make_hets<Rational>();
  State<Rational> state{Rational(0), Vector<Rational>::Zero(1), Vector<Rational>::Zero(1)};
  scheme.initialize(model, state, h);
  StepSummary<Rational> s;
  scheme.step(state, s);
  EXPECT_EQ(state.q(0), Rational(0));
  EXPECT_EQ(state.v(0), Rational(0));
  EXPECT_EQ(s.forecast_impulse(0), Rational(1) / 10);
  EXPECT_EQ(s.impulse(0), Rational(1) / 10);
  EXPECT_EQ(s.velocity_after(0), Rational(0));
  // Momentum: M [u] = h/2 (F_n + F_{n+1}) + impulse + forecast impulse.
  EXPECT_EQ(s.external_impulse(0) + s.impulse(0) + s.forecast_impulse(0), Rational(0));
}

TEST(HalfExplicitTdg, RestingContactUnderAVaryingForceKeepsGTuZeroExactly) {
  const LinearModel<Rational> model = coupled_resting<Rational>();
  auto scheme = make_hets<Rational>();
  State<Rational> state{Rational(0), Vector<Rational>::Zero(2), Vector<Rational>::Zero(2)};
  state.q(0) = Rational(1) / 2;
  const Rational h = Rational(1) / 16;
  const auto traj = record<Rational>(scheme, model, state, h, Rational(2));
  ASSERT_EQ(traj.steps.size(), 32u);
  std::vector<Rational> impulses;
  for (const auto& s : traj.steps) {
    EXPECT_EQ(s.velocity_after(0), Rational(0));
    EXPECT_EQ(s.gap_after(0), Rational(0));
    ASSERT_EQ(s.index_set.size(), 1u);
    EXPECT_GT(s.impulse(0), Rational(0));
    impulses.push_back(s.impulse(0) + s.forecast_impulse(0));
  }
  EXPECT_NE(impulses.front(), impulses.back());  // the force varies
}

// The order tests run half-explicit-tdg and forecasting-trapezoidal (whose impact step and
// smooth part are the same; docs/half-explicit-tdg.md "The forecasting trapezoidal rule").
const char* const kHalfExplicitSchemes[] = {"half-explicit-tdg", "forecasting-trapezoidal"};

TEST(HalfExplicitTdg, OrderTwoWithoutContact) {
  // Two dofs, M = diag(1, 2), K = [[2, -1], [-1, 1]], the contact far away: error at T = 1
  // against the matrix exponential computed by the scheme at a tiny step is replaced by the
  // exact solution of a one-dof oscillator q'' = -q (the first coordinate alone).
  LinearModel<double> model;
  model.M = Matrix<double>::Identity(1, 1);
  model.K = Matrix<double>::Identity(1, 1);
  model.G = Matrix<double>::Identity(1, 1);
  model.w = Vector<double>::Constant(1, 100.0);
  fill_defaults(model);
  model.validate();
  for (const char* spec : kHalfExplicitSchemes) {
    std::vector<double> hs, errors;
    for (int n = 20; n <= 320; n *= 2) {
      const auto scheme = Registry::builtin().make<double>(spec);
      State<double> x{0.0, Vector<double>::Constant(1, 1.0), Vector<double>::Zero(1)};
      const State<double> end = simulate<double>(*scheme, model, x, 1.0 / n, 1.0);
      hs.push_back(1.0 / n);
      errors.push_back(std::abs(end.q(0) - std::cos(1.0)) + std::abs(end.v(0) + std::sin(1.0)));
    }
    EXPECT_NEAR(order_of(hs, errors), 2.0, 0.1) << spec;
  }
}

TEST(HalfExplicitTdg, OrderTwoOnARestingContactUnderAVaryingForce) {
  const LinearModel<double> model = coupled_resting<double>();
  const double T = 2.0, x0 = 0.5;
  for (const char* spec : kHalfExplicitSchemes) {
    std::vector<double> hs, errors;
    for (int n = 20; n <= 320; n *= 2) {
      const auto scheme = Registry::builtin().make<double>(spec);
      State<double> x{0.0, Vector<double>::Zero(2), Vector<double>::Zero(2)};
      x.q(0) = x0;
      const State<double> end = simulate<double>(*scheme, model, x, 1.0 / n, T);
      // The velocity-level solve holds the contact exactly (the acceleration-level one drifts
      // by round-off: ForecastingTrapezoidal.RoundOffDriftsIntoThePosition...).
      if (std::string(spec) == "half-explicit-tdg") {
        EXPECT_EQ(end.q(1), 0.0);
      }
      hs.push_back(1.0 / n);
      errors.push_back(std::abs(end.q(0) - x0 * std::cos(T / std::sqrt(2.0))));
    }
    EXPECT_NEAR(order_of(hs, errors), 2.0, 0.15) << spec;
  }
}

TEST(HalfExplicitTdg, BouncingBallOrderOneAndPositionPenetrationOfOrderH) {
  // docs/half-explicit-tdg.md: the velocity constraint holds on closed contacts, but the
  // trapezoidal position update lets the ball sink by up to about h |U-| at an impact.
  // forecasting-trapezoidal's impact step is the same.
  const LinearModel<double> model = hets_ball<double>(10.0, 0.5);
  const double speed = std::sqrt(20.0);  // |U-| at the first impact
  for (const char* spec : kHalfExplicitSchemes) {
    SCOPED_TRACE(spec);
    std::vector<double> hs, errors, depths;
    for (int n = 100; n <= 1600; n *= 2) {
      const auto scheme = Registry::builtin().make<double>(spec);
      const double h = 1.0 / n;
      State<double> x{0.0, Vector<double>::Constant(1, 1.0), Vector<double>::Zero(1)};
      const auto traj = record<double>(*scheme, model, x, h, 1.0);
      double error = 0, depth = 0;
      for (std::size_t k = 0; k < traj.states.size(); ++k) {
        const State<double>& s = traj.states[k];
        error = std::max(error, std::abs(s.q(0) - ball_position(s.t)));
        depth = std::max(depth, -s.q(0));
      }
      for (const auto& s : traj.steps) {
        // Velocity level: on every closed contact U_{n+1} >= 0 (Newton's law gives -e U* > 0).
        if (!s.index_set.empty()) {
          EXPECT_GE(s.velocity_after(0), -1e-12);
        }
      }
      hs.push_back(h);
      errors.push_back(error);
      depths.push_back(depth);
      // The depth is a positive fraction of one step of travel at the impact speed.
      EXPECT_GT(depth, 0.1 * h * speed) << "h = " << h;
      EXPECT_LT(depth, 1.05 * h * speed) << "h = " << h;
    }
    const double order = order_of(hs, errors);
    EXPECT_GT(order, 0.7);
    EXPECT_LT(order, 1.6);
    EXPECT_NEAR(order_of(hs, depths), 1.0, 0.35);
  }
}

TEST(HalfExplicitTdg, WithoutContactAndDampingItIsStormerVerletEnergyIsNotMonotone) {
  // With C = 0 and no closed contact, q_{n+1} = q_n + h u_n + h^2/2 a(q_n) and u_{n+1} = u_n +
  // h/2 (a(q_n) + a(q_{n+1})): velocity Verlet. It conserves the shadow energy
  // E~ = E - F^T q - h^2/8 (F - K q)^T M^-1 (F - K q) exactly, so E itself rises on a step
  // where |F - K q| grows: E_{n+1} - E_n = h^2/8 (|K q_{n+1}|^2 - |K q_n|^2) on q'' = -q.
  LinearModel<Rational> model;
  model.M = Matrix<Rational>::Identity(1, 1);
  model.K = Matrix<Rational>::Identity(1, 1);
  model.G = Matrix<Rational>::Identity(1, 1);
  model.w = Vector<Rational>::Constant(1, Rational(100));
  fill_defaults(model);
  model.validate();
  const Rational h = Rational(1) / 4;
  auto scheme = make_hets<Rational>();
  State<Rational> state{Rational(0), Vector<Rational>::Zero(1),
                        Vector<Rational>::Constant(1, Rational(1))};
  scheme.initialize(model, state, h);
  const auto shadow = [&](const State<Rational>& x) {
    return model.energy(x.q, x.v) - h * h / 8 * x.q(0) * x.q(0);
  };
  const Rational conserved = shadow(state);
  StepSummary<Rational> s;
  for (int k = 0; k < 6; ++k) {
    const Rational q_before = state.q(0);
    scheme.step(state, s);
    EXPECT_EQ(shadow(state), conserved);
    EXPECT_EQ(s.E_after - s.E_before, h * h / 8 * (state.q(0) * state.q(0) - q_before * q_before));
    if (k == 0) {
      EXPECT_GT(s.E_after, s.E_before);  // q moves away from 0: E rises
    }
  }
}

TEST(HalfExplicitTdg, ProxNewtonIsAnExactActiveSetMethodWithAFallback) {
  // W = [[1, 2], [2, 5]], b = (-1, -1): Newton from z = 0 takes the active set {0, 1} (z =
  // (3, -1)), then {0}: z = (1, 0), w = (0, 1), two iterations, exactly.
  Matrix<Rational> W(2, 2);
  W << 1, 2, 2, 5;
  Vector<Rational> b(2);
  b << -1, -1;
  Vector<Rational> r(2);
  r << 1, Rational(1) / 5;
  const LcpResult<Rational> newton = half_explicit_prox_newton<Rational>(
      W, b, r, 50, LcpOptions<Rational>{}, false, LcpMethod::lemke);
  ASSERT_TRUE(newton.ok()) << newton.message;
  EXPECT_EQ(newton.method, LcpMethod::prox_newton);
  EXPECT_EQ(newton.iterations, 2);
  EXPECT_EQ(newton.z(0), Rational(1));
  EXPECT_EQ(newton.z(1), Rational(0));
  // One iteration is not enough: without a fallback the answer is refused...
  const LcpResult<Rational> cut = half_explicit_prox_newton<Rational>(
      W, b, r, 1, LcpOptions<Rational>{}, false, LcpMethod::lemke);
  EXPECT_FALSE(cut.ok());
  EXPECT_FALSE(cut.certificate.accepted);
  // ...and with one, Lemke solves it exactly.
  const LcpResult<Rational> fallback = half_explicit_prox_newton<Rational>(
      W, b, r, 1, LcpOptions<Rational>{}, true, LcpMethod::lemke);
  ASSERT_TRUE(fallback.ok());
  EXPECT_EQ(fallback.method, LcpMethod::lemke);
  EXPECT_EQ(fallback.z(0), Rational(1));
  EXPECT_NE(fallback.message.find("fallback"), std::string::npos);
}

TEST(HalfExplicitTdg, AnUncertifiedSolveIsAStepError) {
  // Two coupled contacts closing together need two Newton iterations; max_iterations=1 with
  // fallback=none must refuse the step rather than accept Newton's first iterate.
  LinearModel<double> model;
  model.M = Matrix<double>::Identity(2, 2);
  model.G = Matrix<double>(2, 2);
  model.G << 1, 2, 0, 1;  // W = G^T G = [[1, 2], [2, 5]], b = G^T u = (-1, -1)
  model.w = Vector<double>::Zero(2);
  model.e = Vector<double>::Zero(2);
  fill_defaults(model);
  model.validate();
  State<double> x{0.0, Vector<double>::Zero(2), Vector<double>::Zero(2)};
  x.v << -1, 1;
  auto strict = make_hets<double>("half-explicit-tdg:max_iterations=1,fallback=none");
  EXPECT_THROW((void)simulate<double>(strict, model, x, 0.01, 0.05), StepError);
  auto healthy = make_hets<double>("half-explicit-tdg:max_iterations=1");
  EXPECT_NO_THROW((void)simulate<double>(healthy, model, x, 0.01, 0.05));
}

TEST(HalfExplicitTdg, SpecOptionsAreCheckedAndCanonical) {
  EXPECT_EQ(make_hets<double>().info().spec,
            "half-explicit-tdg:fallback=lemke,max_iterations=50,r=delassus,tolerance=0");
  EXPECT_EQ(make_hets<double>("half-explicit-tdg:r=1/2,fallback=enumeration").info().spec,
            "half-explicit-tdg:fallback=enumeration,max_iterations=50,r=1/2,tolerance=0");
  for (const char* bad : {"half-explicit-tdg:r=0", "half-explicit-tdg:r=-1",
                          "half-explicit-tdg:r=abc", "half-explicit-tdg:max_iterations=0",
                          "half-explicit-tdg:max_iterations=1.5", "half-explicit-tdg:tolerance=-1",
                          "half-explicit-tdg:fallback=pgs", "half-explicit-tdg:theta=1/2"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW((void)Registry::builtin().make<double>(bad), SpecError);
  }
  // A constant r gives the same steps as the Delassus rule (the fixed point does not depend
  // on r > 0), here exactly.
  const LinearModel<Rational> model = hets_ball<Rational>(Rational(10), Rational(1) / 2);
  State<Rational> x{Rational(0), Vector<Rational>::Constant(1, Rational(1) / 10),
                    Vector<Rational>::Constant(1, Rational(-1))};
  auto a = make_hets<Rational>();
  auto b = make_hets<Rational>("half-explicit-tdg:r=1/1000");
  const State<Rational> xa = simulate<Rational>(a, model, x, Rational(1) / 50, Rational(1));
  const State<Rational> xb = simulate<Rational>(b, model, x, Rational(1) / 50, Rational(1));
  EXPECT_EQ(xa.q, xb.q);
  EXPECT_EQ(xa.v, xb.v);
}

TEST(HalfExplicitTdg, RefusesHarmonicForcesInRational) {
  LinearModel<Rational> model = hets_ball<Rational>(Rational(10), Rational(0));
  model.F_amplitude = Vector<Rational>::Constant(1, Rational(1));
  model.omega = Rational(1);
  State<Rational> x{Rational(0), Vector<Rational>::Constant(1, Rational(1)),
                    Vector<Rational>::Zero(1)};
  auto scheme = make_hets<Rational>();
  EXPECT_THROW(scheme.initialize(model, x, Rational(1) / 10), InputError);
}

/// q = (x_N, x_T..), M = I, G_N = e_1, G_T = e_2 .. e_{1+d}: a block on a plane under gravity.
template <class S>
LinearModel<S> sliding_block(Index d, const S& gravity, const S& mu) {
  LinearModel<S> model;
  model.name = "block";
  model.M = Matrix<S>::Identity(1 + d, 1 + d);
  model.G = Matrix<S>::Zero(1 + d, 1);
  model.G(0, 0) = S(1);
  model.G_T = Matrix<S>::Zero(1 + d, d);
  for (Index j = 0; j < d; ++j) model.G_T(1 + j, j) = S(1);
  model.mu = Vector<S>::Constant(1, mu);
  model.e = Vector<S>::Zero(1);
  model.F = Vector<S>::Zero(1 + d);
  model.F(0) = -gravity;
  fill_defaults(model);
  model.validate();
  return model;
}

TEST(HalfExplicitTdgFriction, SlidingBlockIsExactInRational) {
  // docs/theory.md §9.2: the forecast and the non-impulsive step each slide with h/2 mu g of
  // the friction impulse, so v_{k+1} = v_k - h mu g while v_k > h mu g, then 0 (stick), and
  // x_{k+1} = x_k + h v_k - mu g h^2 / 2: the exact uniform deceleration at every grid point.
  using Q = Rational;
  const Q g(10), mu = Q(1) / 2, h = Q(1) / 10, v0(2);
  const auto model = sliding_block<Q>(1, g, mu);
  auto scheme = make_hets<Q>();
  State<Q> x{Q(0), Vector<Q>::Zero(2), Vector<Q>::Zero(2)};
  x.v(1) = v0;
  scheme.initialize(model, x, h);
  StepSummary<Q> s;
  Q v = v0, position(0);
  for (int k = 0; k < 8; ++k) {
    scheme.step(x, s);
    if (v > h * mu * g) {
      position += h * v - mu * g * h * h / 2;
      v -= h * mu * g;
      EXPECT_EQ(x.q(1), position) << "step " << k + 1;
      // The last problem's friction impulse is on the cone's edge, opposite the slip.
      EXPECT_EQ(s.tangential_impulse(0), -mu * s.impulse(0));
      EXPECT_EQ(s.forecast_tangential_impulse(0), -mu * s.forecast_impulse(0));
    } else {
      v = 0;
    }
    EXPECT_EQ(x.v(1), v) << "step " << k + 1;
    EXPECT_EQ(x.v(0), Q(0));
    EXPECT_EQ(x.q(0), Q(0));
  }
  EXPECT_EQ(x.v(1), Q(0));
}

TEST(HalfExplicitTdgFriction, SpatialSlideKeepsItsDirection) {
  // d = 2 (alart-curnier): v_T = (3, 4) slows by h mu g per step along its own direction.
  const double g = 10, mu = 0.5, h = 0.01;
  const auto model = sliding_block<double>(2, g, mu);
  for (const char* spec : {"half-explicit-tdg", "half-explicit-tdg:friction=pgs"}) {
    SCOPED_TRACE(spec);
    auto scheme = make_hets<double>(spec);
    State<double> x{0.0, Vector<double>::Zero(3), Vector<double>::Zero(3)};
    x.v << 0, 3, 4;
    scheme.initialize(model, x, h);
    StepSummary<double> s;
    for (int k = 1; k <= 20; ++k) {
      scheme.step(x, s);
      const double speed = 5 - k * h * mu * g;
      EXPECT_NEAR(x.v(1), 0.6 * speed, 1e-10);
      EXPECT_NEAR(x.v(2), 0.8 * speed, 1e-10);
      EXPECT_NEAR(x.v(0), 0.0, 1e-12);
    }
  }
  // Rational refuses d = 2 (the cone needs square roots), naming the precision.
  const auto exact = sliding_block<Rational>(2, Rational(10), Rational(1) / 2);
  auto rational = make_hets<Rational>();
  State<Rational> x{Rational(0), Vector<Rational>::Zero(3), Vector<Rational>::Zero(3)};
  EXPECT_THROW(rational.initialize(exact, x, Rational(1) / 10), SpecError);
}

TEST(HalfExplicitTdgFriction, OrderTwoOnAPersistentSlideUnderASpring) {
  // A block sliding on a plane with a spring k on its tangential coordinate, v_T > 0 over the
  // whole run: x'' + k x = -mu g, x = -mu g / k + (x0 + mu g / k) cos(w t) + v0 / w sin(w t),
  // w = sqrt(k). The contact is closed and slides at every step (non-impulsive, frictional).
  const double g = 10, mu = 0.1, k = 4, x0 = 0, v0 = 3, T = 0.5;
  auto model = sliding_block<double>(1, g, mu);
  model.K(1, 1) = k;
  model.validate();
  const double w = std::sqrt(k);
  const double exact = -mu * g / k + (x0 + mu * g / k) * std::cos(w * T) + v0 / w * std::sin(w * T);
  std::vector<double> hs, errors;
  for (int n = 20; n <= 320; n *= 2) {
    auto scheme = make_hets<double>();
    State<double> x{0.0, Vector<double>::Zero(2), Vector<double>::Zero(2)};
    x.v(1) = v0;
    const auto traj = record<double>(scheme, model, x, 1.0 / n, T);
    for (const auto& s : traj.steps) {
      ASSERT_EQ(s.index_set.size(), 1u);
      ASSERT_GT(s.tangential_velocity_after(0), 0.0);  // still sliding
      EXPECT_NEAR(s.tangential_impulse(0), -mu * s.impulse(0), 1e-14);
    }
    hs.push_back(1.0 / n);
    errors.push_back(std::abs(traj.states.back().q(1) - exact));
  }
  EXPECT_NEAR(order_of(hs, errors), 2.0, 0.1);
}

/// docs/theory.md §4 transcribed once more, independently of the scheme's code: dense inverses,
/// the closed sets read exactly, every complementarity problem by enumeration (not by the
/// scheme's prox Newton). Rational only.
State<Rational> reference_hets_step(const LinearModel<Rational>& model, const State<Rational>& x,
                                    const Rational& h) {
  using Q = Rational;
  const Index m = model.contacts();
  const Eigen::PartialPivLU<Matrix<Q>> lu(model.M);
  const Matrix<Q> Minv = lu.solve(Matrix<Q>::Identity(model.dofs(), model.dofs()));
  const auto f = [&](const Q& t, const Vector<Q>& q, const Vector<Q>& u) {
    return Vector<Q>(model.force(t) - model.C * u - model.K * q);
  };
  const auto closed = [&](const Vector<Q>& q) {
    std::vector<Index> set;
    const Vector<Q> g = model.G.transpose() * q + model.w;
    for (Index a = 0; a < m; ++a)
      if (g(a) <= 0) set.push_back(a);
    return set;
  };
  // 0 <= G_A^T (v + Minv G_A z) + c_A _|_ z >= 0, returned as an impulse along G.
  const auto impulse = [&](const std::vector<Index>& A, const Vector<Q>& v, const Vector<Q>& c) {
    const Index k = static_cast<Index>(A.size());
    Matrix<Q> GA(model.dofs(), k);
    Vector<Q> b(k);
    for (Index i = 0; i < k; ++i) {
      GA.col(i) = model.G.col(A[static_cast<std::size_t>(i)]);
      b(i) = GA.col(i).dot(v) + c(A[static_cast<std::size_t>(i)]);
    }
    Vector<Q> out = Vector<Q>::Zero(model.dofs());
    if (k == 0) return out;
    const LcpResult<Q> r =
        solve_lcp<Q>(LcpMethod::enumeration, Matrix<Q>(GA.transpose() * Minv * GA), b);
    EXPECT_TRUE(r.ok());
    return Vector<Q>(GA * r.z);
  };
  const Vector<Q> zero = Vector<Q>::Zero(m);
  const Vector<Q> f_n = f(x.t, x.q, x.v);
  const Vector<Q> u_free = x.v + h * Minv * f_n;
  const Vector<Q> r1 = impulse(closed(x.q), u_free, zero);  // h G lambda_1
  const Vector<Q> u_1 = u_free + Minv * r1;
  State<Q> next{x.t + h, x.q + h / 2 * (x.v + u_1), Vector<Q>()};
  const std::vector<Index> A = closed(next.q);
  const Vector<Q> U_1 = model.G.transpose() * u_1;
  bool impact = false;
  for (Index a : A) impact = impact || U_1(a) < 0;
  const Vector<Q> u_star = x.v + h / 2 * Minv * (f_n + f(x.t + h, next.q, u_1));
  if (impact) {
    const Vector<Q> U_star = model.G.transpose() * u_star;
    next.v = u_star + Minv * impulse(A, u_star, Vector<Q>(model.e.cwiseProduct(U_star)));
  } else {
    const Vector<Q> u_free2 = u_star + Minv * r1 / 2;
    next.v = u_free2 + Minv * impulse(A, u_free2, zero);
  }
  return next;
}

TEST(HalfExplicitTdg, AgreesExactlyWithAnIndependentTranscription) {
  // Three dofs, two coupled contacts, damping, a spring and restitution 1/2 and 1: a ball-like
  // drop onto two supports with bounces, resting phases and lift-off, 40 exact steps.
  using Q = Rational;
  LinearModel<Q> model;
  model.M = Matrix<Q>(3, 3);
  model.M << 3, 1, 0, 1, 2, 1, 0, 1, 2;
  model.K = Matrix<Q>::Zero(3, 3);
  model.K(2, 2) = 4;
  model.C = Matrix<Q>::Zero(3, 3);
  model.C(2, 2) = Q(1) / 8;
  model.F = Vector<Q>(3);
  model.F << -10, -6, 1;
  model.G = Matrix<Q>(3, 2);
  model.G << 1, 0, 0, 1, 1, -1;
  model.w = Vector<Q>(2);
  model.w << Q(1) / 20, Q(1) / 40;
  model.e = Vector<Q>(2);
  model.e << Q(1) / 2, 1;
  fill_defaults(model);
  model.validate();
  State<Q> x{Q(0), Vector<Q>::Zero(3), Vector<Q>::Zero(3)};
  x.v << -1, Q(1) / 2, Q(1) / 4;
  const Q h = Q(1) / 32;
  auto scheme = make_hets<Q>();
  State<Q> state = x;
  scheme.initialize(model, state, h);
  StepSummary<Q> s;
  int impacts = 0, resting = 0;
  for (int k = 0; k < 40; ++k) {
    scheme.step(state, s);
    x = reference_hets_step(model, x, h);
    ASSERT_EQ(state.q, x.q) << "step " << k + 1;
    ASSERT_EQ(state.v, x.v) << "step " << k + 1;
    for (Index a = 0; a < 2; ++a) {
      impacts += s.velocity_newton(a) != 0 && s.impulse(a) > 0;
      resting += s.forecast_impulse(a) > 0;
    }
  }
  EXPECT_GT(impacts, 0);  // the run exercises both branches
  EXPECT_GT(resting, 0);
}

TEST(HalfExplicitTdgNonlinear, ALinearModelThroughTheAdapterStepsAsTheLinearScheme) {
  // docs/half-explicit-tdg.md "Nonlinear models": with constant M and W the nonlinear step is
  // the linear one, frictionless (two coupled contacts with impacts and resting phases) and
  // with friction (the sliding block, d = 1 and d = 2).
  using Q = Rational;
  LinearModel<Q> exact;
  exact.M = Matrix<Q>(3, 3);
  exact.M << 3, 1, 0, 1, 2, 1, 0, 1, 2;
  exact.K = Matrix<Q>::Zero(3, 3);
  exact.K(2, 2) = 4;
  exact.F = Vector<Q>(3);
  exact.F << -10, -6, 1;
  exact.G = Matrix<Q>(3, 2);
  exact.G << 1, 0, 0, 1, 1, -1;
  exact.w = Vector<Q>(2);
  exact.w << Q(1) / 20, Q(1) / 40;
  exact.e = Vector<Q>(2);
  exact.e << Q(1) / 2, 1;
  fill_defaults(exact);
  exact.validate();
  struct Run {
    LinearModel<double> model;
    Vector<double> v0;
  };
  std::vector<Run> runs;
  runs.push_back({model_cast<double>(exact), Vector<double>(3)});
  runs.back().v0 << -1, 0.5, 0.25;
  runs.push_back({sliding_block<double>(1, 10.0, 0.5), Vector<double>(2)});
  runs.back().v0 << -0.5, 2;
  runs.push_back({sliding_block<double>(2, 10.0, 0.5), Vector<double>(3)});
  runs.back().v0 << -0.5, 1, -2;
  for (const Run& run : runs) {
    SCOPED_TRACE(run.model.dofs());
    const LinearModelAdapter<double> adapter(run.model);
    State<double> x{0.0, Vector<double>::Zero(run.model.dofs()), run.v0};
    auto linear = make_hets<double>();
    auto nonlinear = make_hets<double>();
    EXPECT_TRUE(nonlinear.accepts_nonlinear());
    const auto a = record<double>(linear, run.model, x, 1.0 / 32, 1.25);
    const auto b = record<double>(nonlinear, adapter, x, 1.0 / 32, 1.25);
    ASSERT_EQ(a.states.size(), b.states.size());
    int closed = 0;
    for (std::size_t k = 0; k < a.states.size(); ++k) {
      EXPECT_NEAR(max_abs(Vector<double>(a.states[k].q - b.states[k].q)), 0.0, 1e-12) << k;
      EXPECT_NEAR(max_abs(Vector<double>(a.states[k].v - b.states[k].v)), 0.0, 1e-12) << k;
    }
    for (std::size_t k = 0; k < a.steps.size(); ++k) {
      EXPECT_EQ(a.steps[k].index_set, b.steps[k].index_set) << k;
      closed += !a.steps[k].index_set.empty();
    }
    EXPECT_GT(closed, 0);
  }
  // Rational refuses a nonlinear model, naming the precision.
  const LinearModelAdapter<Q> adapter(exact);
  auto rational = make_hets<Q>();
  EXPECT_FALSE(rational.accepts_nonlinear());
  State<Q> x{Q(0), Vector<Q>::Zero(3), Vector<Q>::Zero(3)};
  EXPECT_THROW(rational.initialize(adapter, x, Q(1) / 10), SpecError);
}

}  // namespace
}  // namespace nsh
