// Body of the nonsmooth Krenk-Hogsberg alpha-scheme (declarations and equations in
// nsh/schemes/newmark/krenk_hogsberg.hpp). Included by krenk_hogsberg.cpp (double),
// newmark_real50.cpp and newmark_rational.cpp.
#pragma once

#include "splitting.hxx"

#include <nsh/schemes/newmark/krenk_hogsberg.hpp>

namespace nsh {

template <class Scalar, class Storage>
KrenkHogsberg<Scalar, Storage>::KrenkHogsberg(const SchemeSpec& spec) {
  if (spec.name() != "krenk-hogsberg")
    throw SpecError("scheme", "KrenkHogsberg implements krenk-hogsberg, not '" + spec.name() + "'");
  parameters_ = this->template parse<KrenkHogsbergOptions>(spec).parameters();
  this->set_dynamics(parameters_);
}

template <class Scalar, class Storage>
SchemeInfo KrenkHogsberg<Scalar, Storage>::info() const {
  return this->splitting_info("krenk-hogsberg", 2, parameters_);
}

template <class Scalar, class Storage>
void KrenkHogsberg<Scalar, Storage>::initialize_on(
    const typename NewmarkSplitting<Scalar, Storage>::Model& model, const State<Scalar>& initial,
    const Scalar& h) {
  const char* scheme = "krenk-hogsberg";
  this->bind(scheme, model, initial, h);
  const Scalar one(1), half(Scalar(1) / 2), &am = this->am_, &af = this->af_;
  const Scalar c = half - af;
  const Scalar kappa = half + c * (af - am) / (one - am);
  const typename NewmarkStorage<Scalar, Storage>::ModelMatrix iteration =
      this->gamma_ * model.M + (h * this->beta_) * model.C +
      (h * h * this->beta_ * kappa) * model.K;
  newmark::detail::factorize(scheme, "gamma M + h beta C + h^2 beta kappa K",
                             this->iteration_factor_, iteration);
  this->prepare(scheme, initial, parameters_.alpha_f != parameters_.alpha_m,
                /*damping_allowed=*/true);
  fmean_.setZero(model.dofs());
}

template <class Scalar, class Storage>
void KrenkHogsberg<Scalar, Storage>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  namespace d = newmark::detail;
  if (!this->model_) throw StepError("krenk-hogsberg: step() called before initialize()");
  const auto& model = *this->model_;
  const Scalar& h = this->h_;
  const Scalar one(1), half(Scalar(1) / 2);
  const Scalar &am = this->am_, &af = this->af_, &beta = this->beta_, &gamma = this->gamma_;
  const Scalar c = half - af;
  const Scalar kappa = half + c * (af - am) / (one - am);
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& v = state.v;
  Vector<Scalar>&a = this->a_, &r = this->r_, &f_k = this->f_k_, &f_next = this->f_next_;
  Vector<Scalar>&rhs = this->rhs_, &a_next = this->a_next_, &q_next = this->q_next_,
  &vs_next = this->vs_next_, &r_next = this->r_next_;
  Vector<Scalar>&work = this->work_, &dq = this->dq_, &da = this->da_, &dr = this->dr_;

  this->force_at(state.t, f_k);
  this->force_at(state.t + h, f_next);
  fmean_ = half * (f_k + f_next);

  // [q]* = h v_k + h^2 (1/2 - beta) a_k (in dq), then
  // S a_{k+1} = <F> - (1-gamma) M a_k - C [q]*/h - K q_k - kappa K [q]* + c r_k/(1-alpha_m).
  dq = h * v;
  dq += (h * h * (half - beta)) * a;
  work = q;
  work += kappa * dq;
  rhs = fmean_;
  rhs.noalias() -= ((one - gamma) * model.M) * a;
  rhs.noalias() -= (one / h) * (model.C * dq);
  rhs.noalias() -= model.K * work;
  rhs += (c / (one - am)) * r;
  d::solve_into(this->iteration_factor_, rhs, a_next);
  dq += (h * h * beta) * a_next;
  q_next = q + dq;
  vs_next = v;
  vs_next += (h * (one - gamma)) * a;
  vs_next += (h * gamma) * a_next;
  // (1 - alpha_m) r_{k+1} + alpha_m r_k = (alpha_f - alpha_m) K [q].
  r_next.noalias() = (af - am) * (model.K * dq);
  r_next -= am * r;
  r_next /= (one - am);
  dr = r_next - r;
  da = a_next - a;

  this->impulse("krenk-hogsberg", this->impulse_options_.impact, state, summary);
  summary.external_impulse = h * fmean_;

  this->mechanical_ledger(state, summary);
  summary.W_ext = dq.dot(fmean_);
  const Scalar damping = d::quad(model.C, dq, work) / h;
  summary.W_damp = -damping;
  const Scalar bg = beta - gamma / 2;
  const Scalar a2_k = d::quad(model.M, a, work);
  const Scalar a2_next = d::quad(model.M, a_next, work);
  const Scalar da2 = d::quad(model.M, da, work);
  summary.numerical_dissipation =
      c * dq.dot(dr) + half * h * h * bg * (a2_next - a2_k) + h * h * bg * (gamma - half) * da2;

  const Scalar c_r = this->r_terms_ ? Scalar(c / (2 * (af - am))) : Scalar(0);
  this->algorithmic_ledger(state, bg, a2_k, a2_next, damping + h * h * bg * (gamma - half) * da2,
                           c_r, am, summary);
  this->advance(state);
}

}  // namespace nsh
