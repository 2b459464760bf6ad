// The Newmark family and Krenk-Hogsberg on sparse models (the sparse storage of
// nsh/schemes/newmark/splitting.hpp) against the same members on the dense copy: the same
// equations with LDL^T factorizations instead of LU, so the same run to round-off.
#include <nsh/error.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/newmark_family.hpp>

#include "sparse_step_compare.hpp"

#include <gtest/gtest.h>

#include "allocation_counting.hpp"

#include <random>
#include <string>
#include <vector>

namespace nsh {
namespace {

using sparse_step_test::chain;
using sparse_step_test::compare;
using sparse_step_test::Comparison;
using sparse_step_test::random_model_for_sparse;
using sparse_step_test::random_state;

// Every member, both Newton laws and both index sets, the members with and without the filter
// terms of K^-1 (alpha_f != alpha_m: gen-alpha:rho=1/2, hht, krenk-hogsberg).
const std::vector<std::string> kSpecs = {
    "newmark",         "newmark:impact=previous,activation=position",
    "hht:alpha=-1/10", "gen-alpha",
    "gen-alpha:rho=1", "gen-alpha:alpha_m=1/5,alpha_f=2/5,impact=previous",
    "krenk-hogsberg",  "krenk-hogsberg:rho=0,activation=position"};

TEST(SparseNewmark, TheRegistryStepsSparseModelsNatively) {
  for (const std::string& spec : kSpecs) {
    const auto sparse = Registry::builtin().make_sparse<double>(spec);
    ASSERT_NE(sparse, nullptr) << spec;
    EXPECT_TRUE(sparse->accepts_sparse()) << spec;
    EXPECT_EQ(sparse->info().spec, Registry::builtin().make<double>(spec)->info().spec) << spec;
    const auto sparse50 = Registry::builtin().make_sparse<Real50>(spec);
    ASSERT_NE(sparse50, nullptr) << spec;
    // The dense storage keeps refusing a sparse model (the caller steps the dense copy).
    EXPECT_FALSE(Registry::builtin().make<double>(spec)->accepts_sparse()) << spec;
  }
}

TEST(SparseNewmark, EqualsTheDenseStepOnRandomModels) {
  std::mt19937 rng(20261207);
  int contact_steps = 0, algorithmic_runs = 0;
  for (int trial = 0; trial < 16; ++trial) {
    const Index n = 1 + trial % 6, m = 1 + trial % 3;
    LinearModel<double> dense = random_model_for_sparse(rng, n, m, /*harmonic=*/trial % 4 == 3);
    // Without damping the family claims its algorithmic energy (harmonic force aside): compared
    // too.
    if (trial % 2 == 0) dense.C.setZero();
    const SparseLinearModel<double> sparse = to_sparse(dense);
    const State<double> initial = random_state(rng, n);
    for (const std::string& spec : kSpecs) {
      const auto dense_scheme = Registry::builtin().make<double>(spec);
      const auto sparse_scheme = Registry::builtin().make_sparse<double>(spec);
      const Comparison c =
          compare(dense, *dense_scheme, sparse, *sparse_scheme, initial, 0.01, 200);
      // The two factorizations round differently: measured worst 2.3e-13 of the state's scale
      // over these 128 runs of 200 steps (newmark:impact=previous,activation=position); the
      // bound is sparse Moreau-Jean's.
      EXPECT_LE(c.worst, 1e-12) << "trial " << trial << " " << spec;
      EXPECT_TRUE(c.same_index_sets) << "trial " << trial << " " << spec;
      contact_steps += c.contact_steps;
      StepSummary<double> s;
      State<double> x = initial;
      dense_scheme->initialize(dense, x, 0.01);
      dense_scheme->step(x, s);
      algorithmic_runs += s.has_algorithmic_energy ? 1 : 0;
    }
  }
  EXPECT_GT(contact_steps, 1000);  // compared on impact and contact steps, not only free flight
  EXPECT_GT(algorithmic_runs, 20);
}

TEST(SparseNewmark, EqualsTheDenseStepInReal50) {
  std::mt19937 rng(7);
  const LinearModel<Real50> dense = random_model_for_sparse<Real50>(rng, 4, 2);
  const SparseLinearModel<Real50> sparse = to_sparse(dense);
  const State<Real50> initial = random_state<Real50>(rng, 4);
  for (const std::string spec : {"gen-alpha", "krenk-hogsberg"}) {
    const auto dense_scheme = Registry::builtin().make<Real50>(spec);
    const auto sparse_scheme = Registry::builtin().make_sparse<Real50>(spec);
    const Comparison c =
        compare(dense, *dense_scheme, sparse, *sparse_scheme, initial, Real50(1) / 100, 100);
    EXPECT_LE(c.worst, 1e-40) << spec;
    EXPECT_TRUE(c.same_index_sets) << spec;
    EXPECT_GT(c.contact_steps, 0) << spec;
  }
}

// A wrong parameter is not hidden by the comparison: the sparse gen-alpha at rho = 1/2 against
// the dense one at rho = 0.6 differs far beyond round-off.
TEST(SparseNewmark, AnotherParameterIsToldApart) {
  std::mt19937 rng(3);
  const LinearModel<double> dense = random_model_for_sparse(rng, 3, 1);
  const SparseLinearModel<double> sparse = to_sparse(dense);
  const State<double> initial = random_state(rng, 3);
  const auto dense_scheme = Registry::builtin().make<double>("gen-alpha:rho=0.6");
  const auto sparse_scheme = Registry::builtin().make_sparse<double>("gen-alpha:rho=1/2");
  EXPECT_GT(compare(dense, *dense_scheme, sparse, *sparse_scheme, initial, 0.01, 50).worst, 1e-6);
}

TEST(SparseNewmark, DoubleStepDoesNotAllocate) {
  // Free steps and contact steps, with and without the K^-1 terms of the ledger, for lemke and
  // pgs: nothing is allocated once the first step has sized the summary.
  for (bool grounded : {false, true}) {
    const SparseLinearModel<double> model = chain(6, grounded);
    for (const std::string spec :
         {"newmark", "gen-alpha", "gen-alpha:lcp=pgs", "krenk-hogsberg", "hht"}) {
      const auto scheme = Registry::builtin().make_sparse<double>(spec);
      State<double> state{0.0, Vector<double>::Constant(6, 0.05), Vector<double>::Zero(6)};
      scheme->initialize(model, state, 1e-3);
      StepSummary<double> summary;
      scheme->step(state, summary);
      int contact_steps = 0, free_steps = 0;
      bool algorithmic = false;
      for (int k = 0; k < 1500; ++k) {
        test::allocations = 0;
        test::counting_allocations = true;
        scheme->step(state, summary);
        test::counting_allocations = false;
        EXPECT_EQ(test::allocations, 0) << spec << ", step " << k;
        (summary.index_set.empty() ? free_steps : contact_steps) += 1;
        algorithmic = algorithmic || summary.has_algorithmic_energy;
      }
      EXPECT_GT(contact_steps, 100) << spec;
      EXPECT_GT(free_steps, 50) << spec;
      // Grounded, K is positive definite: the ledger's K^-1 solves ran too (a free chain's
      // singular K leaves the members with alpha_f != alpha_m without an algorithmic energy).
      if (grounded) EXPECT_TRUE(algorithmic) << spec;
    }
  }
}

TEST(SparseNewmark, AnIndefiniteMatrixIsAStepErrorNamingIt) {
  // An M that validate() would refuse (a negative mass), given to initialize directly.
  SparseLinearModel<double> model = chain(3, true);
  model.M.coeffRef(1, 1) = -1.0;
  for (const std::string spec : {"gen-alpha", "krenk-hogsberg"}) {
    const auto scheme = Registry::builtin().make_sparse<double>(spec);
    State<double> state{0.0, Vector<double>::Zero(3), Vector<double>::Zero(3)};
    try {
      scheme->initialize(model, state, 1e-3);
      ADD_FAILURE() << spec << ": no error";
    } catch (const StepError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("not positive definite"), std::string::npos) << what;
      EXPECT_NE(what.find(scheme->info().family), std::string::npos) << what;  // who says it
    }
  }
}

TEST(SparseNewmark, AStateOfTheWrongSizeNamesTheField) {
  const SparseLinearModel<double> model = chain(4, true);
  const auto scheme = Registry::builtin().make_sparse<double>("newmark");
  State<double> state{0.0, Vector<double>::Zero(3), Vector<double>::Zero(3)};
  try {
    scheme->initialize(model, state, 1e-3);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "q0") << e.what();
  }
}

}  // namespace
}  // namespace nsh
