// Moreau–Jean on nonlinear models (nsh/schemes/moreau_jean.hpp "Nonlinear models",
// docs/nonlinear-models.md "Moreau–Jean"): the nonlinear path on LinearModelAdapter reproduces
// the linear step (states, index sets, impulses, ledger) over many steps with impacts, with and
// without friction; the numerical force Jacobians; the scheme kit's derived fields on a
// nonlinear model; Rational on the adapter equal to the linear step exactly; and the refusals
// (schemes that do not step nonlinear models, Rational without the model's force Jacobians).
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/model/nonlinear_model.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/moreau_jean.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

namespace nsh {
namespace {

/// A random 3-dof system with damping, stiffness, a harmonic force and two contacts that it
/// hits repeatedly (gravity-like constant force towards the walls), optionally with friction.
LinearModel<double> random_system(unsigned seed, Index tangents) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const Index n = 3, m = 2;
  LinearModel<double> model;
  model.name = "random-" + std::to_string(seed);
  Matrix<double> A(n, n), B(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) {
      A(i, j) = u(rng);
      B(i, j) = u(rng);
    }
  model.M = A * A.transpose() + Matrix<double>::Identity(n, n);
  model.K = 4 * B * B.transpose();
  model.C = 0.05 * Matrix<double>::Identity(n, n);
  model.F = Vector<double>::Constant(n, -3.0);
  model.F_amplitude = Vector<double>::Constant(n, 0.5);
  model.omega = 2.0;
  model.G = Matrix<double>::Zero(n, m);
  model.G(0, 0) = 1;
  model.G(1, 0) = 0.25 * u(rng);
  model.G(1, 1) = 1;
  model.G(2, 1) = 0.25 * u(rng);
  model.w = Vector<double>::Constant(m, 0.5);
  model.e = Vector<double>(m);
  model.e << 0.5, 0.0;
  if (tangents > 0) {
    model.G_T = Matrix<double>::Zero(n, m * tangents);
    for (Index a = 0; a < m; ++a)
      for (Index j = 0; j < tangents; ++j) model.G_T((a + 1 + j) % n, a * tangents + j) = 1;
    model.mu = Vector<double>::Constant(m, 0.4);
  }
  fill_defaults(model);
  model.validate();
  return model;
}

State<double> release(double speed) {
  State<double> x{0.0, Vector<double>::Zero(3), Vector<double>::Zero(3)};
  x.q << 0.2, 0.1, -0.1;
  x.v << -speed, -speed, 0.5 * speed;
  return x;
}

double relative(const Vector<double>& a, const Vector<double>& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

/// Runs `spec` on the linear model and on its adapter side by side and compares every step.
void expect_same_trajectory(const std::string& spec, const LinearModel<double>& linear,
                            const State<double>& initial, double h, int steps) {
  SCOPED_TRACE(spec + " on " + linear.name);
  const LinearModelAdapter<double> adapter(linear);
  auto a = Registry::builtin().make<double>(spec);
  auto b = Registry::builtin().make<double>(spec);
  ASSERT_TRUE(b->accepts_nonlinear());
  a->initialize(linear, initial, h);
  b->initialize(adapter, initial, h);
  State<double> x = initial, y = initial;
  StepSummary<double> s, r;
  int impacts = 0;
  const double tol = 1e-12;
  for (int k = 0; k < steps; ++k) {
    a->step(x, s);
    b->step(y, r);
    ASSERT_LE(relative(y.q, x.q), tol) << "q at step " << k + 1;
    ASSERT_LE(relative(y.v, x.v), tol) << "v at step " << k + 1;
    ASSERT_EQ(r.index_set, s.index_set) << "step " << k + 1;
    ASSERT_LE(relative(r.impulse, s.impulse), tol) << "P at step " << k + 1;
    ASSERT_EQ(r.tangent_directions, s.tangent_directions);
    if (s.tangent_directions > 0) {
      ASSERT_LE(relative(r.tangential_impulse, s.tangential_impulse), tol) << "P_T " << k + 1;
      ASSERT_LE(relative(r.tangential_velocity_after, s.tangential_velocity_after), tol);
    }
    ASSERT_LE(relative(r.gap_after, s.gap_after), tol) << "g at step " << k + 1;
    ASSERT_LE(relative(r.velocity_after, s.velocity_after), tol) << "U at step " << k + 1;
    ASSERT_LE(relative(r.velocity_newton, s.velocity_newton), tol);
    // The ledger: the nonlinear W_ext is the work of f_ext = F - C v, the linear W_ext + W_damp.
    const double scale = std::max(1.0, std::abs(s.E_after));
    EXPECT_NEAR(r.E_after, s.E_after, tol * scale) << "E at step " << k + 1;
    EXPECT_NEAR(r.W_ext + r.W_damp, s.W_ext + s.W_damp, tol * scale) << "step " << k + 1;
    EXPECT_NEAR(r.W_contact, s.W_contact, tol * scale) << "step " << k + 1;
    EXPECT_NEAR(r.numerical_dissipation, s.numerical_dissipation, tol * scale);
    EXPECT_NEAR(r.energy_identity_defect(), 0.0, 1e-11 * scale) << "step " << k + 1;
    EXPECT_EQ(r.lcp_solved, s.lcp_solved);
    if (!s.index_set.empty() && s.impulse.cwiseAbs().maxCoeff() > 0) ++impacts;
  }
  EXPECT_GT(impacts, 10) << "the comparison must go through contact steps";
}

TEST(MoreauJeanNonlinear, AdapterReproducesTheLinearStep) {
  for (unsigned seed : {1u, 2u, 3u})
    for (const char* spec : {"moreau-jean", "moreau-jean:theta=1", "moreau-jean:theta=7/10",
                             "moreau-jean:activation=position"})
      expect_same_trajectory(spec, random_system(seed, 0), release(2.0), 1e-2, 400);
}

TEST(MoreauJeanNonlinear, AdapterReproducesTheLinearStepWithFriction) {
  for (unsigned seed : {4u, 5u}) {
    for (const char* spec : {"moreau-jean", "moreau-jean:theta=1"})
      expect_same_trajectory(spec, random_system(seed, 1), release(2.0), 1e-2, 400);
    // d = 2 over its impacts and sliding, up to the rest (after about 210 steps): sticking at
    // v ~ 1e-18, the index set's velocity test reads the sign of U_k = W_N^T v at round-off,
    // where the two paths' round-off (their free velocities are summed in different orders)
    // decides it.
    expect_same_trajectory("moreau-jean:friction=alart-curnier", random_system(seed, 2),
                           release(2.0), 1e-2, 200);
  }
}

/// A pendulum (m = 2, l = 3/2) against a stop at theta = -1/2: q = theta, M = m l^2,
/// f = -m g l sin theta - c dtheta/dt, written here so that the core tests need no other
/// module. Its force Jacobians come from central differences (no do_force_jacobians).
class Pendulum final : public NonlinearModel<double> {
 public:
  Pendulum(double restitution, double damping)
      : e_(Vector<double>::Constant(1, restitution)), damping_(damping) {}
  std::string name() const override { return "pendulum"; }
  Index dofs() const override { return 1; }
  Index contacts() const override { return 1; }
  const Vector<double>& restitution() const override { return e_; }

  static constexpr double mgl = 2.0 * 9.81 * 1.5;

 private:
  void do_mass(const Vector<double>&, Matrix<double>& M) const override {
    M.setConstant(1, 1, 2.0 * 1.5 * 1.5);
  }
  void do_force(const double&, const Vector<double>& q, const Vector<double>& v,
                Vector<double>& f) const override {
    f.resize(1);
    f(0) = -mgl * std::sin(q(0)) - damping_ * v(0);
  }
  void do_external_force(const double&, const Vector<double>&, const Vector<double>& v,
                         Vector<double>& f) const override {
    f.setConstant(1, -damping_ * v(0));
  }
  double do_potential(const Vector<double>& q) const override { return -mgl * std::cos(q(0)); }
  void do_gap(const Vector<double>& q, Vector<double>& g) const override {
    g.setConstant(1, q(0) + 0.5);
  }
  void do_normal_jacobian(const Vector<double>&, Matrix<double>& W) const override {
    W.setOnes(1, 1);
  }
  Vector<double> e_;
  double damping_;
};

TEST(MoreauJeanNonlinear, NumericalForceJacobiansMatchTheDerivatives) {
  const Pendulum model(0.5, 0.1);
  Vector<double> q(1), v(1);
  q << 0.7;
  v << -1.3;
  Matrix<double> K, C;
  EXPECT_FALSE(model.force_jacobians(0.0, q, v, K, C));
  ForceDifferenceWorkspace<double> work;
  force_jacobians_by_differences(model, 0.0, q, v, K, C, work);
  ASSERT_EQ(K.rows(), 1);
  ASSERT_EQ(C.cols(), 1);
  EXPECT_NEAR(K(0, 0), Pendulum::mgl * std::cos(0.7), 1e-8);
  EXPECT_NEAR(C(0, 0), 0.1, 1e-9);
}

TEST(MoreauJeanNonlinear, PendulumKitFieldsAndPenetration) {
  // The kit's derived fields are the model's (g = theta + 1/2, U = dtheta/dt, E), and the stop
  // is never penetrated by more than h |v|max (|v| <= sqrt(2 E0 / M) < 6 here).
  const Pendulum model(0.5, 0.1);
  auto scheme = Registry::builtin().make<double>("moreau-jean");
  const State<double> x{0.0, Vector<double>::Constant(1, 1.0), Vector<double>::Zero(1)};
  const double h = 1e-2;
  int contact_steps = 0;
  simulate<double>(*scheme, model, x, h, 5.0,
                   [&](const State<double>& s, const StepSummary<double>& summary) {
                     ASSERT_EQ(summary.gap_after.size(), 1);
                     EXPECT_DOUBLE_EQ(summary.gap_after(0), s.q(0) + 0.5);
                     EXPECT_DOUBLE_EQ(summary.velocity_after(0), s.v(0));
                     EXPECT_DOUBLE_EQ(summary.E_after, model.energy(s.q, s.v));
                     EXPECT_EQ(summary.tangent_directions, 0);
                     EXPECT_GE(summary.gap_after(0), -h * 6.0) << "t = " << summary.t_after;
                     if (!summary.index_set.empty()) ++contact_steps;
                   });
  EXPECT_GT(contact_steps, 0);
}

TEST(MoreauJeanNonlinear, PendulumEnergyDoesNotIncreaseAtThetaOne) {
  // theta = 1, e = 0, no damping: with f linearised at q_k, one step gives
  //   E_{k+1} - E_k = -1/2 ||[v]||_M^2 - 1/2 K_k [q]^2 + V''' [q]^3 / 6,   K_k = m g l cos q_k
  // (U_{k+1} P = 0 by complementarity), which is <= 0 while K_k > |V'''| |[q]| / 3: here
  // q in [-1/2, 1] and |[q]| <= 6 h. A Jacobian of the wrong sign (+df/dq: the linearisation
  // f_{k+1} ~ f_k + K [q]) gives +3/2 K [q]^2 instead, which the test sees.
  const Pendulum model(0.0, 0.0);
  auto scheme = Registry::builtin().make<double>("moreau-jean:theta=1");
  const State<double> x{0.0, Vector<double>::Constant(1, 1.0), Vector<double>::Zero(1)};
  int impacts = 0;
  simulate<double>(*scheme, model, x, 1e-2, 3.0,
                   [&](const State<double>&, const StepSummary<double>& summary) {
                     EXPECT_LE(summary.E_after - summary.E_before, 1e-12 * Pendulum::mgl)
                         << "t = " << summary.t_after;
                     if (summary.impulse(0) > 0) ++impacts;
                   });
  EXPECT_GT(impacts, 0);
}

TEST(MoreauJeanNonlinear, SchemesThatDoNotStepNonlinearModelsRefuseNamingTheScheme) {
  const Pendulum model(0.5, 0.0);
  const State<double> x{0.0, Vector<double>::Constant(1, 1.0), Vector<double>::Zero(1)};
  auto scheme = Registry::builtin().make<double>("newmark");
  EXPECT_FALSE(scheme->accepts_nonlinear());
  try {
    scheme->initialize(model, x, 1e-2);
    FAIL() << "newmark stepped a nonlinear model";
  } catch (const SpecError& error) {
    EXPECT_EQ(error.field(), "scheme");
    EXPECT_NE(std::string(error.what()).find("newmark"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("nonlinear"), std::string::npos) << error.what();
  }
}

/// A quadratic spring on a stop, in Rational, that does not give its force Jacobians.
class SpringWithoutJacobians final : public NonlinearModel<Rational> {
 public:
  std::string name() const override { return "spring-without-jacobians"; }
  Index dofs() const override { return 1; }
  Index contacts() const override { return 1; }
  const Vector<Rational>& restitution() const override { return e_; }

 private:
  void do_mass(const Vector<Rational>&, Matrix<Rational>& M) const override { M.setOnes(1, 1); }
  void do_force(const Rational&, const Vector<Rational>& q, const Vector<Rational>&,
                Vector<Rational>& f) const override {
    f.setConstant(1, -q(0));
  }
  void do_external_force(const Rational&, const Vector<Rational>&, const Vector<Rational>&,
                         Vector<Rational>& f) const override {
    f.setZero(1);
  }
  Rational do_potential(const Vector<Rational>& q) const override { return q(0) * q(0) / 2; }
  void do_gap(const Vector<Rational>& q, Vector<Rational>& g) const override {
    g.setConstant(1, q(0) + 1);
  }
  void do_normal_jacobian(const Vector<Rational>&, Matrix<Rational>& W) const override {
    W.setOnes(1, 1);
  }
  Vector<Rational> e_ = Vector<Rational>::Zero(1);
};

// In exact arithmetic the order of operations does not matter, so the nonlinear path on the
// adapter of a rational linear model must be the linear step *exactly*: every state, index set
// and impulse equal, not close.
TEST(MoreauJeanNonlinear, RationalAdapterIsTheLinearStepExactly) {
  // random_system's shape with short rationals (its doubles would be 53-bit dyadic fractions
  // whose exact products grow too fast for a fast test) and no harmonic force (sin has no
  // exact value).
  LinearModel<Rational> linear;
  linear.name = "rational-3-dof";
  linear.M.resize(3, 3);
  linear.M << 2, Rational(1, 2), 0, Rational(1, 2), 1, Rational(1, 4), 0, Rational(1, 4), 1;
  linear.K = Matrix<Rational>::Zero(3, 3);
  linear.K.diagonal() << 4, 1, 2;
  linear.C = Matrix<Rational>::Identity(3, 3) / 20;
  linear.F = Vector<Rational>::Constant(3, -3);
  linear.G = Matrix<Rational>::Zero(3, 2);
  linear.G(0, 0) = 1;
  linear.G(1, 0) = Rational(1, 4);
  linear.G(1, 1) = 1;
  linear.G(2, 1) = Rational(-1, 8);
  linear.w = Vector<Rational>::Constant(2, Rational(1, 2));
  linear.e = Vector<Rational>(2);
  linear.e << Rational(1, 2), 0;
  fill_defaults(linear);
  linear.validate();
  const LinearModelAdapter<Rational> adapter(linear);
  for (const char* spec : {"moreau-jean", "moreau-jean:theta=1"}) {
    SCOPED_TRACE(spec);
    auto a = Registry::builtin().make<Rational>(spec);
    auto b = Registry::builtin().make<Rational>(spec);
    ASSERT_TRUE(b->accepts_nonlinear());
    State<Rational> x{Rational(0), Vector<Rational>::Zero(3), Vector<Rational>::Zero(3)};
    x.q << Rational(1, 5), Rational(1, 10), Rational(-1, 10);
    x.v << -2, -2, 1;
    State<Rational> y = x;
    const Rational h(1, 50);
    a->initialize(linear, x, h);
    b->initialize(adapter, y, h);
    StepSummary<Rational> s, r;
    int impulses = 0;
    for (int k = 0; k < 40; ++k) {
      a->step(x, s);
      b->step(y, r);
      ASSERT_EQ(y.q, x.q) << "q at step " << k + 1;
      ASSERT_EQ(y.v, x.v) << "v at step " << k + 1;
      ASSERT_EQ(r.index_set, s.index_set) << "step " << k + 1;
      ASSERT_EQ(r.impulse, s.impulse) << "P at step " << k + 1;
      EXPECT_EQ(r.energy_identity_defect(), 0) << "step " << k + 1;
      if (s.impulse.size() > 0 && s.impulse.maxCoeff() > 0) ++impulses;
    }
    EXPECT_GE(impulses, 2) << "the comparison must go through contact steps";
  }
}

TEST(MoreauJeanNonlinear, RationalNeedsTheModelsOwnForceJacobians) {
  const SpringWithoutJacobians model;
  auto scheme = Registry::builtin().make<Rational>("moreau-jean");
  const State<Rational> x{Rational(0), Vector<Rational>::Zero(1), Vector<Rational>::Ones(1)};
  try {
    scheme->initialize(model, x, Rational(1, 100));
    FAIL() << "rational moreau-jean stepped a model it would differentiate numerically";
  } catch (const SpecError& error) {
    EXPECT_EQ(error.field(), "precision");
    EXPECT_NE(std::string(error.what()).find("Jacobians"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("50"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace nsh
