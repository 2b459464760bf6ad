// Body of the Moreau–Jean theta-scheme (declaration and equations in
// nsh/schemes/moreau_jean.hpp). Included by moreau_jean.cpp (double), moreau_jean_real50.cpp
// and moreau_jean_rational.cpp, so that each scalar compiles in its own translation unit.
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>
#include <nsh/schemes/moreau_jean.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace nsh {
namespace moreau_jean_detail {

inline const std::vector<std::string>& option_keys() {
  static const std::vector<std::string> keys{"activation", "lcp", "theta"};
  return keys;
}

inline std::string accepted_options() {
  return "activation (position | position-velocity), lcp (lemke | enumeration | pgs | fb | "
         "prox), theta (a number in [0, 1])";
}

inline MoreauJeanActivation parse_activation(const SchemeSpec& spec) {
  if (!spec.has("activation")) return MoreauJeanActivation::position_velocity;
  const std::string& text = spec.text("activation");
  if (text == "position") return MoreauJeanActivation::position;
  if (text == "position-velocity") return MoreauJeanActivation::position_velocity;
  throw SpecError(spec.name() + ":activation",
                  "'" + text + "' is not accepted; choices: position, position-velocity");
}

inline LcpMethod parse_method(const SchemeSpec& spec) {
  if (!spec.has("lcp")) return LcpMethod::lemke;
  try {
    return parse_lcp_method(spec.text("lcp"));
  } catch (const SpecError&) {
    throw SpecError(spec.name() + ":lcp", "'" + spec.text("lcp") +
                                              "' is not accepted; choices: lemke, enumeration, "
                                              "pgs, fb, prox");
  }
}

}  // namespace moreau_jean_detail

template <class Scalar>
MoreauJean<Scalar>::MoreauJean(const SchemeSpec& spec) {
  namespace d = moreau_jean_detail;
  // The registry checks keys and choices already; a scheme built from a raw spec checks again.
  for (const auto& [key, value] : spec.options()) {
    bool known = false;
    for (const auto& k : d::option_keys()) known = known || k == key;
    if (!known)
      throw SpecError(spec.name() + ":" + key,
                      "unknown option; moreau-jean accepts: " + d::accepted_options());
  }
  const std::string theta_text = spec.has("theta") ? spec.text("theta") : std::string("1/2");
  try {
    theta_exact_ = parse_rational(theta_text, spec.name() + ":theta");
    theta_ = parse_number<Scalar>(theta_text, spec.name() + ":theta");
  } catch (const SpecError&) {
    throw;
  } catch (const InputError& error) {
    // A malformed number in a spec is a spec error (same message, naming the option).
    std::string message = error.what();
    const std::string prefix = error.field() + ": ";
    if (message.rfind(prefix, 0) == 0) message = message.substr(prefix.size());
    throw SpecError(spec.name() + ":theta", message + "; accepted: a number in [0, 1]");
  }
  const Scalar lo(0), hi(1);
  if (theta_ < lo || theta_ > hi)
    throw SpecError(spec.name() + ":theta",
                    "value " + theta_text + " is out of range; accepted: a number in [0, 1]");
  activation_ = d::parse_activation(spec);
  lcp_method_ = d::parse_method(spec);
  if constexpr (is_exact_v<Scalar>) {
    if (lcp_method_ != LcpMethod::lemke && lcp_method_ != LcpMethod::enumeration)
      throw SpecError(spec.name() + ":lcp",
                      std::string("'") + to_string(lcp_method_) +
                          "' iterates or needs sqrt and cannot run in rational arithmetic; "
                          "accepted with --precision rational: lemke, enumeration");
  }
}

template <class Scalar>
SchemeInfo MoreauJean<Scalar>::info() const {
  SchemeInfo info;
  info.family = "moreau-jean";
  info.spec = std::string("moreau-jean:activation=") + to_string(activation_) +
              ",lcp=" + to_string(lcp_method_) + ",theta=" + format_scalar(theta_exact_);
  info.smooth_order = theta_exact_ == Rational(1) / 2 ? 2 : 1;
  info.impulse_lcp = true;
  info.algorithmic_energy = false;
  info.momentum_conserving = true;
  return info;
}

template <class Scalar>
void MoreauJean<Scalar>::initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                                    const Scalar& h) {
  if (!is_finite(h) || !(h > Scalar(0)))
    throw InputError("h", "step size must be finite and > 0, got " + format_scalar(h));
  const Index n = model.dofs(), m = model.contacts();
  if (initial.q.size() != n || initial.v.size() != n)
    throw InputError("q0", fmt::format("initial state has {} positions and {} velocities, the "
                                       "model has {} degrees of freedom",
                                       initial.q.size(), initial.v.size(), n));
  model_ = &model;
  h_ = h;
  harmonic_ = model.has_harmonic_force();
  if constexpr (is_exact_v<Scalar>) {
    if (harmonic_) (void)model.force(initial.t);  // throws the model's own error
  }

  const Scalar htheta = h * theta_;
  const Matrix<Scalar> iteration = model.M + htheta * model.C + (htheta * htheta) * model.K;
  iteration_lu_.compute(iteration);
  // M^ is SPD for a validated model (M SPD, C and K PSD, theta >= 0), so a zero pivot means
  // the model was not validated or is numerically singular.
  for (Index i = 0; i < n; ++i)
    if (iteration_lu_.matrixLU()(i, i) == Scalar(0))
      throw StepError(
          "moreau-jean: the iteration matrix M + h theta C + h^2 theta^2 K is "
          "singular (pivot " +
          std::to_string(i) + "); validate the model");
  minv_g_ = iteration_lu_.solve(model.G);
  delassus_ = model.G.transpose() * minv_g_;

  for (Vector<Scalar>* v :
       {&force_theta_, &rhs_, &v_free_, &v_next_, &q_next_, &v_theta_, &dv_, &dq_, &work_n_})
    v->setZero(n);
  for (Vector<Scalar>* v : {&gap_k_, &velocity_k_, &velocity_theta_, &impulse_}) v->setZero(m);
  active_.clear();
  active_.reserve(static_cast<std::size_t>(m));
  delassus_active_.setZero(m, m);
  b_active_.setZero(m);
  lcp_workspace_.reserve(m);
}

template <class Scalar>
void MoreauJean<Scalar>::evaluate_force(const Scalar& t_k) {
  const LinearModel<Scalar>& model = *model_;
  force_theta_ = model.F;
  if (!harmonic_) return;
  if constexpr (is_exact_v<Scalar>) {
    (void)t_k;
    (void)model.force(t_k);  // unreachable after initialize; keeps the error in one place
  } else {
    using std::sin;
    const Scalar weight = (Scalar(1) - theta_) * Scalar(sin(model.omega * t_k)) +
                          theta_ * Scalar(sin(model.omega * (t_k + h_)));
    force_theta_ += weight * model.F_amplitude;
  }
}

template <class Scalar>
void MoreauJean<Scalar>::step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  if (!model_) throw StepError("moreau-jean: step() called before initialize()");
  const LinearModel<Scalar>& model = *model_;
  const Index m = model.contacts();
  const Scalar& h = h_;
  const Scalar half(Scalar(1) / 2);
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& v = state.v;

  gap_k_.noalias() = model.G.transpose() * q;
  gap_k_ += model.w;
  velocity_k_.noalias() = model.G.transpose() * v;
  evaluate_force(state.t);

  // Free velocity: v_free = v_k + M^{-1}[-h C v_k - h K q_k - h^2 theta K v_k + h F_{k+theta}].
  work_n_ = q;
  work_n_ += (h * theta_) * v;  // q_k + h theta v_k, so that K enters once
  rhs_.noalias() = model.C * v;
  rhs_.noalias() += model.K * work_n_;
  rhs_ -= force_theta_;
  rhs_ *= -h;
  v_free_ = iteration_lu_.solve(rhs_);
  v_free_ += v;

  // Index set from the state at t_k (gamma_p = 1/2).
  active_.clear();
  for (Index a = 0; a < m; ++a) {
    const bool position = gap_k_(a) + half * h * velocity_k_(a) <= Scalar(0);
    const bool velocity =
        activation_ == MoreauJeanActivation::position || velocity_k_(a) <= Scalar(0);
    if (position && velocity) active_.push_back(a);
  }

  impulse_.setZero();
  v_next_ = v_free_;
  const Index k = static_cast<Index>(active_.size());
  if (k > 0) {
    for (Index i = 0; i < k; ++i) {
      const Index a = active_[static_cast<std::size_t>(i)];
      for (Index j = 0; j < k; ++j)
        delassus_active_(i, j) = delassus_(a, active_[static_cast<std::size_t>(j)]);
      b_active_(i) = model.G.col(a).dot(v_free_) + model.e(a) * velocity_k_(a);
    }
    solve_lcp<Scalar>(lcp_method_, delassus_active_.topLeftCorner(k, k), b_active_.head(k),
                      lcp_options_, lcp_workspace_, summary.lcp);
    if (!summary.lcp.ok()) {
      const LcpCertificate<Scalar>& c = summary.lcp.certificate;
      throw StepError(fmt::format(
          "moreau-jean: the impulse LCP at t = {} ({} active contacts, method {}) was not "
          "certified: status {}, natural map {} (tolerance {}), feasibility {}, "
          "complementarity {}, Siconos error {}{}{}",
          format_scalar(state.t), k, to_string(lcp_method_), to_string(summary.lcp.status),
          format_scalar(c.natural_map), format_scalar(c.tolerance), format_scalar(c.feasibility),
          format_scalar(c.complementarity), format_scalar(c.siconos_error),
          summary.lcp.message.empty() ? "" : "; ", summary.lcp.message));
    }
    for (Index i = 0; i < k; ++i) {
      const Index a = active_[static_cast<std::size_t>(i)];
      impulse_(a) = summary.lcp.z(i);
      v_next_ += summary.lcp.z(i) * minv_g_.col(a);
    }
    summary.lcp_solved = true;
  } else {
    // Nothing was posed: the empty LCP is solved trivially, with zero residuals.
    // (z and w go back to the workspace rather than being freed, for the next contact.)
    lcp_workspace_.size_result(summary.lcp, 0);
    summary.lcp.status = LcpStatus::solved;
    summary.lcp.method = lcp_method_;
    summary.lcp.iterations = 0;
    summary.lcp.certificate = LcpCertificate<Scalar>{};
    summary.lcp.certificate.accepted = true;
    summary.lcp.message.clear();
    summary.lcp_solved = false;
  }

  // q_{k+1} = q_k + h v_{k+theta}.
  v_theta_ = (Scalar(1) - theta_) * v;
  v_theta_ += theta_ * v_next_;
  q_next_ = q;
  q_next_ += h * v_theta_;
  dv_ = v_next_ - v;
  dq_ = q_next_ - q;

  summary.t_before = state.t;
  summary.t_after = state.t + h;
  summary.h = h;
  summary.index_set.reserve(static_cast<std::size_t>(m));  // once, so that assign never grows
  summary.index_set.assign(active_.begin(), active_.end());
  summary.impulse = impulse_;
  summary.gap_before = gap_k_;
  summary.velocity_before = velocity_k_;
  summary.velocity_newton = velocity_k_;
  summary.external_impulse = h * force_theta_;
  summary.gap_after.noalias() = model.G.transpose() * q_next_;
  summary.gap_after += model.w;
  summary.velocity_after.noalias() = model.G.transpose() * v_next_;

  // Energy ledger (THEORY.md 2.2).
  work_n_.noalias() = model.M * v;
  summary.E_before = v.dot(work_n_);
  work_n_.noalias() = model.K * q;
  summary.E_before = (summary.E_before + q.dot(work_n_)) * half;
  work_n_.noalias() = model.M * v_next_;
  summary.E_after = v_next_.dot(work_n_);
  work_n_.noalias() = model.K * q_next_;
  summary.E_after = (summary.E_after + q_next_.dot(work_n_)) * half;
  summary.W_ext = h * v_theta_.dot(force_theta_);
  work_n_.noalias() = model.C * v_theta_;
  summary.W_damp = -h * v_theta_.dot(work_n_);
  velocity_theta_.noalias() = model.G.transpose() * v_theta_;
  summary.W_contact = velocity_theta_.dot(impulse_);
  work_n_.noalias() = model.M * dv_;
  Scalar jump = dv_.dot(work_n_);
  work_n_.noalias() = model.K * dq_;
  jump += dq_.dot(work_n_);
  summary.numerical_dissipation = (theta_ - half) * jump;
  summary.has_algorithmic_energy = false;

  state.q = q_next_;
  state.v = v_next_;
  state.t = state.t + h;
}

}  // namespace nsh
