// The planar rod (nsh/cases/rod.hpp): its gap and tangent Jacobians against central differences
// in Real50, its energy against the closed form and along exact free flight, its validation.
#include <nsh/scalar.hpp>

#include <nsh/cases/rod.hpp>
#include <nsh/error.hpp>

#include <gtest/gtest.h>

#include <random>

namespace {

using nsh::Index;
using nsh::Matrix;
using nsh::Real50;
using nsh::Vector;
using nsh::cases::PlanarRod;
using nsh::cases::RodParameters;

RodParameters<Real50> rod_parameters() {
  RodParameters<Real50> p;
  p.mass = Real50(3) / 2;
  p.half_length = Real50(7) / 10;
  p.gravity = Real50(981) / 100;
  p.restitution = Real50(1) / 2;
  p.friction_coefficient = Real50(1) / 4;
  return p;
}

// Random configurations over every quadrant of phi (cos and sin of both signs).
std::vector<Vector<Real50>> rod_configurations() {
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> draw(-3000, 3000);
  std::vector<Vector<Real50>> qs;
  for (int k = 0; k < 12; ++k) {
    Vector<Real50> q(3);
    q << Real50(draw(rng)) / 1000, Real50(draw(rng)) / 1000, Real50(draw(rng)) / 997;
    qs.push_back(q);
  }
  return qs;
}

// Central differences at step s err by O(s^2 |phi'''|): s = 1e-15 leaves ~1e-30, far above the
// 50-digit round-off of the quotient (1e-50 / 1e-15 = 1e-35) and far below any wrong sign or
// factor in a Jacobian.
const Real50 difference_step("1e-15");
const Real50 jacobian_bound("1e-27");

TEST(PlanarRod, GapJacobianIsTheGradientOfTheGaps) {
  const PlanarRod<Real50> rod(rod_parameters());
  for (const auto& q : rod_configurations()) {
    const Matrix<Real50> numeric = nsh::central_difference_gradients<Real50>(
        [&](const Vector<Real50>& x) { return rod.gap(x); }, q, difference_step);
    const Matrix<Real50> W_N = rod.normal_jacobian(q);
    ASSERT_EQ(W_N.rows(), 3);
    ASSERT_EQ(W_N.cols(), 2);
    EXPECT_LT(nsh::max_abs(Matrix<Real50>(W_N - numeric)), jacobian_bound) << q.transpose();
  }
}

TEST(PlanarRod, TangentJacobianIsTheGradientOfTheEndAbscissae) {
  const PlanarRod<Real50> rod(rod_parameters());
  for (const auto& q : rod_configurations()) {
    const Matrix<Real50> numeric = nsh::central_difference_gradients<Real50>(
        [&](const Vector<Real50>& x) {
          return Vector<Real50>(rod.end_positions(x).row(0).transpose());
        },
        q, difference_step);
    EXPECT_LT(nsh::max_abs(Matrix<Real50>(rod.tangent_jacobian(q) - numeric)), jacobian_bound)
        << q.transpose();
    // The gaps are the ends' heights, and the normal Jacobian is their gradient as well.
    const Matrix<Real50> ends = rod.end_positions(q);
    const Vector<Real50> g = rod.gap(q);
    EXPECT_EQ(g(0), ends(1, 0));
    EXPECT_EQ(g(1), ends(1, 1));
  }
}

TEST(PlanarRod, LocalVelocitiesAreTheEndVelocities) {
  // d/dt of the end positions along q + s v is (U_T, U_N) of each end.
  const PlanarRod<Real50> rod(rod_parameters());
  for (const auto& q : rod_configurations()) {
    const Vector<Real50> v = q.reverse() * Real50(2) - Vector<Real50>::Ones(3);
    const auto ends_along = [&](const Real50& s) {
      const Matrix<Real50> e = rod.end_positions(Vector<Real50>(q + s * v));
      Vector<Real50> flat(4);
      flat << e(0, 0), e(0, 1), e(1, 0), e(1, 1);
      return flat;
    };
    const Vector<Real50> rate = (ends_along(difference_step) - ends_along(-difference_step)) /
                                (Real50(2) * difference_step);
    const Vector<Real50> U_T = rod.tangent_velocity(q, v);
    const Vector<Real50> U_N = rod.normal_velocity(q, v);
    EXPECT_LT(nsh::abs_value<Real50>(U_T(0) - rate(0)), jacobian_bound);
    EXPECT_LT(nsh::abs_value<Real50>(U_T(1) - rate(1)), jacobian_bound);
    EXPECT_LT(nsh::abs_value<Real50>(U_N(0) - rate(2)), jacobian_bound);
    EXPECT_LT(nsh::abs_value<Real50>(U_N(1) - rate(3)), jacobian_bound);
  }
}

TEST(PlanarRod, EnergyIsKineticPlusGravity) {
  const auto p = rod_parameters();
  const PlanarRod<Real50> rod(p);
  EXPECT_EQ(rod.inertia(), p.mass * p.half_length * p.half_length / 3);
  Vector<Real50> q(3), v(3);
  q << Real50(1) / 3, Real50(2), Real50(1) / 5;
  v << Real50(-1), Real50(1) / 2, Real50(3);
  const Real50 expected = p.mass * (v(0) * v(0) + v(1) * v(1)) / 2 +
                          rod.inertia() * v(2) * v(2) / 2 + p.mass * p.gravity * q(1);
  EXPECT_LT(nsh::abs_value<Real50>(rod.energy(q, v) - expected), Real50("1e-48"));
  // f = -grad V: gravity does its work through V, nothing is external.
  const Matrix<Real50> grad_V = nsh::central_difference_gradients<Real50>(
      [&](const Vector<Real50>& x) { return Vector<Real50>::Constant(1, rod.potential(x)); }, q,
      difference_step);
  EXPECT_LT(nsh::max_abs(Vector<Real50>(rod.force(Real50(0), q, v) + grad_V.col(0))),
            jacobian_bound);
  EXPECT_EQ(nsh::max_abs(rod.external_force(Real50(0), q, v)), Real50(0));
  EXPECT_LT(nsh::force_split_residual<Real50>(rod, Real50(0), q, v, difference_step),
            jacobian_bound);
}

TEST(PlanarRod, EnergyIsConstantAlongExactFreeFlight) {
  // Away from the floor the motion is a parabola of the centre and a uniform rotation; along it
  // E stays at its initial value up to 50-digit round-off, while the gaps change nonlinearly.
  const auto p = rod_parameters();
  const PlanarRod<Real50> rod(p);
  Vector<Real50> q0(3), v0(3);
  q0 << Real50(0), Real50(10), Real50(1) / 2;
  v0 << Real50(1), Real50(2), Real50(-3);
  const Real50 E0 = rod.energy(q0, v0);
  for (int k = 1; k <= 10; ++k) {
    const Real50 t = Real50(k) / 10;
    Vector<Real50> q = q0 + t * v0, v = v0;
    q(1) -= p.gravity * t * t / 2;
    v(1) -= p.gravity * t;
    EXPECT_LT(nsh::abs_value<Real50>(rod.energy(q, v) - E0), Real50("1e-46")) << k;
  }
}

TEST(PlanarRod, CatalogueCaseIsValidAndFallsOnItsLowerEnd) {
  const auto c = nsh::cases::falling_rod_case<double>();
  EXPECT_NO_THROW(c.model.validate(c.initial));
  const Vector<double> g = c.model.gap(c.initial.q);
  EXPECT_GT(g(0), 0.0);
  EXPECT_LT(g(0), g(1));  // end 1 (at -l) is the lower one for phi0 = 1/2
  EXPECT_EQ(c.model.dofs(), 3);
  EXPECT_EQ(c.model.contacts(), 2);
  EXPECT_EQ(c.model.tangent_directions(), 1);
  EXPECT_EQ(c.model.friction_coefficient().size(), 2);
  const auto c50 = nsh::cases::falling_rod_case<Real50>();
  EXPECT_NO_THROW(c50.model.validate(c50.initial));
}

TEST(PlanarRod, BadParametersNameTheField) {
  const auto field_of = [](RodParameters<double> p) {
    try {
      PlanarRod<double> rod(p);
    } catch (const nsh::ModelError& e) {
      return e.field();
    }
    return std::string("none");
  };
  RodParameters<double> p;
  p.mass = 0;
  EXPECT_EQ(field_of(p), "mass");
  p = {};
  p.half_length = -1;
  EXPECT_EQ(field_of(p), "half_length");
  p = {};
  p.restitution = 1.5;
  EXPECT_EQ(field_of(p), "restitution");
  p = {};
  p.friction_coefficient = -0.1;
  EXPECT_EQ(field_of(p), "friction_coefficient");
  p = {};
  EXPECT_EQ(field_of(p), "none");
  // A state of the wrong size is named by validate.
  const PlanarRod<double> rod(p);
  nsh::State<double> bad{0.0, Vector<double>::Zero(2), Vector<double>::Zero(3)};
  try {
    rod.validate(bad);
    ADD_FAILURE() << "validate accepted a 2-entry q0";
  } catch (const nsh::ModelError& e) {
    EXPECT_EQ(e.field(), "q0");
  }
}

}  // namespace
