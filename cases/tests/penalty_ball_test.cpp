// The bouncing ball under the second-order penalty (cases/data/bouncing-ball-penalty2.json):
// penalty2 against the closed form of the contact phase (nsh/cases/penalty_ball.hpp).
#include <nsh/scalar.hpp>

#include <nsh/cases/penalty_ball.hpp>
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

using nsh::Real50;

const std::string case_path =
    std::string(NSH_SOURCE_DIR) + "/cases/data/bouncing-ball-penalty2.json";

/// The spec whose facts the case file states ("facts": {"scheme": ...}).
std::string case_scheme() {
  return nsh::read_case_file(case_path).root.at("facts").at("scheme").get<std::string>();
}

struct Contact {
  double entry{std::numeric_limits<double>::quiet_NaN()};
  double exit{std::numeric_limits<double>::quiet_NaN()};
  double exit_velocity{0};
  double deepest{0};  ///< min q over the run (< 0 in contact)
};

/// The first contact phase of a run, entry and exit times at the linear interpolant's zeros.
Contact first_contact(const nsh::Trajectory<double>& t) {
  Contact c;
  for (std::size_t k = 1; k < t.states.size(); ++k) {
    const auto& a = t.states[k - 1];
    const auto& b = t.states[k];
    const double qa = a.q(0), qb = b.q(0);
    c.deepest = std::min(c.deepest, qb);
    const double zero = a.t + (b.t - a.t) * qa / (qa - qb);
    if (std::isnan(c.entry) && qa >= 0 && qb < 0) c.entry = zero;
    if (!std::isnan(c.entry) && std::isnan(c.exit) && qa < 0 && qb >= 0) {
      c.exit = zero;
      c.exit_velocity = b.v(0);  // the spring is off from here: free flight
      break;
    }
  }
  return c;
}

nsh::Trajectory<double> run(const std::string& spec, const nsh::LinearModel<double>& model,
                            const nsh::State<double>& x0, double h, double T) {
  auto scheme = nsh::Registry::builtin().make<double>(spec);
  return nsh::record<double>(*scheme, model, x0, h, T);
}

TEST(PenaltyBall, ClosedFormSolvesTheContactPhaseInReal50) {
  const auto lc = nsh::load_linear_case<Real50>(nsh::read_case_file(case_path));
  const auto spec = nsh::Registry::builtin().resolve(case_scheme());
  const auto b = nsh::cases::PenaltyBall<Real50>::from_case(lc.model, lc.initial,
                                                            spec.number<Real50>("kappa"));
  using std::cos;
  using std::sin;
  const Real50 w = b.omega(), V = b.impact_speed(), delta = b.mass * b.gravity / b.kappa;
  auto q = [&](const Real50& s) { return -delta * (1 - cos(w * s)) - V / w * sin(w * s); };
  auto v = [&](const Real50& s) { return -delta * w * sin(w * s) - V * cos(w * s); };
  const Real50 tol("1e-45");
  EXPECT_LT(abs(q(b.contact_duration())), tol);
  EXPECT_LT(abs(v(b.contact_duration()) - b.exit_velocity()), tol);
  EXPECT_EQ(b.exit_velocity(), V);
  // Deepest point: q' = 0 there and q = -d.
  const Real50 s_deep = (b.contact_duration()) / 2;
  EXPECT_LT(abs(v(s_deep)), tol);
  EXPECT_LT(abs(q(s_deep) + b.max_penetration()), tol);
  // Gravity lengthens the contact beyond pi/sqrt(kappa/m).
  EXPECT_GT(b.contact_duration(), b.undamped_spring_duration());
}

TEST(PenaltyBall, ExplicitPenaltyMatchesDurationExitVelocityAndPenetration) {
  const auto lc = nsh::load_linear_case<double>(nsh::read_case_file(case_path));
  const std::string spec = case_scheme();
  const double kappa = nsh::Registry::builtin().resolve(spec).number<double>("kappa");
  const auto b = nsh::cases::PenaltyBall<double>::from_case(lc.model, lc.initial, kappa);
  const double h = *lc.h;
  ASSERT_LT(b.omega() * h, 0.02);  // the spring is resolved
  const Contact c = first_contact(run(spec, lc.model, lc.initial, h, lc.T));
  ASSERT_FALSE(std::isnan(c.exit)) << "the ball never left the spring";
  EXPECT_NEAR(c.entry, b.impact_time(), h);  // q_{k+1} = q_k + h v_{k+1}: h/2 early
  const double duration = c.exit - c.entry;
  EXPECT_NEAR(duration, b.contact_duration(), h / 10);  // 1.3e-3 h here
  // The gravity term 2 atan(g/(omega V))/omega = 4.4 h is resolved: pi/omega alone is wrong.
  EXPECT_GT(std::abs(duration - b.undamped_spring_duration()), 3 * h);
  EXPECT_NEAR(c.exit_velocity, b.exit_velocity(), 1e-3 * b.exit_velocity());
  EXPECT_NEAR(-c.deepest, b.max_penetration(), 1e-3 * b.max_penetration());
}

TEST(PenaltyBall, WithoutGravityTheContactLastsPiOverOmega) {
  // The same spring hit at V = 1 with a gravity of 1e-9: T_c = pi/sqrt(kappa/m) to 1e-11.
  auto lc = nsh::load_linear_case<double>(nsh::read_case_file(case_path));
  lc.model.F(0) = -1e-9;
  lc.initial.q(0) = 1.0 / 100;
  lc.initial.v(0) = -1;
  const std::string spec = case_scheme();
  const double kappa = nsh::Registry::builtin().resolve(spec).number<double>("kappa");
  const auto b = nsh::cases::PenaltyBall<double>::from_case(lc.model, lc.initial, kappa);
  EXPECT_NEAR(b.contact_duration(), M_PI / std::sqrt(kappa), 1e-11);
  const double h = *lc.h;
  const Contact c = first_contact(run(spec, lc.model, lc.initial, h, 0.1));
  ASSERT_FALSE(std::isnan(c.exit));
  EXPECT_NEAR(c.exit - c.entry, M_PI / std::sqrt(kappa), h / 10);
  EXPECT_NEAR(c.exit_velocity, 1.0, 1e-3);
  EXPECT_NEAR(-c.deepest, 1 / std::sqrt(kappa), 1e-3 / std::sqrt(kappa));  // V / omega
}

TEST(PenaltyBall, ImplicitPenaltyDissipatesAndStaysAboveTheDeepestPoint) {
  const auto lc = nsh::load_linear_case<double>(nsh::read_case_file(case_path));
  auto spec = nsh::Registry::builtin().resolve(case_scheme());
  spec.set("method", "implicit");
  const double kappa = spec.number<double>("kappa");
  const auto b = nsh::cases::PenaltyBall<double>::from_case(lc.model, lc.initial, kappa);
  const auto t = run(spec.str(), lc.model, lc.initial, *lc.h, lc.T);
  const Contact c = first_contact(t);
  ASSERT_FALSE(std::isnan(c.exit));
  EXPECT_LT(c.exit_velocity, b.exit_velocity());  // backward Euler's D >= 0
  EXPECT_GT(c.exit_velocity, 0.9 * b.exit_velocity());
  // E + V - F q never increases, so the gap never goes below the exact deepest point -d.
  for (const auto& s : t.states) EXPECT_GE(s.q(0), -b.max_penetration() * (1 + 1e-12));
  EXPECT_LT(c.deepest, -0.9 * b.max_penetration());
}

TEST(PenaltyBall, BadInputNamesTheField) {
  const auto lc = nsh::load_linear_case<double>(nsh::read_case_file(case_path));
  try {
    nsh::cases::PenaltyBall<double>::from_case(lc.model, lc.initial, 0.0);
    FAIL() << "kappa = 0 accepted";
  } catch (const nsh::InputError& e) {
    EXPECT_EQ(e.field(), "kappa");
  }
}

}  // namespace
