#include <nsh/error.hpp>
#include <nsh/first_order/catching_up.hpp>
#include <nsh/format.hpp>

namespace nsh {

template <class Scalar>
CatchingUp<Scalar>::CatchingUp(const SchemeSpec& spec) : spec_(spec) {}

template <class Scalar>
FirstOrderSchemeInfo CatchingUp<Scalar>::info() const {
  return FirstOrderSchemeInfo{"catching-up", spec_.str(), 1};
}

template <class Scalar>
void CatchingUp<Scalar>::initialize(const SweepingProcess<Scalar>& model,
                                    const FirstOrderState<Scalar>& initial, const Scalar& h) {
  model.validate();
  if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
  if (model.set->violation(initial.x) > Scalar(0))
    throw ModelError("x0", format_vector(initial.x) + " is not in C = " + model.set->describe() +
                               " (the sweeping process needs x0 in C)");
  model_ = &model;
  h_ = h;
  inequalities_ = model.set->inequalities();
}

template <class Scalar>
void CatchingUp<Scalar>::step(FirstOrderState<Scalar>& state,
                              FirstOrderStepSummary<Scalar>& summary) {
  if (!model_) throw StepError("catching-up: step before initialize");
  const Vector<Scalar> f = model_->drift(state.t, state.x);
  summary.t_before = state.t;
  summary.h = h_;
  summary.x_before = state.x;
  summary.predictor = state.x + h_ * f;
  const ProjectionResult<Scalar> projection = model_->set->project(summary.predictor);
  summary.has_projection = true;
  summary.projection_status = projection.status;
  summary.certificate = projection.certificate;
  summary.iterations = projection.iterations;
  if (!projection.ok())
    throw StepError("catching-up at t = " + format_scalar(state.t) + ": " +
                    (projection.message.empty() ? std::string(to_string(projection.status))
                                                : projection.message));
  state.x = projection.point;
  summary.x_after = state.x;
  summary.reaction = (summary.x_after - summary.x_before) / h_ - f;
  if (inequalities_)
    summary.gap_after = inequalities_->b - inequalities_->A * state.x;
  else
    summary.gap_after.resize(0);
}

#define NSH_INSTANTIATE(Scalar) template class CatchingUp<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

void register_catching_up(FirstOrderRegistry& registry) {
  FirstOrderSchemeEntry entry;
  entry.name = "catching-up";
  entry.summary = "Moreau's catching-up (projected Euler) x_{k+1} = P_C(x_k + h f(t_k, x_k))";
  set_factories<CatchingUp>(entry);
  registry.add(std::move(entry));
}

}  // namespace nsh
