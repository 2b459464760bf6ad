// The frictional catalogue cases (docs/theory.md §9.2, docs/case-files.md "Frictional cases"):
// each file's closed form (nsh/cases/friction.hpp) against the textbook formulas, written out
// here from the file's own parameters, exactly in Rational.
#include <nsh/scalar.hpp>

#include <nsh/cases/analytic.hpp>
#include <nsh/cases/catalogue.hpp>
#include <nsh/cases/friction.hpp>
#include <nsh/error.hpp>
#include <nsh/io/case_file.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using nsh::Index;
using nsh::Rational;
using nsh::Real50;
using nsh::cases::PersistentContact;
using Mode = PersistentContact<Rational>::Mode;

nsh::LinearCase<Rational> load_rational_case(const std::string& name) {
  return nsh::load_linear_case<Rational>(nsh::read_case_file(nsh::locate_case(name)));
}

// Gravity of a planar file whose y axis is vertical: F_y = -m g.
Rational gravity(const nsh::LinearCase<Rational>& c) {
  return -c.model.F(1) / c.model.M(1, 1);
}

TEST(FrictionCases, SlidingBlockStopsAtVOverMuG) {
  const auto c = load_rational_case("sliding-block");
  const Rational v0 = c.initial.v(0), mu = c.model.mu(0), g = gravity(c);
  ASSERT_GT(v0, 0);
  const auto p = PersistentContact<Rational>::from_case(c.model, c.initial);
  const Rational t_stop = v0 / (mu * g);
  ASSERT_TRUE(p.stick_time().has_value());
  EXPECT_EQ(*p.stick_time(), t_stop);
  ASSERT_LT(t_stop, c.T);  // the stop is inside the horizon
  ASSERT_EQ(p.phases().size(), 2u);
  EXPECT_EQ(p.phases()[0].mode, Mode::slide_positive);
  EXPECT_EQ(p.phases()[1].mode, Mode::stick);
  EXPECT_EQ(p.phases()[0].normal_force, c.model.M(1, 1) * g);
  EXPECT_EQ(p.phases()[0].tangential_force, -mu * c.model.M(1, 1) * g);
  for (const Rational& t : {Rational(0), Rational(1, 10), t_stop / 2, t_stop, c.T}) {
    const auto s = p.state(t);
    const Rational tau = t < t_stop ? t : t_stop;
    EXPECT_EQ(s.q(0), v0 * tau - mu * g * tau * tau / 2) << t;
    EXPECT_EQ(s.v(0), v0 - mu * g * tau) << t;
    EXPECT_EQ(s.q(1), 0) << t;
    EXPECT_EQ(s.v(1), 0) << t;
  }
  EXPECT_EQ(p.state(c.T).q(0), v0 * v0 / (2 * mu * g));
  // The catalogue's lookup by name gives the same state.
  EXPECT_EQ(nsh::cases::analytic_state<Rational>("sliding-block", Rational(1, 5)).q,
            p.state(Rational(1, 5)).q);
}

// The discrete stop of Moreau-Jean theta = 1 (friction.hpp): the closed form against the
// recursion v_{k+1} = max(v_k - mu g h, 0), x_{k+1} = x_k + h v_{k+1}, and its O(h) distance
// to the continuous stop.
TEST(FrictionCases, DiscreteSlidingStopIsTheRecursion) {
  const auto c = load_rational_case("sliding-block");
  const Rational v0 = c.initial.v(0), mu = c.model.mu(0), g = gravity(c);
  for (const Rational& h :
       {Rational(1, 100), Rational(1, 1000), Rational(1, 7), v0 / (mu * g * 8)}) {
    const nsh::cases::DiscreteSlidingStop<Rational> stop{v0, mu * g * h};
    Rational v = v0, x = 0;
    Index stopped = -1;
    for (Index k = 0; k <= stop.last_sliding_step() + 3; ++k) {
      EXPECT_EQ(stop.velocity(k), v) << k;
      EXPECT_EQ(stop.displacement(k, h), x) << k;
      if (v == 0 && stopped < 0) stopped = k;
      v = v - mu * g * h > 0 ? v - mu * g * h : Rational(0);
      x += h * v;
    }
    const Index K = stop.last_sliding_step();
    EXPECT_GE(v0 - Rational(K) * mu * g * h, 0);
    EXPECT_LT(v0 - Rational(K + 1) * mu * g * h, 0);
    EXPECT_TRUE(stopped == K || stopped == K + 1) << stopped << " " << K;
    const Rational x_stop = v0 * v0 / (2 * mu * g);
    const Rational gap = stop.displacement(K, h) - x_stop;
    EXPECT_LE(gap < 0 ? Rational(-gap) : gap, h * v0) << h;
    EXPECT_LE(Rational(stopped) * h - v0 / (mu * g), h);
    EXPECT_GE(Rational(stopped) * h - v0 / (mu * g), 0);
  }
  // v0 / (mu g h) an integer N: v_N = 0 exactly, the stop at step N.
  const nsh::cases::DiscreteSlidingStop<Rational> exact{Rational(2), Rational(1, 4)};
  EXPECT_EQ(exact.last_sliding_step(), 8);
  EXPECT_EQ(exact.velocity(8), 0);
  EXPECT_EQ(exact.velocity(7), Rational(1, 4));
}

TEST(FrictionCases, InclineSticksIffTanAlphaAtMostMu) {
  for (const std::string name : {"incline-stick", "incline-slide"}) {
    const auto c = load_rational_case(name);
    // The file's geometry: normal (-sin, cos), tangent (cos, sin) up the slope.
    const Rational sin_a = c.model.G_T(1, 0), cos_a = c.model.G_T(0, 0);
    ASSERT_EQ(sin_a * sin_a + cos_a * cos_a, 1);
    ASSERT_EQ(c.model.G(0, 0), -sin_a);
    ASSERT_EQ(c.model.G(1, 0), cos_a);
    const Rational g = gravity(c), m = c.model.M(0, 0), mu = c.model.mu(0);
    const auto p = PersistentContact<Rational>::from_case(c.model, c.initial);
    ASSERT_EQ(p.phases().size(), 1u) << name;
    const auto& phase = p.phases()[0];
    EXPECT_EQ(phase.normal_force, m * g * cos_a) << name;
    const Rational t = c.T;
    const auto s = p.state(t);
    EXPECT_EQ(c.model.gap(s.q)(0), 0) << name;  // stays on the plane
    if (sin_a / cos_a <= mu) {
      EXPECT_EQ(name, "incline-stick");
      EXPECT_EQ(phase.mode, Mode::stick);
      EXPECT_EQ(phase.tangential_force, m * g * sin_a);  // up the slope
      EXPECT_EQ(s.q, c.initial.q);
    } else {
      EXPECT_EQ(name, "incline-slide");
      EXPECT_EQ(phase.mode, Mode::slide_negative);  // down the slope
      const Rational a = g * (sin_a - mu * cos_a);
      EXPECT_EQ(a, g / 5);
      EXPECT_EQ(c.model.tangential_velocity(s.v)(0), -a * t);
      EXPECT_EQ(s.q(0), -a * t * t / 2 * cos_a);
      EXPECT_EQ(s.q(1), -a * t * t / 2 * sin_a);
    }
  }
  // The threshold itself, exactly: tan alpha = 3/4 sticks at mu = 3/4, slides just below.
  auto c = load_rational_case("incline-stick");
  for (const auto& [mu, sticks] :
       {std::pair{Rational(3, 4), true}, std::pair{Rational(3, 4) - Rational(1, 1000000), false},
        std::pair{Rational(0), false}, std::pair{Rational(5), true}}) {
    c.model.mu(0) = mu;
    const auto p = PersistentContact<Rational>::from_case(c.model, c.initial);
    EXPECT_EQ(p.phases()[0].mode == Mode::stick, sticks) << mu;
  }
}

// The ball: U_T = x' + R phi' (phi counter-clockwise) decays at mu g (1 + m R^2 / I) until the
// ball rolls at t_r = U_T0 / (mu g (1 + m R^2 / I)); from then on x' is constant.
void expect_rolling(const std::string& name, const Rational& inertia_factor,
                    const Rational& roll_time_factor, const Rational& final_speed_factor) {
  const auto c = load_rational_case(name);
  const Rational m = c.model.M(0, 0), I = c.model.M(2, 2), R = c.model.G_T(2, 0);
  ASSERT_EQ(-c.model.w(0), R);  // the gap y - R
  ASSERT_EQ(I, inertia_factor * m * R * R) << name;
  const Rational v0 = c.initial.v(0), mu = c.model.mu(0), g = gravity(c);
  ASSERT_EQ(c.initial.v(2), 0);  // no spin at t0
  const auto p = PersistentContact<Rational>::from_case(c.model, c.initial);
  ASSERT_TRUE(p.stick_time().has_value());
  const Rational t_r = *p.stick_time();
  EXPECT_EQ(t_r, roll_time_factor * v0 / (mu * g)) << name;
  EXPECT_EQ(t_r, v0 / (mu * g * (1 + m * R * R / I))) << name;
  ASSERT_LT(t_r, c.T);
  // The contact point's velocity vanishes exactly at t_r, is positive before.
  EXPECT_EQ(c.model.tangential_velocity(p.state(t_r).v)(0), 0);
  EXPECT_GT(c.model.tangential_velocity(p.state(t_r / 2).v)(0), 0);
  for (const Rational& t : {t_r, (t_r + c.T) / 2, c.T}) {
    const auto s = p.state(t);
    EXPECT_EQ(s.v(0), final_speed_factor * v0) << name << " " << t;
    EXPECT_EQ(s.v(2), -s.v(0) / R) << name << " " << t;  // rolling: x' = -R phi'
    EXPECT_EQ(c.model.tangential_velocity(s.v)(0), 0);
    EXPECT_EQ(s.q(1), R);
  }
  EXPECT_EQ(p.phases().back().mode, Mode::stick);
  EXPECT_EQ(p.phases().back().tangential_force, 0);  // rolling needs no friction
  // Before t_r the centre decelerates at mu g (the friction force is mu m g backwards).
  EXPECT_EQ(p.state(t_r / 3).v(0), v0 - mu * g * t_r / 3);
}

TEST(FrictionCases, SphereRollsAtTwoSeventhsAndFiveSevenths) {
  expect_rolling("rolling-sphere", Rational(2, 5), Rational(2, 7), Rational(5, 7));
}

TEST(FrictionCases, CylinderRollsAtOneThirdAndTwoThirds) {
  expect_rolling("rolling-cylinder", Rational(1, 2), Rational(1, 3), Rational(2, 3));
}

// The disk's Newton-Coulomb impact, from the textbook: P_N = m (1 + e) |U_N-|, W_TT = 1/m +
// R^2/I; it sticks iff |U_T-| / W_TT <= mu P_N (P_T = -U_T- / W_TT, U_T+ = 0), otherwise it
// slides (P_T = -sign(U_T-) mu P_N).
TEST(FrictionCases, ObliqueImpactStickAndSlide) {
  auto c = load_rational_case("oblique-impact");
  const Rational m = c.model.M(0, 0), I = c.model.M(2, 2), R = c.model.G_T(2, 0), e = c.model.e(0);
  const Rational U_N = c.initial.v(1), U_T = c.initial.v(0) + R * c.initial.v(2);
  ASSERT_LT(U_N, 0);
  ASSERT_GT(U_T, 0);
  const Rational t_impact = -c.model.gap(c.initial.q)(0) / U_N;
  EXPECT_EQ(t_impact, Rational(1, 10));
  const Rational P_N = m * (1 + e) * -U_N, W_TT = 1 / m + R * R / I;
  const Rational mu_threshold = U_T / W_TT / P_N;
  EXPECT_EQ(mu_threshold, Rational(2, 9));
  for (const Rational& mu : {c.model.mu(0), mu_threshold, Rational(1, 2), Rational(0)}) {
    c.model.mu(0) = mu;
    const bool sticks = U_T / W_TT <= mu * P_N;
    const Rational P_T = sticks ? Rational(-U_T / W_TT) : Rational(-mu * P_N);
    const auto impact =
        nsh::cases::frictional_impact<Rational>(c.model, c.initial.v, std::vector<Index>{0});
    EXPECT_EQ(impact.impulse(0), P_N) << mu;
    EXPECT_EQ(impact.impulse(1), P_T) << mu;
    const nsh::Vector<Rational> v_plus = impact.v_plus;
    EXPECT_EQ(v_plus(0), c.initial.v(0) + P_T / m) << mu;
    EXPECT_EQ(v_plus(1), -e * U_N) << mu;
    EXPECT_EQ(v_plus(2), R * P_T / I) << mu;
    const Rational U_T_plus = c.model.tangential_velocity(v_plus)(0);
    if (sticks)
      EXPECT_EQ(U_T_plus, 0) << mu;
    else
      EXPECT_GT(U_T_plus, 0) << mu;  // still sliding forwards: maximal dissipation
    // No energy gain (W_NT = 0 for a disk on flat ground, docs/friction.md).
    EXPECT_LE(c.model.energy(c.initial.q, v_plus), c.model.energy(c.initial.q, c.initial.v));
    // The ballistic closed form carries it: the state after the impact.
    const auto flow = nsh::cases::analytic_flow<Rational>(c.model, c.initial);
    ASSERT_TRUE(flow);
    const auto after = flow(Rational(1, 5));
    EXPECT_EQ(after.v, v_plus) << mu;
    EXPECT_EQ(after.q, c.initial.q + c.initial.v * t_impact + v_plus * (Rational(1, 5) - t_impact));
  }
  // The file's own regime (mu = 1/5): sliding, v+ = (7/10, 1/2), phi'+ = -6.
  const auto s = nsh::cases::analytic_state<Rational>("oblique-impact", Rational(3, 10));
  EXPECT_EQ(s.v, (nsh::Vector<Rational>(3) << Rational(7, 10), Rational(1, 2), -6).finished());
}

// analytic_flow recognises every frictional case by its data, and the double and 50-digit
// closed forms agree with the exact one (with each other where there is no exact one).
TEST(FrictionCases, EveryFrictionalCaseHasItsClosedFormInEveryPrecision) {
  int frictional = 0, with_spring = 0;
  for (const auto& info : nsh::cases::catalogue()) {
    if (info.family != "linear") continue;
    const auto doc = nsh::read_case_file(nsh::locate_case(info.name));
    if (doc.root.contains("sparse")) continue;
    const auto exact = nsh::load_linear_case<Rational>(doc);
    if (!exact.model.has_friction()) continue;
    ++frictional;
    EXPECT_TRUE(info.analytic) << info.name;
    const auto wide = nsh::load_linear_case<Real50>(doc);
    const auto flow50 = nsh::cases::analytic_flow<Real50>(wide.model, wide.initial);
    const auto lean = nsh::load_linear_case<double>(doc);
    const auto flow_double = nsh::cases::analytic_flow<double>(lean.model, lean.initial);
    ASSERT_TRUE(flow50 && flow_double) << info.name;
    // A spring along the supports (the Coulomb oscillators) needs sin and atan2: no exact
    // closed form; double against Real50 then.
    if (exact.model.K.cwiseAbs().maxCoeff() != 0) {
      ++with_spring;
      EXPECT_FALSE(nsh::cases::has_analytic<Rational>(info.name)) << info.name;
      EXPECT_FALSE(nsh::cases::analytic_flow<Rational>(exact.model, exact.initial)) << info.name;
      for (int k = 0; k <= 40; ++k) {
        const double t = lean.initial.t + 4.0 * k / 40;  // past both stops (pi/2, pi)
        const auto s50 = flow50(Real50(t));
        const auto sd = flow_double(t);
        for (Index i = 0; i < sd.q.size(); ++i) {
          EXPECT_NEAR(nsh::scalar_cast<double>(s50.q(i)), sd.q(i), 1e-12) << info.name << t;
          EXPECT_NEAR(nsh::scalar_cast<double>(s50.v(i)), sd.v(i), 1e-12) << info.name << t;
        }
      }
      continue;
    }
    EXPECT_TRUE(nsh::cases::has_analytic<Rational>(info.name)) << info.name;
    const auto flow = nsh::cases::analytic_flow<Rational>(exact.model, exact.initial);
    ASSERT_TRUE(flow) << info.name;
    for (int k = 0; k <= 10; ++k) {
      const Rational t = exact.initial.t + (exact.T - exact.initial.t) * k / 10;
      const auto s = flow(t);
      const auto s50 = flow50(nsh::scalar_cast<Real50>(t));
      const auto sd = flow_double(nsh::scalar_cast<double>(t));
      for (Index i = 0; i < s.q.size(); ++i) {
        EXPECT_LT(abs(nsh::scalar_cast<Real50>(s.q(i)) - s50.q(i)), Real50("1e-40")) << info.name;
        EXPECT_LT(abs(nsh::scalar_cast<Real50>(s.v(i)) - s50.v(i)), Real50("1e-40")) << info.name;
        EXPECT_NEAR(nsh::scalar_cast<double>(s.q(i)), sd.q(i), 1e-12) << info.name;
        EXPECT_NEAR(nsh::scalar_cast<double>(s.v(i)), sd.v(i), 1e-12) << info.name;
      }
    }
  }
  EXPECT_EQ(frictional, 8);
  EXPECT_EQ(with_spring, 2);
}

// A closed form outside its hypotheses is refused by name, not returned wrong.
TEST(FrictionCases, PersistentContactRefusesWhatItDoesNotSolve) {
  auto c = load_rational_case("sliding-block");
  auto lifted = c;
  lifted.initial.q(1) = Rational(1, 10);  // not in contact
  EXPECT_THROW(PersistentContact<Rational>::from_case(lifted.model, lifted.initial),
               nsh::InputError);
  auto pulled = c;
  pulled.model.F(1) = 1;  // pulled off the ground
  try {
    PersistentContact<Rational>::from_case(pulled.model, pulled.initial);
    ADD_FAILURE() << "no InputError";
  } catch (const nsh::InputError& e) {
    EXPECT_EQ(e.field(), "F") << e.what();
  }
  EXPECT_FALSE(nsh::cases::analytic_flow<Rational>(pulled.model, pulled.initial));
}

}  // namespace
