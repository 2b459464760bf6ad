// One model interface for nonholonomic systems (nsh/nonholonomic/nonlinear_adapter.hpp) and the
// DLA as a scheme of the kit (nsh/schemes/dla.hpp): the views keep every quantity, the scheme
// steps exactly the nodes of run_dla (one stepper), and what it cannot step is refused naming
// the field.
#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/model/nonlinear_model.hpp>
#include <nsh/nonholonomic/discrete_lagrange_dalembert.hpp>
#include <nsh/nonholonomic/nonlinear_adapter.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/dla.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using nsh::Index;
using nsh::Matrix;
using nsh::Real50;
using nsh::Vector;

template <class Scalar>
nsh::NonholonomicCase<Scalar> dla_scheme_case(const std::string& name) {
  return nsh::load_nonholonomic_case<Scalar>(
      nsh::read_case_file(std::string(NSH_SOURCE_DIR) + "/cases/data/" + name + ".json"));
}

TEST(NonholonomicModelAdapter, IsTheModelInNshsContactConvention) {
  for (const char* name : {"rolling-disk", "knife-edge"}) {
    SCOPED_TRACE(name);
    const auto c = dla_scheme_case<double>(name);
    const nsh::NonholonomicModelAdapter<double> model(*c.model);
    const Index n = c.model->dofs();
    EXPECT_EQ(model.dofs(), n);
    EXPECT_EQ(model.velocity_constraints(), c.model->velocity_constraints());
    EXPECT_EQ(model.contacts(), c.model->inequalities());
    EXPECT_TRUE(model.constant_mass());
    EXPECT_EQ(model.tangent_directions(), 0);
    EXPECT_FALSE(nsh::has_friction(model));
    EXPECT_EQ(model.restitution(), Vector<double>::Ones(model.contacts()));
    Vector<double> q = c.initial.q;
    q(0) += 0.3;
    q(n - 1) += 0.7;
    EXPECT_EQ(model.gap(q), Vector<double>(-c.model->inequality(q)));
    EXPECT_EQ(model.normal_jacobian(q), Matrix<double>(-c.model->inequality_gradient(q)));
    EXPECT_EQ(model.one_forms(q), c.model->one_forms(q));
    EXPECT_EQ(model.distribution(q), c.model->distribution(q));
    EXPECT_EQ(model.mass(q), c.model->mass(q));
    EXPECT_EQ(model.energy(q, c.initial.v), c.model->energy(q, c.initial.v));
    EXPECT_NO_THROW(model.validate(c.initial));
    // The reverse view gives back the same model (names included).
    std::unique_ptr<nsh::NonholonomicModel<double>> storage;
    EXPECT_EQ(&nsh::nonholonomic_model_of<double>(model, storage), c.model.get());
    EXPECT_EQ(storage, nullptr);
    // A generic view of the adapter reads the same quantities through NonlinearModel alone.
    const nsh::NonholonomicView<double> view(model);
    EXPECT_EQ(view.inequality(q), c.model->inequality(q));
    EXPECT_EQ(view.inequality_gradient(q), c.model->inequality_gradient(q));
    EXPECT_EQ(view.one_forms(q), c.model->one_forms(q));
    EXPECT_EQ(view.potential_gradient(q), c.model->potential_gradient(q));
  }
}

TEST(NonholonomicModelAdapter, HolonomicModelsHaveNoVelocityConstraints) {
  nsh::LinearModel<double> linear;
  linear.M = Matrix<double>::Identity(2, 2);
  linear.K = Matrix<double>::Zero(2, 2);
  linear.C = Matrix<double>::Zero(2, 2);
  linear.F = Vector<double>::Zero(2);
  linear.G = Matrix<double>::Zero(2, 0);
  linear.w = Vector<double>::Zero(0);
  linear.e = Vector<double>::Zero(0);
  const nsh::LinearModelAdapter<double> model(linear);
  const Vector<double> q = Vector<double>::Ones(2);
  EXPECT_EQ(model.velocity_constraints(), 0);
  EXPECT_EQ(model.one_forms(q).rows(), 0);
  EXPECT_EQ(model.one_forms(q).cols(), 2);
  EXPECT_EQ(model.distribution(q), Matrix<double>::Identity(2, 2));
}

/// The dla scheme, or (with other evaluation points) the scheme through its seam, steps
/// exactly the nodes of run_dla with the same evaluation points.
template <class Scalar>
void expect_scheme_steps_the_nodes_of_run_dla(const nsh::detail::DlaEvaluation& evaluation,
                                              const char* name, const Scalar& h, const Scalar& T) {
  const auto c = dla_scheme_case<Scalar>(name);
  const nsh::NonholonomicModelAdapter<Scalar> model(*c.model);
  nsh::DlaScheme<Scalar> scheme(nsh::SchemeSpec::parse("dla"), evaluation, "dla");
  const auto recorded = nsh::record<Scalar>(scheme, model, c.initial, h, T);
  nsh::DlaOptions<Scalar> options;
  options.evaluation = evaluation;
  const auto direct = nsh::run_dla<Scalar>(*c.model, c.initial, h, T, options);
  ASSERT_EQ(recorded.states.size(), direct.q.size());
  int impacts = 0;
  for (std::size_t k = 0; k < direct.q.size(); ++k) {
    EXPECT_EQ(recorded.states[k].q, direct.q[k]) << "node " << k;
    if (k > 0 && !recorded.steps[k - 1].index_set.empty()) {
      ++impacts;
      EXPECT_GT(recorded.steps[k - 1].impulse(recorded.steps[k - 1].index_set[0]), Scalar(0));
    }
  }
  EXPECT_EQ(impacts, static_cast<int>(direct.impacts.size()));
}

TEST(DlaScheme, StepsExactlyTheNodesOfRunDla) {
  const nsh::detail::DlaEvaluation method;
  expect_scheme_steps_the_nodes_of_run_dla<double>(method, "rolling-disk", 0.01, 12);
  expect_scheme_steps_the_nodes_of_run_dla<double>(method, "knife-edge", 0.01, 10);
  nsh::detail::DlaEvaluation equal_substeps;
  equal_substeps.substeps_split_at_alpha = false;
  expect_scheme_steps_the_nodes_of_run_dla<double>(equal_substeps, "rolling-disk", 0.01, 4);
  expect_scheme_steps_the_nodes_of_run_dla<Real50>(method, "rolling-disk", Real50(1) / 50,
                                                   Real50(5) / 2);
}

TEST(DlaScheme, TheKitsEnergyIsTheSegmentEnergy) {
  const auto c = dla_scheme_case<double>("rolling-disk");
  const nsh::NonholonomicModelAdapter<double> model(*c.model);
  auto scheme = nsh::Registry::builtin().make<double>("dla");
  const auto recorded = nsh::record<double>(*scheme, model, c.initial, 0.01, 12);
  const double E0 = model.energy(c.initial.q, c.initial.v);
  // Between impacts E is exact; the step after an impact step is (5b), where the jump of
  // THEORY 5 happens (the sub-step (1 - alpha) h meets a step h).
  bool after_impact = false;
  int jumps = 0;
  for (const auto& s : recorded.steps) {
    if (s.index_set.empty() && s.step > 1 && !after_impact) {
      EXPECT_NEAR(s.E_after, s.E_before, 1e-13 * E0);
    }
    if (after_impact && std::abs(s.E_after - s.E_before) > 1e-9 * E0) ++jumps;
    after_impact = !s.index_set.empty();
  }
  EXPECT_GE(jumps, 4) << "the impact energy jumps of THEORY 5";
  // The state's velocity satisfies the constraint at the segment's midpoint, not at the node:
  // the node's residual is O(h) (|A(q_k) w| = |A(q_k) - A(m)| |w|), bounded here.
  for (const auto& x : recorded.states)
    EXPECT_LE(nsh::max_abs(Vector<double>(model.one_forms(x.q) * x.v)), 0.05);
}

TEST(DlaScheme, RefusesWhatItCannotStepNamingTheField) {
  auto scheme = nsh::Registry::builtin().make<double>("dla");
  nsh::LinearModel<double> linear;
  linear.M = Matrix<double>::Identity(1, 1);
  linear.K = Matrix<double>::Zero(1, 1);
  linear.C = Matrix<double>::Zero(1, 1);
  linear.F = Vector<double>::Zero(1);
  linear.G = Matrix<double>::Ones(1, 1);
  linear.w = Vector<double>::Zero(1);
  linear.e = Vector<double>::Constant(1, 0.5);
  const nsh::State<double> x0{0, Vector<double>::Ones(1), Vector<double>::Zero(1)};
  try {
    scheme->initialize(linear, x0, 0.01);
    ADD_FAILURE() << "a linear model was accepted";
  } catch (const nsh::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("dla"), std::string::npos) << e.what();
  }
  // Its nonlinear view: restitution 1/2 is refused, naming e[0].
  const nsh::LinearModelAdapter<double> adapted(linear);
  try {
    scheme->initialize(adapted, x0, 0.01);
    ADD_FAILURE() << "e = 1/2 was accepted";
  } catch (const nsh::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("e[0]"), std::string::npos) << e.what();
  }
  // Through its seam (other evaluation points, for instruments) it keeps dla's identity and
  // names its label.
  nsh::detail::DlaEvaluation at_node;
  at_node.constraint_at_midpoint = false;
  nsh::DlaScheme<double> seam(nsh::SchemeSpec::parse("dla"), at_node, "dla-at-node");
  EXPECT_EQ(seam.info().spec, "dla");
  try {
    seam.initialize(adapted, x0, 0.01);
    ADD_FAILURE() << "e = 1/2 was accepted through the seam";
  } catch (const nsh::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("dla-at-node's impact step"), std::string::npos)
        << e.what();
  }
  // Elastic, undamped, unforced: the DLA steps it (r = 0: the midpoint rule with impacts).
  linear.e(0) = 1;
  linear.K(0, 0) = 4;
  EXPECT_NO_THROW(scheme->initialize(adapted, x0, 0.01));
  linear.F(0) = 1;  // a work-doing force
  EXPECT_THROW(scheme->initialize(adapted, x0, 0.01), nsh::ModelError);
  // No exact-arithmetic version: the registry says so.
  EXPECT_THROW(nsh::Registry::builtin().make<nsh::Rational>("dla"), nsh::SpecError);
}

TEST(MoreauJeanNonholonomic, KeepsTheVelocityConstraintsAsBilateralRows) {
  // moreau-jean on a model with r > 0
  // (core/src/schemes/moreau_jean/moreau_jean_nonholonomic_step.hxx): every state satisfies A(q_k)
  // v_k = 0 to the fixed point's tolerance, the impacts are the reference's six, and on the knife
  // edge the turning rate, M-orthogonal to the blade and untouched by the wall, stays exact.
  const auto disk = dla_scheme_case<double>("rolling-disk");
  const nsh::NonholonomicModelAdapter<double> model(*disk.model);
  auto scheme = nsh::Registry::builtin().make<double>("moreau-jean");
  const auto recorded = nsh::record<double>(*scheme, model, disk.initial, 0.01, 12);
  int impacts = 0;
  for (const auto& x : recorded.states)
    EXPECT_LE(nsh::max_abs(Vector<double>(model.one_forms(x.q) * x.v)), 1e-11);
  for (const auto& s : recorded.steps)
    if (nsh::max_abs(s.impulse) > 0) ++impacts;
  EXPECT_EQ(impacts, 6);
  // First order: the energy is not kept (a few percent lost by T at h = 0.01).
  const double E0 = model.energy(disk.initial.q, disk.initial.v);
  EXPECT_GT(std::abs(recorded.steps.back().E_after - E0), 1e-3 * E0);

  const auto knife = dla_scheme_case<double>("knife-edge");
  const nsh::NonholonomicModelAdapter<double> skate(*knife.model);
  auto mj = nsh::Registry::builtin().make<double>("moreau-jean");
  const auto run = nsh::record<double>(*mj, skate, knife.initial, 0.01, 10);
  int reversals = 0;
  for (const auto& x : run.states) {
    EXPECT_LE(nsh::max_abs(Vector<double>(skate.one_forms(x.q) * x.v)), 1e-11);
    EXPECT_NEAR(x.v(2), 0.5, 1e-14);
  }
  for (const auto& s : run.steps)
    if (nsh::max_abs(s.impulse) > 0) ++reversals;
  EXPECT_EQ(reversals, 2);
}

TEST(MoreauJeanNonholonomic, RefusesFrictionWithVelocityConstraintsAndKeepsRZeroUnchanged) {
  // r = 0 goes through the holonomic path: the linear model's adapter steps as before (the
  // moreau-jean nonlinear tests compare it with the linear step).
  nsh::LinearModel<double> linear;
  linear.M = Matrix<double>::Identity(1, 1);
  linear.K = Matrix<double>::Zero(1, 1);
  linear.C = Matrix<double>::Zero(1, 1);
  linear.F = Vector<double>::Constant(1, -1);
  linear.G = Matrix<double>::Ones(1, 1);
  linear.w = Vector<double>::Zero(1);
  linear.e = Vector<double>::Constant(1, 0.5);
  const nsh::LinearModelAdapter<double> adapted(linear);
  const nsh::State<double> x0{0, Vector<double>::Ones(1), Vector<double>::Zero(1)};
  auto scheme = nsh::Registry::builtin().make<double>("moreau-jean");
  auto direct = nsh::Registry::builtin().make<double>("moreau-jean");
  const auto a = nsh::record<double>(*scheme, adapted, x0, 0.01, 2);
  const auto b = nsh::record<double>(*direct, linear, x0, 0.01, 2);
  ASSERT_EQ(a.states.size(), b.states.size());
  for (std::size_t k = 0; k < a.states.size(); ++k)
    EXPECT_NEAR(a.states[k].q(0), b.states[k].q(0), 1e-13);
}

}  // namespace
