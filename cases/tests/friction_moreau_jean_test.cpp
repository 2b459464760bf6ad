// Moreau-Jean theta = 1 with Coulomb friction on the frictional catalogue cases, against their
// closed forms (docs/case-files.md "Frictional cases", nsh/cases/friction.hpp):
//   sliding-block: the exact discrete stop v_{k+1} = max(v_k - mu g h, 0), x_{k+1} = x_k +
//     h v_{k+1}, in Rational, step by step;
//   rolling-sphere, rolling-cylinder: the friction impulse has no moment about the contact
//     point, so I phi' - m R x' is kept by every step and the rolling speed is exactly
//     5 v0/7 (2 v0/3) at every h; the onset of rolling is within h of the closed form's, and
//     x(T) converges to the closed form at order 1;
//   incline-stick, incline-slide: at rest for ever, or the closed form's slide to O(h).
#include <nsh/scalar.hpp>

#include <nsh/cases/friction.hpp>
#include <nsh/driver.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using nsh::Index;
using nsh::Rational;

template <class Scalar>
nsh::LinearCase<Scalar> load_friction_case(const std::string& name) {
  return nsh::load_linear_case<Scalar>(nsh::read_case_file(nsh::locate_case(name)));
}

template <class Scalar>
nsh::Trajectory<Scalar> run_theta_one(const nsh::LinearCase<Scalar>& c, const Scalar& h) {
  auto scheme = nsh::Registry::builtin().make<Scalar>("moreau-jean:theta=1");
  return nsh::record<Scalar>(*scheme, c.model, c.initial, h, c.T);
}

TEST(FrictionMoreauJean, SlidingBlockStopsExactlyAtTheDiscreteStop) {
  const auto c = load_friction_case<Rational>("sliding-block");
  const Rational m = c.model.M(0, 0), g = -c.model.F(1) / m, mu = c.model.mu(0);
  const Rational v0 = c.initial.v(0);
  for (const Rational& h : {*c.h, Rational(1, 30), Rational(1, 128)}) {
    const auto trajectory = run_theta_one<Rational>(c, h);
    const nsh::cases::DiscreteSlidingStop<Rational> stop{v0, mu * g * h};
    ASSERT_LT(Rational(stop.last_sliding_step() + 1) * h, c.T);  // the stop is in the run
    for (std::size_t k = 0; k < trajectory.states.size(); ++k) {
      const auto& s = trajectory.states[k];
      const Index step = static_cast<Index>(k);
      ASSERT_EQ(s.v(0), stop.velocity(step)) << "h = " << h << ", step " << k;
      ASSERT_EQ(s.q(0), stop.displacement(step, h)) << "h = " << h << ", step " << k;
      EXPECT_EQ(s.q(1), 0);
      EXPECT_EQ(s.v(1), 0);
      if (k == 0) continue;
      const auto& summary = trajectory.steps[k - 1];
      // The normal impulse carries the weight; the friction impulse is the momentum lost.
      EXPECT_EQ(summary.impulse(0), m * g * h) << k;
      ASSERT_EQ(summary.tangential_impulse.size(), 1) << k;
      EXPECT_EQ(summary.tangential_impulse(0), m * (s.v(0) - trajectory.states[k - 1].v(0))) << k;
    }
  }
}

// The rolling bodies in Rational: the rolling speed exactly, the onset within one step.
void expect_exact_rolling_speed(const std::string& name, const Rational& speed_factor,
                                const Rational& time_factor) {
  const auto c = load_friction_case<Rational>(name);
  const Rational v0 = c.initial.v(0), mu = c.model.mu(0), g = -c.model.F(1) / c.model.M(1, 1);
  const Rational t_roll = time_factor * v0 / (mu * g);
  for (const Rational& h : {Rational(1, 50), *c.h, Rational(1, 300)}) {
    const auto trajectory = run_theta_one<Rational>(c, h);
    std::optional<Rational> onset;
    for (const auto& s : trajectory.states)
      if (!onset && c.model.tangential_velocity(s.v)(0) == 0) onset = s.t;
    ASSERT_TRUE(onset) << name << " h = " << h;
    EXPECT_GE(*onset, t_roll) << name << " h = " << h;
    EXPECT_LT(*onset - t_roll, h) << name << " h = " << h;
    const auto& last = trajectory.states.back();
    EXPECT_EQ(last.v(0), speed_factor * v0) << name << " h = " << h;
    EXPECT_EQ(c.model.tangential_velocity(last.v)(0), 0) << name << " h = " << h;
  }
}

TEST(FrictionMoreauJean, SphereRollsAtExactlyFiveSevenths) {
  expect_exact_rolling_speed("rolling-sphere", Rational(5, 7), Rational(2, 7));
}

TEST(FrictionMoreauJean, CylinderRollsAtExactlyTwoThirds) {
  expect_exact_rolling_speed("rolling-cylinder", Rational(2, 3), Rational(1, 3));
}

// The positions converge at order 1 to the closed form (double, h = 1/100 .. 1/1600): the
// error at T shrinks by about 2 when h halves, and is below h times a constant. (x_k is a
// right-endpoint Riemann sum of the closed form's x', a Lipschitz function with a kink at the
// stop or the onset of rolling: error -h (x'(0) - x'(T))/2 + O(h^2); the block's is exactly
// -mu g h^2 (K + f^2)/2 with v0/(mu g h) = K + f.)
TEST(FrictionMoreauJean, PositionsConvergeAtOrderOne) {
  for (const std::string name :
       {"sliding-block", "rolling-sphere", "rolling-cylinder", "incline-slide"}) {
    const auto c = load_friction_case<double>(name);
    const auto exact = load_friction_case<Rational>(name);
    const auto closed =
        nsh::cases::PersistentContact<Rational>::from_case(exact.model, exact.initial);
    const auto reference = closed.state(exact.T);
    std::vector<double> errors;
    for (const double h : {1.0 / 100, 1.0 / 200, 1.0 / 400, 1.0 / 800, 1.0 / 1600}) {
      const auto trajectory = run_theta_one<double>(c, h);
      const auto& last = trajectory.states.back();
      // x (the rolling angle's error is the same O(h) times the spin 1/R).
      const double error = std::abs(last.q(0) - nsh::scalar_cast<double>(reference.q(0)));
      EXPECT_LT(error, 10 * h) << name << " h = " << h;
      errors.push_back(error);
    }
    const double order = std::log2(errors.front() / errors.back()) / 4;
    EXPECT_GT(order, 0.8) << name;
    EXPECT_LT(order, 1.3) << name;
  }
}

TEST(FrictionMoreauJean, InclineStickStaysAtRest) {
  const auto c = load_friction_case<Rational>("incline-stick");
  const auto trajectory = run_theta_one<Rational>(c, *c.h);
  const Rational m = c.model.M(0, 0), g = -c.model.F(1) / m;
  for (std::size_t k = 0; k < trajectory.states.size(); ++k) {
    EXPECT_EQ(trajectory.states[k].q, c.initial.q) << k;
    EXPECT_EQ(trajectory.states[k].v, c.initial.v) << k;
    if (k == 0) continue;
    // The friction impulse holds the weight's slope component, m g sin(alpha) h, up the slope.
    EXPECT_EQ(trajectory.steps[k - 1].tangential_impulse(0), m * g * Rational(3, 5) * *c.h) << k;
  }
}

}  // namespace
