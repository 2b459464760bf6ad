// The rod across two corners (nsh/cases/rod_on_corners.hpp): Jacobians against central
// differences in Real50, validation; Moreau–Jean double against Real50, no energy gain at
// theta = 1 with e = 0, penetration of at most O(h).
#include <nsh/scalar.hpp>

#include <nsh/cases/rod_on_corners.hpp>
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace {

using nsh::Matrix;
using nsh::Real50;
using nsh::State;
using nsh::Vector;
using nsh::cases::RodOnCorners;
using nsh::cases::RodOnCornersParameters;

// l = 1, corners at (-1/2, 0) and (1/2, 1/5): a step, the rod lands on the higher one first.
template <class Scalar>
RodOnCornersParameters<Scalar> corners_parameters(const Scalar& e, const Scalar& mu) {
  RodOnCornersParameters<Scalar> p;
  p.mass = Scalar(1);
  p.half_length = Scalar(1);
  p.gravity = Scalar(981) / 100;
  p.restitution = e;
  p.friction_coefficient = mu;
  p.corner_x = Vector<Scalar>(2);
  p.corner_x << Scalar(-1) / 2, Scalar(1) / 2;
  p.corner_y = Vector<Scalar>(2);
  p.corner_y << Scalar(0), Scalar(1) / 5;
  return p;
}

template <class Scalar>
State<Scalar> initial() {
  State<Scalar> s;
  s.t = Scalar(0);
  s.q = Vector<Scalar>(3);
  s.q << Scalar(1) / 10, Scalar(1) / 2, Scalar(0);
  s.v = Vector<Scalar>(3);
  s.v << Scalar(1) / 2, Scalar(0), Scalar(1) / 2;
  return s;
}

TEST(RodOnCorners, JacobiansAreTheGradientsOfGapAndAbscissa) {
  const RodOnCorners<Real50> rod(corners_parameters<Real50>(Real50(0), Real50(1) / 2));
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> draw(-3000, 3000);
  const Real50 step("1e-15"), bound("1e-27");
  for (int k = 0; k < 12; ++k) {
    Vector<Real50> q(3);
    q << Real50(draw(rng)) / 1000, Real50(draw(rng)) / 1000, Real50(draw(rng)) / 997;
    const Matrix<Real50> dg = nsh::central_difference_gradients<Real50>(
        [&](const Vector<Real50>& x) { return rod.gap(x); }, q, step);
    EXPECT_LT(nsh::max_abs(Matrix<Real50>(rod.normal_jacobian(q) - dg)), bound);
    const Matrix<Real50> ds = nsh::central_difference_gradients<Real50>(
        [&](const Vector<Real50>& x) { return rod.abscissae(x); }, q, step);
    EXPECT_LT(nsh::max_abs(Matrix<Real50>(rod.tangent_jacobian(q) - ds)), bound);
  }
  // Horizontal rod at height y: the gaps are y - r_i, the lever arms the corners' abscissae.
  Vector<Real50> q(3);
  q << Real50(0), Real50(1), Real50(0);
  EXPECT_EQ(rod.gap(q)(0), Real50(1));
  EXPECT_EQ(rod.gap(q)(1), Real50(4) / 5);
  EXPECT_EQ(rod.normal_jacobian(q)(2, 1), Real50(1) / 2);
}

TEST(RodOnCorners, BadParametersNameTheField) {
  const auto field_of = [](RodOnCornersParameters<double> p) {
    try {
      RodOnCorners<double> rod(p);
    } catch (const nsh::ModelError& e) {
      return e.field();
    }
    return std::string("none");
  };
  auto p = corners_parameters<double>(0, 0.5);
  EXPECT_EQ(field_of(p), "none");
  p.half_length = 0.4;  // corners 1 apart do not fit under a rod 0.8 long
  EXPECT_EQ(field_of(p), "corner_x");
  p = corners_parameters<double>(0, 0.5);
  p.corner_x << 0.5, -0.5;
  EXPECT_EQ(field_of(p), "corner_x");
  p = corners_parameters<double>(0, 0.5);
  p.corner_y(1) = std::nan("");
  EXPECT_EQ(field_of(p), "corner_y");
  p = corners_parameters<double>(0, -1);
  EXPECT_EQ(field_of(p), "friction_coefficient");
  p = corners_parameters<double>(2, 0);
  EXPECT_EQ(field_of(p), "restitution");
}

TEST(RodOnCornersMoreauJean, DoubleAgreesWithReal50AndStaysOnTheCorners) {
  const RodOnCorners<double> d(corners_parameters<double>(0.5, 0.5));
  const RodOnCorners<Real50> r(corners_parameters<Real50>(Real50(1) / 2, Real50(1) / 2));
  for (const char* spec : {"moreau-jean:activation=position", "moreau-jean:theta=1"}) {
    SCOPED_TRACE(spec);
    auto sd = nsh::Registry::builtin().make<double>(spec);
    auto sr = nsh::Registry::builtin().make<Real50>(spec);
    const auto a = nsh::record<double>(*sd, d, initial<double>(), 1e-3, 1.0);
    const auto b = nsh::record<Real50>(*sr, r, initial<Real50>(), Real50(1) / 1000, Real50(1));
    ASSERT_EQ(a.steps.size(), b.steps.size());
    double worst = 0;
    int contact_steps = 0;
    for (std::size_t k = 0; k < a.steps.size(); ++k) {
      const Vector<double> q = nsh::scalar_cast<double>(b.states[k + 1].q);
      worst = std::max(worst, (a.states[k + 1].q - q).cwiseAbs().maxCoeff());
      if (!a.steps[k].index_set.empty()) ++contact_steps;
      // The model holds while both corners lie under the rod.
      EXPECT_LT(d.abscissae(a.states[k + 1].q).cwiseAbs().maxCoeff(), 1.0) << k;
    }
    EXPECT_LT(worst, 1e-9);
    EXPECT_GT(contact_steps, 100);
  }
}

TEST(RodOnCornersMoreauJean, EnergyDoesNotIncreaseAndPenetrationIsOrderH) {
  const RodOnCorners<double> rod(corners_parameters<double>(0, 0.5));
  for (double h : {1e-2, 1e-3, 1e-4}) {
    auto scheme = nsh::Registry::builtin().make<double>("moreau-jean:theta=1");
    const auto t = nsh::record<double>(*scheme, rod, initial<double>(), h, 1.0);
    double lowest = 1;
    for (const auto& s : t.steps) {
      ASSERT_LE(s.E_after - s.E_before, 1e-11) << "h = " << h << ", t = " << s.t_after;
      lowest = std::min(lowest, s.gap_after.minCoeff());
    }
    EXPECT_GE(lowest, -4 * h) << "h = " << h;
    EXPECT_LT(lowest, 0.05) << "the rod must reach the corners";
  }
}

}  // namespace
