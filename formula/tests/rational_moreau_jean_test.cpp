// Moreau–Jean on a lagrangian case in exact rational arithmetic (docs/nonlinear-models.md
// "Scalars"): the particle dropped on the parabola y = x^2/2 (cases/data/particle-on-parabola.json,
// every formula rational) steps exactly. The impact law at the prediction's Jacobians, the
// Coulomb law of the tangential impulse and the one-step energy identity (M constant, V linear:
// exact for this scheme) then hold with no tolerance at all — recomputed here from the model and
// the states, not read from the scheme. Real50 follows the same steps to 40 digits. Growth of the
// exact numbers is bounded (nsh/limits.hpp), and a case with trigonometric formulas is refused
// naming the field.
#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/formula/lagrangian_case.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using nsh::Index;
using nsh::Rational;
using nsh::Real50;
using nsh::formula::load_lagrangian_case;

template <class Scalar>
struct ParabolaRun {
  nsh::formula::LagrangianCase<Scalar> lagrangian;
  nsh::Trajectory<Scalar> trajectory;
};

template <class Scalar>
ParabolaRun<Scalar> run_parabola(const std::string& spec, const std::string& h,
                                 const std::string& T) {
  ParabolaRun<Scalar> run{load_lagrangian_case<Scalar>("particle-on-parabola"), {}};
  auto scheme = nsh::Registry::builtin().make<Scalar>(spec);
  run.trajectory =
      nsh::record<Scalar>(*scheme, run.lagrangian.model, run.lagrangian.initial,
                          nsh::parse_number<Scalar>(h, "h"), nsh::parse_number<Scalar>(T, "T"));
  return run;
}

bool error_names(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

// h = 1/20 up to T = 1: free flight until the landing at t = sqrt(3/g) ~ 0.553 (step 12),
// then a bounce and impulses at steps 16 and 19, sliding (slope |x| > mu = 1/5) or sticking.
TEST(RationalMoreauJean, ParticleOnParabolaSatisfiesTheContactLawsExactly) {
  const auto run = run_parabola<Rational>("moreau-jean:theta=1", "1/20", "1");
  const auto& model = run.lagrangian.model;
  const auto& states = run.trajectory.states;
  const Rational e = model.restitution()(0), mu = model.friction_coefficient()(0);
  const Rational half(1, 2), h(1, 20);
  Index impulse_steps = 0, sliding_steps = 0;
  for (std::size_t k = 0; k + 1 < states.size(); ++k) {
    const auto& before = states[k];
    const auto& after = states[k + 1];
    const auto& step = run.trajectory.steps[k];
    ASSERT_EQ(step.impulse.size(), 1);
    const Rational P_N = step.impulse(0);
    ASSERT_GE(P_N, 0) << "step " << k + 1;
    if (P_N == 0) {
      EXPECT_EQ(step.tangential_impulse(0), 0) << "step " << k + 1;
      continue;
    }
    ++impulse_steps;
    // The law of moreau_jean_nonlinear_step.hxx: U+ at the prediction q* = q_k + h/2 v_k,
    // U- at q_k. Newton's law holds with equality on a contact that carries an impulse.
    const nsh::Vector<Rational> prediction = before.q + (half * h) * before.v;
    const nsh::Matrix<Rational> W_N = model.normal_jacobian(prediction);
    const nsh::Matrix<Rational> W_T = model.tangent_jacobian(prediction);
    const Rational U_minus = (model.normal_jacobian(before.q).transpose() * before.v)(0);
    const Rational U_plus = (W_N.transpose() * after.v)(0);
    EXPECT_EQ(U_plus + e * U_minus, 0) << "step " << k + 1;
    // Coulomb: |P_T| <= mu P_N; sticking (inside the cone) means U_T+ = 0, sliding means P_T
    // opposes U_T+ (maximal dissipation, d = 1).
    const Rational P_T = step.tangential_impulse(0);
    const Rational U_T = (W_T.transpose() * after.v)(0);
    const Rational radius = mu * P_N;
    ASSERT_LE(abs(P_T), radius) << "step " << k + 1;
    if (abs(P_T) < radius) {
      EXPECT_EQ(U_T, 0) << "step " << k + 1;
    } else {
      ++sliding_steps;
      EXPECT_EQ(P_T * U_T, -radius * abs(U_T)) << "step " << k + 1;
    }
    // The momentum balance with the Jacobians of the LCP: M [v] = h f~ + W_N P_N + W_T P_T.
    const nsh::Vector<Rational> jump = model.mass(before.q) * (after.v - before.v) -
                                       step.external_impulse - W_N.col(0) * P_N - W_T.col(0) * P_T;
    EXPECT_EQ(jump.lpNorm<Eigen::Infinity>(), 0) << "step " << k + 1;
  }
  EXPECT_GE(impulse_steps, 3);  // the landing and the slide are both exercised
  EXPECT_GE(sliding_steps, 1);
  // M constant and V linear: the one-step identity E_{k+1} - E_k = W_ext + W_damp + W_contact - D
  // is exact for this scheme (FormulaModel::energy_identity_exact), with E recomputed by the kit.
  ASSERT_TRUE(model.energy_identity_exact());
  for (std::size_t k = 0; k < run.trajectory.steps.size(); ++k) {
    const auto& step = run.trajectory.steps[k];
    EXPECT_EQ(step.E_before, model.energy(states[k].q, states[k].v));
    EXPECT_EQ(step.energy_identity_defect(), 0) << "step " << k + 1;
  }
}

TEST(RationalMoreauJean, FiftyDigitsFollowTheExactSteps) {
  const auto exact = run_parabola<Rational>("moreau-jean:theta=1/2", "1/20", "1");
  const auto real = run_parabola<Real50>("moreau-jean:theta=1/2", "1/20", "1");
  ASSERT_EQ(exact.trajectory.states.size(), real.trajectory.states.size());
  for (std::size_t k = 0; k < exact.trajectory.states.size(); ++k) {
    const auto& a = exact.trajectory.states[k];
    const auto& b = real.trajectory.states[k];
    for (Index i = 0; i < a.q.size(); ++i) {
      EXPECT_LT(abs(Real50(a.q(i)) - b.q(i)), Real50("1e-40")) << "step " << k << " q" << i;
      EXPECT_LT(abs(Real50(a.v(i)) - b.v(i)), Real50("1e-40")) << "step " << k << " v" << i;
    }
  }
}

TEST(RationalMoreauJean, NumberGrowthStopsTheRunNamingTheStep) {
  // In contact every step composes rational maps, so the exact numbers' sizes grow
  // geometrically: a long exact run must stop with a message, not slow to a crawl.
  try {
    run_parabola<Rational>("moreau-jean:theta=1", "1/20", "2");
    FAIL() << "the exact run of 40 steps did not stop";
  } catch (const nsh::InputError& error) {
    EXPECT_EQ(error.field(), "precision");
    EXPECT_TRUE(error_names(error.what(), "bits")) << error.what();
    EXPECT_TRUE(error_names(error.what(), "at step")) << error.what();
    EXPECT_TRUE(error_names(error.what(), "--precision 50")) << error.what();
  }
}

TEST(RationalMoreauJean, TrigonometricFormulasAreRefusedNamingTheField) {
  try {
    load_lagrangian_case<Rational>("falling-rod");
    FAIL() << "the rod's sin(phi) was read in Rational";
  } catch (const nsh::InputError& error) {
    EXPECT_EQ(error.field(), "gaps[0]");
    EXPECT_TRUE(error_names(error.what(), "sin")) << error.what();
    EXPECT_TRUE(error_names(error.what(), "--precision rational")) << error.what();
  }
}

}  // namespace
