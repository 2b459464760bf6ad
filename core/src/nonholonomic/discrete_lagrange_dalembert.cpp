#include <nsh/detail/dense_lu.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/nonholonomic/discrete_lagrange_dalembert.hpp>

#include <fmt/format.h>

#include <cmath>
#include <functional>

namespace nsh {
namespace {

template <class Scalar>
using Residual = std::function<Vector<Scalar>(const Vector<Scalar>&)>;

template <class Scalar>
Scalar positive_or_one(const Scalar& scale) {
  return scale > Scalar(0) ? scale : Scalar(1);
}

template <class Scalar>
Scalar scaled_norm(const Vector<Scalar>& r, const Vector<Scalar>& scale) {
  Scalar worst(0);
  for (Index i = 0; i < r.size(); ++i) {
    const Scalar value = abs_value<Scalar>(r(i)) / scale(i);
    if (!is_finite(value)) return value;
    if (value > worst) worst = value;
  }
  return worst;
}

struct SolveName {
  const char* equations;  // "the smooth step", "(5a)", "(5c)-(5d)"
};

// Newton with a central-difference Jacobian, certified by the scaled residual. The Jacobian's
// error (epsilon^(2/3) relative) only slows the last iterations; the certificate is the residual
// of the returned point, evaluated exactly as the equations are written.
template <class Scalar>
std::pair<Vector<Scalar>, Scalar> certified_newton(const Residual<Scalar>& F, Vector<Scalar> x,
                                                   const Vector<Scalar>& scale,
                                                   const Scalar& tolerance_, int max_iterations,
                                                   SolveName name, const Scalar& t) {
  using std::pow;
  const Scalar relative_step = pow(epsilon<Scalar>(), Scalar(1) / Scalar(3));
  Vector<Scalar> r = F(x);
  Scalar norm = scaled_norm(r, scale);
  Vector<Scalar> best = x;
  Scalar best_norm = norm;
  // Past the certificate, a few more iterations take the residual down to round-off (the
  // certificate is a bound, not the target): they stop as soon as one fails to halve it.
  int polish = 3;
  for (int iteration = 0; iteration < max_iterations && polish > 0; ++iteration) {
    if (norm <= tolerance_) --polish;
    const Index n = x.size();
    Matrix<Scalar> jacobian(r.size(), n);
    for (Index k = 0; k < n; ++k) {
      const Scalar size = abs_value<Scalar>(x(k));
      const Scalar delta = relative_step * (size > Scalar(1) ? size : Scalar(1));
      Vector<Scalar> plus = x, minus = x;
      plus(k) += delta;
      minus(k) -= delta;
      jacobian.col(k) = (F(plus) - F(minus)) / (plus(k) - minus(k));
    }
    detail::DenseLu<Scalar> lu;
    if (!lu.factor(jacobian))
      throw StepError(fmt::format("DLA at t = {}: the Jacobian of {} is singular (residual {})",
                                  format_scalar(t), name.equations, format_short(norm)));
    x -= lu.solve(r);
    r = F(x);
    const Scalar previous = norm;
    norm = scaled_norm(r, scale);
    if (is_finite(norm) && norm < best_norm) {
      best = x;
      best_norm = norm;
    }
    if (best_norm <= tolerance_ && !(norm < previous / 2)) break;
  }
  if (!(best_norm <= tolerance_))
    throw StepError(fmt::format("DLA at t = {}: {} not solved: scaled residual {} > tolerance {}",
                                format_scalar(t), name.equations, format_short(best_norm),
                                format_short(tolerance_)));
  return {best, best_norm};
}

}  // namespace

template <class Scalar>
DiscreteLagrangeDAlembert<Scalar>::DiscreteLagrangeDAlembert(const NonholonomicModel<Scalar>& model,
                                                             DlaOptions<Scalar> options)
    : model_(model), options_(options) {
  if (!model_.constant_mass())
    throw ModelError("M", "the DLA integrator is written for a constant mass matrix; '" +
                              model_.name() + "' has a configuration-dependent one");
  if (!(options_.residual_tolerance > Scalar(0)))
    options_.residual_tolerance = tolerance<Scalar>(Scalar(1), Scalar(4096));
}

template <class Scalar>
DlaState<Scalar> DiscreteLagrangeDAlembert<Scalar>::start(const State<Scalar>& initial) const {
  model_.validate(initial);
  DlaState<Scalar> state;
  state.t = initial.t;
  state.q = initial.q;
  state.previous_velocity = initial.v;
  state.previous_length = Scalar(0);
  return state;
}

template <class Scalar>
void DiscreteLagrangeDAlembert<Scalar>::step(DlaState<Scalar>& state, const Scalar& h,
                                             DlaTrajectory<Scalar>& trajectory) const {
  const auto& model = model_;
  const Index n = model.dofs(), r = model.velocity_constraints(), p = model.inequalities();
  const Matrix<Scalar> M = model.mass(state.q);
  const Vector<Scalar> q = state.q;
  const Vector<Scalar> w_minus = state.previous_velocity;
  const Scalar h_minus = state.previous_length;
  // D2 L_d of the previous segment: M w- - h-/2 grad V(its midpoint).
  const Vector<Scalar> previous_momentum =
      M * w_minus - (h_minus / 2) * model.potential_gradient(q - (h_minus / 2) * w_minus);
  const Matrix<Scalar> A_q = model.one_forms(q);
  const Scalar tol = options_.residual_tolerance;
  const bool at_node = !options_.evaluation.constraint_at_midpoint;
  const bool off_boundary = !options_.evaluation.impact_point_on_boundary;
  const Scalar momentum_scale = positive_or_one<Scalar>(max_abs(previous_momentum));
  const Scalar velocity_scale = positive_or_one<Scalar>(max_abs(w_minus));

  auto segment = [&](const Scalar& t0, const Scalar& length, const Vector<Scalar>& start,
                     const Vector<Scalar>& w, bool substep) {
    const Vector<Scalar> mid = start + (length / 2) * w;
    DlaSegment<Scalar> s;
    s.t0 = t0;
    s.t1 = t0 + length;
    s.velocity = w;
    s.energy = Scalar(w.dot(M * w)) / 2 + model.potential(mid);
    s.constraint = max_abs(model.one_forms(mid) * w);
    s.substep = substep;
    return s;
  };

  // The smooth step: x = (w+, lambda).
  const Residual<Scalar> smooth = [&](const Vector<Scalar>& x) {
    const Vector<Scalar> w = x.head(n);
    const Vector<Scalar> mid = q + (h / 2) * w;
    Vector<Scalar> out(n + r);
    out.head(n) = previous_momentum - M * w - (h / 2) * model.potential_gradient(mid) -
                  A_q.transpose() * x.tail(r);
    out.tail(r) = model.one_forms(at_node ? q : mid) * w;
    return out;
  };
  Vector<Scalar> scale(n + r);
  scale.head(n).setConstant(momentum_scale);
  scale.tail(r).setConstant(positive_or_one<Scalar>(max_abs(A_q) * velocity_scale));
  Vector<Scalar> guess = Vector<Scalar>::Zero(n + r);
  guess.head(n) = w_minus;
  const auto [trial, trial_residual] = certified_newton<Scalar>(
      smooth, guess, scale, tol, options_.max_newton_iterations, {"the smooth step"}, state.t);
  const Vector<Scalar> w_trial = trial.head(n);
  const Vector<Scalar> q_trial = q + h * w_trial;
  const Vector<Scalar> g_trial = model.inequality(q_trial);
  const Vector<Scalar> g_now = model.inequality(q);
  if (trajectory.max_residual < trial_residual) trajectory.max_residual = trial_residual;

  // The inequality crossed first (by linear interpolation of g along the step), if any.
  Index j = -1;
  Scalar alpha0(2);
  for (Index i = 0; i < p; ++i)
    if (g_trial(i) > Scalar(0)) {
      const Scalar estimate = g_now(i) / (g_now(i) - g_trial(i));
      if (estimate < alpha0) {
        alpha0 = estimate;
        j = i;
      }
    }
  if (j < 0) {
    trajectory.segments.push_back(segment(state.t, h, q, w_trial, false));
    state.t += h;
    state.q = q_trial;
    state.previous_velocity = w_trial;
    state.previous_length = h;
    trajectory.t.push_back(state.t);
    trajectory.q.push_back(state.q);
    return;
  }

  // (5a): x = (w_bar, lambda, alpha).
  const Residual<Scalar> first = [&](const Vector<Scalar>& x) {
    const Vector<Scalar> w = x.head(n);
    const Scalar alpha = x(n + r);
    const Vector<Scalar> mid = q + (alpha * h / 2) * w;
    Vector<Scalar> out(n + r + 1);
    out.head(n) = previous_momentum - M * w - (alpha * h / 2) * model.potential_gradient(mid) -
                  A_q.transpose() * x.segment(n, r);
    out.segment(n, r) = model.one_forms(at_node ? q : mid) * w;
    // Off the boundary (an instrument's choice): the interpolated alpha, not g_j(q_bar) = 0.
    out(n + r) = off_boundary ? Scalar(alpha - alpha0) : model.inequality(q + (alpha * h) * w)(j);
    return out;
  };
  Vector<Scalar> scale_a(n + r + 1);
  scale_a.head(n + r) = scale;
  scale_a(n + r) = off_boundary ? Scalar(1)
                                : positive_or_one<Scalar>(max_abs(model.inequality_gradient(q)) *
                                                          (max_abs(q) + h * max_abs(w_trial)));
  Vector<Scalar> guess_a(n + r + 1);
  guess_a.head(n + r) = trial;
  guess_a(n + r) = alpha0;
  const auto [solution_a, residual_a] = certified_newton<Scalar>(
      first, guess_a, scale_a, tol, options_.max_newton_iterations, {"(5a)"}, state.t);
  const Scalar alpha = solution_a(n + r);
  if (!(alpha > Scalar(0) && alpha <= Scalar(1)))
    throw StepError(fmt::format("DLA at t = {}: (5a) gives alpha = {} outside (0, 1] for {}",
                                format_scalar(state.t), format_scalar(alpha),
                                model.inequality_name(j)));
  const Vector<Scalar> q_bar = q + (alpha * h) * Vector<Scalar>(solution_a.head(n));
  // The sub-step lengths alpha h and (1 - alpha) h (or, as an instrument's choice, h/2 each
  // with the segment velocity into q_bar that this length implies).
  const bool equal_substeps = !options_.evaluation.substeps_split_at_alpha;
  const Scalar h_before = equal_substeps ? Scalar(h / 2) : Scalar(alpha * h);
  const Scalar h_after = equal_substeps ? Scalar(h / 2) : Scalar((Scalar(1) - alpha) * h);
  const Vector<Scalar> w_bar =
      equal_substeps ? Vector<Scalar>((q_bar - q) / h_before) : Vector<Scalar>(solution_a.head(n));
  const Vector<Scalar> g_bar = model.inequality(q_bar);
  const Scalar g_tolerance = tolerance<Scalar>(scale_a(n + r), Scalar(4096));
  for (Index i = 0; i < p; ++i)
    if (i != j && g_bar(i) > g_tolerance)
      throw StepError(
          fmt::format("DLA at t = {}: at the impact point of {}, {} = {} > 0 as well "
                      "(two impacts in one step are not handled)",
                      format_scalar(state.t), model.inequality_name(j), model.inequality_name(i),
                      format_scalar(g_bar(i))));

  // (5c)-(5d): x = (w_i, lambda_hat, lambda_bar), from the continuous reflection of w_bar.
  const Vector<Scalar> mid_a = q + (h_before / 2) * w_bar;
  const Vector<Scalar> momentum_a = M * w_bar - (h_before / 2) * model.potential_gradient(mid_a);
  const Scalar energy_a = Scalar(w_bar.dot(M * w_bar)) / 2 + model.potential(mid_a);
  const Vector<Scalar> normal = model.inequality_gradient(q_bar).col(j);
  // The constraint forces of (5c) along A(q_bar) (or, as an instrument's choice, A(q_{i-1})).
  const Matrix<Scalar> A_bar =
      options_.evaluation.impact_forms_at_impact_point ? model.one_forms(q_bar) : A_q;
  const Residual<Scalar> second = [&](const Vector<Scalar>& x) {
    const Vector<Scalar> w = x.head(n);
    const Vector<Scalar> mid = q_bar + (h_after / 2) * w;
    Vector<Scalar> out(n + r + 1);
    out.head(n) = momentum_a - M * w - (h_after / 2) * model.potential_gradient(mid) -
                  x(n) * normal - A_bar.transpose() * x.tail(r);
    out.segment(n, r) = model.one_forms(at_node ? q_bar : mid) * w;
    out(n + r) = Scalar(w.dot(M * w)) / 2 + model.potential(mid) - energy_a;
    return out;
  };
  const Reflection<Scalar> reflection = continuous_reflection(model, q_bar, w_bar, j);
  // The multipliers of the reflection: least squares of M (w_bar - w_r) = [grad g, A^T] lambda.
  Matrix<Scalar> B(n, r + 1);
  B.col(0) = normal;
  B.rightCols(r) = A_bar.transpose();
  detail::DenseLu<Scalar> normal_equations;
  Vector<Scalar> multipliers = Vector<Scalar>::Zero(r + 1);
  if (normal_equations.factor(Matrix<Scalar>(B.transpose() * B)))
    multipliers = normal_equations.solve(B.transpose() * (M * (w_bar - reflection.v_plus)));
  Vector<Scalar> guess_c(n + r + 1);
  guess_c.head(n) = reflection.v_plus;
  guess_c.tail(r + 1) = multipliers;
  Vector<Scalar> scale_c(n + r + 1);
  scale_c.head(n + r) = scale;
  scale_c(n + r) = positive_or_one<Scalar>(abs_value<Scalar>(energy_a));
  const auto [solution_c, residual_c] = certified_newton<Scalar>(
      second, guess_c, scale_c, tol, options_.max_newton_iterations, {"(5c)-(5d)"}, state.t);
  const Scalar lambda_hat = solution_c(n);
  if (!(lambda_hat > Scalar(0)))
    throw StepError(
        fmt::format("DLA at t = {}: (5c)-(5d) converged to lambda_hat = {} <= 0 "
                    "(the no-impact root) for {}",
                    format_scalar(state.t), format_scalar(lambda_hat), model.inequality_name(j)));
  const Vector<Scalar> w_after = solution_c.head(n);
  const Vector<Scalar> q_next = q_bar + h_after * w_after;
  const Vector<Scalar> g_next = model.inequality(q_next);
  for (Index i = 0; i < p; ++i)
    if (g_next(i) > g_tolerance)
      throw StepError(
          fmt::format("DLA at t = {}: after the impact on {} the node has {} = {} > 0 "
                      "(two impacts in one step are not handled)",
                      format_scalar(state.t), model.inequality_name(j), model.inequality_name(i),
                      format_scalar(g_next(i))));

  DlaImpact<Scalar> impact;
  impact.step = static_cast<Index>(trajectory.t.empty() ? 0 : trajectory.t.size() - 1);
  impact.inequality = j;
  impact.alpha = alpha;
  impact.t = state.t + h_before;
  impact.q_bar = q_bar;
  impact.g_bar = g_bar(j);
  impact.lambda_hat = lambda_hat;
  impact.u_before = model.reduced_velocity(mid_a, w_bar);
  impact.u_after = model.reduced_velocity(q_bar + (h_after / 2) * w_after, w_after);
  impact.residual_a = residual_a;
  impact.residual_c = residual_c;
  trajectory.impacts.push_back(impact);
  for (const Scalar& residual : {residual_a, residual_c})
    if (trajectory.max_residual < residual) trajectory.max_residual = residual;
  trajectory.segments.push_back(segment(state.t, h_before, q, w_bar, true));
  trajectory.segments.push_back(segment(impact.t, h_after, q_bar, w_after, true));
  state.t += h;
  state.q = q_next;
  state.previous_velocity = w_after;
  state.previous_length = h_after;
  trajectory.t.push_back(state.t);
  trajectory.q.push_back(state.q);
}

template <class Scalar>
DlaTrajectory<Scalar> run_dla(const NonholonomicModel<Scalar>& model, const State<Scalar>& initial,
                              const Scalar& h, const Scalar& T, const DlaOptions<Scalar>& options) {
  if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
  const DiscreteLagrangeDAlembert<Scalar> scheme(model, options);
  DlaState<Scalar> state = scheme.start(initial);
  DlaTrajectory<Scalar> trajectory;
  trajectory.t.push_back(state.t);
  trajectory.q.push_back(state.q);
  for (long k = 1; initial.t + Scalar(k - 1) * h < T - h / 2; ++k) {
    scheme.step(state, h, trajectory);
    // t_k = t0 + k h exactly as written, not a running sum.
    state.t = initial.t + Scalar(k) * h;
    trajectory.t.back() = state.t;
  }
  return trajectory;
}

template class DiscreteLagrangeDAlembert<double>;
template class DiscreteLagrangeDAlembert<Real50>;
template DlaTrajectory<double> run_dla<double>(const NonholonomicModel<double>&,
                                               const State<double>&, const double&, const double&,
                                               const DlaOptions<double>&);
template DlaTrajectory<Real50> run_dla<Real50>(const NonholonomicModel<Real50>&,
                                               const State<Real50>&, const Real50&, const Real50&,
                                               const DlaOptions<Real50>&);

}  // namespace nsh
