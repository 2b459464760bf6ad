// The sparse Moreau–Jean step (nsh/schemes/sparse_moreau_jean.hpp) against the dense MoreauJean
// on random models small enough for both (half of them with a harmonic force): the same trajectory,
// index sets, impulses and ledger to round-off over 200 steps for theta in {1/2, 1} and both
// activation rules; a deliberately wrong theta or restitution is told apart by the same comparison;
// the one-step energy identity; no allocation in a double step; bad input names the field. The bar
// (cases module) is compared in cases/tests/sparse_moreau_jean_bar_test.cpp.
#include <nsh/error.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/moreau_jean.hpp>
#include <nsh/schemes/sparse_moreau_jean.hpp>

#include "sparse_step_compare.hpp"

#include <gtest/gtest.h>

#include "allocation_counting.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>
#include <random>
#include <string>

// Allocation counting (allocation_counting.hpp): a double step must allocate nothing.
namespace {
bool& sparse_counting = nsh::test::counting_allocations;
long& sparse_allocations = nsh::test::allocations;
}  // namespace

namespace nsh {
namespace {

using sparse_step_test::chain;
using sparse_step_test::compare;
using sparse_step_test::Comparison;
using sparse_step_test::random_model_for_sparse;
using sparse_step_test::random_state;

std::string spec_text(const std::string& theta, MoreauJeanActivation activation) {
  return "moreau-jean:theta=" + theta + ",activation=" + to_string(activation);
}

TEST(SparseMoreauJean, EqualsTheDenseStepOnRandomModels) {
  std::mt19937 rng(20260);
  int contact_steps = 0;
  for (int trial = 0; trial < 24; ++trial) {
    const Index n = 1 + trial % 6, m = 1 + trial % 3;
    const LinearModel<double> dense =
        random_model_for_sparse(rng, n, m, /*harmonic=*/trial % 2 == 1);
    const SparseLinearModel<double> sparse = to_sparse(dense);
    const State<double> initial = random_state(rng, n);
    for (const char* theta : {"1/2", "1"}) {
      for (MoreauJeanActivation activation :
           {MoreauJeanActivation::position, MoreauJeanActivation::position_velocity}) {
        const SchemeSpec spec = Registry::builtin().resolve(spec_text(theta, activation));
        MoreauJean<double> dense_scheme(spec);
        SparseMoreauJean<double> sparse_scheme(spec);
        const Comparison c =
            compare(dense, dense_scheme, sparse, sparse_scheme, initial, 0.01, 200);
        EXPECT_LE(c.worst, 1e-12) << "trial " << trial << " " << spec.str();
        EXPECT_TRUE(c.same_index_sets) << "trial " << trial << " " << spec.str();
        contact_steps += c.contact_steps;
      }
    }
  }
  EXPECT_GT(contact_steps, 1000);  // compared on impact and contact steps, not only free flight
}

TEST(SparseMoreauJean, AWrongThetaOrRestitutionIsToldApart) {
  // The comparison above can fail: a sparse step with theta off by 10^-3, or a model whose
  // restitution is off by 0.1, differs from the dense run far above the 1e-12 bound.
  std::mt19937 rng(7);
  const LinearModel<double> dense = random_model_for_sparse(rng, 4, 2);
  const State<double> initial = random_state(rng, 4);
  const SparseLinearModel<double> sparse = to_sparse(dense);
  {
    MoreauJean<double> dense_scheme(Registry::builtin().resolve("moreau-jean:theta=1/2"));
    SparseMoreauJeanOptions<double> wrong;
    wrong.theta = 0.501;
    SparseMoreauJean<double> sparse_scheme(wrong);
    const Comparison c = compare(dense, dense_scheme, sparse, sparse_scheme, initial, 0.01, 200);
    EXPECT_GT(c.worst, 1e-6);
  }
  {
    SparseLinearModel<double> wrong = sparse;
    wrong.e.array() = (wrong.e.array() + 0.1).min(1.0);
    MoreauJean<double> dense_scheme(Registry::builtin().resolve("moreau-jean"));
    SparseMoreauJean<double> sparse_scheme(Registry::builtin().resolve("moreau-jean"));
    const Comparison c = compare(dense, dense_scheme, wrong, sparse_scheme, initial, 0.01, 200);
    ASSERT_GT(c.contact_steps, 0);
    EXPECT_GT(c.worst, 1e-6);
  }
  {
    // The same pair, correct, passes: the difference above is the mutation's.
    MoreauJean<double> dense_scheme(Registry::builtin().resolve("moreau-jean"));
    SparseMoreauJean<double> sparse_scheme(Registry::builtin().resolve("moreau-jean"));
    const Comparison c = compare(dense, dense_scheme, sparse, sparse_scheme, initial, 0.01, 200);
    EXPECT_LE(c.worst, 1e-12);
  }
}

TEST(SparseMoreauJean, EqualsTheDenseStepInReal50) {
  std::mt19937 rng(50);
  const LinearModel<Real50> dense = random_model_for_sparse<Real50>(rng, 3, 2);
  const SparseLinearModel<Real50> sparse = to_sparse(dense);
  const State<Real50> initial = random_state<Real50>(rng, 3);
  for (const char* theta : {"1/2", "1"}) {
    const SchemeSpec spec = Registry::builtin().resolve(std::string("moreau-jean:theta=") + theta);
    MoreauJean<Real50> dense_scheme(spec);
    SparseMoreauJean<Real50> sparse_scheme(spec);
    const Comparison c =
        compare(dense, dense_scheme, sparse, sparse_scheme, initial, Real50(1) / 100, 50);
    EXPECT_LE(c.worst, 1e-40) << theta;
    EXPECT_GT(c.contact_steps, 0) << theta;
  }
}

TEST(SparseMoreauJean, SpecOptionsAreReadByTheDenseParser) {
  const SparseMoreauJean<double> s(
      SchemeSpec::parse("moreau-jean:theta=3/4,activation=position,lcp=pgs"));
  EXPECT_EQ(s.theta(), 0.75);
  EXPECT_EQ(s.activation(), MoreauJeanActivation::position);
  EXPECT_EQ(s.lcp_method(), LcpMethod::pgs);
  const SparseMoreauJean<double> d(SchemeSpec::parse("moreau-jean"));
  EXPECT_EQ(d.theta(), 0.5);
  EXPECT_EQ(d.activation(), MoreauJeanActivation::position_velocity);
  EXPECT_EQ(d.lcp_method(), LcpMethod::lemke);
}

TEST(SparseMoreauJean, EnergyIdentityHoldsToRoundOff) {
  std::mt19937 rng(2016);
  int contact_steps = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const Index n = 2 + trial % 5, m = 1 + trial % 3;
    const SparseLinearModel<double> model =
        to_sparse(random_model_for_sparse(rng, n, m, /*harmonic=*/trial % 4 == 1));
    State<double> state = random_state(rng, n);
    SparseMoreauJeanOptions<double> options;
    options.theta = trial % 2 ? 0.5 : 0.8;
    options.activation =
        trial % 3 ? MoreauJeanActivation::position_velocity : MoreauJeanActivation::position;
    SparseMoreauJean<double> scheme(options);
    scheme.initialize(model, state, 0.01);
    StepSummary<double> s;
    for (int k = 0; k < 100; ++k) {
      scheme.step(state, s);
      const double scale = std::max({std::abs(s.E_before), std::abs(s.E_after), std::abs(s.W_ext),
                                     std::abs(s.W_damp), std::abs(s.W_contact), 1e-3});
      ASSERT_LE(std::abs(s.energy_identity_defect()), 1e-12 * scale)
          << "trial " << trial << " step " << k;
      if (!s.index_set.empty()) ++contact_steps;
    }
  }
  EXPECT_GT(contact_steps, 50);
}

// The kit reuses the last step's end (its buffers, E, gaps and local velocities) only when the
// next step starts from exactly that state: a state the caller edited between two steps is
// derived afresh, and a continuing step's "before" is the previous step's "after".
TEST(SparseMoreauJean, AStateEditedBetweenStepsIsDerivedAfresh) {
  std::mt19937 rng(77);
  const Index n = 4, m = 2;
  const SparseLinearModel<double> model = to_sparse(random_model_for_sparse(rng, n, m));
  State<double> state = random_state(rng, n);
  SparseMoreauJean<double> scheme(SparseMoreauJeanOptions<double>{});
  scheme.initialize(model, state, 0.01);
  StepSummary<double> s;
  scheme.step(state, s);
  const Vector<double> gap_after = s.gap_after, velocity_after = s.velocity_after;
  const double energy_after = s.E_after;
  scheme.step(state, s);
  EXPECT_EQ(s.gap_before, gap_after);
  EXPECT_EQ(s.velocity_before, velocity_after);
  EXPECT_EQ(s.E_before, energy_after);

  state.q(1) += 0.25;
  state.v(2) -= 0.5;
  const Vector<double> gap = model.G.transpose() * state.q + model.w;
  const Vector<double> velocity = model.G.transpose() * state.v;
  const Vector<double> Mv = model.M * state.v, Kq = model.K * state.q;
  const double energy = (state.v.dot(Mv) + state.q.dot(Kq)) / 2;
  scheme.step(state, s);
  for (Index a = 0; a < m; ++a) {
    EXPECT_NEAR(s.gap_before(a), gap(a), 1e-14) << a;
    EXPECT_NEAR(s.velocity_before(a), velocity(a), 1e-14) << a;
  }
  EXPECT_NEAR(s.E_before, energy, 1e-12 * std::max(1.0, std::abs(energy)));
  EXPECT_NE(s.E_before, s.E_after);
}

TEST(SparseMoreauJean, DoubleStepDoesNotAllocate) {
  // A ball-and-spring chain dropping onto the ground: free steps and contact steps, for lemke and
  // pgs, allocate nothing once the first step has sized the summary.
  const Index n = 6;
  const SparseLinearModel<double> model = chain(n, /*grounded=*/false);
  for (LcpMethod method : {LcpMethod::lemke, LcpMethod::pgs}) {
    SparseMoreauJeanOptions<double> options;
    options.lcp_method = method;
    SparseMoreauJean<double> scheme(options);
    State<double> state{0.0, Vector<double>::Constant(n, 0.05), Vector<double>::Zero(n)};
    scheme.initialize(model, state, 1e-3);
    StepSummary<double> summary;
    scheme.step(state, summary);
    int contact_steps = 0, free_steps = 0;
    for (int k = 0; k < 1500; ++k) {
      sparse_allocations = 0;
      sparse_counting = true;
      scheme.step(state, summary);
      sparse_counting = false;
      EXPECT_EQ(sparse_allocations, 0) << to_string(method) << ", step " << k;
      (summary.index_set.empty() ? free_steps : contact_steps) += 1;
    }
    EXPECT_GT(contact_steps, 100) << to_string(method);
    EXPECT_GT(free_steps, 50) << to_string(method);
  }
}

template <class F>
void expect_input_error(F&& f, const std::string& field) {
  try {
    f();
    ADD_FAILURE() << "no InputError naming " << field;
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), field) << error.what();
  }
}

TEST(SparseMoreauJean, BadInputThrowsNamingTheField) {
  std::mt19937 rng(3);
  const SparseLinearModel<double> model = to_sparse(random_model_for_sparse(rng, 3, 1));
  const State<double> state = random_state(rng, 3);
  SparseMoreauJean<double> scheme;
  for (double h : {0.0, -1e-3, std::numeric_limits<double>::quiet_NaN(),
                   std::numeric_limits<double>::infinity()})
    expect_input_error([&] { scheme.initialize(model, state, h); }, "h");
  State<double> short_state = state;
  short_state.q.resize(2);
  expect_input_error([&] { scheme.initialize(model, short_state, 0.01); }, "q0");
  short_state = state;
  short_state.v.resize(4);
  expect_input_error([&] { scheme.initialize(model, short_state, 0.01); }, "q0");
  for (double theta : {-0.1, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
    SparseMoreauJeanOptions<double> options;
    options.theta = theta;
    expect_input_error([&] { SparseMoreauJean<double> s(options); }, "theta");
  }
  expect_input_error([&] { SparseMoreauJean<double> s(SchemeSpec::parse("moreau-jean:theta=2")); },
                     "moreau-jean:theta");
  expect_input_error(
      [&] { SparseMoreauJean<double> s(SchemeSpec::parse("moreau-jean:activation=always")); },
      "moreau-jean:activation");

  SparseLinearModel<double> bad = model;
  bad.e = Vector<double>::Zero(2);
  expect_input_error([&] { scheme.initialize(bad, state, 0.01); }, "e");
  bad = model;
  bad.K.resize(2, 2);
  expect_input_error([&] { scheme.initialize(bad, state, 0.01); }, "K");
  bad = model;
  bad.G = Matrix<double>::Zero(4, 1);
  expect_input_error([&] { scheme.initialize(bad, state, 0.01); }, "G");

  SparseMoreauJean<double> unbound;
  State<double> s = state;
  StepSummary<double> summary;
  EXPECT_THROW(unbound.step(s, summary), StepError);
  scheme.initialize(model, state, 0.01);
  s.q.resize(5);
  expect_input_error([&] { scheme.step(s, summary); }, "q");
  s = state;
  s.v.resize(1);
  expect_input_error([&] { scheme.step(s, summary); }, "v");
}

TEST(SparseMoreauJean, AnIndefiniteIterationMatrixIsAStepError) {
  // M with a negative entry (an unvalidated model): the LDL^T pivot test refuses it.
  SparseLinearModel<double> model;
  model.M.resize(2, 2);
  model.M.insert(0, 0) = 1.0;
  model.M.insert(1, 1) = -1.0;
  model.G = Matrix<double>::Identity(2, 1);
  fill_defaults(model);
  SparseMoreauJean<double> scheme;
  const State<double> state{0.0, Vector<double>::Zero(2), Vector<double>::Zero(2)};
  EXPECT_THROW(scheme.initialize(model, state, 0.01), StepError);
}

}  // namespace
}  // namespace nsh
