#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

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

template <class Scalar>
State<Scalar> simulate(Scheme<Scalar>& scheme, const LinearModel<Scalar>& model,
                       const State<Scalar>& initial, const Scalar& h, const Scalar& T,
                       const StepObserver<Scalar>& observer) {
  model.validate();
  validate_state(model, initial);
  const Index steps = step_count(initial.t, T, h);
  scheme.initialize(model, initial, h);
  State<Scalar> state = initial;
  StepSummary<Scalar> summary;
  for (Index k = 0; k < steps; ++k) {
    scheme.step(state, summary);
    state.t = initial.t + Scalar(k + 1) * h;  // t_k = t0 + k h, no accumulated drift
    summary.step = k + 1;
    summary.t_after = state.t;
    if (observer) observer(state, summary);
  }
  return state;
}

template <class Scalar>
Trajectory<Scalar> record(Scheme<Scalar>& scheme, const LinearModel<Scalar>& model,
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

#define NSH_INSTANTIATE_DRIVER(S)                                                             \
  template Index step_count(const S&, const S&, const S&);                                    \
  template void validate_state(const LinearModel<S>&, const State<S>&);                       \
  template State<S> simulate(Scheme<S>&, const LinearModel<S>&, const State<S>&, const S&,    \
                             const S&, const StepObserver<S>&);                               \
  template Trajectory<S> record(Scheme<S>&, const LinearModel<S>&, const State<S>&, const S&, \
                                const S&);
NSH_INSTANTIATE_DRIVER(double)
NSH_INSTANTIATE_DRIVER(Real50)
NSH_INSTANTIATE_DRIVER(Rational)
#undef NSH_INSTANTIATE_DRIVER

}  // namespace nsh
