// Body of the half-explicit time-discontinuous Galerkin scheme (declaration and equations in
// nsh/schemes/half_explicit_tdg.hpp, docs/half-explicit-tdg.md). Included by
// half_explicit_tdg.cpp (double), half_explicit_tdg_real50.cpp and
// half_explicit_tdg_rational.cpp, so that each scalar compiles in its own translation unit.
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>
#include <nsh/schemes/half_explicit_tdg.hpp>

#include "lcp/dense_solve.hxx"

#include <fmt/format.h>

#include <string>

namespace nsh {

template <class Scalar>
LcpResult<Scalar> half_explicit_prox_newton(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                            const Vector<Scalar>& r, Index max_iterations,
                                            const LcpOptions<Scalar>& options, bool use_fallback,
                                            LcpMethod fallback) {
  const Index k = b.size();
  LcpResult<Scalar> result;
  result.method = LcpMethod::prox_newton;
  Vector<Scalar> z = Vector<Scalar>::Zero(k);
  Vector<Scalar> w = b;
  detail::DenseSolveWorkspace<Scalar> ws;
  std::vector<Index> active;
  Index iterations = 0;
  std::string why;
  while (true) {
    // Stop when z >= 0 and w >= 0 to the round-off of this problem's own numbers, |b| and
    // |W| |z| (exactly in Rational), not merely within the certificate's tolerance, which is
    // relative to max(|W|, |b|): on a contact at rest to round-off b is of order 1e-18 and
    // z = 0 would pass it with w = b < 0. The certificate is then computed and must accept the
    // point: nothing is reported solved on the prox residual alone (docs/half-explicit-tdg.md).
    const Scalar sign_zero =
        tolerance<Scalar>(max_abs(b) + max_abs(W) * max_abs(z), Scalar(64 * (k + 1)));
    bool feasible = true;
    for (Index i = 0; i < k && feasible; ++i) feasible = z(i) >= -sign_zero && w(i) >= -sign_zero;
    if (feasible && natural_map_within(z, w, lcp_tolerance<Scalar>(W, b, z, options))) {
      result.z = z;
      result.iterations = iterations;
      certify_result<Scalar>(W, b, options, LcpStatus::solved, "",
                             "prox Newton stopped at a point that fails the certificate", result);
      return result;
    }
    if (iterations >= max_iterations) {
      why = fmt::format("prox Newton did not certify in {} iterations", iterations);
      break;
    }
    ++iterations;
    // The semismooth Newton step on F(z) = z - max(0, z - r o w): active rows (z_i - r_i w_i
    // > 0) get F_i = r_i w_i with Jacobian row r_i W_i, the others F_i = z_i with row e_i^T, so
    // the full step solves W_AA z_A = -b_A with z = 0 off the active set.
    active.clear();
    for (Index i = 0; i < k; ++i)
      if (z(i) - r(i) * w(i) > Scalar(0)) active.push_back(i);
    const Index a = static_cast<Index>(active.size());
    Vector<Scalar> next = Vector<Scalar>::Zero(k);
    if (a > 0) {
      ws.resize(a);
      for (Index i = 0; i < a; ++i) {
        for (Index j = 0; j < a; ++j)
          ws.a(i, j) = W(active[static_cast<std::size_t>(i)], active[static_cast<std::size_t>(j)]);
        ws.r(i) = -b(active[static_cast<std::size_t>(i)]);
      }
      const Scalar pivot = tolerance<Scalar>(max_abs(W), Scalar(64 * (k + 1)));
      const Scalar residual = tolerance<Scalar>(max_abs(W) + max_abs(b), Scalar(64 * (k + 1)));
      if (detail::solve_complete_pivoting(ws, a, pivot, residual) ==
          detail::DenseSolveOutcome::inconsistent) {
        why = fmt::format("prox Newton met an inconsistent active-set system at iteration {}",
                          iterations);
        break;
      }
      for (Index i = 0; i < a; ++i) next(active[static_cast<std::size_t>(i)]) = ws.x(i);
    }
    if (next == z) {  // a fixed point of the iteration that the certificate refuses
      why = fmt::format("prox Newton stalled at iteration {}", iterations);
      break;
    }
    z = next;
    w = W * z + b;
  }
  if (!use_fallback) {
    result.z = z;
    result.iterations = iterations;
    certify_result<Scalar>(W, b, options, LcpStatus::max_iterations, why,
                           "prox Newton stopped at a point that fails the certificate", result);
    return result;
  }
  result = solve_lcp<Scalar>(fallback, W, b, options);
  result.iterations += iterations;
  result.message = why + "; " + to_string(fallback) + " fallback" +
                   (result.message.empty() ? "" : ": " + result.message);
  return result;
}

template <class Scalar>
HalfExplicitTdg<Scalar>::HalfExplicitTdg(const SchemeSpec& spec)
    : HalfExplicitTdg(spec, "half-explicit-tdg", false) {}

template <class Scalar>
HalfExplicitTdg<Scalar>::HalfExplicitTdg(const SchemeSpec& spec, const char* name,
                                         bool acceleration_level)
    : name_(name),
      acceleration_level_(acceleration_level),
      options_(parse_options<HalfExplicitTdgOptions>(spec)) {
  lcp_options_.relative_tolerance = scalar_cast<Scalar>(options_.tolerance);
  use_fallback_ = options_.fallback != HalfExplicitFallback::none;
  if (options_.fallback == HalfExplicitFallback::enumeration) fallback_ = LcpMethod::enumeration;
  if constexpr (is_exact_v<Scalar>) require_exact_friction_method(spec.name(), options_.friction);
}

template <class Scalar>
SchemeInfo HalfExplicitTdg<Scalar>::info() const {
  SchemeInfo info;
  info.family = "half-explicit-tdg";
  info.spec = canonical_spec("half-explicit-tdg", options_);
  info.smooth_order = 2;
  info.impulse_lcp = true;
  info.algorithmic_energy = false;
  info.momentum_conserving = true;
  info.friction = true;
  info.parameters = option_values(options_);
  if (!options_.friction) info.parameters["friction"] = "lemke (d = 1), alart-curnier (d = 2)";
  return info;
}

template <class Scalar>
void HalfExplicitTdg<Scalar>::do_initialize(const LinearModel<Scalar>& model,
                                            const State<Scalar>& initial, const Scalar& h) {
  const Index n = model.dofs(), m = model.contacts();
  if (initial.q.size() != n || initial.v.size() != n)
    throw InputError("q0", fmt::format("initial state has {} positions and {} velocities, the "
                                       "model has {} degrees of freedom",
                                       initial.q.size(), initial.v.size(), n));
  if constexpr (is_exact_v<Scalar>) {
    if (model.has_harmonic_force()) (void)model.force(initial.t);  // the model's own error
  }
  model_ = &model;
  nonlinear_model_ = nullptr;
  h_ = h;
  t0_ = initial.t;
  mass_lu_.compute(model.M);
  for (Index i = 0; i < n; ++i)
    if (mass_lu_.matrixLU()(i, i) == Scalar(0))
      throw StepError(std::string(name_) + ": the mass matrix is singular (pivot " +
                      std::to_string(i) + "); validate the model");
  if (m == 0) {
    minv_g_.resize(n, 0);
    delassus_.resize(0, 0);
  } else {
    minv_g_ = mass_lu_.solve(model.G);
    delassus_ = model.G.transpose() * minv_g_;
  }
  friction_ = model.has_friction();
  minv_h_.resize(0, 0);
  delassus_local_.resize(0, 0);
  if (friction_) {
    const Index d = model.tangent_directions();
    friction_resolved_ =
        options_.friction.value_or(d == 1 ? FrictionMethod::lemke : FrictionMethod::alart_curnier);
    if (d == 2 && friction_resolved_ == FrictionMethod::lemke)
      throw SpecError(std::string(name_) + ":friction",
                      "lemke solves the planar (d = 1) friction problem only; the model has d = "
                      "2 tangent directions: use alart-curnier or pgs");
    if constexpr (is_exact_v<Scalar>) {
      if (d != 1)
        throw SpecError("precision",
                        std::string(name_) +
                            " with friction in rational arithmetic steps d = 1 only (the spatial "
                            "cone needs square roots); the model has d = 2: use double or "
                            "--precision 50");
    }
    Matrix<Scalar> H(n, m * (1 + d));
    for (Index a = 0; a < m; ++a) {
      H.col(a * (1 + d)) = model.G.col(a);
      for (Index j = 0; j < d; ++j) H.col(a * (1 + d) + 1 + j) = model.G_T.col(a * d + j);
    }
    minv_h_ = mass_lu_.solve(H);
    delassus_local_ = H.transpose() * minv_h_;
  }
}

/// A certified friction result on the `active` contacts: its impulses scattered into `local`
/// (contact-major, `block` = 1 + d rows per contact), and its normal part as the step's LCP
/// record with the friction certificate's normal residuals (record_normal_part, as Moreau–Jean
/// records its friction step). Returns `local`.
template <class Scalar>
Vector<Scalar> scatter_friction_result(const FrictionResult<Scalar>& result,
                                       const std::vector<Index>& active, Index block,
                                       LcpResult<Scalar>& record, Vector<Scalar>& local) {
  const Index k = static_cast<Index>(active.size());
  for (Index i = 0; i < k; ++i) {
    const Index a = active[static_cast<std::size_t>(i)];
    for (Index r = 0; r < block; ++r) local(a * block + r) = result.P(i * block + r);
  }
  record.status = LcpStatus::solved;
  record.method = LcpMethod::prox_newton;
  record.certificate = LcpCertificate<Scalar>{};
  record.certificate.accepted = true;
  record_normal_part(result, k, block, record);
  return local;
}

template <class Scalar>
Vector<Scalar> HalfExplicitTdg<Scalar>::solve_friction_active(
    const char* stage, const std::vector<Index>& active, const Vector<Scalar>& free_velocity,
    const Vector<Scalar>* normal_shift, const Scalar& t, LcpResult<Scalar>& record) {
  const LinearModel<Scalar>& model = *model_;
  const Index m = model.contacts();
  const Index d = model.tangent_directions();
  const Index block = 1 + d;
  const Index k = static_cast<Index>(active.size());
  Vector<Scalar> local = Vector<Scalar>::Zero(m * block);
  FrictionProblem<Scalar> problem;
  problem.tangent_dimension = d;
  problem.W.resize(k * block, k * block);
  problem.b.resize(k * block);
  problem.friction_coefficient.resize(k);
  for (Index i = 0; i < k; ++i) {
    const Index a = active[static_cast<std::size_t>(i)];
    problem.friction_coefficient(i) = model.mu(a);
    for (Index r = 0; r < block; ++r) {
      for (Index j = 0; j < k; ++j) {
        const Index c = active[static_cast<std::size_t>(j)];
        for (Index s = 0; s < block; ++s)
          problem.W(i * block + r, j * block + s) = delassus_local_(a * block + r, c * block + s);
      }
      problem.b(i * block + r) = r == 0 ? Scalar(model.G.col(a).dot(free_velocity))
                                        : Scalar(model.G_T.col(a * d + r - 1).dot(free_velocity));
    }
    if (normal_shift) problem.b(i * block) += (*normal_shift)(a);
  }
  FrictionOptions<Scalar> options;
  options.relative_tolerance = lcp_options_.relative_tolerance;
  const FrictionResult<Scalar> result = solve_friction(friction_resolved_, problem, options);
  last_newton_iterations_ += result.iterations;
  if (!result.ok()) {
    const FrictionCertificate<Scalar>& c = result.certificate;
    throw StepError(fmt::format(
        "{}: the {} friction problem at t = {} ({} active contacts, d = {}, "
        "method {}) was not certified: status {}, prox residual {} (tolerance {}), cone {}, "
        "normal feasibility {}, complementarity {}, stick velocity {}, dissipation defect {}{}{}",
        name_, stage, format_scalar(t), k, d, to_string(friction_resolved_),
        to_string(result.status), format_scalar(c.prox_residual), format_scalar(c.tolerance),
        format_scalar(c.cone_feasibility), format_scalar(c.normal_feasibility),
        format_scalar(c.normal_complementarity), format_scalar(c.stick_velocity),
        format_scalar(c.dissipation_defect), result.message.empty() ? "" : "; ", result.message));
  }
  return scatter_friction_result(result, active, block, record, local);
}

template <class Scalar>
Vector<Scalar> HalfExplicitTdg<Scalar>::solve_active(const char* stage,
                                                     const std::vector<Index>& active,
                                                     const Vector<Scalar>& free_velocity,
                                                     const Vector<Scalar>* normal_shift,
                                                     const Scalar& t, LcpResult<Scalar>& result) {
  const LinearModel<Scalar>& model = *model_;
  const Index m = model.contacts();
  const Index k = static_cast<Index>(active.size());
  Vector<Scalar> z = Vector<Scalar>::Zero(m);
  Matrix<Scalar> W(k, k);
  Vector<Scalar> b(k), r(k);
  for (Index i = 0; i < k; ++i) {
    const Index a = active[static_cast<std::size_t>(i)];
    for (Index j = 0; j < k; ++j) W(i, j) = delassus_(a, active[static_cast<std::size_t>(j)]);
    b(i) = model.G.col(a).dot(free_velocity);
    if (normal_shift) b(i) += (*normal_shift)(a);
    if (!options_.r)
      r(i) = W(i, i) > Scalar(0) ? Scalar(Scalar(1) / W(i, i)) : Scalar(1);
    else
      r(i) = scalar_cast<Scalar>(*options_.r);
  }
  result = half_explicit_prox_newton<Scalar>(W, b, r, options_.max_iterations, lcp_options_,
                                             use_fallback_, fallback_);
  last_newton_iterations_ += result.iterations;
  if (!result.ok()) {
    const LcpCertificate<Scalar>& c = result.certificate;
    throw StepError(fmt::format(
        "{}: the {} problem at t = {} ({} active contacts) was not certified: "
        "status {}, natural map {} (tolerance {}), feasibility {}, complementarity {}{}{}",
        name_, stage, format_scalar(t), k, to_string(result.status), format_scalar(c.natural_map),
        format_scalar(c.tolerance), format_scalar(c.feasibility), format_scalar(c.complementarity),
        result.message.empty() ? "" : "; ", result.message));
  }
  for (Index i = 0; i < k; ++i) z(active[static_cast<std::size_t>(i)]) = result.z(i);
  return z;
}

template <class Scalar>
void HalfExplicitTdg<Scalar>::record_no_problem(LcpResult<Scalar>& lcp) {
  // Nothing was posed: the empty LCP, solved with zero residuals.
  lcp.z.resize(0);
  lcp.w.resize(0);
  lcp.status = LcpStatus::solved;
  lcp.method = LcpMethod::prox_newton;
  lcp.iterations = 0;
  lcp.certificate = LcpCertificate<Scalar>{};
  lcp.certificate.accepted = true;
  lcp.message.clear();
}

template <class Scalar>
Scalar HalfExplicitTdg<Scalar>::drift_steps(const Scalar& t) const {
  const Scalar elapsed = t >= t0_ ? Scalar(t - t0_) : Scalar(t0_ - t);
  return Scalar(1) + elapsed / h_;
}

template <class Scalar>
Scalar HalfExplicitTdg<Scalar>::gap_drift_steps(const Scalar& t) const {
  return acceleration_level_ ? drift_steps(t) : Scalar(1);
}

template <class Scalar>
Vector<Scalar> HalfExplicitTdg<Scalar>::forecast_shift(std::vector<Index>& closed_n,
                                                       const Vector<Scalar>& u,
                                                       const Scalar& velocity_scale,
                                                       const Scalar& t) const {
  if (!acceleration_level_) return {};
  // Acceleration level (forecasting-trapezoidal): the forecast constrains G^T (u_1 - u_n) =
  // h G^T a_1 on the closed contacts that are not separating (G^T u_n <= 0 to the drift).
  const LinearModel<Scalar>& model = *model_;
  const Vector<Scalar> U_n = model.local_velocity(u);
  const Scalar zero = tolerance<Scalar>(max_abs(model.G) * velocity_scale,
                                        Scalar(256 * (model.contacts() + 1)) * drift_steps(t));
  std::erase_if(closed_n, [&](Index a) { return U_n(a) > zero; });
  return -U_n;
}

template <class Scalar>
Vector<Scalar> HalfExplicitTdg<Scalar>::non_impulsive_shift(std::vector<Index>& closed_next,
                                                            const Vector<Scalar>& U_1,
                                                            const Scalar& separating_zero,
                                                            const Vector<Scalar>& u_mid) const {
  if (!acceleration_level_) return {};
  // Acceleration level: h/2 G^T a_2 = G^T (u_{n+1} - (u_n + u_1)/2) >= 0 _|_ lambda_2 on the
  // closed contacts that are not separating after the forecast (G^T u_1 <= 0 to the drift).
  std::erase_if(closed_next, [&](Index a) { return U_1(a) > separating_zero; });
  return -model_->local_velocity(u_mid);
}

template <class Scalar>
void HalfExplicitTdg<Scalar>::record_acceleration_level(Vector<Scalar>& forecast,
                                                        Vector<Scalar>& last,
                                                        std::vector<Index>& index_set) {
  // The acceleration-level problem is no velocity-level impulse LCP: its impulse h/2 lambda_2
  // joins the forecast's as a known contact impulse, and no LCP is recorded for the step
  // (docs/half-explicit-tdg.md "The forecasting trapezoidal rule").
  forecast += last;
  last.setZero();
  index_set.clear();
}

template <class Scalar>
void HalfExplicitTdg<Scalar>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  last_newton_iterations_ = 0;
  if (nonlinear_model_) return nonlinear_step(state, summary);
  if (friction_) return friction_step(state, summary);
  const LinearModel<Scalar>& model = *model_;
  const Index m = model.contacts();
  const Scalar& h = h_;
  const Scalar half = Scalar(1) / 2;
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& u = state.v;

  // "<= 0" and "< 0" read to round-off (exactly zero in Rational), as Moreau–Jean's index set: a
  // contact held by the previous solve is at zero only to that solve's round-off, which is at
  // the scale of the velocities the stage cancels (u_n, the free velocity, M^-1 G z) and, for a
  // gap, of q and of h times those velocities. Reading the sign of that round-off took a
  // resting contact for an impact with e = 1 (a double/Real50 split of 5e-3 at h = 1/64).
  const Scalar gradient_scale = max_abs(model.G);
  const Scalar operations = Scalar(256 * (m + 1));
  const Scalar k = gap_drift_steps(state.t);
  const auto closed = [&](const Vector<Scalar>& position, const Scalar& velocity_scale) {
    const Vector<Scalar> g = model.gap(position);
    const Scalar zero = tolerance<Scalar>(
        gradient_scale * (max_abs(position) * k + h * velocity_scale * k * k) + max_abs(model.w),
        operations);
    std::vector<Index> set;
    for (Index a = 0; a < m; ++a)
      if (g(a) <= zero) set.push_back(a);
    return set;
  };

  const Vector<Scalar> F_n = model.force(state.t);
  const Vector<Scalar> F_next = model.force(state.t + h);
  const Vector<Scalar> f_n = F_n - model.C * u - model.K * q;

  // Forecast: explicit Euler with the constraint forces lambda_1 on A_n (z_1 = h lambda_1).
  const Vector<Scalar> u_free1 = u + h * mass_lu_.solve(f_n);
  const Scalar forecast_scale = max_abs(u) + max_abs(u_free1);
  std::vector<Index> closed_n = closed(q, forecast_scale);
  const Vector<Scalar> shift_1 = forecast_shift(closed_n, u, forecast_scale, state.t);
  Vector<Scalar> z1 = Vector<Scalar>::Zero(m);
  LcpResult<Scalar> forecast;
  if (!closed_n.empty())
    z1 = solve_active("forecast", closed_n, u_free1, acceleration_level_ ? &shift_1 : nullptr,
                      state.t, forecast);
  const Vector<Scalar> reaction_1 = minv_g_ * z1;
  const Vector<Scalar> u_1 = u_free1 + reaction_1;
  const Vector<Scalar> q_next = q + (h * half) * (u + u_1);

  // Impact detection on A_{n+1} with the forecast velocity.
  const Scalar velocity_scale = max_abs(u) + max_abs(u_free1) + max_abs(reaction_1) + max_abs(u_1);
  std::vector<Index> closed_next = closed(q_next, velocity_scale);
  const Vector<Scalar> U_1 = model.local_velocity(u_1);
  const Scalar velocity_zero = tolerance<Scalar>(gradient_scale * velocity_scale, operations);
  bool impact = false;
  for (Index a : closed_next) impact = impact || U_1(a) < -velocity_zero;

  const Vector<Scalar> f_1 = F_next - model.C * u_1 - model.K * q_next;
  const Vector<Scalar> u_star = u + (h * half) * mass_lu_.solve(f_n + f_1);
  Vector<Scalar> impulse = Vector<Scalar>::Zero(m);
  Vector<Scalar> forecast_impulse = Vector<Scalar>::Zero(m);
  Vector<Scalar> newton = Vector<Scalar>::Zero(m);
  Vector<Scalar> u_free2;
  if (impact) {
    // Impact step: u_{n+1} = u* + M^-1 G Lambda, Newton's law with u* on A_{n+1}.
    newton = model.local_velocity(u_star);
    u_free2 = u_star;
    const Vector<Scalar> law = model.e.cwiseProduct(newton);
    if (!closed_next.empty())
      impulse = solve_active("impact", closed_next, u_free2, &law, state.t, summary.lcp);
  } else {
    // Non-impulsive step: u_{n+1} = u* + h/2 M^-1 G (lambda_1 + lambda_2).
    forecast_impulse = half * z1;
    u_free2 = u_star + minv_g_ * forecast_impulse;
    const Vector<Scalar> shift_2 =
        non_impulsive_shift(closed_next, U_1, Scalar(velocity_zero * drift_steps(state.t)),
                            Vector<Scalar>(half * (u + u_1)));
    if (!closed_next.empty())
      impulse = solve_active("non-impulsive", closed_next, u_free2,
                             acceleration_level_ ? &shift_2 : nullptr, state.t, summary.lcp);
  }
  const Vector<Scalar> u_next = u_free2 + minv_g_ * impulse;
  if (acceleration_level_ && !impact)
    record_acceleration_level(forecast_impulse, impulse, closed_next);
  if (closed_next.empty()) record_no_problem(summary.lcp);

  summary.index_set.assign(closed_next.begin(), closed_next.end());
  summary.impulse = impulse;
  summary.forecast_impulse = forecast_impulse;
  summary.velocity_newton = newton;
  summary.lcp_solved = !closed_next.empty();
  summary.external_impulse = (h * half) * (F_n + F_next);

  // The ledger: discrete works of the step, with no identity behind them (see the header).
  const Vector<Scalar> dq = q_next - q;
  const Vector<Scalar> u_mean = half * (u + u_next);
  summary.W_ext = half * dq.dot(F_n + F_next);
  summary.W_damp = -h * u_mean.dot(model.C * u_mean);
  summary.W_contact = model.local_velocity(u_mean).dot(impulse + forecast_impulse);
  summary.numerical_dissipation = Scalar(0);
  summary.has_algorithmic_energy = false;

  state.q = q_next;
  state.v = u_next;
  state.t = state.t + h;
}

template <class Scalar>
void HalfExplicitTdg<Scalar>::friction_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  // The frictionless step of do_step with H = [G_N, G_T..] in place of G and the friction
  // problem in place of the LCP (docs/half-explicit-tdg.md "Friction").
  const LinearModel<Scalar>& model = *model_;
  const Index m = model.contacts();
  const Index d = model.tangent_directions();
  const Index block = 1 + d;
  const Scalar& h = h_;
  const Scalar half = Scalar(1) / 2;
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& u = state.v;
  const Scalar gradient_scale = max_abs(model.G);
  const Scalar operations = Scalar(256 * (m + 1));
  const Scalar k = gap_drift_steps(state.t);
  const auto closed = [&](const Vector<Scalar>& position, const Scalar& velocity_scale) {
    const Vector<Scalar> g = model.gap(position);
    const Scalar zero = tolerance<Scalar>(
        gradient_scale * (max_abs(position) * k + h * velocity_scale * k * k) + max_abs(model.w),
        operations);
    std::vector<Index> set;
    for (Index a = 0; a < m; ++a)
      if (g(a) <= zero) set.push_back(a);
    return set;
  };
  const auto normal_part = [&](const Vector<Scalar>& local) {
    Vector<Scalar> out(m);
    for (Index a = 0; a < m; ++a) out(a) = local(a * block);
    return out;
  };
  const auto tangential_part = [&](const Vector<Scalar>& local) {
    Vector<Scalar> out(m * d);
    for (Index a = 0; a < m; ++a)
      for (Index j = 0; j < d; ++j) out(a * d + j) = local(a * block + 1 + j);
    return out;
  };

  const Vector<Scalar> F_n = model.force(state.t);
  const Vector<Scalar> F_next = model.force(state.t + h);
  const Vector<Scalar> f_n = F_n - model.C * u - model.K * q;
  const Vector<Scalar> u_free1 = u + h * mass_lu_.solve(f_n);
  const Scalar forecast_scale = max_abs(u) + max_abs(u_free1);
  std::vector<Index> closed_n = closed(q, forecast_scale);
  const Vector<Scalar> shift_1 = forecast_shift(closed_n, u, forecast_scale, state.t);
  Vector<Scalar> P1 = Vector<Scalar>::Zero(m * block);
  LcpResult<Scalar> forecast;
  if (!closed_n.empty())
    P1 = solve_friction_active("forecast", closed_n, u_free1,
                               acceleration_level_ ? &shift_1 : nullptr, state.t, forecast);
  const Vector<Scalar> reaction_1 = minv_h_ * P1;
  const Vector<Scalar> u_1 = u_free1 + reaction_1;
  const Vector<Scalar> q_next = q + (h * half) * (u + u_1);

  const Scalar velocity_scale = max_abs(u) + max_abs(u_free1) + max_abs(reaction_1) + max_abs(u_1);
  std::vector<Index> closed_next = closed(q_next, velocity_scale);
  const Vector<Scalar> U_1 = model.local_velocity(u_1);
  const Scalar velocity_zero = tolerance<Scalar>(gradient_scale * velocity_scale, operations);
  bool impact = false;
  for (Index a : closed_next) impact = impact || U_1(a) < -velocity_zero;

  const Vector<Scalar> f_1 = F_next - model.C * u_1 - model.K * q_next;
  const Vector<Scalar> u_star = u + (h * half) * mass_lu_.solve(f_n + f_1);
  Vector<Scalar> P2 = Vector<Scalar>::Zero(m * block);
  Vector<Scalar> forecast_local = Vector<Scalar>::Zero(m * block);
  Vector<Scalar> newton = Vector<Scalar>::Zero(m);
  Vector<Scalar> u_free2;
  if (impact) {
    newton = model.local_velocity(u_star);
    u_free2 = u_star;
    const Vector<Scalar> law = model.e.cwiseProduct(newton);
    if (!closed_next.empty())
      P2 = solve_friction_active("impact", closed_next, u_free2, &law, state.t, summary.lcp);
  } else {
    forecast_local = half * P1;
    u_free2 = u_star + minv_h_ * forecast_local;
    const Vector<Scalar> shift_2 =
        non_impulsive_shift(closed_next, U_1, Scalar(velocity_zero * drift_steps(state.t)),
                            Vector<Scalar>(half * (u + u_1)));
    if (!closed_next.empty())
      P2 = solve_friction_active("non-impulsive", closed_next, u_free2,
                                 acceleration_level_ ? &shift_2 : nullptr, state.t, summary.lcp);
  }
  const Vector<Scalar> u_next = u_free2 + minv_h_ * P2;
  if (acceleration_level_ && !impact) record_acceleration_level(forecast_local, P2, closed_next);
  if (closed_next.empty()) record_no_problem(summary.lcp);

  summary.index_set.assign(closed_next.begin(), closed_next.end());
  summary.impulse = normal_part(P2);
  summary.tangential_impulse = tangential_part(P2);
  summary.forecast_impulse = normal_part(forecast_local);
  summary.forecast_tangential_impulse = tangential_part(forecast_local);
  summary.velocity_newton = newton;
  summary.lcp_solved = !closed_next.empty();
  summary.external_impulse = (h * half) * (F_n + F_next);

  const Vector<Scalar> dq = q_next - q;
  const Vector<Scalar> u_mean = half * (u + u_next);
  summary.W_ext = half * dq.dot(F_n + F_next);
  summary.W_damp = -h * u_mean.dot(model.C * u_mean);
  summary.W_contact =
      model.local_velocity(u_mean).dot(Vector<Scalar>(summary.impulse + summary.forecast_impulse)) +
      model.tangential_velocity(u_mean).dot(
          Vector<Scalar>(summary.tangential_impulse + summary.forecast_tangential_impulse));
  summary.numerical_dissipation = Scalar(0);
  summary.has_algorithmic_energy = false;

  state.q = q_next;
  state.v = u_next;
  state.t = state.t + h;
}

template <class Scalar>
bool HalfExplicitTdg<Scalar>::accepts_nonlinear() const {
  return !is_exact_v<Scalar>;
}

template <class Scalar>
void HalfExplicitTdg<Scalar>::do_initialize(const NonlinearModel<Scalar>& model,
                                            const State<Scalar>& initial, const Scalar& h) {
  if constexpr (is_exact_v<Scalar>) {
    (void)model, (void)initial, (void)h;
    throw SpecError("precision",
                    "half-explicit-tdg steps nonlinear (lagrangian) models in double and 50 "
                    "digits only: nonlinear geometry is generally trigonometric, which exact "
                    "rational arithmetic cannot evaluate; use --precision double or 50");
  } else {
    const Index n = model.dofs();
    if (initial.q.size() != n || initial.v.size() != n)
      throw InputError("q0", fmt::format("initial state has {} positions and {} velocities, the "
                                         "model has {} degrees of freedom",
                                         initial.q.size(), initial.v.size(), n));
    Vector<Scalar> kappa;
    if (acceleration_level_ && !model.gap_curvature(initial.q, initial.v, kappa))
      throw SpecError(name_, std::string(name_) +
                                 " on a nonlinear model needs the gaps' "
                                 "curvature v^T g''(q) v (d^2 g/dt^2 = W_N^T a "
                                 "+ kappa), which the model '" +
                                 model.name() +
                                 "' does not provide (lagrangian case files do); use "
                                 "half-explicit-tdg or moreau-jean");
    model_ = nullptr;
    nonlinear_model_ = &model;
    h_ = h;
    t0_ = initial.t;
    friction_ = has_friction(model);
    if (friction_) {
      const Index d = model.tangent_directions();
      friction_resolved_ = options_.friction.value_or(d == 1 ? FrictionMethod::lemke
                                                             : FrictionMethod::alart_curnier);
      if (d == 2 && friction_resolved_ == FrictionMethod::lemke)
        throw SpecError("half-explicit-tdg:friction",
                        "lemke solves the planar (d = 1) friction problem only; the model has d "
                        "= 2 tangent directions: use alart-curnier or pgs");
    }
  }
}

template <class Scalar>
Vector<Scalar> HalfExplicitTdg<Scalar>::solve_nonlinear_stage(
    const char* stage, const std::vector<Index>& active, const Matrix<Scalar>& H,
    const Matrix<Scalar>& minv_h, const Vector<Scalar>& free_velocity,
    const Vector<Scalar>* normal_shift, const Scalar& t, LcpResult<Scalar>& record) {
  const NonlinearModel<Scalar>& model = *nonlinear_model_;
  const Index m = model.contacts();
  const Index d = friction_ ? model.tangent_directions() : 0;
  const Index block = 1 + d;
  const Index k = static_cast<Index>(active.size());
  Matrix<Scalar> W(k * block, k * block);
  Vector<Scalar> b(k * block);
  for (Index i = 0; i < k; ++i) {
    const Index a = active[static_cast<std::size_t>(i)];
    for (Index r = 0; r < block; ++r) {
      for (Index j = 0; j < k; ++j) {
        const Index c = active[static_cast<std::size_t>(j)];
        for (Index s = 0; s < block; ++s)
          W(i * block + r, j * block + s) = H.col(a * block + r).dot(minv_h.col(c * block + s));
      }
      b(i * block + r) = H.col(a * block + r).dot(free_velocity);
    }
    if (normal_shift) b(i * block) += (*normal_shift)(a);
  }
  W = (W + W.transpose()) / Scalar(2);  // H^T M^-1 H is symmetric; keep it so to round-off
  Vector<Scalar> local = Vector<Scalar>::Zero(m * block);
  if (d == 0) {
    Vector<Scalar> r(k);
    for (Index i = 0; i < k; ++i)
      r(i) = !options_.r ? (W(i, i) > Scalar(0) ? Scalar(Scalar(1) / W(i, i)) : Scalar(1))
                         : scalar_cast<Scalar>(*options_.r);
    record = half_explicit_prox_newton<Scalar>(W, b, r, options_.max_iterations, lcp_options_,
                                               use_fallback_, fallback_);
    last_newton_iterations_ += record.iterations;
    if (!record.ok()) {
      const LcpCertificate<Scalar>& c = record.certificate;
      throw StepError(fmt::format(
          "half-explicit-tdg: the {} problem at t = {} ({} active contacts) was not certified: "
          "status {}, natural map {} (tolerance {}), feasibility {}, complementarity {}{}{}",
          stage, format_scalar(t), k, to_string(record.status), format_scalar(c.natural_map),
          format_scalar(c.tolerance), format_scalar(c.feasibility),
          format_scalar(c.complementarity), record.message.empty() ? "" : "; ", record.message));
    }
    for (Index i = 0; i < k; ++i) local(active[static_cast<std::size_t>(i)]) = record.z(i);
    return local;
  }
  FrictionProblem<Scalar> problem;
  problem.tangent_dimension = d;
  problem.W = W;
  problem.b = b;
  problem.friction_coefficient.resize(k);
  for (Index i = 0; i < k; ++i)
    problem.friction_coefficient(i) =
        model.friction_coefficient()(active[static_cast<std::size_t>(i)]);
  FrictionOptions<Scalar> options;
  options.relative_tolerance = lcp_options_.relative_tolerance;
  const FrictionResult<Scalar> result = solve_friction(friction_resolved_, problem, options);
  last_newton_iterations_ += result.iterations;
  if (!result.ok())
    throw StepError(fmt::format(
        "half-explicit-tdg: the {} friction problem at t = {} ({} active contacts, d = {}, "
        "method {}) was not certified: status {}, prox residual {} (tolerance {}){}{}",
        stage, format_scalar(t), k, d, to_string(friction_resolved_), to_string(result.status),
        format_scalar(result.certificate.prox_residual),
        format_scalar(result.certificate.tolerance), result.message.empty() ? "" : "; ",
        result.message));
  return scatter_friction_result(result, active, block, record, local);
}

template <class Scalar>
void HalfExplicitTdg<Scalar>::nonlinear_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  const NonlinearModel<Scalar>& model = *nonlinear_model_;
  const Index n = model.dofs(), m = model.contacts();
  const Index d = friction_ ? model.tangent_directions() : 0;
  const Index block = 1 + d;
  const Scalar& h = h_;
  const Scalar half = Scalar(1) / 2;
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& u = state.v;
  const Scalar operations = Scalar(256 * (m + 1));
  // H(q) contact-major [W_N^a, W_T^a..]; the gradient scale for the zero tests.
  const auto contact_matrix = [&](const Vector<Scalar>& position, Scalar& gradient_scale) {
    const Matrix<Scalar> W_N = model.normal_jacobian(position);
    gradient_scale = max_abs(W_N);
    Matrix<Scalar> H(n, m * block);
    Matrix<Scalar> W_T;
    if (d > 0) W_T = model.tangent_jacobian(position);
    for (Index a = 0; a < m; ++a) {
      H.col(a * block) = W_N.col(a);
      for (Index j = 0; j < d; ++j) H.col(a * block + 1 + j) = W_T.col(a * d + j);
    }
    return H;
  };
  const Scalar k = gap_drift_steps(state.t);
  const auto closed = [&](const Vector<Scalar>& position, const Scalar& gradient_scale,
                          const Scalar& velocity_scale) {
    const Vector<Scalar> g = model.gap(position);
    const Scalar zero = tolerance<Scalar>(
        gradient_scale * (max_abs(position) * k + h * velocity_scale * k * k) + max_abs(g),
        operations);
    std::vector<Index> set;
    for (Index a = 0; a < m; ++a)
      if (g(a) <= zero) set.push_back(a);
    return set;
  };
  const auto part = [&](const Vector<Scalar>& local, Index r0, Index width) {
    Vector<Scalar> out(m * width);
    for (Index a = 0; a < m; ++a)
      for (Index j = 0; j < width; ++j) out(a * width + j) = local(a * block + r0 + j);
    return out;
  };

  // Stage 1 at q_n: M(q_n), H(q_n).
  Scalar scale_n(0);
  const Matrix<Scalar> H_n = contact_matrix(q, scale_n);
  const Eigen::PartialPivLU<Matrix<Scalar>> lu_n(model.mass(q));
  const Matrix<Scalar> minv_h_n = lu_n.solve(H_n);
  const Vector<Scalar> f_n = model.force(state.t, q, u);
  const Vector<Scalar> a_n = lu_n.solve(f_n);
  const Vector<Scalar> u_free1 = u + h * a_n;
  const Scalar forecast_scale = max_abs(u) + max_abs(u_free1);
  std::vector<Index> closed_n = closed(q, scale_n, forecast_scale);
  // Acceleration level (forecasting-trapezoidal): h (W_N^T a_1 + kappa(q_n, u_n)) >= 0, i.e.
  // W_N^T u_1 - W_N^T u_n + h kappa_n >= 0, on the closed contacts not separating (to the drift).
  Vector<Scalar> shift_1;
  if (acceleration_level_) {
    const Vector<Scalar> U_n = part(Vector<Scalar>(H_n.transpose() * u), 0, 1);
    const Scalar zero =
        tolerance<Scalar>(scale_n * forecast_scale, Scalar(operations * drift_steps(state.t)));
    std::erase_if(closed_n, [&](Index a) { return U_n(a) > zero; });
    Vector<Scalar> kappa;
    model.gap_curvature(q, u, kappa);
    shift_1 = h * kappa - U_n;
  }
  Vector<Scalar> P1 = Vector<Scalar>::Zero(m * block);
  LcpResult<Scalar> forecast;
  if (!closed_n.empty())
    P1 = solve_nonlinear_stage("forecast", closed_n, H_n, minv_h_n, u_free1,
                               acceleration_level_ ? &shift_1 : nullptr, state.t, forecast);
  const Vector<Scalar> reaction_1 = minv_h_n * P1;
  const Vector<Scalar> u_1 = u_free1 + reaction_1;
  const Vector<Scalar> q_next = q + (h * half) * (u + u_1);

  // Stage 2 at q_{n+1}: M(q_{n+1}), H(q_{n+1}).
  Scalar scale_next(0);
  const Matrix<Scalar> H_next = contact_matrix(q_next, scale_next);
  const Eigen::PartialPivLU<Matrix<Scalar>> lu_next(model.mass(q_next));
  const Matrix<Scalar> minv_h_next = lu_next.solve(H_next);
  const Scalar velocity_scale = max_abs(u) + max_abs(u_free1) + max_abs(reaction_1) + max_abs(u_1);
  std::vector<Index> closed_next = closed(q_next, scale_next, velocity_scale);
  const Vector<Scalar> U_1 = part(Vector<Scalar>(H_next.transpose() * u_1), 0, 1);
  const Scalar velocity_zero = tolerance<Scalar>(scale_next * velocity_scale, operations);
  bool impact = false;
  for (Index a : closed_next) impact = impact || U_1(a) < -velocity_zero;
  const Vector<Scalar> f_1 = model.force(state.t + h, q_next, u_1);
  const Vector<Scalar> u_star = u + (h * half) * (a_n + lu_next.solve(f_1));
  Vector<Scalar> P2 = Vector<Scalar>::Zero(m * block);
  Vector<Scalar> forecast_local = Vector<Scalar>::Zero(m * block);
  Vector<Scalar> newton = Vector<Scalar>::Zero(m);
  Vector<Scalar> u_free2;
  if (impact) {
    newton = part(Vector<Scalar>(H_next.transpose() * u_star), 0, 1);
    u_free2 = u_star;
    const Vector<Scalar> law = model.restitution().cwiseProduct(newton);
    if (!closed_next.empty())
      P2 = solve_nonlinear_stage("impact", closed_next, H_next, minv_h_next, u_free2, &law, state.t,
                                 summary.lcp);
  } else {
    forecast_local = half * P1;
    u_free2 = u_star + minv_h_n * forecast_local;
    // Acceleration level: h/2 (W_N^T a_2 + kappa(q_{n+1}, u_1)) >= 0 with h/2 a_2 = u_{n+1} -
    // (u_n + u_1)/2, on the closed contacts not separating after the forecast.
    Vector<Scalar> shift_2;
    if (acceleration_level_) {
      const Scalar separating_zero = velocity_zero * drift_steps(state.t);
      std::erase_if(closed_next, [&](Index a) { return U_1(a) > separating_zero; });
      Vector<Scalar> kappa;
      model.gap_curvature(q_next, u_1, kappa);
      shift_2 =
          (h * half) * kappa - part(Vector<Scalar>(H_next.transpose() * (half * (u + u_1))), 0, 1);
    }
    if (!closed_next.empty())
      P2 = solve_nonlinear_stage("non-impulsive", closed_next, H_next, minv_h_next, u_free2,
                                 acceleration_level_ ? &shift_2 : nullptr, state.t, summary.lcp);
  }
  const Vector<Scalar> u_next = u_free2 + minv_h_next * P2;
  // The contact work with each stage's impulse along its own W (W(q_n) for lambda_1, W(q_{n+1})
  // for the last), before an acceleration-level record merges them.
  const Vector<Scalar> u_mean = half * (u + u_next);
  summary.W_contact = u_mean.dot(Vector<Scalar>(H_next * P2 + H_n * forecast_local));
  if (acceleration_level_ && !impact) record_acceleration_level(forecast_local, P2, closed_next);
  if (closed_next.empty()) record_no_problem(summary.lcp);

  summary.index_set.assign(closed_next.begin(), closed_next.end());
  summary.impulse = part(P2, 0, 1);
  summary.forecast_impulse = part(forecast_local, 0, 1);
  if (d > 0) {
    summary.tangential_impulse = part(P2, 1, d);
    summary.forecast_tangential_impulse = part(forecast_local, 1, d);
  }
  summary.velocity_newton = newton;
  summary.lcp_solved = !closed_next.empty();
  const Vector<Scalar> f_ext_n = model.external_force(state.t, q, u);
  const Vector<Scalar> f_ext_1 = model.external_force(state.t + h, q_next, u_1);
  summary.external_impulse = (h * half) * (f_ext_n + f_ext_1);
  // Discrete works, no identity behind them (as on the linear family).
  summary.W_ext = (h * half) * u_mean.dot(f_ext_n + f_ext_1);
  summary.W_damp = Scalar(0);
  summary.numerical_dissipation = Scalar(0);
  summary.has_algorithmic_energy = false;

  state.q = q_next;
  state.v = u_next;
  state.t = state.t + h;
}

}  // namespace nsh
