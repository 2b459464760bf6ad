// Body of the nonsmooth Newmark / HHT / generalized-alpha family (declarations and equations in
// nsh/schemes/newmark/generalized_alpha.hpp). Included by generalized_alpha.cpp (double),
// newmark_real50.cpp and newmark_rational.cpp.
#pragma once

#include "splitting.hxx"

#include <nsh/schemes/newmark/generalized_alpha.hpp>

namespace nsh {

template <class Scalar, class Storage>
NewmarkFamily<Scalar, Storage>::NewmarkFamily(const SchemeSpec& spec) {
  const std::string& name = spec.name();
  if (name == "newmark") {
    ledger_ = this->template parse<NewmarkOptions>(spec).parameters();
  } else if (name == "hht") {
    ledger_ = this->template parse<HhtOptions>(spec).parameters();
  } else if (name == "gen-alpha") {
    ledger_ = this->template parse<GenAlphaOptions>(spec).parameters();
  } else {
    throw SpecError("scheme", "NewmarkFamily does not implement '" + name +
                                  "'; it implements newmark, hht and gen-alpha");
  }
  dynamic_ = claimed_ = ledger_;
  dynamic_law_ = this->impulse_options_.impact;
  use_parameters();
}

template <class Scalar, class Storage>
NewmarkFamily<Scalar, Storage>::NewmarkFamily(const SchemeSpec& claimed,
                                              const NewmarkParameters& ledger,
                                              const NewmarkParameters& dynamics,
                                              NewmarkImpactLaw dynamic_law)
    : NewmarkFamily(claimed) {
  ledger_ = ledger;
  dynamic_ = dynamics;
  dynamic_law_ = dynamic_law;
  use_parameters();
}

template <class Scalar, class Storage>
void NewmarkFamily<Scalar, Storage>::use_parameters() {
  this->set_dynamics(dynamic_);
  lam_ = scalar_cast<Scalar>(ledger_.alpha_m);
  laf_ = scalar_cast<Scalar>(ledger_.alpha_f);
  lbeta_ = scalar_cast<Scalar>(ledger_.beta);
  lgamma_ = scalar_cast<Scalar>(ledger_.gamma);
}

template <class Scalar, class Storage>
SchemeInfo NewmarkFamily<Scalar, Storage>::info() const {
  const Rational half = Rational(1) / 2;
  return this->splitting_info("newmark-family",
                              claimed_.gamma == half + claimed_.alpha_f - claimed_.alpha_m ? 2 : 1,
                              claimed_);
}

template <class Scalar, class Storage>
void NewmarkFamily<Scalar, Storage>::initialize_on(
    const typename NewmarkSplitting<Scalar, Storage>::Model& model, const State<Scalar>& initial,
    const Scalar& h) {
  const char* scheme = "newmark-family";
  this->bind(scheme, model, initial, h);
  const Scalar one(1), &am = this->am_, &af = this->af_;
  const typename NewmarkStorage<Scalar, Storage>::ModelMatrix iteration =
      ((one - am) / (one - af)) * model.M + (h * this->gamma_) * model.C +
      (h * h * this->beta_) * model.K;
  newmark::detail::factorize(scheme, "(1-alpha_m)/(1-alpha_f) M + h gamma C + h^2 beta K",
                             this->iteration_factor_, iteration);
  this->prepare(scheme, initial, ledger_.alpha_f != ledger_.alpha_m, /*damping_allowed=*/false);
  const Index n = model.dofs();
  for (Vector<Scalar>* v : {&xdd_, &vs_, &xdd_next_, &wbar_}) v->setZero(n);
  // x''_0 = a_0, v~_0 = v_0.
  xdd_ = this->a_;
  vs_ = initial.v;
}

template <class Scalar, class Storage>
void NewmarkFamily<Scalar, Storage>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  namespace d = newmark::detail;
  if (!this->model_) throw StepError("newmark-family: step() called before initialize()");
  const auto& model = *this->model_;
  const Scalar& h = this->h_;
  const Scalar one(1), half(Scalar(1) / 2);
  const Scalar &am = this->am_, &af = this->af_, &beta = this->beta_, &gamma = this->gamma_;
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& v = state.v;
  Vector<Scalar>&a = this->a_, &r = this->r_, &f_k = this->f_k_, &f_next = this->f_next_;
  Vector<Scalar>&rhs = this->rhs_, &a_next = this->a_next_, &q_next = this->q_next_,
  &vs_next = this->vs_next_, &r_next = this->r_next_;
  Vector<Scalar>&work = this->work_, &work2 = this->work2_, &dq = this->dq_, &da = this->da_,
  &dr = this->dr_;

  this->force_at(state.t, f_k);
  this->force_at(state.t + h, f_next);

  // Predictors: q* = q_k + h v_k + h^2 (1/2 - beta) a_k, v* = v_k + h (1 - gamma) a_k.
  q_next = q;
  q_next += h * v;
  q_next += (h * h * (half - beta)) * a;
  vs_next = v;
  vs_next += (h * (one - gamma)) * a;

  // S a_{k+1} = F_{k+1} - M (alpha_m a_k - alpha_f x''_k)/(1 - alpha_f) - C v* - K q*.
  work = am * a;
  work -= af * xdd_;
  work /= (one - af);
  rhs = f_next;
  rhs.noalias() -= model.M * work;
  rhs.noalias() -= model.C * vs_next;
  rhs.noalias() -= model.K * q_next;
  d::solve_into(this->iteration_factor_, rhs, a_next);

  q_next += (h * h * beta) * a_next;
  vs_next += (h * gamma) * a_next;
  // x''_{k+1} from the filter (1-alpha_m) a_{k+1} + alpha_m a_k = (1-alpha_f) x''_{k+1} + alpha_f
  // x''_k.
  xdd_next_ = (one - am) * a_next;
  xdd_next_ += am * a;
  xdd_next_ -= af * xdd_;
  xdd_next_ /= (one - af);

  this->impulse("newmark-family", dynamic_law_, state, summary);

  // r_{k+1} = M a_{k+1} + C v~_{k+1} + K q_{k+1} - F_{k+1} (= M(a - x'') up to the solve).
  r_next.noalias() = model.M * a_next;
  r_next.noalias() += model.C * vs_next;
  r_next.noalias() += model.K * q_next;
  r_next -= f_next;

  // external_impulse = h (F_{k+gamma} + r_{k+gamma}) = M(v~_{k+1} - v_k) + h C v~_{k+gamma} + h K
  // q_{k+gamma}.
  work = (one - lgamma_) * (f_k + r);
  work += lgamma_ * (f_next + r_next);
  summary.external_impulse = h * work;

  // Ledger (header comment), with the claimed (ledger) parameters.
  dq = q_next - q;
  da = a_next - a;
  dr = r_next - r;
  wbar_ = half * (vs_ + vs_next);
  this->mechanical_ledger(state, summary);
  work = half * (f_k + f_next);
  summary.W_ext = dq.dot(work);
  work2.noalias() = model.C * wbar_;
  summary.W_damp = -h * wbar_.dot(work2);

  const Scalar bg = lbeta_ - lgamma_ / 2;
  const Scalar delta = lgamma_ - half - laf_ + lam_;
  const Scalar a2_k = d::quad(model.M, a, work);
  const Scalar a2_next = d::quad(model.M, a_next, work);
  const Scalar da2 = d::quad(model.M, da, work);
  work.noalias() = model.M * da;
  const Scalar dq_M_da = dq.dot(work);
  work = dq - h * wbar_;
  summary.numerical_dissipation = (half - laf_) * dq.dot(dr) - delta * dq_M_da +
                                  half * h * h * bg * (a2_next - a2_k) +
                                  h * h * bg * (lgamma_ - half) * da2 + work.dot(work2);

  Scalar D(0), c_r(0);
  if (this->algorithmic_) {
    D = delta * d::quad(model.K, dq, work) + h * h * bg * (lgamma_ - half) * da2;
    if (this->r_terms_) c_r = (one - lgamma_ - lam_) / (2 * (laf_ - lam_));
  }
  this->algorithmic_ledger(state, bg, a2_k, a2_next, D, c_r, lam_, summary);

  xdd_ = xdd_next_;
  vs_ = vs_next;
  this->advance(state);
}

}  // namespace nsh
