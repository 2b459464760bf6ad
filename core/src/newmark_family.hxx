// Body of the nonsmooth Newmark / HHT / generalized-alpha family and of the Krenk-Hogsberg
// alpha-scheme (declarations and equations in nsh/schemes/newmark_family.hpp). Included by
// newmark_family.cpp (double), newmark_family_real50.cpp and newmark_family_rational.cpp.
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>
#include <nsh/schemes/newmark_family.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace nsh {
namespace newmark_detail {

inline void check_keys(const SchemeSpec& spec, const std::vector<std::string>& keys) {
  for (const auto& [key, value] : spec.options()) {
    bool known = false;
    for (const auto& k : keys) known = known || k == key;
    if (!known) {
      std::string list;
      for (const auto& k : keys) list += (list.empty() ? "" : ", ") + k;
      throw SpecError(spec.name() + ":" + key,
                      "unknown option; " + spec.name() + " accepts: " + list);
    }
  }
}

inline NewmarkImpactLaw parse_law(const SchemeSpec& spec) {
  if (!spec.has("impact")) return NewmarkImpactLaw::smooth;
  const std::string& text = spec.text("impact");
  if (text == "smooth") return NewmarkImpactLaw::smooth;
  if (text == "previous") return NewmarkImpactLaw::previous;
  throw SpecError(spec.name() + ":impact",
                  "'" + text + "' is not accepted; choices: smooth, previous");
}

inline NewmarkActivation parse_activation(const SchemeSpec& spec) {
  if (!spec.has("activation")) return NewmarkActivation::position_velocity;
  const std::string& text = spec.text("activation");
  if (text == "position") return NewmarkActivation::position;
  if (text == "position-velocity") return NewmarkActivation::position_velocity;
  throw SpecError(spec.name() + ":activation",
                  "'" + text + "' is not accepted; choices: position-velocity, position");
}

template <class Scalar>
LcpMethod parse_method(const SchemeSpec& spec) {
  LcpMethod method = LcpMethod::lemke;
  if (spec.has("lcp")) {
    try {
      method = parse_lcp_method(spec.text("lcp"));
    } catch (const SpecError&) {
      throw SpecError(spec.name() + ":lcp", "'" + spec.text("lcp") +
                                                "' is not accepted; choices: lemke, "
                                                "enumeration, pgs, fb, prox");
    }
  }
  if constexpr (is_exact_v<Scalar>) {
    if (method != LcpMethod::lemke && method != LcpMethod::enumeration)
      throw SpecError(spec.name() + ":lcp",
                      std::string("'") + to_string(method) +
                          "' iterates or needs sqrt and cannot run in rational arithmetic; "
                          "accepted with --precision rational: lemke, enumeration");
  }
  return method;
}

/// An exact option value with a closed or half-open range check.
inline Rational exact_option(const SchemeSpec& spec, const std::string& key,
                             const std::string& fallback, const Rational& lo, const Rational& hi,
                             bool hi_open, const std::string& range_text) {
  const std::string text = spec.has(key) ? spec.text(key) : fallback;
  const Rational x = parse_rational(text, spec.name() + ":" + key);
  if (x < lo || x > hi || (hi_open && x == hi))
    throw SpecError(spec.name() + ":" + key,
                    "value " + text + " is out of range; accepted: " + range_text);
  return x;
}

/// alpha_m, alpha_f from rho_inf (Siconos NewMarkAlphaOSI::setParametersFromRho_infty).
inline void from_rho(const Rational& rho, Rational& alpha_m, Rational& alpha_f) {
  alpha_m = (2 * rho - 1) / (rho + 1);
  alpha_f = rho / (rho + 1);
}

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
                  Matrix<Scalar>& delassus_active, Vector<Scalar>& b_active,
                  StepSummary<Scalar>& summary) {
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

  impulse.setZero();
  v_next = vs_next;
  const Index k = static_cast<Index>(active.size());
  if (k > 0) {
    if (delassus_active.rows() != k) {
      delassus_active.resize(k, k);
      b_active.resize(k);
    }
    for (Index i = 0; i < k; ++i) {
      const Index a = active[static_cast<std::size_t>(i)];
      for (Index j = 0; j < k; ++j)
        delassus_active(i, j) = delassus(a, active[static_cast<std::size_t>(j)]);
      b_active(i) = velocity_smooth(a) + model.e(a) * velocity_newton(a);
    }
    summary.lcp = solve_lcp<Scalar>(method, delassus_active, b_active, options);
    if (!summary.lcp.ok()) {
      const LcpCertificate<Scalar>& c = summary.lcp.certificate;
      throw StepError(fmt::format(
          "{}: the impulse LCP at t = {} ({} active contacts, method {}) was not certified: "
          "status {}, natural map {} (tolerance {}), feasibility {}, complementarity {}{}{}",
          scheme, format_scalar(t), k, to_string(method), to_string(summary.lcp.status),
          format_scalar(c.natural_map), format_scalar(c.tolerance), format_scalar(c.feasibility),
          format_scalar(c.complementarity), summary.lcp.message.empty() ? "" : "; ",
          summary.lcp.message));
    }
    for (Index i = 0; i < k; ++i) {
      const Index a = active[static_cast<std::size_t>(i)];
      impulse(a) = summary.lcp.z(i);
      v_next += summary.lcp.z(i) * minv_g.col(a);
    }
    summary.lcp_solved = true;
  } else {
    summary.lcp = LcpResult<Scalar>{};
    summary.lcp.status = LcpStatus::solved;
    summary.lcp.method = method;
    summary.lcp.certificate.accepted = true;
    summary.lcp_solved = false;
  }
  summary.index_set.assign(active.begin(), active.end());
  summary.impulse = impulse;
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

inline std::string options_suffix(NewmarkImpactLaw law, NewmarkActivation activation,
                                  LcpMethod method) {
  return std::string("activation=") + to_string(activation) + ",impact=" + to_string(law) +
         ",lcp=" + to_string(method);
}

}  // namespace newmark_detail

// ------------------------------------------------------------------------------------------
// NewmarkFamily
// ------------------------------------------------------------------------------------------

template <class Scalar>
NewmarkFamily<Scalar>::NewmarkFamily(const SchemeSpec& spec)
    : NewmarkFamily(spec, NewmarkMutation::none) {}

template <class Scalar>
NewmarkFamily<Scalar>::NewmarkFamily(const SchemeSpec& spec, NewmarkMutation mutation)
    : name_(spec.name()), mutation_(mutation) {
  namespace d = newmark_detail;
  const Rational half = Rational(1) / 2, quarter = Rational(1) / 4;
  std::string params;
  if (name_ == "newmark") {
    d::check_keys(spec, {"activation", "beta", "gamma", "impact", "lcp"});
    ledger_.alpha_m = ledger_.alpha_f = 0;
    ledger_.beta =
        d::exact_option(spec, "beta", "1/4", Rational(0), Rational(1), false, "a number in [0, 1]");
    ledger_.gamma = d::exact_option(spec, "gamma", "1/2", Rational(0), Rational(1), false,
                                    "a number in [0, 1]");
    params = "beta=" + format_scalar(ledger_.beta) + ",gamma=" + format_scalar(ledger_.gamma);
  } else if (name_ == "hht") {
    d::check_keys(spec, {"activation", "alpha", "impact", "lcp"});
    const Rational alpha = d::exact_option(spec, "alpha", "-1/10", Rational(-1) / 3, Rational(0),
                                           false, "a number in [-1/3, 0]");
    ledger_.alpha_m = 0;
    ledger_.alpha_f = -alpha;
    ledger_.gamma = half - alpha;
    ledger_.beta = (1 - alpha) * (1 - alpha) / 4;
    params = "alpha=" + format_scalar(alpha);
  } else if (name_ == "gen-alpha") {
    d::check_keys(spec,
                  {"activation", "alpha_f", "alpha_m", "beta", "gamma", "impact", "lcp", "rho"});
    const bool explicit_form =
        spec.has("alpha_m") || spec.has("alpha_f") || spec.has("beta") || spec.has("gamma");
    if (explicit_form && spec.has("rho"))
      throw SpecError(name_ + ":rho",
                      "rho cannot be combined with alpha_m, alpha_f, beta or gamma; give either "
                      "gen-alpha:rho=R or gen-alpha:alpha_m=..,alpha_f=..[,beta=..,gamma=..]");
    if (explicit_form) {
      for (const char* key : {"alpha_m", "alpha_f"})
        if (!spec.has(key))
          throw SpecError(name_ + ":" + key,
                          "the explicit form needs both alpha_m and alpha_f (beta and gamma "
                          "default to the second-order, rho-consistent values)");
      ledger_.alpha_m = d::exact_option(spec, "alpha_m", "0", Rational(-1), Rational(1), true,
                                        "a number in [-1, 1)");
      ledger_.alpha_f = d::exact_option(spec, "alpha_f", "0", Rational(-1), Rational(1), true,
                                        "a number in [-1, 1)");
      const Rational g0 = half + ledger_.alpha_f - ledger_.alpha_m;
      ledger_.gamma = spec.has("gamma") ? d::exact_option(spec, "gamma", "0", Rational(0),
                                                          Rational(2), false, "a number in [0, 2]")
                                        : g0;
      const Rational b0 = (ledger_.gamma + half) * (ledger_.gamma + half) / 4;
      ledger_.beta = spec.has("beta") ? d::exact_option(spec, "beta", "0", Rational(0), Rational(2),
                                                        false, "a number in [0, 2]")
                                      : b0;
      if (!spec.has("gamma") && (ledger_.gamma < 0 || ledger_.gamma > 2))
        throw SpecError(name_ + ":gamma", "the default gamma = 1/2 + alpha_f - alpha_m = " +
                                              format_scalar(ledger_.gamma) +
                                              " is outside [0, 2]; give gamma explicitly");
      params = "alpha_f=" + format_scalar(ledger_.alpha_f) +
               ",alpha_m=" + format_scalar(ledger_.alpha_m) +
               ",beta=" + format_scalar(ledger_.beta) + ",gamma=" + format_scalar(ledger_.gamma);
    } else {
      const Rational rho = d::exact_option(spec, "rho", "1/2", Rational(0), Rational(1), false,
                                           "a number in [0, 1]");
      d::from_rho(rho, ledger_.alpha_m, ledger_.alpha_f);
      ledger_.gamma = half + ledger_.alpha_f - ledger_.alpha_m;
      ledger_.beta = (ledger_.gamma + half) * (ledger_.gamma + half) / 4;
      params = "rho=" + format_scalar(rho);
      if (mutation == NewmarkMutation::wrong_alpha_f) {
        dynamic_ = ledger_;
        dynamic_.alpha_f = 1 / (rho + 1);  // the typo: 1/(rho+1) for rho/(rho+1)
      }
    }
  } else {
    throw SpecError("scheme", "NewmarkFamily does not implement '" + name_ +
                                  "'; it implements newmark, hht and gen-alpha");
  }
  (void)quarter;
  if (mutation != NewmarkMutation::wrong_alpha_f) dynamic_ = ledger_;
  if (mutation == NewmarkMutation::wrong_alpha_f && name_ != "gen-alpha")
    throw SpecError("scheme", "the wrong-alpha-f mutation applies to gen-alpha:rho=R only");
  if (mutation == NewmarkMutation::gamma_shift) dynamic_.gamma = ledger_.gamma + Rational(1) / 10;

  law_ = d::parse_law(spec);
  dynamic_law_ = law_;
  if (mutation == NewmarkMutation::impact_previous_claims_smooth) {
    law_ = NewmarkImpactLaw::smooth;
    dynamic_law_ = NewmarkImpactLaw::previous;
  }
  activation_ = d::parse_activation(spec);
  lcp_method_ = d::parse_method<Scalar>(spec);
  spec_text_ = name_ + ":" + d::options_suffix(law_, activation_, lcp_method_) + "," + params;
  // Canonical option order is alphabetical (SchemeSpec::str); rebuild through SchemeSpec.
  SchemeSpec canonical = SchemeSpec::parse(spec_text_);
  spec_text_ = canonical.str();

  am_ = scalar_cast<Scalar>(dynamic_.alpha_m);
  af_ = scalar_cast<Scalar>(dynamic_.alpha_f);
  beta_ = scalar_cast<Scalar>(dynamic_.beta);
  gamma_ = scalar_cast<Scalar>(dynamic_.gamma);
  lam_ = scalar_cast<Scalar>(ledger_.alpha_m);
  laf_ = scalar_cast<Scalar>(ledger_.alpha_f);
  lbeta_ = scalar_cast<Scalar>(ledger_.beta);
  lgamma_ = scalar_cast<Scalar>(ledger_.gamma);
}

template <class Scalar>
SchemeInfo NewmarkFamily<Scalar>::info() const {
  SchemeInfo info;
  info.family = "newmark-family";
  info.spec = spec_text_;
  const Rational half = Rational(1) / 2;
  info.smooth_order = ledger_.gamma == half + ledger_.alpha_f - ledger_.alpha_m ? 2 : 1;
  info.impulse_lcp = true;
  info.algorithmic_energy = true;
  info.momentum_conserving = true;
  return info;
}

template <class Scalar>
void NewmarkFamily<Scalar>::force_at(const Scalar& t, Vector<Scalar>& out) const {
  newmark_detail::harmonic_force(*model_, harmonic_, t, out);
}

template <class Scalar>
void NewmarkFamily<Scalar>::initialize(const LinearModel<Scalar>& model,
                                       const State<Scalar>& initial, const Scalar& h) {
  namespace d = newmark_detail;
  const char* scheme = "newmark-family";
  d::check_initial(scheme, model, initial, h);
  const Index n = model.dofs(), m = model.contacts();
  model_ = &model;
  h_ = h;
  harmonic_ = model.has_harmonic_force();
  const Scalar one(1);
  const Matrix<Scalar> iteration =
      ((one - am_) / (one - af_)) * model.M + (h * gamma_) * model.C + (h * h * beta_) * model.K;
  d::factorize(scheme, "(1-alpha_m)/(1-alpha_f) M + h gamma C + h^2 beta K", iteration_lu_,
               iteration);
  d::factorize(scheme, "M", mass_lu_, model.M);
  minv_g_ = mass_lu_.solve(model.G);
  delassus_ = model.G.transpose() * minv_g_;

  r_terms_ = ledger_.alpha_f != ledger_.alpha_m;
  algorithmic_ = !harmonic_ && d::is_zero_matrix(model.C) && (!r_terms_ || d::is_spd(model.K));
  if (algorithmic_ && r_terms_) d::factorize(scheme, "K", stiffness_lu_, model.K);

  for (Vector<Scalar>* v :
       {&a_, &xdd_, &vs_, &r_, &f_k_, &f_next_, &rhs_, &a_next_, &xdd_next_, &vs_next_, &q_next_,
        &v_next_, &r_next_, &work_, &work2_, &dq_, &da_, &dr_, &wbar_})
    v->setZero(n);
  for (Vector<Scalar>* v :
       {&gap_next_, &velocity_k_, &velocity_smooth_, &velocity_newton_, &impulse_})
    v->setZero(m);
  active_.clear();
  active_.reserve(static_cast<std::size_t>(m));
  delassus_active_.resize(0, 0);
  b_active_.resize(0);

  // a_0 = x''_0 = M^{-1}(F_0 - C v_0 - K q_0), v~_0 = v_0, r_0 = 0.
  force_at(initial.t, f_k_);
  rhs_ = f_k_;
  rhs_.noalias() -= model.C * initial.v;
  rhs_.noalias() -= model.K * initial.q;
  a_ = mass_lu_.solve(rhs_);
  xdd_ = a_;
  vs_ = initial.v;
  r_.setZero();
}

template <class Scalar>
void NewmarkFamily<Scalar>::step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  namespace d = newmark_detail;
  if (!model_) throw StepError("newmark-family: step() called before initialize()");
  const LinearModel<Scalar>& model = *model_;
  const Scalar& h = h_;
  const Scalar one(1), half(Scalar(1) / 2);
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& v = state.v;

  force_at(state.t, f_k_);
  force_at(state.t + h, f_next_);

  // Predictors: q* = q_k + h v_k + h^2 (1/2 - beta) a_k, v* = v_k + h (1 - gamma) a_k.
  q_next_ = q;
  q_next_ += h * v;
  q_next_ += (h * h * (half - beta_)) * a_;
  vs_next_ = v;
  vs_next_ += (h * (one - gamma_)) * a_;

  // S a_{k+1} = F_{k+1} - M (alpha_m a_k - alpha_f x''_k)/(1 - alpha_f) - C v* - K q*.
  work_ = am_ * a_;
  work_ -= af_ * xdd_;
  work_ /= (one - af_);
  rhs_ = f_next_;
  rhs_.noalias() -= model.M * work_;
  rhs_.noalias() -= model.C * vs_next_;
  rhs_.noalias() -= model.K * q_next_;
  a_next_ = iteration_lu_.solve(rhs_);

  q_next_ += (h * h * beta_) * a_next_;
  vs_next_ += (h * gamma_) * a_next_;
  // x''_{k+1} from the filter (1-alpha_m) a_{k+1} + alpha_m a_k = (1-alpha_f) x''_{k+1} + alpha_f
  // x''_k.
  xdd_next_ = (one - am_) * a_next_;
  xdd_next_ += am_ * a_;
  xdd_next_ -= af_ * xdd_;
  xdd_next_ /= (one - af_);

  d::impulse_step<Scalar>("newmark-family", model, delassus_, minv_g_, dynamic_law_, activation_,
                          lcp_method_, lcp_options_, state.t, v, q_next_, vs_next_, gap_next_,
                          velocity_k_, velocity_smooth_, velocity_newton_, impulse_, v_next_,
                          active_, delassus_active_, b_active_, summary);
  // The mutant that claims the smooth law reports the smooth velocity as the law's velocity.
  summary.velocity_newton = law_ == NewmarkImpactLaw::smooth ? velocity_smooth_ : velocity_k_;

  // r_{k+1} = M a_{k+1} + C v~_{k+1} + K q_{k+1} - F_{k+1} (= M(a - x'') up to the solve).
  r_next_.noalias() = model.M * a_next_;
  r_next_.noalias() += model.C * vs_next_;
  r_next_.noalias() += model.K * q_next_;
  r_next_ -= f_next_;

  summary.t_before = state.t;
  summary.t_after = state.t + h;
  summary.h = h;
  summary.gap_before.noalias() = model.G.transpose() * q;
  summary.gap_before += model.w;

  // external_impulse = h (F_{k+gamma} + r_{k+gamma}) = M(v~_{k+1} - v_k) + h C v~_{k+gamma} + h K
  // q_{k+gamma}.
  work_ = (one - lgamma_) * (f_k_ + r_);
  work_ += lgamma_ * (f_next_ + r_next_);
  summary.external_impulse = h * work_;

  // Ledger (header comment), with the claimed (ledger) parameters.
  dq_ = q_next_ - q;
  da_ = a_next_ - a_;
  dr_ = r_next_ - r_;
  wbar_ = half * (vs_ + vs_next_);
  summary.E_before = half * (d::quad(model.M, v, work_) + d::quad(model.K, q, work_));
  summary.E_after = half * (d::quad(model.M, v_next_, work_) + d::quad(model.K, q_next_, work_));
  work_ = half * (f_k_ + f_next_);
  summary.W_ext = dq_.dot(work_);
  work2_.noalias() = model.C * wbar_;
  summary.W_damp = -h * wbar_.dot(work2_);
  work_ = velocity_smooth_ + summary.velocity_after;
  summary.W_contact = half * work_.dot(impulse_);

  const Scalar bg = lbeta_ - lgamma_ / 2;
  const Scalar delta = lgamma_ - half - laf_ + lam_;
  const Scalar a2_k = d::quad(model.M, a_, work_);
  const Scalar a2_next = d::quad(model.M, a_next_, work_);
  const Scalar da2 = d::quad(model.M, da_, work_);
  work_.noalias() = model.M * da_;
  const Scalar dq_M_da = dq_.dot(work_);
  work_ = dq_ - h * wbar_;
  Scalar nd = (half - laf_) * dq_.dot(dr_) - delta * dq_M_da +
              half * h * h * bg * (a2_next - a2_k) + h * h * bg * (lgamma_ - half) * da2 +
              work_.dot(work2_);
  summary.numerical_dissipation = nd;

  summary.has_algorithmic_energy = algorithmic_;
  if (algorithmic_) {
    const Scalar e_alg_common_k = summary.E_before - model.F.dot(q) + half * h * h * bg * a2_k;
    const Scalar e_alg_common_next =
        summary.E_after - model.F.dot(q_next_) + half * h * h * bg * a2_next;
    Scalar D = delta * d::quad(model.K, dq_, work_) + h * h * bg * (lgamma_ - half) * da2;
    Scalar r_k_term(0), r_next_term(0);
    if (r_terms_) {
      const Scalar c_r = (one - lgamma_ - lam_) / (2 * (laf_ - lam_));
      r_k_term = c_r * d::inverse_quad(stiffness_lu_, r_, work_);
      r_next_term = c_r * d::inverse_quad(stiffness_lu_, r_next_, work_);
      D += c_r * (one - 2 * lam_) * d::inverse_quad(stiffness_lu_, dr_, work_);
    }
    summary.E_alg_before = e_alg_common_k + r_k_term;
    summary.E_alg_after = e_alg_common_next + r_next_term;
    summary.algorithmic_dissipation = D;
  } else {
    summary.E_alg_before = summary.E_alg_after = summary.algorithmic_dissipation = Scalar(0);
  }

  a_ = a_next_;
  xdd_ = xdd_next_;
  vs_ = vs_next_;
  r_ = r_next_;
  state.q = q_next_;
  state.v = v_next_;
  state.t = state.t + h;
}

// ------------------------------------------------------------------------------------------
// KrenkHogsberg
// ------------------------------------------------------------------------------------------

template <class Scalar>
KrenkHogsberg<Scalar>::KrenkHogsberg(const SchemeSpec& spec) {
  namespace d = newmark_detail;
  if (spec.name() != "krenk-hogsberg")
    throw SpecError("scheme", "KrenkHogsberg implements krenk-hogsberg, not '" + spec.name() + "'");
  d::check_keys(spec,
                {"activation", "alpha_f", "alpha_m", "beta", "gamma", "impact", "lcp", "rho"});
  const Rational half = Rational(1) / 2;
  const bool explicit_form =
      spec.has("alpha_m") || spec.has("alpha_f") || spec.has("beta") || spec.has("gamma");
  NewmarkParameters& p = parameters_;
  std::string params;
  if (explicit_form) {
    if (spec.has("rho"))
      throw SpecError(spec.name() + ":rho",
                      "rho cannot be combined with alpha_m, alpha_f, beta or gamma; give either "
                      "krenk-hogsberg:rho=R or krenk-hogsberg:alpha_m=..,alpha_f=..[,beta=..,"
                      "gamma=..]");
    for (const char* key : {"alpha_m", "alpha_f"})
      if (!spec.has(key))
        throw SpecError(spec.name() + ":" + key,
                        "the explicit form needs both alpha_m and alpha_f");
    p.alpha_m = d::exact_option(spec, "alpha_m", "0", Rational(-1), Rational(1), true,
                                "a number in [-1, 1)");
    p.alpha_f = d::exact_option(spec, "alpha_f", "0", Rational(-1), Rational(1), false,
                                "a number in [-1, 1]");
    p.gamma = spec.has("gamma") ? d::exact_option(spec, "gamma", "0", Rational(0), Rational(2),
                                                  false, "a number in (0, 2]")
                                : half + p.alpha_f - p.alpha_m;
    if (!(p.gamma > 0) || p.gamma > 2)
      throw SpecError(spec.name() + ":gamma",
                      "gamma = " + format_scalar(p.gamma) +
                          " is out of range; accepted: a number in (0, 2] (the default is 1/2 + "
                          "alpha_f - alpha_m)");
    p.beta = spec.has("beta") ? d::exact_option(spec, "beta", "0", Rational(0), Rational(2), false,
                                                "a number in [0, 2]")
                              : (p.gamma + half) * (p.gamma + half) / 4;
    params = "alpha_f=" + format_scalar(p.alpha_f) + ",alpha_m=" + format_scalar(p.alpha_m) +
             ",beta=" + format_scalar(p.beta) + ",gamma=" + format_scalar(p.gamma);
  } else {
    const Rational rho =
        d::exact_option(spec, "rho", "1/2", Rational(0), Rational(1), false, "a number in [0, 1]");
    d::from_rho(rho, p.alpha_m, p.alpha_f);
    p.gamma = half + p.alpha_f - p.alpha_m;
    p.beta = (p.gamma + half) * (p.gamma + half) / 4;
    params = "rho=" + format_scalar(rho);
  }
  law_ = d::parse_law(spec);
  activation_ = d::parse_activation(spec);
  lcp_method_ = d::parse_method<Scalar>(spec);
  spec_text_ =
      SchemeSpec::parse("krenk-hogsberg:" + d::options_suffix(law_, activation_, lcp_method_) +
                        "," + params)
          .str();
  am_ = scalar_cast<Scalar>(p.alpha_m);
  af_ = scalar_cast<Scalar>(p.alpha_f);
  beta_ = scalar_cast<Scalar>(p.beta);
  gamma_ = scalar_cast<Scalar>(p.gamma);
}

template <class Scalar>
SchemeInfo KrenkHogsberg<Scalar>::info() const {
  SchemeInfo info;
  info.family = "krenk-hogsberg";
  info.spec = spec_text_;
  info.smooth_order = 2;
  info.impulse_lcp = true;
  info.algorithmic_energy = true;
  info.momentum_conserving = true;
  return info;
}

template <class Scalar>
void KrenkHogsberg<Scalar>::force_at(const Scalar& t, Vector<Scalar>& out) const {
  newmark_detail::harmonic_force(*model_, harmonic_, t, out);
}

template <class Scalar>
void KrenkHogsberg<Scalar>::initialize(const LinearModel<Scalar>& model,
                                       const State<Scalar>& initial, const Scalar& h) {
  namespace d = newmark_detail;
  const char* scheme = "krenk-hogsberg";
  d::check_initial(scheme, model, initial, h);
  const Index n = model.dofs(), m = model.contacts();
  model_ = &model;
  h_ = h;
  harmonic_ = model.has_harmonic_force();
  const Scalar one(1), half(Scalar(1) / 2);
  const Scalar c = half - af_;
  const Scalar kappa = half + c * (af_ - am_) / (one - am_);
  const Matrix<Scalar> iteration =
      gamma_ * model.M + (h * beta_) * model.C + (h * h * beta_ * kappa) * model.K;
  d::factorize(scheme, "gamma M + h beta C + h^2 beta kappa K", iteration_lu_, iteration);
  d::factorize(scheme, "M", mass_lu_, model.M);
  minv_g_ = mass_lu_.solve(model.G);
  delassus_ = model.G.transpose() * minv_g_;
  r_terms_ = parameters_.alpha_f != parameters_.alpha_m;
  algorithmic_ = !harmonic_ && (!r_terms_ || d::is_spd(model.K));
  if (algorithmic_ && r_terms_) d::factorize(scheme, "K", stiffness_lu_, model.K);

  for (Vector<Scalar>* v : {&a_, &r_, &f_k_, &f_next_, &rhs_, &a_next_, &vs_next_, &q_next_,
                            &v_next_, &r_next_, &work_, &work2_, &dq_, &da_, &dr_, &fmean_})
    v->setZero(n);
  for (Vector<Scalar>* v :
       {&gap_next_, &velocity_k_, &velocity_smooth_, &velocity_newton_, &impulse_})
    v->setZero(m);
  active_.clear();
  active_.reserve(static_cast<std::size_t>(m));
  delassus_active_.resize(0, 0);
  b_active_.resize(0);

  // a_0 = M^{-1}(F_0 - C v_0 - K q_0), r_0 = 0.
  force_at(initial.t, f_k_);
  rhs_ = f_k_;
  rhs_.noalias() -= model.C * initial.v;
  rhs_.noalias() -= model.K * initial.q;
  a_ = mass_lu_.solve(rhs_);
  r_.setZero();
}

template <class Scalar>
void KrenkHogsberg<Scalar>::step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  namespace d = newmark_detail;
  if (!model_) throw StepError("krenk-hogsberg: step() called before initialize()");
  const LinearModel<Scalar>& model = *model_;
  const Scalar& h = h_;
  const Scalar one(1), half(Scalar(1) / 2);
  const Scalar c = half - af_;
  const Scalar kappa = half + c * (af_ - am_) / (one - am_);
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& v = state.v;

  force_at(state.t, f_k_);
  force_at(state.t + h, f_next_);
  fmean_ = half * (f_k_ + f_next_);

  // [q]* = h v_k + h^2 (1/2 - beta) a_k (in dq_), then
  // S a_{k+1} = <F> - (1-gamma) M a_k - C [q]*/h - K q_k - kappa K [q]* + c r_k/(1-alpha_m).
  dq_ = h * v;
  dq_ += (h * h * (half - beta_)) * a_;
  work_ = q;
  work_ += kappa * dq_;
  rhs_ = fmean_;
  rhs_.noalias() -= ((one - gamma_) * model.M) * a_;
  rhs_.noalias() -= (one / h) * (model.C * dq_);
  rhs_.noalias() -= model.K * work_;
  rhs_ += (c / (one - am_)) * r_;
  a_next_ = iteration_lu_.solve(rhs_);
  dq_ += (h * h * beta_) * a_next_;
  q_next_ = q + dq_;
  vs_next_ = v;
  vs_next_ += (h * (one - gamma_)) * a_;
  vs_next_ += (h * gamma_) * a_next_;
  // (1 - alpha_m) r_{k+1} + alpha_m r_k = (alpha_f - alpha_m) K [q].
  r_next_.noalias() = (af_ - am_) * (model.K * dq_);
  r_next_ -= am_ * r_;
  r_next_ /= (one - am_);
  dr_ = r_next_ - r_;
  da_ = a_next_ - a_;

  d::impulse_step<Scalar>("krenk-hogsberg", model, delassus_, minv_g_, law_, activation_,
                          lcp_method_, lcp_options_, state.t, v, q_next_, vs_next_, gap_next_,
                          velocity_k_, velocity_smooth_, velocity_newton_, impulse_, v_next_,
                          active_, delassus_active_, b_active_, summary);
  summary.velocity_newton = velocity_newton_;
  summary.t_before = state.t;
  summary.t_after = state.t + h;
  summary.h = h;
  summary.gap_before.noalias() = model.G.transpose() * q;
  summary.gap_before += model.w;
  summary.external_impulse = h * fmean_;

  summary.E_before = half * (d::quad(model.M, v, work_) + d::quad(model.K, q, work_));
  summary.E_after = half * (d::quad(model.M, v_next_, work_) + d::quad(model.K, q_next_, work_));
  summary.W_ext = dq_.dot(fmean_);
  const Scalar damping = d::quad(model.C, dq_, work_) / h;
  summary.W_damp = -damping;
  work_ = velocity_smooth_ + summary.velocity_after;
  summary.W_contact = half * work_.dot(impulse_);
  const Scalar bg = beta_ - gamma_ / 2;
  const Scalar a2_k = d::quad(model.M, a_, work_);
  const Scalar a2_next = d::quad(model.M, a_next_, work_);
  const Scalar da2 = d::quad(model.M, da_, work_);
  summary.numerical_dissipation =
      c * dq_.dot(dr_) + half * h * h * bg * (a2_next - a2_k) + h * h * bg * (gamma_ - half) * da2;

  summary.has_algorithmic_energy = algorithmic_;
  if (algorithmic_) {
    Scalar r_k_term(0), r_next_term(0);
    Scalar D = damping + h * h * bg * (gamma_ - half) * da2;
    if (r_terms_) {
      const Scalar c_r = c / (2 * (af_ - am_));
      r_k_term = c_r * d::inverse_quad(stiffness_lu_, r_, work_);
      r_next_term = c_r * d::inverse_quad(stiffness_lu_, r_next_, work_);
      D += c_r * (one - 2 * am_) * d::inverse_quad(stiffness_lu_, dr_, work_);
    }
    summary.E_alg_before = summary.E_before - model.F.dot(q) + half * h * h * bg * a2_k + r_k_term;
    summary.E_alg_after =
        summary.E_after - model.F.dot(q_next_) + half * h * h * bg * a2_next + r_next_term;
    summary.algorithmic_dissipation = D;
  } else {
    summary.E_alg_before = summary.E_alg_after = summary.algorithmic_dissipation = Scalar(0);
  }

  a_ = a_next_;
  r_ = r_next_;
  state.q = q_next_;
  state.v = v_next_;
  state.t = state.t + h;
}

}  // namespace nsh
