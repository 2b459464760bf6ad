// Penalty schemes: seed 004's penalty line exactly (first order), and the second-order
// spring-dashpot penalty on the linear model with its energy ledger.
#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/io/sweeping_case.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/penalty2.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using nsh::Rational;
using Q = Rational;

template <class Scalar>
nsh::SweepingCase<Scalar> penalty_line() {
  return nsh::load_sweeping_case<Scalar>(
      nsh::read_case_file(std::string(NSH_SOURCE_DIR) + "/cases/data/penalty-line.json"));
}

std::string spec(const std::string& kappa, const std::string& method) {
  return "penalty:kappa=" + kappa + ",method=" + method;
}

TEST(FirstOrderPenalty, Seed004ExplicitSecondStepIsKappaHSquaredMinusTwoH) {
  auto c = penalty_line<Q>();
  for (const auto& [kappa, h] : {std::pair{Q(1000), Q(3) / 1000}, std::pair{Q(1000), Q(1) / 100},
                                 std::pair{Q(10000), Q(1) / 1000}, std::pair{Q(100), Q(1) / 10}}) {
    c.T = Q(2) * h;
    const auto t = nsh::run_first_order<Q>(spec(kappa.str(), "explicit"), c, h);
    ASSERT_GE(t.states.size(), 3u);
    EXPECT_EQ(t.states[1].x(0), -h);
    EXPECT_EQ(t.states[2].x(0), kappa * h * h - Q(2) * h);
    EXPECT_GT(t.states[2].x(0), Q(0));  // h kappa > 2: out of C
  }
}

TEST(FirstOrderPenalty, ExplicitStaysInBandIffHKappaAtMostTwo) {
  auto c = penalty_line<Q>();
  const Q kappa(1000);
  for (const Q& h : {Q(1) / 2000, Q(1) / 1000, Q(3) / 2000, Q(2) / 1000}) {
    c.T = Q(200) * h;
    const auto t = nsh::run_first_order<Q>(spec("1000", "explicit"), c, h);
    const Q bound = h > Q(1) / kappa ? h : Q(1) / kappa;
    for (const auto& s : t.states) {
      EXPECT_LE(s.x(0), Q(0)) << "h = " << h;
      EXPECT_GE(s.x(0), -bound) << "h = " << h;
    }
  }
  // h kappa = 2 exactly: the iterates alternate -h, 0.
  c.T = Q(4) / 500;
  const auto t = nsh::run_first_order<Q>(spec("1000", "explicit"), c, Q(2) / 1000);
  EXPECT_EQ(t.states[2].x(0), Q(0));
  EXPECT_EQ(t.states[3].x(0), Q(-2) / 1000);
}

TEST(FirstOrderPenalty, OvershootGrowsWithoutBoundAsKappaGrows) {
  auto c = penalty_line<Q>();
  const Q h = Q(1) / 100;
  c.T = Q(2) * h;
  Q previous(0);
  for (const char* kappa : {"1000", "10000", "100000", "1000000"}) {
    const auto t = nsh::run_first_order<Q>(spec(kappa, "explicit"), c, h);
    EXPECT_GT(t.states[2].x(0), previous);
    EXPECT_GT(t.states[2].x(0), Q(10) * previous);
    previous = t.states[2].x(0);
  }
  EXPECT_EQ(previous, Q(1000000) * h * h - Q(2) * h);
}

TEST(FirstOrderPenalty, ImplicitIsExactBackwardEulerAndStaysInBand) {
  auto c = penalty_line<Q>();
  const Q kappa(1000);
  for (const Q& h : {Q(1) / 1000, Q(1) / 100, Q(1) / 2}) {
    c.T = Q(20) * h;
    const auto t = nsh::run_first_order<Q>(spec("1000", "implicit"), c, h);
    EXPECT_EQ(t.states[1].x(0), -h / (Q(1) + h * kappa));
    for (const auto& s : t.states) {
      EXPECT_LE(s.x(0), Q(0));
      EXPECT_GE(s.x(0), Q(-1) / kappa);
    }
    for (const auto& s : t.steps) EXPECT_EQ(s.solve_residual, Q(0));
  }
}

TEST(FirstOrderPenalty, ExactPenaltyPathWithinOneOverKappa) {
  // y_kappa(t) = -(1 - exp(-kappa t))/kappa: sup |y_kappa| <= 1/kappa; implicit Euler follows it.
  auto c = penalty_line<double>();
  for (double kappa : {10.0, 100.0, 1000.0}) {
    const double h = 1e-2 / kappa;
    c.T = 5.0 / kappa;
    const auto t = nsh::run_first_order<double>(
        "penalty:kappa=" + std::to_string(kappa) + ",method=implicit", c, h);
    for (const auto& s : t.states) {
      const double exact = -(1 - std::exp(-kappa * s.t)) / kappa;
      EXPECT_LE(std::abs(exact), 1 / kappa);
      EXPECT_NEAR(s.x(0), exact, 2e-2 / kappa);
    }
  }
}

TEST(FirstOrderPenalty, SpecErrors) {
  auto c = penalty_line<Q>();
  EXPECT_THROW(nsh::run_first_order<Q>("penalty:kappa=-1", c, Q(1) / 10), nsh::SpecError);
  EXPECT_THROW(nsh::run_first_order<Q>("penalty:method=midpoint", c, Q(1) / 10), nsh::SpecError);
  EXPECT_THROW(nsh::run_first_order<Q>("penalty:stiffness=1", c, Q(1) / 10), nsh::SpecError);
}

// A ball of mass 2 falling onto the ground under gravity (gap g = q).
template <class Scalar>
nsh::LinearModel<Scalar> ball(const Scalar& gravity) {
  nsh::LinearModel<Scalar> m;
  m.name = "ball";
  m.M = nsh::Matrix<Scalar>::Constant(1, 1, Scalar(2));
  m.G = nsh::Matrix<Scalar>::Constant(1, 1, Scalar(1));
  nsh::fill_defaults(m);
  m.F(0) = Scalar(-2) * gravity;
  return m;
}

template <class Scalar>
void expect_ledger(const nsh::Trajectory<Scalar>& t, const Scalar& tol) {
  for (const auto& s : t.steps) {
    ASSERT_TRUE(s.has_stored_energy);
    EXPECT_LE(nsh::abs_value<Scalar>(s.energy_identity_defect()), tol);
    const Scalar spring_split = s.W_contact - ((s.stored_energy_before - s.stored_energy_after) +
                                               s.W_dashpot - s.stored_energy_dissipation);
    EXPECT_LE(nsh::abs_value(spring_split), tol);
  }
}

TEST(Penalty2, ExactEnergyLedgerInRationalBothMethods) {
  const auto model = ball<Q>(Q(10));
  nsh::State<Q> x0{Q(0), nsh::Vector<Q>::Constant(1, Q(1) / 10),
                   nsh::Vector<Q>::Constant(1, Q(-1))};
  for (const char* method : {"explicit", "implicit"}) {
    auto scheme = nsh::Registry::builtin().make<Q>(
        std::string("penalty2:kappa=1000,damping=3,method=") + method);
    EXPECT_EQ(scheme->info().family, "penalty2");
    EXPECT_FALSE(scheme->info().impulse_lcp);
    const auto t = nsh::record<Q>(*scheme, model, x0, Q(1) / 100, Q(1) / 2);
    expect_ledger<Q>(t, Q(0));
    bool penetrated = false;
    for (const auto& s : t.steps) {
      penetrated = penetrated || s.gap_after(0) < Q(0);
      if (std::string(method) == "implicit") {
        EXPECT_GE(s.numerical_dissipation, Q(0));
        EXPECT_GE(s.stored_energy_dissipation, Q(0));
        EXPECT_LE(s.W_dashpot, Q(0));
      } else {
        EXPECT_LE(s.stored_energy_dissipation, Q(0));
      }
      for (nsh::Index a = 0; a < s.impulse.size(); ++a) EXPECT_GE(s.impulse(a), Q(0));
    }
    EXPECT_TRUE(penetrated);
  }
}

TEST(Penalty2, ImplicitPenetrationBoundWithoutForce) {
  const auto model = ball<Q>(Q(0));
  nsh::State<Q> x0{Q(0), nsh::Vector<Q>::Constant(1, Q(1) / 100),
                   nsh::Vector<Q>::Constant(1, Q(-2))};
  const Q kappa(400);
  auto scheme = nsh::Registry::builtin().make<Q>("penalty2:kappa=400,method=implicit");
  const auto t = nsh::record<Q>(*scheme, model, x0, Q(1) / 10, Q(2));
  const Q H0 = model.energy(x0.q, x0.v);  // g0 > 0: no stored energy initially
  Q deepest(0);
  for (const auto& s : t.steps) {
    const Q g = s.gap_after(0) < Q(0) ? Q(s.gap_after(0)) : Q(0);
    EXPECT_LE(g * g, Q(2) * H0 / kappa);
    if (g < deepest) deepest = g;
    EXPECT_LE(s.E_after + s.stored_energy_after, s.E_before + s.stored_energy_before);
  }
  EXPECT_LT(deepest, Q(0));
}

TEST(Penalty2, BouncingBallReboundsInDouble) {
  const auto model = ball<double>(9.81);
  nsh::State<double> x0{0.0, nsh::Vector<double>::Constant(1, 1.0),
                        nsh::Vector<double>::Constant(1, 0.0)};
  for (const char* method : {"explicit", "implicit"}) {
    auto scheme = nsh::Registry::builtin().make<double>(
        std::string("penalty2:kappa=1e5,damping=0,method=") + method);
    const auto t = nsh::record<double>(*scheme, model, x0, 1e-4, 0.6);
    expect_ledger<double>(t, 1e-9);
    double max_v = 0;
    for (const auto& s : t.states) max_v = std::max(max_v, s.v(0));
    EXPECT_GT(max_v, 3.0) << method;  // rebounds upward (impact speed sqrt(2 g) = 4.43)
  }
}

TEST(Penalty2, SpecErrors) {
  EXPECT_THROW(nsh::Registry::builtin().make<double>("penalty2:kappa=0"), nsh::SpecError);
  EXPECT_THROW(nsh::Registry::builtin().make<double>("penalty2:damping=-1"), nsh::SpecError);
  EXPECT_THROW(nsh::Registry::builtin().make<double>("penalty2:method=rk4"), nsh::SpecError);
}

}  // namespace
