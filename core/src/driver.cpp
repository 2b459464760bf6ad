#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/limits.hpp>
#include <nsh/model/nonlinear_model.hpp>
#include <nsh/model/sparse_model.hpp>

#include <fmt/format.h>

namespace nsh {

template <class Scalar>
Index step_count(const Scalar& t0, const Scalar& T, const Scalar& h) {
  if (!is_finite(h)) throw InputError("h", "step size is " + format_scalar(h) + ", must be finite");
  if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
  if (!is_finite(T)) throw InputError("T", "horizon is " + format_scalar(T) + ", must be finite");
  if (T < t0)
    throw InputError(
        "T", "horizon " + format_scalar(T) + " is before the initial time " + format_scalar(t0));
  const Scalar ratio = (T - t0) / h;
  // Round to the nearest integer when the ratio is one up to round-off, otherwise round up.
  const Scalar slack = tolerance<Scalar>(ratio + Scalar(1), Scalar(16));
  Scalar n_floor;
  if constexpr (is_exact_v<Scalar>) {
    const auto q = numerator(ratio) / denominator(ratio);
    n_floor = Scalar(q);
  } else {
    using std::floor;
    n_floor = Scalar(floor(ratio));
  }
  Scalar n = n_floor;
  if (ratio - n_floor > slack) n += Scalar(1);
  if (n > Scalar(1e9)) throw InputError("h", "more than 1e9 steps for this horizon; raise h");
  return static_cast<Index>(scalar_cast<double>(n) + 0.5);
}

template <class Scalar>
void validate_state(const LinearModel<Scalar>& model, const State<Scalar>& state) {
  const Index n = model.dofs();
  if (state.q.size() != n)
    throw InputError("q0", fmt::format("expected {} entries, got {}", n, state.q.size()));
  if (state.v.size() != n)
    throw InputError("v0", fmt::format("expected {} entries, got {}", n, state.v.size()));
  for (Index i = 0; i < n; ++i) {
    if (!is_finite(state.q(i)))
      throw InputError(fmt::format("q0[{}]", i),
                       "is " + format_scalar(state.q(i)) + ", must be finite");
    if (!is_finite(state.v(i)))
      throw InputError(fmt::format("v0[{}]", i),
                       "is " + format_scalar(state.v(i)) + ", must be finite");
  }
  if (!is_finite(state.t))
    throw InputError("t0", "is " + format_scalar(state.t) + ", must be finite");
}

namespace {

/// A finite initial state whose energy overflows makes every output row non-finite: the input
/// is at fault, so it is an InputError naming it (exit 2), before any step.
template <class Scalar, class Model>
void require_finite_energy(const Model& model, const State<Scalar>& initial) {
  if constexpr (!is_exact_v<Scalar>) {
    const Scalar kinetic = initial.v.dot(model.M * initial.v) / Scalar(2);
    if (!is_finite(kinetic))
      throw InputError("v0", "the initial kinetic energy 1/2 v0^T M v0 is " +
                                 format_scalar(kinetic) +
                                 ", outside the finite range; rescale v0 or M");
    const Scalar elastic = initial.q.dot(model.K * initial.q) / Scalar(2);
    if (!is_finite(elastic))
      throw InputError("q0", "the initial elastic energy 1/2 q0^T K q0 is " +
                                 format_scalar(elastic) +
                                 ", outside the finite range; rescale q0 or K");
  }
}

/// The nonlinear model's energy at the initial state, E(q0, v0), the same way.
template <class Scalar>
void require_finite_energy(const NonlinearModel<Scalar>& model, const State<Scalar>& initial) {
  if constexpr (!is_exact_v<Scalar>) {
    const Scalar energy = model.energy(initial.q, initial.v);
    if (!is_finite(energy))
      throw InputError("v0", "the initial energy E(q0, v0) = 1/2 v0^T M(q0) v0 + V(q0) is " +
                                 format_scalar(energy) +
                                 ", outside the finite range; rescale the model or the state");
  }
}

template <class Scalar, class Model>
State<Scalar> run(Scheme<Scalar>& scheme, const Model& model, const State<Scalar>& initial,
                  const Scalar& h, const Scalar& T, const StepObserver<Scalar>& observer) {
  const Index steps = step_count(initial.t, T, h);
  if constexpr (is_exact_v<Scalar>) limits::check_exact_run(model.dofs());
  require_finite_energy(model, initial);
  scheme.initialize(model, initial, h);
  State<Scalar> state = initial;
  StepSummary<Scalar> summary;
  for (Index k = 0; k < steps; ++k) {
    scheme.step(state, summary);
    state.t = initial.t + Scalar(k + 1) * h;  // t_k = t0 + k h, no accumulated drift
    summary.step = k + 1;
    summary.t_after = state.t;
    if constexpr (is_exact_v<Scalar>) limits::check_exact_growth(state.q, state.v, k + 1, state.t);
    if (observer) observer(state, summary);
  }
  return state;
}

}  // namespace

template <class Scalar>
State<Scalar> simulate(Scheme<Scalar>& scheme, const SparseLinearModel<Scalar>& model,
                       const State<Scalar>& initial, const Scalar& h, const Scalar& T,
                       const StepObserver<Scalar>& observer) {
  model.validate();
  if (initial.q.size() != model.dofs() || initial.v.size() != model.dofs())
    throw InputError("q0", fmt::format("initial state has {} positions and {} velocities, the "
                                       "model has {} degrees of freedom",
                                       initial.q.size(), initial.v.size(), model.dofs()));
  return run(scheme, model, initial, h, T, observer);
}

template <class Scalar>
State<Scalar> simulate(Scheme<Scalar>& scheme, const LinearModel<Scalar>& model,
                       const State<Scalar>& initial, const Scalar& h, const Scalar& T,
                       const StepObserver<Scalar>& observer) {
  model.validate();
  validate_state(model, initial);
  return run(scheme, model, initial, h, T, observer);
}

template <class Scalar>
State<Scalar> simulate(Scheme<Scalar>& scheme, const NonlinearModel<Scalar>& model,
                       const State<Scalar>& initial, const Scalar& h, const Scalar& T,
                       const StepObserver<Scalar>& observer) {
  model.validate(initial);
  return run(scheme, model, initial, h, T, observer);
}

/// Every state and summary of simulate() on either family.
template <class Scalar, class Model>
Trajectory<Scalar> record_run(Scheme<Scalar>& scheme, const Model& model,
                              const State<Scalar>& initial, const Scalar& h, const Scalar& T) {
  Trajectory<Scalar> trajectory;
  trajectory.states.push_back(initial);
  simulate<Scalar>(scheme, model, initial, h, T,
                   [&](const State<Scalar>& s, const StepSummary<Scalar>& summary) {
                     trajectory.states.push_back(s);
                     trajectory.steps.push_back(summary);
                   });
  return trajectory;
}

template <class Scalar>
Trajectory<Scalar> record(Scheme<Scalar>& scheme, const NonlinearModel<Scalar>& model,
                          const State<Scalar>& initial, const Scalar& h, const Scalar& T) {
  return record_run(scheme, model, initial, h, T);
}

template <class Scalar>
Trajectory<Scalar> record(Scheme<Scalar>& scheme, const LinearModel<Scalar>& model,
                          const State<Scalar>& initial, const Scalar& h, const Scalar& T) {
  return record_run(scheme, model, initial, h, T);
}

#define NSH_INSTANTIATE_DRIVER(S)                                                                \
  template Index step_count(const S&, const S&, const S&);                                       \
  template void validate_state(const LinearModel<S>&, const State<S>&);                          \
  template State<S> simulate(Scheme<S>&, const LinearModel<S>&, const State<S>&, const S&,       \
                             const S&, const StepObserver<S>&);                                  \
  template Trajectory<S> record(Scheme<S>&, const LinearModel<S>&, const State<S>&, const S&,    \
                                const S&);                                                       \
  template State<S> simulate(Scheme<S>&, const NonlinearModel<S>&, const State<S>&, const S&,    \
                             const S&, const StepObserver<S>&);                                  \
  template Trajectory<S> record(Scheme<S>&, const NonlinearModel<S>&, const State<S>&, const S&, \
                                const S&);
NSH_INSTANTIATE_DRIVER(double)
NSH_INSTANTIATE_DRIVER(Real50)
NSH_INSTANTIATE_DRIVER(Rational)
#undef NSH_INSTANTIATE_DRIVER
// Sparse models exist in double and Real50 (nsh/model/sparse_model.hpp).
template State<double> simulate(Scheme<double>&, const SparseLinearModel<double>&,
                                const State<double>&, const double&, const double&,
                                const StepObserver<double>&);
template State<Real50> simulate(Scheme<Real50>&, const SparseLinearModel<Real50>&,
                                const State<Real50>&, const Real50&, const Real50&,
                                const StepObserver<Real50>&);

}  // namespace nsh
