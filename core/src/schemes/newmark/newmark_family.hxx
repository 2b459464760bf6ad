// Body of the nonsmooth Newmark / HHT / generalized-alpha family and of the Krenk-Hogsberg
// alpha-scheme (declarations and equations in nsh/schemes/newmark_family.hpp). Included by
// newmark_family.cpp (double), newmark_family_real50.cpp and newmark_family_rational.cpp.
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/impulse_step.hpp>
#include <nsh/number.hpp>
#include <nsh/schemes/newmark_family.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace nsh {
namespace newmark::detail {

/// The impulse step shared by both schemes: index set at q_{k+1}, impulse LCP on it, post-impact
/// velocity. Fills v_next, impulse, summary.lcp / lcp_solved / index_set, the local velocities.
template <class Scalar>
void impulse_step(const char* scheme, const LinearModel<Scalar>& model,
                  const Matrix<Scalar>& delassus, const Matrix<Scalar>& minv_g,
                  NewmarkImpactLaw law, NewmarkActivation activation, LcpMethod method,
                  const LcpOptions<Scalar>& options, const Scalar& t, const Vector<Scalar>& v_k,
                  const Vector<Scalar>& q_next, const Vector<Scalar>& vs_next,
                  Vector<Scalar>& gap_next, Vector<Scalar>& velocity_k,
                  Vector<Scalar>& velocity_smooth, Vector<Scalar>& velocity_newton,
                  Vector<Scalar>& impulse, Vector<Scalar>& v_next, std::vector<Index>& active,
                  ImpulseStepWorkspace<Scalar>& work, StepSummary<Scalar>& summary) {
  const Index m = model.contacts();
  gap_next.noalias() = model.G.transpose() * q_next;
  gap_next += model.w;
  velocity_k.noalias() = model.G.transpose() * v_k;
  velocity_smooth.noalias() = model.G.transpose() * vs_next;
  velocity_newton = law == NewmarkImpactLaw::smooth ? velocity_smooth : velocity_k;

  active.clear();
  for (Index a = 0; a < m; ++a) {
    const bool position = gap_next(a) <= Scalar(0);
    const bool velocity =
        activation == NewmarkActivation::position || velocity_newton(a) <= Scalar(0);
    if (position && velocity) active.push_back(a);
  }

  impulse_step<Scalar>({scheme, method}, options, active, delassus, minv_g, model.G, model.e,
                       vs_next, velocity_newton, t, work, v_next, summary);
  impulse = work.impulse;
  summary.gap_after = gap_next;
  summary.velocity_before = velocity_k;
  summary.velocity_after.noalias() = model.G.transpose() * v_next;
}

template <class Scalar>
void check_initial(const char* scheme, const LinearModel<Scalar>& model,
                   const State<Scalar>& initial, const Scalar& h) {
  if (!is_finite(h) || !(h > Scalar(0)))
    throw InputError("h", "step size must be finite and > 0, got " + format_scalar(h));
  const Index n = model.dofs();
  if (initial.q.size() != n || initial.v.size() != n)
    throw InputError("q0", fmt::format("{}: initial state has {} positions and {} velocities, "
                                       "the model has {} degrees of freedom",
                                       scheme, initial.q.size(), initial.v.size(), n));
  if constexpr (is_exact_v<Scalar>) {
    if (model.has_harmonic_force()) (void)model.force(initial.t);  // throws the model's error
  }
}

template <class Scalar>
void factorize(const char* scheme, const char* what, Eigen::PartialPivLU<Matrix<Scalar>>& lu,
               const Matrix<Scalar>& A) {
  lu.compute(A);
  for (Index i = 0; i < A.rows(); ++i)
    if (lu.matrixLU()(i, i) == Scalar(0))
      throw StepError(fmt::format("{}: the matrix {} is singular (pivot {}); validate the model",
                                  scheme, what, i));
}

template <class Scalar>
void harmonic_force(const LinearModel<Scalar>& model, bool harmonic, const Scalar& t,
                    Vector<Scalar>& out) {
  out = model.F;
  if (!harmonic) return;
  if constexpr (is_exact_v<Scalar>) {
    (void)model.force(t);  // throws: Rational cannot evaluate sin
  } else {
    using std::sin;
    out += Scalar(sin(model.omega * t)) * model.F_amplitude;
  }
}

template <class Scalar>
bool is_zero_matrix(const Matrix<Scalar>& A) {
  for (Index j = 0; j < A.cols(); ++j)
    for (Index i = 0; i < A.rows(); ++i)
      if (A(i, j) != Scalar(0)) return false;
  return true;
}

template <class Scalar>
bool is_spd(const Matrix<Scalar>& K) {
  if (K.rows() == 0) return true;
  const Scalar scale = max_abs(K);
  return first_indefinite_pivot<Scalar>(K, true, tolerance<Scalar>(scale)) < 0;
}

/// x^T A x.
template <class Scalar>
Scalar quad(const Matrix<Scalar>& A, const Vector<Scalar>& x, Vector<Scalar>& work) {
  work.noalias() = A * x;
  return x.dot(work);
}

/// x^T A^{-1} x via a factorization of A.
template <class Scalar>
Scalar inverse_quad(const Eigen::PartialPivLU<Matrix<Scalar>>& lu, const Vector<Scalar>& x,
                    Vector<Scalar>& work) {
  work = lu.solve(x);
  return x.dot(work);
}

}  // namespace newmark::detail

// ------------------------------------------------------------------------------------------
// NewmarkSplitting: what both schemes share
// ------------------------------------------------------------------------------------------

template <class Scalar>
template <class Own>
Own NewmarkSplitting<Scalar>::parse(const SchemeSpec& spec) {
  NewmarkFamilyOptions<Own> options = parse_options<NewmarkFamilyOptions<Own>>(spec);
  if constexpr (is_exact_v<Scalar>) require_exact_lcp_method(spec.name(), options.impulse.lcp);
  name_ = spec.name();
  impulse_options_ = options.impulse;
  own_values_ = option_values(options.own);
  return options.own;
}

template <class Scalar>
void NewmarkSplitting<Scalar>::set_dynamics(const NewmarkParameters& p) {
  am_ = scalar_cast<Scalar>(p.alpha_m);
  af_ = scalar_cast<Scalar>(p.alpha_f);
  beta_ = scalar_cast<Scalar>(p.beta);
  gamma_ = scalar_cast<Scalar>(p.gamma);
}

template <class Scalar>
SchemeInfo NewmarkSplitting<Scalar>::splitting_info(const char* family, int smooth_order,
                                                    const NewmarkParameters& claimed) const {
  SchemeInfo info;
  // The options as the scheme claims them (a mutant's law included), then the parameters.
  info.parameters = own_values_;
  info.parameters.merge(option_values(impulse_options_));
  info.spec = SchemeSpec::from(name_, info.parameters).str();
  info.parameters["alpha_m"] = format_scalar(claimed.alpha_m);
  info.parameters["alpha_f"] = format_scalar(claimed.alpha_f);
  info.parameters["beta"] = format_scalar(claimed.beta);
  info.parameters["gamma"] = format_scalar(claimed.gamma);
  info.family = family;
  info.smooth_order = smooth_order;
  info.impulse_lcp = true;
  info.algorithmic_energy = true;
  info.momentum_conserving = true;
  return info;
}

template <class Scalar>
void NewmarkSplitting<Scalar>::force_at(const Scalar& t, Vector<Scalar>& out) const {
  newmark::detail::harmonic_force(*model_, harmonic_, t, out);
}

template <class Scalar>
void NewmarkSplitting<Scalar>::bind(const char* scheme, const LinearModel<Scalar>& model,
                                    const State<Scalar>& initial, const Scalar& h) {
  newmark::detail::check_initial(scheme, model, initial, h);
  model_ = &model;
  h_ = h;
  harmonic_ = model.has_harmonic_force();
}

template <class Scalar>
void NewmarkSplitting<Scalar>::prepare(const char* scheme, const State<Scalar>& initial,
                                       bool r_terms, bool damping_allowed) {
  namespace d = newmark::detail;
  const LinearModel<Scalar>& model = *model_;
  const Index n = model.dofs(), m = model.contacts();
  d::factorize(scheme, "M", mass_lu_, model.M);
  if (m == 0) {  // no triangular solve on an n x 0 right-hand side
    minv_g_.resize(n, 0);
    delassus_.resize(0, 0);
  } else {
    minv_g_ = mass_lu_.solve(model.G);
    delassus_ = model.G.transpose() * minv_g_;
  }
  r_terms_ = r_terms;
  algorithmic_ = !harmonic_ && (damping_allowed || d::is_zero_matrix(model.C)) &&
                 (!r_terms_ || d::is_spd(model.K));
  if (algorithmic_ && r_terms_) d::factorize(scheme, "K", stiffness_lu_, model.K);

  for (Vector<Scalar>* v : {&a_, &r_, &f_k_, &f_next_, &rhs_, &a_next_, &vs_next_, &q_next_,
                            &v_next_, &r_next_, &work_, &work2_, &dq_, &da_, &dr_})
    v->setZero(n);
  for (Vector<Scalar>* v :
       {&gap_next_, &velocity_k_, &velocity_smooth_, &velocity_newton_, &impulse_})
    v->setZero(m);
  active_.clear();
  active_.reserve(static_cast<std::size_t>(m));
  impulse_work_.size(m);

  // a_0 = M^{-1}(F_0 - C v_0 - K q_0), r_0 = 0.
  force_at(initial.t, f_k_);
  rhs_ = f_k_;
  rhs_.noalias() -= model.C * initial.v;
  rhs_.noalias() -= model.K * initial.q;
  a_ = mass_lu_.solve(rhs_);
  r_.setZero();
}

template <class Scalar>
void NewmarkSplitting<Scalar>::impulse(const char* scheme, NewmarkImpactLaw law,
                                       const State<Scalar>& state, StepSummary<Scalar>& summary) {
  newmark::detail::impulse_step<Scalar>(
      scheme, *model_, delassus_, minv_g_, law, impulse_options_.activation, impulse_options_.lcp,
      lcp_options_, state.t, state.v, q_next_, vs_next_, gap_next_, velocity_k_, velocity_smooth_,
      velocity_newton_, impulse_, v_next_, active_, impulse_work_, summary);
  // A mutant that claims the smooth law reports the smooth velocity as the law's velocity.
  summary.velocity_newton =
      impulse_options_.impact == NewmarkImpactLaw::smooth ? velocity_smooth_ : velocity_k_;
}

template <class Scalar>
void NewmarkSplitting<Scalar>::mechanical_ledger(const State<Scalar>& state,
                                                 StepSummary<Scalar>& summary) {
  namespace d = newmark::detail;
  const LinearModel<Scalar>& model = *model_;
  const Scalar half(Scalar(1) / 2);
  // The kit derives E_before and E_after again from the states (the same arithmetic); the
  // algorithmic energy below is built on them.
  summary.E_before = half * (d::quad(model.M, state.v, work_) + d::quad(model.K, state.q, work_));
  summary.E_after = half * (d::quad(model.M, v_next_, work_) + d::quad(model.K, q_next_, work_));
  work_ = velocity_smooth_ + summary.velocity_after;
  summary.W_contact = half * work_.dot(impulse_);
}

template <class Scalar>
void NewmarkSplitting<Scalar>::algorithmic_ledger(const State<Scalar>& state, const Scalar& bg,
                                                  const Scalar& a2_k, const Scalar& a2_next,
                                                  Scalar D, const Scalar& c_r,
                                                  const Scalar& alpha_m,
                                                  StepSummary<Scalar>& summary) {
  namespace d = newmark::detail;
  summary.has_algorithmic_energy = algorithmic_;
  if (!algorithmic_) {
    summary.E_alg_before = summary.E_alg_after = summary.algorithmic_dissipation = Scalar(0);
    return;
  }
  const Scalar half(Scalar(1) / 2), h = h_;
  Scalar r_k_term(0), r_next_term(0);
  if (r_terms_) {
    r_k_term = c_r * d::inverse_quad(stiffness_lu_, r_, work_);
    r_next_term = c_r * d::inverse_quad(stiffness_lu_, r_next_, work_);
    D += c_r * (Scalar(1) - 2 * alpha_m) * d::inverse_quad(stiffness_lu_, dr_, work_);
  }
  summary.E_alg_before =
      summary.E_before - model_->F.dot(state.q) + half * h * h * bg * a2_k + r_k_term;
  summary.E_alg_after =
      summary.E_after - model_->F.dot(q_next_) + half * h * h * bg * a2_next + r_next_term;
  summary.algorithmic_dissipation = D;
  summary.acceleration_like_before = a_;
  summary.acceleration_like_after = a_next_;
}

template <class Scalar>
void NewmarkSplitting<Scalar>::advance(State<Scalar>& state) {
  a_ = a_next_;
  r_ = r_next_;
  state.q = q_next_;
  state.v = v_next_;
  state.t = state.t + h_;
}

// ------------------------------------------------------------------------------------------
// NewmarkFamily
// ------------------------------------------------------------------------------------------

template <class Scalar>
NewmarkFamily<Scalar>::NewmarkFamily(const SchemeSpec& spec) {
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

template <class Scalar>
NewmarkFamily<Scalar>::NewmarkFamily(const SchemeSpec& claimed, const NewmarkParameters& ledger,
                                     const NewmarkParameters& dynamics,
                                     NewmarkImpactLaw dynamic_law)
    : NewmarkFamily(claimed) {
  ledger_ = ledger;
  dynamic_ = dynamics;
  dynamic_law_ = dynamic_law;
  use_parameters();
}

template <class Scalar>
void NewmarkFamily<Scalar>::use_parameters() {
  this->set_dynamics(dynamic_);
  lam_ = scalar_cast<Scalar>(ledger_.alpha_m);
  laf_ = scalar_cast<Scalar>(ledger_.alpha_f);
  lbeta_ = scalar_cast<Scalar>(ledger_.beta);
  lgamma_ = scalar_cast<Scalar>(ledger_.gamma);
}

template <class Scalar>
SchemeInfo NewmarkFamily<Scalar>::info() const {
  const Rational half = Rational(1) / 2;
  return this->splitting_info("newmark-family",
                              claimed_.gamma == half + claimed_.alpha_f - claimed_.alpha_m ? 2 : 1,
                              claimed_);
}

template <class Scalar>
void NewmarkFamily<Scalar>::do_initialize(const LinearModel<Scalar>& model,
                                          const State<Scalar>& initial, const Scalar& h) {
  const char* scheme = "newmark-family";
  this->bind(scheme, model, initial, h);
  const Scalar one(1), &am = this->am_, &af = this->af_;
  const Matrix<Scalar> iteration = ((one - am) / (one - af)) * model.M +
                                   (h * this->gamma_) * model.C + (h * h * this->beta_) * model.K;
  newmark::detail::factorize(scheme, "(1-alpha_m)/(1-alpha_f) M + h gamma C + h^2 beta K",
                             this->iteration_lu_, iteration);
  this->prepare(scheme, initial, ledger_.alpha_f != ledger_.alpha_m, /*damping_allowed=*/false);
  const Index n = model.dofs();
  for (Vector<Scalar>* v : {&xdd_, &vs_, &xdd_next_, &wbar_}) v->setZero(n);
  // x''_0 = a_0, v~_0 = v_0.
  xdd_ = this->a_;
  vs_ = initial.v;
}

template <class Scalar>
void NewmarkFamily<Scalar>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  namespace d = newmark::detail;
  if (!this->model_) throw StepError("newmark-family: step() called before initialize()");
  const LinearModel<Scalar>& model = *this->model_;
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
  a_next = this->iteration_lu_.solve(rhs);

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

// ------------------------------------------------------------------------------------------
// KrenkHogsberg
// ------------------------------------------------------------------------------------------

template <class Scalar>
KrenkHogsberg<Scalar>::KrenkHogsberg(const SchemeSpec& spec) {
  if (spec.name() != "krenk-hogsberg")
    throw SpecError("scheme", "KrenkHogsberg implements krenk-hogsberg, not '" + spec.name() + "'");
  parameters_ = this->template parse<KrenkHogsbergOptions>(spec).parameters();
  this->set_dynamics(parameters_);
}

template <class Scalar>
SchemeInfo KrenkHogsberg<Scalar>::info() const {
  return this->splitting_info("krenk-hogsberg", 2, parameters_);
}

template <class Scalar>
void KrenkHogsberg<Scalar>::do_initialize(const LinearModel<Scalar>& model,
                                          const State<Scalar>& initial, const Scalar& h) {
  const char* scheme = "krenk-hogsberg";
  this->bind(scheme, model, initial, h);
  const Scalar one(1), half(Scalar(1) / 2), &am = this->am_, &af = this->af_;
  const Scalar c = half - af;
  const Scalar kappa = half + c * (af - am) / (one - am);
  const Matrix<Scalar> iteration = this->gamma_ * model.M + (h * this->beta_) * model.C +
                                   (h * h * this->beta_ * kappa) * model.K;
  newmark::detail::factorize(scheme, "gamma M + h beta C + h^2 beta kappa K", this->iteration_lu_,
                             iteration);
  this->prepare(scheme, initial, parameters_.alpha_f != parameters_.alpha_m,
                /*damping_allowed=*/true);
  fmean_.setZero(model.dofs());
}

template <class Scalar>
void KrenkHogsberg<Scalar>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  namespace d = newmark::detail;
  if (!this->model_) throw StepError("krenk-hogsberg: step() called before initialize()");
  const LinearModel<Scalar>& model = *this->model_;
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
  a_next = this->iteration_lu_.solve(rhs);
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
