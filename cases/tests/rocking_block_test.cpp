// The rocking block (nsh/cases/rocking_block.hpp): its gaps and Jacobians against central
// differences in Real50, its energy, its validation; and Moreau–Jean reproducing Housner's
// ratio phi'+ / phi'- = 1 - (3/2) sin^2 alpha to O(h) without slip, which e > 0 or mu = 0 break.
#include <nsh/scalar.hpp>

#include <nsh/cases/rocking_block.hpp>
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>
#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace {

using nsh::Matrix;
using nsh::Real50;
using nsh::State;
using nsh::Trajectory;
using nsh::Vector;
using nsh::cases::RockingBlock;
using nsh::cases::RockingBlockParameters;

RockingBlockParameters<Real50> parameters() {
  RockingBlockParameters<Real50> p;
  p.mass = Real50(3) / 2;
  p.half_width = Real50(3) / 10;
  p.half_height = Real50(7) / 10;
  p.gravity = Real50(981) / 100;
  p.restitution = Real50(1) / 2;
  p.friction_coefficient = Real50(1) / 4;
  return p;
}

// Random configurations over every quadrant of phi.
std::vector<Vector<Real50>> configurations() {
  std::mt19937 rng(29);
  std::uniform_int_distribution<int> draw(-3000, 3000);
  std::vector<Vector<Real50>> qs;
  for (int k = 0; k < 12; ++k) {
    Vector<Real50> q(3);
    q << Real50(draw(rng)) / 1000, Real50(draw(rng)) / 1000, Real50(draw(rng)) / 997;
    qs.push_back(q);
  }
  return qs;
}

// As in rod_test.cpp: central differences at 1e-15 err by ~1e-30, far below a wrong term.
const Real50 step("1e-15");
const Real50 bound("1e-27");

TEST(RockingBlock, JacobiansAreTheGradientsOfTheCornerCoordinates) {
  const RockingBlock<Real50> block(parameters());
  for (const auto& q : configurations()) {
    const Matrix<Real50> corners = block.corner_positions(q);
    const Vector<Real50> g = block.gap(q);
    EXPECT_EQ(g(0), corners(1, 0));
    EXPECT_EQ(g(1), corners(1, 1));
    const Matrix<Real50> dg = nsh::central_difference_gradients<Real50>(
        [&](const Vector<Real50>& x) { return block.gap(x); }, q, step);
    EXPECT_LT(nsh::max_abs(Matrix<Real50>(block.normal_jacobian(q) - dg)), bound) << q.transpose();
    const Matrix<Real50> dx = nsh::central_difference_gradients<Real50>(
        [&](const Vector<Real50>& x) {
          return Vector<Real50>(block.corner_positions(x).row(0).transpose());
        },
        q, step);
    EXPECT_LT(nsh::max_abs(Matrix<Real50>(block.tangent_jacobian(q) - dx)), bound) << q.transpose();
  }
}

TEST(RockingBlock, CornersAreTheBottomOfTheRectangle) {
  // At phi = 0 the corners are (x -+ b, y - c); a quarter turn puts the body's bottom edge on
  // the right: corner 1 (body (-b, -c)) at (x + c, y - b).
  const auto p = parameters();
  const RockingBlock<Real50> block(p);
  Vector<Real50> q(3);
  q << Real50(1), Real50(2), Real50(0);
  Matrix<Real50> c = block.corner_positions(q);
  EXPECT_EQ(c(0, 0), 1 - p.half_width);
  EXPECT_EQ(c(0, 1), 1 + p.half_width);
  EXPECT_EQ(c(1, 0), 2 - p.half_height);
  EXPECT_EQ(c(1, 1), 2 - p.half_height);
  q(2) = boost::math::constants::half_pi<Real50>();
  c = block.corner_positions(q);
  EXPECT_LT(nsh::abs_value<Real50>(c(0, 0) - (1 + p.half_height)), Real50("1e-45"));
  EXPECT_LT(nsh::abs_value<Real50>(c(1, 0) - (2 - p.half_width)), Real50("1e-45"));
  // resting_on_corner puts the lower corner on the floor, the other above it.
  for (const Real50& phi : {Real50(1) / 5, Real50(-1) / 5}) {
    const Vector<Real50> g = block.gap(block.resting_on_corner(phi));
    EXPECT_LT(nsh::abs_value<Real50>(std::min(g(0), g(1))), Real50("1e-48"));
    EXPECT_GT(std::max(g(0), g(1)), Real50(1) / 10);
  }
}

TEST(RockingBlock, EnergyIsKineticPlusGravity) {
  const auto p = parameters();
  const RockingBlock<Real50> block(p);
  const Real50 b = p.half_width, c = p.half_height;
  EXPECT_EQ(block.inertia(), p.mass * (b * b + c * c) / 3);
  Vector<Real50> q(3), v(3);
  q << Real50(1) / 3, Real50(2), Real50(1) / 5;
  v << Real50(-1), Real50(1) / 2, Real50(3);
  const Real50 expected = p.mass * (v(0) * v(0) + v(1) * v(1)) / 2 +
                          block.inertia() * v(2) * v(2) / 2 + p.mass * p.gravity * q(1);
  EXPECT_LT(nsh::abs_value<Real50>(block.energy(q, v) - expected), Real50("1e-48"));
  EXPECT_LT(nsh::force_split_residual<Real50>(block, Real50(0), q, v, step), bound);
  // Housner: r = 1 - (3/2) b^2 / (b^2 + c^2); here 1 - (3/2)(9/58) = 89/116.
  EXPECT_LT(nsh::abs_value<Real50>(block.housner_ratio() - Real50(89) / 116), Real50("1e-48"));
  // Landing speed: rocking about a corner conserves 1/2 I_O phi'^2 + m g y with I_O = 4 m R^2/3.
  const Real50 phi0 = Real50(1) / 5;
  const Real50 w = block.landing_angular_speed(phi0);
  const Real50 R2 = b * b + c * c;
  const Real50 y0 = block.resting_on_corner(phi0)(1), y1 = c;
  EXPECT_LT(nsh::abs_value<Real50>(2 * R2 * w * w / 3 - p.gravity * (y0 - y1)), Real50("1e-45"));
}

TEST(RockingBlock, BadParametersNameTheField) {
  const auto field_of = [](RockingBlockParameters<double> p) {
    try {
      RockingBlock<double> block(p);
    } catch (const nsh::ModelError& e) {
      return e.field();
    }
    return std::string("none");
  };
  RockingBlockParameters<double> p;
  p.mass = -1;
  EXPECT_EQ(field_of(p), "mass");
  p = {};
  p.half_width = 0;
  EXPECT_EQ(field_of(p), "half_width");
  p = {};
  p.half_height = std::nan("");
  EXPECT_EQ(field_of(p), "half_height");
  p = {};
  p.gravity = -9.81;
  EXPECT_EQ(field_of(p), "gravity");
  p = {};
  p.restitution = 1.5;
  EXPECT_EQ(field_of(p), "restitution");
  p = {};
  p.friction_coefficient = -0.1;
  EXPECT_EQ(field_of(p), "friction_coefficient");
  p = {};
  EXPECT_EQ(field_of(p), "none");
  const auto c = nsh::cases::rocking_block_case<double>();
  EXPECT_NO_THROW(c.model.validate(c.initial));
  const auto c50 = nsh::cases::rocking_block_case<Real50>();
  EXPECT_NO_THROW(c50.model.validate(c50.initial));
}

// The first landing on corner 2 of a block released from rest on corner 1 at phi0 > 0.
struct Landing {
  double before{0};        ///< phi' at the start of the step where corner 2 first takes impulse
  double after{0};         ///< phi' at the end of the first later step where corner 1 is free
  double pivot_slip{0};    ///< max |U_T| of the pivot corner 1 while rocking on it
  double landing_slip{0};  ///< max |U_T| of corner 2 over the few steps after the landing
  bool found{false};
};

Landing land(const RockingBlock<double>& block, const std::string& spec, double h) {
  State<double> initial{0.0, block.resting_on_corner(0.2), Vector<double>::Zero(3)};
  auto scheme = nsh::Registry::builtin().make<double>(spec);
  const Trajectory<double> t = nsh::record<double>(*scheme, block, initial, h, 0.5);
  Landing l;
  std::size_t k = 0;
  for (; k < t.steps.size(); ++k) {
    if (t.steps[k].impulse(1) > 0) break;
    l.pivot_slip = std::max(
        l.pivot_slip, std::abs(block.tangent_velocity(t.states[k + 1].q, t.states[k + 1].v)(0)));
  }
  if (k == t.steps.size()) return l;
  l.before = t.states[k].v(2);
  for (std::size_t j = k; j < t.steps.size() && j < k + 20; ++j) {
    l.landing_slip = std::max(
        l.landing_slip, std::abs(block.tangent_velocity(t.states[j + 1].q, t.states[j + 1].v)(1)));
    if (t.steps[j].impulse(0) == 0) {
      l.after = t.states[j + 1].v(2);
      l.found = true;
      break;
    }
  }
  return l;
}

RockingBlockParameters<double> catalogue_parameters(double e, double mu) {
  auto p = nsh::cases::rocking_block_case<double>().model.parameters();
  p.restitution = e;
  p.friction_coefficient = mu;
  return p;
}

TEST(RockingBlockMoreauJean, ReproducesHousnersRatioToOrderHWithoutSlip) {
  // Catalogue block (sin^2 alpha = 4/29, r = 23/29), from rest on corner 1 at phi0 = 1/5. Observed
  // |ratio - r| = 3.49e-3, 1.75e-3, 8.73e-4, 4.36e-4, 2.18e-4 for h = 1e-3 ... 6.25e-5 at both
  // theta (order 1.00 on each halving): the impact falls inside a step where gravity still acts
  // and the lifting corner is still active. The pivot's slip is ~0.4 h (theta = 1/2) and ~0.15 h
  // (theta = 1): the O(h) tangential velocity of a corner held at the prediction q*.
  const RockingBlock<double> block(catalogue_parameters(0, 1));
  const double r = block.housner_ratio();
  const double w = block.landing_angular_speed(0.2);
  const std::vector<double> hs = {1e-3, 5e-4, 2.5e-4, 1.25e-4, 6.25e-5};
  for (const char* spec : {"moreau-jean:activation=position,friction=lemke",
                           "moreau-jean:theta=1,activation=position,friction=lemke"}) {
    SCOPED_TRACE(spec);
    std::vector<double> errors;
    for (double h : hs) {
      const Landing l = land(block, spec, h);
      ASSERT_TRUE(l.found) << "h = " << h;
      errors.push_back(std::abs(l.after / l.before - r));
      EXPECT_NEAR(l.before, -w, 5 * h) << "h = " << h;  // the landing speed, to O(h)
      EXPECT_LT(l.pivot_slip, h) << "h = " << h;
      EXPECT_LT(l.landing_slip, h) << "h = " << h;
    }
    for (std::size_t i = 1; i < hs.size(); ++i) {
      const double order = std::log(errors[i - 1] / errors[i]) / std::log(hs[i - 1] / hs[i]);
      EXPECT_GT(order, 0.8) << "h = " << hs[i];
      EXPECT_LT(order, 1.2) << "h = " << hs[i];
    }
    EXPECT_LT(errors.back(), 4 * hs.back());
  }
}

TEST(RockingBlockMoreauJean, RestitutionOrNoFrictionBreakHousnersRatio) {
  // The same landing with e = 1/2 (the landing corner bounces, the block rocks back) or mu = 0
  // (the pivot slides, angular momentum about the landing corner is not conserved) gives a
  // ratio far from r at every h: the test above can fail. Observed: e = 1/2 gives 0.685 and
  // 0.689 at h = 1e-3, 1.25e-4; mu = 0 gives 0.409 and 0.414 with the pivot sliding at ~1 m/s.
  const double r = RockingBlock<double>(catalogue_parameters(0, 1)).housner_ratio();
  const char* spec = "moreau-jean:activation=position,friction=lemke";
  for (const auto& [e, mu] : {std::pair{0.5, 1.0}, std::pair{0.0, 0.0}}) {
    const RockingBlock<double> block(catalogue_parameters(e, mu));
    for (double h : {1e-3, 1.25e-4}) {
      const Landing l = land(block, spec, h);
      const double ratio = l.found ? l.after / l.before : 0.0;
      EXPECT_TRUE(!l.found || std::abs(ratio - r) > 0.05) << "e = " << e << ", mu = " << mu;
    }
  }
}

}  // namespace
