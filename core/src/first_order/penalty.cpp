#include <nsh/detail/dense_lu.hpp>
#include <nsh/error.hpp>
#include <nsh/first_order/penalty.hpp>
#include <nsh/format.hpp>

#include <fmt/format.h>

namespace nsh {

template <class Scalar>
FirstOrderPenalty<Scalar>::FirstOrderPenalty(const SchemeSpec& spec)
    : spec_(spec), options_(parse_options<FirstOrderPenaltyOptions<Scalar>>(spec)) {}

template <class Scalar>
FirstOrderSchemeInfo FirstOrderPenalty<Scalar>::info() const {
  return FirstOrderSchemeInfo{"penalty", canonical_spec("penalty", options_, spec_), 1};
}

template <class Scalar>
void FirstOrderPenalty<Scalar>::initialize(const SweepingProcess<Scalar>& model,
                                           const FirstOrderState<Scalar>&, const Scalar& h) {
  model.validate();
  if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
  auto inequalities = model.set->inequalities();
  if (!inequalities)
    throw ModelError("set",
                     "the penalty scheme needs a polyhedral C (box, half-space, "
                     "polyhedron); got " +
                         model.set->describe());
  constraints_ = *inequalities;
  model_ = &model;
  h_ = h;
}

template <class Scalar>
Vector<Scalar> FirstOrderPenalty<Scalar>::penalty_force(const Vector<Scalar>& x) const {
  // max(0, -g_i) grad g_i with g_i = b_i - a_i^T x: max(0, a_i^T x - b_i) (-a_i).
  Vector<Scalar> force = Vector<Scalar>::Zero(x.size());
  for (Index i = 0; i < constraints_.A.rows(); ++i) {
    const Scalar violation = constraints_.A.row(i).dot(x) - constraints_.b(i);
    if (violation > Scalar(0))
      force -= (options_.kappa * violation) * constraints_.A.row(i).transpose();
  }
  return force;
}

template <class Scalar>
void FirstOrderPenalty<Scalar>::step(FirstOrderState<Scalar>& state,
                                     FirstOrderStepSummary<Scalar>& summary) {
  if (!model_) throw StepError("penalty: step before initialize");
  const Index n = state.x.size();
  const Vector<Scalar> f = model_->drift(state.t, state.x);
  summary.t_before = state.t;
  summary.h = h_;
  summary.x_before = state.x;
  summary.predictor = state.x + h_ * f;
  summary.has_projection = false;
  Vector<Scalar> x;
  if (!implicit()) {
    x = summary.predictor + h_ * penalty_force(state.x);
  } else {
    // Backward Euler: (I - h A) x + h kappa A_W^T (A_W x - b_W) = x_k + h (b + t_{k+1} c), W the
    // violated rows at x. Each guess of W gives a linear system; iterate W to a fixed point.
    const Scalar t1 = state.t + h_;
    const Index m = constraints_.A.rows();
    const Vector<Scalar> rhs0 = state.x + h_ * model_->drift(t1, Vector<Scalar>::Zero(n));
    Matrix<Scalar> base = Matrix<Scalar>::Identity(n, n);
    if (model_->A.size() != 0) base -= h_ * model_->A;
    auto residual = [&](const Vector<Scalar>& y) {
      return Vector<Scalar>(y - state.x - h_ * (model_->drift(t1, y) + penalty_force(y)));
    };
    auto solve_with = [&](const std::vector<bool>& active, Vector<Scalar>& y) {
      Matrix<Scalar> S = base;
      Vector<Scalar> r = rhs0;
      for (Index i = 0; i < m; ++i) {
        if (!active[static_cast<std::size_t>(i)]) continue;
        const Vector<Scalar> a = constraints_.A.row(i).transpose();
        S += (h_ * options_.kappa) * a * a.transpose();
        r += (h_ * options_.kappa * constraints_.b(i)) * a;
      }
      detail::DenseLu<Scalar> lu;
      if (!lu.factor(S, tolerance<Scalar>(Scalar(max_abs(S))))) return false;
      y = lu.solve_vector(r);
      return true;
    };
    auto active_at = [&](const Vector<Scalar>& y) {
      std::vector<bool> active(static_cast<std::size_t>(m));
      for (Index i = 0; i < m; ++i)
        active[static_cast<std::size_t>(i)] = constraints_.A.row(i).dot(y) > constraints_.b(i);
      return active;
    };
    const Scalar tol = tolerance<Scalar>(
        Scalar(Scalar(1) + max_abs(state.x) + h_ * options_.kappa + h_ * max_abs(f)),
        Scalar(64 * (n + m + 1)));
    Vector<Scalar> y = summary.predictor + h_ * penalty_force(state.x);
    std::vector<bool> active = active_at(summary.predictor);
    bool solved = false;
    Index iterations = 0;
    for (; iterations < 50 && !solved; ++iterations) {
      if (!solve_with(active, y)) break;
      const std::vector<bool> next = active_at(y);
      solved = max_abs(residual(y)) <= tol;
      active = next;
    }
    // The iteration can cycle between active sets; the solution is one of the 2^m linear pieces.
    for (std::uint64_t mask = 0; !solved && m <= 16 && mask < (std::uint64_t(1) << m); ++mask) {
      for (Index i = 0; i < m; ++i) active[static_cast<std::size_t>(i)] = (mask >> i) & 1U;
      ++iterations;
      if (solve_with(active, y)) solved = max_abs(residual(y)) <= tol;
    }
    summary.iterations = iterations;
    summary.solve_residual = max_abs(residual(y));
    summary.solve_tolerance = tol;
    if (!solved)
      throw StepError(fmt::format(
          "penalty (implicit) at t = {}: no certified solution of the "
          "backward-Euler equation (residual {} > {})",
          format_scalar(state.t), format_scalar(summary.solve_residual), format_scalar(tol)));
    x = y;
  }
  for (Index i = 0; i < n; ++i)
    if (!is_finite(x(i)))
      throw StepError("penalty at t = " + format_scalar(state.t) + ": non-finite state");
  state.x = x;
  summary.x_after = x;
  summary.reaction = (summary.x_after - summary.x_before) / h_ - f;
  summary.gap_after = constraints_.b - constraints_.A * x;
}

#define NSH_INSTANTIATE(Scalar) template class FirstOrderPenalty<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

void register_penalty(FirstOrderRegistry& registry) {
  FirstOrderSchemeEntry entry;
  entry.name = "penalty";
  entry.summary =
      "first-order penalty x' = f + kappa max(0, -g) grad g, explicit or backward Euler";
  entry.options = declared_options<FirstOrderPenaltyOptions<double>>();
  set_factories<FirstOrderPenalty>(entry);
  registry.add(std::move(entry));
}

}  // namespace nsh
