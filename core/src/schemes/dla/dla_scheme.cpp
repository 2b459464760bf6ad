// `dla` (nsh/schemes/dla.hpp): the DLA stepper of
// discrete_lagrange_dalembert.cpp behind the scheme kit.
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/impulse_step.hpp>
#include <nsh/model/nonlinear_model.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/nonholonomic/nonlinear_adapter.hpp>
#include <nsh/schemes/dla.hpp>

#include <fmt/format.h>

namespace nsh {

template <class Scalar>
DlaScheme<Scalar>::DlaScheme(const SchemeSpec&) {}

template <class Scalar>
DlaScheme<Scalar>::DlaScheme(const SchemeSpec&, const detail::DlaEvaluation& evaluation,
                             std::string label)
    : label_(std::move(label)) {
  options_.evaluation = evaluation;
}

template <class Scalar>
SchemeInfo DlaScheme<Scalar>::info() const {
  SchemeInfo info;
  info.family = "nonholonomic";
  // Whatever its evaluation points, the scheme reports dla's spec and is held to dla's claims.
  info.spec = "dla";
  info.smooth_order = 2;
  info.impulse_lcp = false;
  info.momentum_conserving = false;  // the constraint impulses A^T lambda are not contact impulses
  return info;
}

template <class Scalar>
void DlaScheme<Scalar>::do_initialize(const LinearModel<Scalar>&, const State<Scalar>&,
                                      const Scalar&) {
  // A model outside the scheme's hypotheses: a ModelError, as every scheme's refusal.
  throw ModelError("model",
                   "dla steps nonlinear models (the nonholonomic family, docs/nonholonomic.md), "
                   "not linear ones; step a linear model's nonlinear view (LinearModelAdapter) "
                   "or use moreau-jean");
}

template <class Scalar>
void DlaScheme<Scalar>::do_initialize(const SparseLinearModel<Scalar>&, const State<Scalar>&,
                                      const Scalar&) {
  throw ModelError("model",
                   "dla steps nonlinear models (the nonholonomic family, docs/nonholonomic.md), "
                   "not sparse linear ones");
}

template <class Scalar>
void DlaScheme<Scalar>::do_initialize(const NonlinearModel<Scalar>& model,
                                      const State<Scalar>& initial, const Scalar&) {
  const std::string& who = label_;
  if (!model.constant_mass())
    throw ModelError("M", who + " is written for a constant mass matrix (docs/nonholonomic.md); '" +
                              model.name() + "' has a configuration-dependent one");
  const Vector<Scalar>& e = model.restitution();
  for (Index j = 0; j < e.size(); ++j)
    if (e(j) != Scalar(1))
      throw ModelError(fmt::format("e[{}]", j),
                       who +
                           "'s impact step (5c)-(5d) is elastic (docs/nonholonomic.md): it needs "
                           "restitution 1 at every contact, got " +
                           format_scalar(e(j)));
  const Vector<Scalar> f_ext = model.external_force(initial.t, initial.q, initial.v);
  if (max_abs(f_ext) != Scalar(0))
    throw ModelError("f_ext", who +
                                  " integrates conservative systems (L = T - V, "
                                  "docs/nonholonomic.md); the model's work-doing force is " +
                                  format_scalar(max_abs(f_ext)) + " at the initial state");
  model_ = &nonholonomic_model_of(model, view_);
  stepper_ = std::make_unique<DiscreteLagrangeDAlembert<Scalar>>(*model_, options_);
  state_ = stepper_->start(initial);
  has_state_ = true;
  contacts_ = model.contacts();
}

template <class Scalar>
void DlaScheme<Scalar>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  const Scalar h = this->step_size();
  // Continue the discrete trajectory from the state this scheme produced; any other state is a
  // new initial state.
  if (!has_state_ || state.q != state_.q || state.v != state_.previous_velocity) {
    state_ = stepper_->start(state);
    has_state_ = true;
  }
  state_.t = state.t;
  last_.t.clear();
  last_.q.clear();
  last_.segments.clear();
  last_.impacts.clear();
  last_.max_residual = Scalar(0);
  stepper_->step(state_, h, last_);
  state.t += h;
  state.q = state_.q;
  state.v = state_.previous_velocity;
  record_no_impulse(contacts_, LcpMethod::lemke, summary);
  summary.lcp_solved = false;
  if (!last_.impacts.empty()) {
    const DlaImpact<Scalar>& impact = last_.impacts.back();
    summary.index_set.assign(1, impact.inequality);
    summary.impulse(impact.inequality) = impact.lambda_hat;
  }
  summary.external_impulse.setZero(state.q.size());
  summary.W_ext = summary.W_damp = summary.W_contact = summary.numerical_dissipation = Scalar(0);
}

template class DlaScheme<double>;
template class DlaScheme<Real50>;

void register_dla(Registry& registry) {
  SchemeEntry entry;
  entry.name = "dla";
  entry.summary =
      "discrete Lagrange-d'Alembert with the elastic impact step (5a)-(5d), nonholonomic models";
  // No Rational version (DlaScheme<Rational> is not instantiated): the registry refuses
  // --precision rational naming the scheme.
  set_factories<DlaScheme>(entry, InexactScalars{});
  registry.add(std::move(entry));
}

}  // namespace nsh
