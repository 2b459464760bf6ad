// The Coulomb (stick-slip) oscillator's closed form (nsh/cases/coulomb_oscillator.hpp) against
// what it must satisfy, checked independently of its construction: the equation of motion
// m x'' + k x = F_x - sign(x') Phi by central differences of its own state in Real50, velocity
// continuity and x' = 0 at each stop, the stick and reversal conditions |F_x - k x| <= Phi or
// > Phi there, and Den Hartog's half-cycle rule (the turning points |x_n| = |x_{n-1}| - 2 Phi/k,
// alternating, each half period pi/w apart from rest) written out from the files' parameters.
#include <nsh/scalar.hpp>

#include <nsh/cases/analytic.hpp>
#include <nsh/cases/coulomb_oscillator.hpp>
#include <nsh/error.hpp>
#include <nsh/io/case_file.hpp>

#include <gtest/gtest.h>
#include <boost/math/constants/constants.hpp>

#include <string>

namespace {

using nsh::Index;
using nsh::Real50;
using nsh::cases::CoulombOscillator;
using OscillatorMode = CoulombOscillator<Real50>::Mode;

nsh::LinearCase<Real50> load_oscillator_case(const std::string& name) {
  return nsh::load_linear_case<Real50>(nsh::read_case_file(nsh::locate_case(name)));
}

Real50 oscillator_pi() {
  return boost::math::constants::pi<Real50>();
}

// The equation of motion along x at a time strictly inside a slide, by central differences
// (step 1e-12: truncation 1e-24, round-off 1e-38 in Real50), and q' = v for every coordinate.
void expect_oscillator_equation(const CoulombOscillator<Real50>& o, const Real50& t,
                                const std::string& where) {
  const Real50 dt("1e-12");
  const auto minus = o.state(t - dt), here = o.state(t), plus = o.state(t + dt);
  const Index j = o.coordinate();
  const Real50 acceleration = (plus.v(j) - minus.v(j)) / (2 * dt);
  const Real50 s = here.v(j) > 0 ? Real50(1) : Real50(-1);
  const Real50 residual = o.mass() * acceleration + o.stiffness() * here.q(j) -
                          o.tangential_force() + s * o.friction_force();
  EXPECT_LT(abs(residual), Real50("1e-18")) << where << " t = " << t;
  for (Index i = 0; i < here.q.size(); ++i)
    EXPECT_LT(abs((plus.q(i) - minus.q(i)) / (2 * dt) - here.v(i)), Real50("1e-18"))
        << where << " q" << i << " t = " << t;
}

// Every phase of `o`: the equation inside each slide, x' of one sign s during it (s the
// phase's direction), x' = 0 and continuity at each stop, stick iff |F_x - k x| <= Phi.
void expect_oscillator_stick_slip(const CoulombOscillator<Real50>& o, const std::string& where) {
  const Index j = o.coordinate();
  const auto& phases = o.phases();
  ASSERT_FALSE(phases.empty());
  EXPECT_EQ(phases.back().mode, OscillatorMode::stick) << where;
  EXPECT_FALSE(phases.back().end.has_value()) << where;
  for (std::size_t i = 0; i + 1 < phases.size(); ++i) {
    const auto& p = phases[i];
    ASSERT_NE(p.mode, OscillatorMode::stick) << where << ": only the last phase sticks";
    ASSERT_TRUE(p.end.has_value());
    const Real50 s = p.mode == OscillatorMode::slide_positive ? Real50(1) : Real50(-1);
    for (int k = 1; k < 8; ++k) {
      const Real50 t = p.start + (*p.end - p.start) * k / 8;
      expect_oscillator_equation(o, t, where);
      EXPECT_GT(s * o.state(t).v(j), 0) << where << " phase " << i << " t = " << t;
    }
    const Real50 stop = *p.end;
    EXPECT_EQ(phases[i + 1].start, stop);
    const auto before = o.state(stop - Real50("1e-30")), at = o.state(stop);
    EXPECT_LT(abs(at.v(j)), Real50("1e-40")) << where;
    EXPECT_LT(abs(before.v(j)), Real50("1e-25")) << where << ": x' is continuous at the stop";
    EXPECT_LT(abs(before.q(j) - at.q(j)), Real50("1e-25")) << where;
    const Real50 net = abs(o.tangential_force() - o.stiffness() * at.q(j));
    if (phases[i + 1].mode == OscillatorMode::stick)
      EXPECT_LE(net, o.friction_force()) << where << ": sticks only inside the cone";
    else
      EXPECT_GT(net, o.friction_force()) << where << ": reverses only outside the cone";
  }
  // Stuck for ever: the last phase's state does not move.
  const Real50 t_stick = phases.back().start;
  EXPECT_EQ(o.state(t_stick + 1).q(j), o.state(t_stick + 100).q(j));
  EXPECT_EQ(o.state(t_stick + 100).v(j), 0);
}

TEST(CoulombOscillator, BlockFollowsDenHartogsHalfCycles) {
  const auto c = load_oscillator_case("coulomb-oscillator");
  const auto o = CoulombOscillator<Real50>::from_case(c.model, c.initial);
  const Real50 m = c.model.M(0, 0), k = c.model.K(0, 0), mu = c.model.mu(0);
  const Real50 g = -c.model.F(1) / c.model.M(1, 1);
  const Real50 delta = mu * m * g / k, w = sqrt(k / m), x0 = c.initial.q(0);
  ASSERT_EQ(c.initial.v(0), 0);
  ASSERT_GT(k * x0, mu * m * g);  // released outside the cone: it slides
  EXPECT_EQ(o.coordinate(), 0);
  EXPECT_LT(abs(o.friction_force() - mu * m * g), Real50("1e-45"));
  EXPECT_LT(abs(o.normal_forces()(0) - m * g), Real50("1e-45"));
  // Turning points |x_n| = |x_{n-1}| - 2 delta, alternating, pi / w apart; it sticks at the
  // first one inside [-delta, delta].
  std::vector<Real50> turning{x0};
  while (abs(turning.back()) > delta) {
    const Real50 x = turning.back();
    turning.push_back(x > 0 ? -(x - 2 * delta) : -(x + 2 * delta));
  }
  ASSERT_EQ(turning.size(), 3u) << "the file's parameters: two slides, then stick";
  ASSERT_EQ(o.phases().size(), turning.size());
  for (std::size_t n = 0; n < turning.size(); ++n) {
    const auto& p = o.phases()[n];
    EXPECT_LT(abs(p.start - oscillator_pi() / w * Real50(n)), Real50("1e-45")) << n;
    EXPECT_LT(abs(p.position - turning[n]), Real50("1e-45")) << n;
    EXPECT_LT(abs(o.state(p.start).q(0) - turning[n]), Real50("1e-45")) << n;
  }
  EXPECT_EQ(o.phases()[0].mode, OscillatorMode::slide_negative);
  EXPECT_EQ(o.phases()[1].mode, OscillatorMode::slide_positive);
  // The first slide, harmonic about +delta: x = delta + (x0 - delta) cos(w t).
  for (const Real50& t : {Real50("0.1"), Real50("0.7"), Real50("1.5")}) {
    const auto s = o.state(t);
    EXPECT_LT(abs(s.q(0) - (delta + (x0 - delta) * cos(w * t))), Real50("1e-45")) << t;
    EXPECT_LT(abs(s.v(0) + (x0 - delta) * w * sin(w * t)), Real50("1e-45")) << t;
    EXPECT_LT(abs(s.q(1)), Real50("1e-45"));
    EXPECT_LT(abs(s.v(1)), Real50("1e-45"));
  }
  // The file's horizon ends inside the first slide, before the stop at pi / 2.
  EXPECT_LT(c.T, oscillator_pi() / w);
  EXPECT_GT(oscillator_pi() / w - c.T, Real50("0.05"));
  expect_oscillator_stick_slip(o, "coulomb-oscillator");
  // The catalogue's lookup by name is the same closed form.
  EXPECT_EQ(nsh::cases::analytic_state<Real50>("coulomb-oscillator", Real50("0.3")).q,
            o.state(Real50("0.3")).q);
}

TEST(CoulombOscillator, BarOnTwoSupportsSharesItsLoadByTheLeverRule) {
  const auto c = load_oscillator_case("bar-on-two-supports");
  const auto o = CoulombOscillator<Real50>::from_case(c.model, c.initial);
  const Real50 m = c.model.M(0, 0), g = -c.model.F(1) / m;
  // Supports at +a1 and -a2 from the centre of mass (gaps y + a1 phi, y - a2 phi): the lever
  // rule N1 = m g a2 / (a1 + a2), N2 = m g a1 / (a1 + a2).
  const Real50 a1 = c.model.G(2, 0), a2 = -c.model.G(2, 1);
  const Real50 N1 = m * g * a2 / (a1 + a2), N2 = m * g * a1 / (a1 + a2);
  EXPECT_LT(abs(o.normal_forces()(0) - N1), Real50("1e-45"));
  EXPECT_LT(abs(o.normal_forces()(1) - N2), Real50("1e-45"));
  EXPECT_LT(abs(o.friction_force() - (c.model.mu(0) * N1 + c.model.mu(1) * N2)), Real50("1e-45"));
  EXPECT_LT(abs(o.friction_force() - m * g / 6), Real50("1e-45"));
  // y and phi stay 0 (the bar rests on both supports), x slides and sticks.
  for (int k = 0; k <= 20; ++k) {
    const auto s = o.state(Real50(k) / 5);
    for (Index i : {1, 2}) {
      EXPECT_LT(abs(s.q(i)), Real50("1e-45")) << k;
      EXPECT_LT(abs(s.v(i)), Real50("1e-45")) << k;
    }
  }
  ASSERT_EQ(o.phases().size(), 3u);
  expect_oscillator_stick_slip(o, "bar-on-two-supports");
}

// A slide under way (v0 != 0) and a constant load F_x: the stop comes at theta / w with
// theta = atan2 of the phase, which the equation and x' = 0 at the stop check.
TEST(CoulombOscillator, SlideUnderWayWithALoadStopsWhereItsVelocityVanishes) {
  auto c = load_oscillator_case("coulomb-oscillator");
  c.model.F(0) = Real50("1.5");
  c.initial.q(0) = Real50("-0.5");
  c.initial.v(0) = 5;
  const auto o = CoulombOscillator<Real50>::from_case(c.model, c.initial);
  ASSERT_GE(o.phases().size(), 3u);
  EXPECT_EQ(o.phases()[0].mode, OscillatorMode::slide_positive);
  EXPECT_LT(*o.phases()[0].end, oscillator_pi() / o.omega());  // under way: less than half a period
  expect_oscillator_stick_slip(o, "loaded, under way");
  // Starting at rest inside the cone: sticks at once.
  c.initial.q(0) = Real50("0.5");
  c.initial.v(0) = 0;
  const auto stuck = CoulombOscillator<Real50>::from_case(c.model, c.initial);
  ASSERT_EQ(stuck.phases().size(), 1u);
  EXPECT_EQ(stuck.phases()[0].mode, OscillatorMode::stick);
  EXPECT_EQ(stuck.state(Real50(7)).q(0), Real50("0.5"));
}

// Double follows Real50 (the closed form is templated; round-off only).
TEST(CoulombOscillator, DoubleAgreesWithReal50) {
  for (const char* name : {"coulomb-oscillator", "bar-on-two-supports"}) {
    const auto doc = nsh::read_case_file(nsh::locate_case(name));
    const auto wide = nsh::load_linear_case<Real50>(doc);
    const auto lean = nsh::load_linear_case<double>(doc);
    const auto o50 = CoulombOscillator<Real50>::from_case(wide.model, wide.initial);
    const auto od = CoulombOscillator<double>::from_case(lean.model, lean.initial);
    ASSERT_EQ(o50.phases().size(), od.phases().size()) << name;
    for (int k = 0; k <= 50; ++k) {
      const double t = 4.0 * k / 50;
      const auto a = o50.state(Real50(t));
      const auto b = od.state(t);
      for (Index i = 0; i < b.q.size(); ++i) {
        EXPECT_NEAR(nsh::scalar_cast<double>(a.q(i)), b.q(i), 1e-13) << name << " t = " << t;
        EXPECT_NEAR(nsh::scalar_cast<double>(a.v(i)), b.v(i), 1e-13) << name << " t = " << t;
      }
    }
  }
}

// Outside its hypotheses the closed form is refused, naming the field.
TEST(CoulombOscillator, RefusesWhatItDoesNotSolveNamingTheField) {
  const auto c = load_oscillator_case("coulomb-oscillator");
  const auto field_of = [](const nsh::LinearCase<Real50>& x) -> std::string {
    try {
      (void)CoulombOscillator<Real50>::from_case(x.model, x.initial);
    } catch (const nsh::InputError& e) {
      return e.field();
    }
    return "accepted";
  };
  EXPECT_EQ(field_of(c), "accepted");
  auto lifted = c;
  lifted.initial.q(1) = Real50("0.1");
  EXPECT_EQ(field_of(lifted), "G");
  auto pulled = c;
  pulled.model.F(1) = 1;
  EXPECT_EQ(field_of(pulled), "F");
  auto two_springs = c;
  two_springs.model.K(1, 1) = 1;
  EXPECT_EQ(field_of(two_springs), "K");
  auto coupled = c;
  coupled.model.K(0, 1) = coupled.model.K(1, 0) = Real50("0.1");
  EXPECT_EQ(field_of(coupled), "K");
  auto tilted = c;
  tilted.model.G_T(1, 0) = Real50("0.1");
  EXPECT_EQ(field_of(tilted), "G_T");
  auto damped = c;
  damped.model.C(0, 0) = 1;
  EXPECT_EQ(field_of(damped), "C");
  auto smooth = c;
  smooth.model.mu(0) = 0;
  EXPECT_EQ(field_of(smooth), "mu");
  auto heavy = c;
  heavy.model.M(0, 1) = heavy.model.M(1, 0) = Real50("0.1");
  EXPECT_EQ(field_of(heavy), "M");
  // analytic_flow declines rather than returning a wrong form.
  EXPECT_FALSE(nsh::cases::analytic_flow<Real50>(pulled.model, pulled.initial));
  EXPECT_TRUE(nsh::cases::analytic_flow<Real50>(c.model, c.initial));
}

}  // namespace
