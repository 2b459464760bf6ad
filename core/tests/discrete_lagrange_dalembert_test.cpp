// The discrete Lagrange-d'Alembert integrator with the seed's impact step
// (nsh/nonholonomic/discrete_lagrange_dalembert.hpp) on the rolling disk and the knife edge,
// against THEORY §5's list: admissible nodes, discrete constraints to round-off, smooth-phase
// energy exact, lambda_hat > 0, the impact energy jump nonzero with a measured slope ~ 2 in h,
// the post-impact reduced velocity -> the continuous reflection, impact times -> the reference's.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/nonholonomic/discrete_lagrange_dalembert.hpp>
#include <nsh/nonholonomic/exact_reference.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

namespace {

using nsh::Index;
using nsh::Real50;
using nsh::Vector;

template <class Scalar>
nsh::NonholonomicCase<Scalar> load_nonholonomic_case(const std::string& name) {
  return nsh::load_nonholonomic_case<Scalar>(
      nsh::read_case_file(std::string(NSH_SOURCE_DIR) + "/cases/data/" + name + ".json"));
}

// The relative energy jump of each impact: the first regular segment after it against the last
// regular segment before it (the sub-steps alpha h, (1 - alpha) h in between keep E_d by (5d)).
template <class Scalar>
std::vector<Scalar> energy_jumps(const nsh::DlaTrajectory<Scalar>& trajectory) {
  std::vector<Scalar> jumps;
  const auto& s = trajectory.segments;
  for (std::size_t i = 1; i + 2 < s.size(); ++i)
    if (s[i].substep && !s[i - 1].substep && s[i + 1].substep && !s[i + 2].substep)
      jumps.push_back((s[i + 2].energy - s[i - 1].energy) / s[i - 1].energy);
  return jumps;
}

// The largest change of E_d between consecutive regular segments (relative).
template <class Scalar>
Scalar smooth_energy_drift(const nsh::DlaTrajectory<Scalar>& trajectory) {
  Scalar worst(0);
  const auto& s = trajectory.segments;
  for (std::size_t i = 0; i + 1 < s.size(); ++i)
    if (!s[i].substep && !s[i + 1].substep) {
      const Scalar change = nsh::abs_value<Scalar>(s[i + 1].energy - s[i].energy) / s[i].energy;
      if (change > worst) worst = change;
    }
  return worst;
}

template <class Scalar>
void check_structure(const nsh::NonholonomicModel<Scalar>& model,
                     const nsh::DlaTrajectory<Scalar>& trajectory, const Scalar& constraint_bound,
                     const Scalar& g_bound) {
  Scalar worst_g(-1);
  for (const auto& q : trajectory.q) {
    const Scalar g = model.inequality(q).maxCoeff();
    if (g > worst_g) worst_g = g;
  }
  EXPECT_LE(worst_g, Scalar(0)) << "a node outside the admissible set";
  Scalar worst_constraint(0);
  for (const auto& s : trajectory.segments)
    if (s.constraint > worst_constraint) worst_constraint = s.constraint;
  EXPECT_LE(worst_constraint, constraint_bound);
  for (const auto& impact : trajectory.impacts) {
    EXPECT_GT(impact.lambda_hat, Scalar(0));
    EXPECT_LE(nsh::abs_value<Scalar>(impact.g_bar), g_bound);
    EXPECT_GT(impact.alpha, Scalar(0));
    EXPECT_LE(impact.alpha, Scalar(1));
  }
}

double slope(const std::vector<double>& h, const std::vector<double>& error) {
  // Least squares of log(error) against log(h).
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(error[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

TEST(DiscreteLagrangeDAlembert, RollingDiskAgainstTheorySection5) {
  const auto c = load_nonholonomic_case<double>("rolling-disk");
  const auto& model = *c.model;
  const auto reference = nsh::exact_reference<double>(model, c.initial, c.T);
  ASSERT_EQ(reference.impacts.size(), 6u);
  const std::vector<double> steps = {0.02, 0.01, 0.005, 0.0025};
  std::vector<double> worst_jump, reflection_error, time_error;
  for (double h : steps) {
    SCOPED_TRACE("h = " + std::to_string(h));
    const auto trajectory = nsh::run_dla<double>(model, c.initial, h, c.T);
    EXPECT_NEAR(trajectory.t.back(), c.T, 1e-12);
    check_structure<double>(model, trajectory, 1e-14, 1e-13);
    EXPECT_LE(smooth_energy_drift(trajectory), 1e-13);
    ASSERT_EQ(trajectory.impacts.size(), reference.impacts.size());
    const auto jumps = energy_jumps(trajectory);
    ASSERT_EQ(jumps.size(), trajectory.impacts.size());
    double worst = 0, reflection = 0, timing = 0;
    for (std::size_t i = 0; i < jumps.size(); ++i) {
      worst = std::max(worst, std::abs(jumps[i]));
      const auto& impact = trajectory.impacts[i];
      EXPECT_EQ(impact.inequality, reference.impacts[i].inequality);
      // The continuous reflection of the pre-impact reduced velocity at the impact point.
      const Vector<double> v_before = model.distribution(impact.q_bar) * impact.u_before;
      const auto jump =
          nsh::continuous_reflection<double>(model, impact.q_bar, v_before, impact.inequality);
      reflection = std::max(reflection, nsh::max_abs(Vector<double>(impact.u_after - jump.u_plus)));
      timing = std::max(timing, std::abs(impact.t - reference.impacts[i].t));
    }
    worst_jump.push_back(worst);
    reflection_error.push_back(reflection);
    time_error.push_back(timing);
  }
  for (std::size_t i = 0; i < steps.size(); ++i)
    std::cout << "h = " << steps[i] << ": max |dE|/E at impacts " << worst_jump[i]
              << ", |u+ - reflection| " << reflection_error[i] << ", |t - t_ref| " << time_error[i]
              << "\n";
  std::cout << "slope of the impact energy jump in h: " << slope(steps, worst_jump) << "\n";
  // "does not conserve energy at impacts": the jump is far above round-off at every h ...
  for (double jump : worst_jump) EXPECT_GT(jump, 1e-7);
  // ... and shrinks like h^2 (THEORY §5: 2e-4, 5e-5, 1.3e-5, 3.3e-6).
  const double order = slope(steps, worst_jump);
  EXPECT_GE(order, 1.7) << worst_jump[0] << " " << worst_jump[3];
  EXPECT_LE(order, 2.3) << worst_jump[0] << " " << worst_jump[3];
  // The post-impact reduced velocity tends to the continuous reflection, the impact times to
  // the reference's.
  EXPECT_LT(reflection_error[3], reflection_error[0] / 8) << reflection_error[0];
  EXPECT_LT(reflection_error[3], 1e-4);
  EXPECT_LT(time_error[3], time_error[0] / 4) << time_error[0] << " " << time_error[3];
  EXPECT_LT(time_error[3], 1e-3);
}

// Between impacts the DLA is second order: the node error against the exact flow at t = 2
// (before the first impact, t = 2.0511) has a measured slope ~ 2 in h. Over the whole horizon
// the error is printed (the impact times' errors carry into the positions).
TEST(DiscreteLagrangeDAlembert, SecondOrderBetweenImpacts) {
  const auto c = load_nonholonomic_case<double>("rolling-disk");
  const auto& model = *c.model;
  const auto reference = nsh::exact_reference<double>(model, c.initial, c.T);
  const std::vector<double> steps = {0.04, 0.02, 0.01, 0.005};
  std::vector<double> before, whole;
  for (double h : steps) {
    const auto smooth = nsh::run_dla<double>(model, c.initial, h, 2.0);
    ASSERT_TRUE(smooth.impacts.empty());
    const auto exact = nsh::reference_state<double>(model, reference, smooth.t.back());
    before.push_back(nsh::max_abs(Vector<double>(smooth.q.back() - exact.q)));
    const auto all = nsh::run_dla<double>(model, c.initial, h, c.T);
    whole.push_back(nsh::max_abs(Vector<double>(
        all.q.back() - nsh::reference_state<double>(model, reference, all.t.back()).q)));
  }
  const double order = slope(steps, before);
  std::cout << "node error at t = 2: " << before[0] << " ... " << before[3] << ", order " << order
            << "; at T = 12: " << whole[0] << " ... " << whole[3] << ", order "
            << slope(steps, whole) << "\n";
  EXPECT_GE(order, 1.8);
  EXPECT_LE(order, 2.2);
  EXPECT_LT(whole[3], whole[0]);
}

TEST(DiscreteLagrangeDAlembert, KnifeEdgeAgainstItsReference) {
  const auto c = load_nonholonomic_case<double>("knife-edge");
  const auto& model = *c.model;
  const auto reference = nsh::exact_reference<double>(model, c.initial, c.T);
  std::vector<double> time_error;
  for (double h : {0.01, 0.0025}) {
    const auto trajectory = nsh::run_dla<double>(model, c.initial, h, c.T);
    check_structure<double>(model, trajectory, 1e-14, 1e-13);
    EXPECT_LE(smooth_energy_drift(trajectory), 1e-13);
    ASSERT_EQ(trajectory.impacts.size(), reference.impacts.size());
    time_error.push_back(std::abs(trajectory.impacts[0].t - reference.impacts[0].t));
    // The skate reverses along its blade: the speed changes sign.
    for (const auto& impact : trajectory.impacts)
      EXPECT_LT(impact.u_after(0) * impact.u_before(0), 0.0);
  }
  EXPECT_LT(time_error[1], time_error[0] / 4);
}

TEST(DiscreteLagrangeDAlembert, Real50KeepsTheStructureTo50Digits) {
  const auto c = load_nonholonomic_case<Real50>("rolling-disk");
  const Real50 T(3);  // past the first two impacts
  const auto trajectory = nsh::run_dla<Real50>(*c.model, c.initial, Real50(1) / 50, T);
  ASSERT_EQ(trajectory.impacts.size(), 2u);
  check_structure<Real50>(*c.model, trajectory, Real50("1e-47"), Real50("1e-46"));
  EXPECT_LE(smooth_energy_drift(trajectory), Real50("1e-46"));
  EXPECT_LE(trajectory.max_residual, Real50("1e-46"));
  // The jump itself is the same O(h^2) number as in double, not round-off.
  const auto jumps = energy_jumps(trajectory);
  ASSERT_EQ(jumps.size(), 2u);
  const auto lean = load_nonholonomic_case<double>("rolling-disk");
  const auto lean_trajectory = nsh::run_dla<double>(*lean.model, lean.initial, 0.02, 3.0);
  const auto lean_jumps = energy_jumps(lean_trajectory);
  ASSERT_EQ(lean_jumps.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_GT(nsh::abs_value<Real50>(jumps[i]), Real50("1e-8"));
    EXPECT_NEAR(jumps[i].convert_to<double>(), lean_jumps[i], 1e-10);
  }
}

// Each evaluation point moved off the method's fails a check the faithful integrator passes
// (the checks are sharp; the mutants of properties/src/mutants/dla.cpp move them).
TEST(DiscreteLagrangeDAlembert, OtherEvaluationPointsFailTheirChecks) {
  const auto c = load_nonholonomic_case<double>("rolling-disk");
  const auto& model = *c.model;
  nsh::DlaOptions<double> options;
  const double h = 0.01;
  const auto faithful = nsh::run_dla<double>(model, c.initial, h, c.T, options);
  // The midpoint constraint at the first node: the smooth-phase energy drifts (the factor
  // (I + m R^2 cos(phi_k - phi_{k-1}))/(I + m R^2) per step), the midpoint constraint breaks.
  options.evaluation.constraint_at_midpoint = false;
  const auto at_node = nsh::run_dla<double>(model, c.initial, h, c.T, options);
  EXPECT_LE(smooth_energy_drift(faithful), 1e-13);
  EXPECT_GT(smooth_energy_drift(at_node), 1e-8);
  double worst = 0;
  for (const auto& s : at_node.segments) worst = std::max(worst, s.constraint);
  EXPECT_GT(worst, 1e-6);
  // The impact point where the chord of g crosses 0: q_bar is off the boundary by O(h^2).
  options.evaluation = {};
  options.evaluation.impact_point_on_boundary = false;
  const auto off = nsh::run_dla<double>(model, c.initial, h, c.T, options);
  double faithful_g = 0, off_g = 0;
  for (const auto& impact : faithful.impacts)
    faithful_g = std::max(faithful_g, std::abs(impact.g_bar));
  for (const auto& impact : off.impacts) off_g = std::max(off_g, std::abs(impact.g_bar));
  EXPECT_LE(faithful_g, 1e-11);
  EXPECT_GT(off_g, 1e-6);
  std::cout << "evaluation points: constraint at the node smooth drift "
            << smooth_energy_drift(at_node) << ", impact point off the boundary: max |g(q_bar)| "
            << off_g << "\n";
}

// A particle in the plane whose mass grows with x, with no velocity constraint: a model with
// M(q) that the DLA (written for constant M) must refuse rather than step wrongly.
class GrowingMass final : public nsh::NonholonomicModel<double> {
 public:
  std::string name() const override { return "growing-mass"; }
  Index dofs() const override { return 2; }
  Index velocity_constraints() const override { return 0; }
  Index inequalities() const override { return 1; }
  std::string coordinate_name(Index i) const override { return i == 0 ? "x" : "y"; }

 private:
  nsh::Matrix<double> do_mass(const Vector<double>& q) const override {
    nsh::Matrix<double> M = nsh::Matrix<double>::Identity(2, 2);
    M(0, 0) += q(0) * q(0);
    return M;
  }
  double do_potential(const Vector<double>&) const override { return 0; }
  Vector<double> do_potential_gradient(const Vector<double>&) const override {
    return Vector<double>::Zero(2);
  }
  nsh::Matrix<double> do_one_forms(const Vector<double>&) const override {
    return nsh::Matrix<double>::Zero(0, 2);
  }
  nsh::Matrix<double> do_distribution(const Vector<double>&) const override {
    return nsh::Matrix<double>::Identity(2, 2);
  }
  Vector<double> do_inequality(const Vector<double>& q) const override {
    return Vector<double>::Constant(1, q(0) - 1);
  }
  nsh::Matrix<double> do_inequality_gradient(const Vector<double>&) const override {
    nsh::Matrix<double> W = nsh::Matrix<double>::Zero(2, 1);
    W(0, 0) = 1;
    return W;
  }
};

TEST(DiscreteLagrangeDAlembert, RefusesAConfigurationDependentMass) {
  const GrowingMass model;
  Vector<double> q = Vector<double>::Zero(2), v = Vector<double>::Ones(2);
  EXPECT_NO_THROW(model.validate(nsh::State<double>{0, q, v}));
  try {
    nsh::run_dla<double>(model, nsh::State<double>{0, q, v}, 0.1, 1.0);
    ADD_FAILURE() << "a configuration-dependent mass accepted";
  } catch (const nsh::ModelError& e) {
    EXPECT_EQ(e.field(), "M");
  }
  // No closed-form flow: the exact reference refuses it too, naming the model.
  EXPECT_THROW(model.exact_flow(nsh::State<double>{0, q, v}, 1.0), nsh::ModelError);
}

TEST(DiscreteLagrangeDAlembert, AnUncertifiedSolveThrowsNamingTimeAndResidual) {
  const auto c = load_nonholonomic_case<double>("rolling-disk");
  nsh::DlaOptions<double> options;
  options.residual_tolerance = 1e-300;  // below round-off: no solve can be certified
  options.max_newton_iterations = 3;
  try {
    nsh::run_dla<double>(*c.model, c.initial, 0.01, 1.0, options);
    ADD_FAILURE() << "accepted an uncertified step";
  } catch (const nsh::StepError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("t = 0"), std::string::npos) << what;
    EXPECT_NE(what.find("residual"), std::string::npos) << what;
  }
  EXPECT_THROW(nsh::run_dla<double>(*c.model, c.initial, 0.0, 1.0), nsh::InputError);
}

}  // namespace
