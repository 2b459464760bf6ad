#pragma once
// The simulation driver: fixed-step time stepping of a scheme over [t0, T], one StepSummary per
// step handed to an observer (properties and reports are observers).

#include <nsh/schemes/scheme.hpp>

#include <functional>
#include <vector>

namespace nsh {

/// Called after every step with the new state and the step's summary.
template <class Scalar>
using StepObserver = std::function<void(const State<Scalar>&, const StepSummary<Scalar>&)>;

/// Number of steps of size h from t0 to T: the smallest N with t0 + N h >= T (up to round-off
/// in floating point, exactly in Rational). Throws InputError naming "h" or "T" for h <= 0,
/// non-finite values or T < t0.
template <class Scalar>
Index step_count(const Scalar& t0, const Scalar& T, const Scalar& h);

/// Validate the model and the initial state (dimensions, finiteness), initialize the scheme,
/// and take step_count(t0, T, h) steps. Times are t_k = t0 + k h exactly (no accumulated
/// drift). Returns the final state.
template <class Scalar>
State<Scalar> simulate(Scheme<Scalar>& scheme, const LinearModel<Scalar>& model,
                       const State<Scalar>& initial, const Scalar& h, const Scalar& T,
                       const StepObserver<Scalar>& observer = {});

/// The same on a sparse model, for a scheme that steps it natively (Registry::make_sparse).
template <class Scalar>
State<Scalar> simulate(Scheme<Scalar>& scheme, const SparseLinearModel<Scalar>& model,
                       const State<Scalar>& initial, const Scalar& h, const Scalar& T,
                       const StepObserver<Scalar>& observer = {});

/// The same on a nonlinear model (the lagrangian family), for a scheme that steps one
/// (Scheme::accepts_nonlinear(): moreau-jean in double and Real50). Validates the model at the
/// initial state (NonlinearModel::validate: M positive definite at q0, ...).
template <class Scalar>
State<Scalar> simulate(Scheme<Scalar>& scheme, const NonlinearModel<Scalar>& model,
                       const State<Scalar>& initial, const Scalar& h, const Scalar& T,
                       const StepObserver<Scalar>& observer = {});

/// A recorded run: states[0] is the initial state, states[k] and steps[k-1] belong to step k.
template <class Scalar>
struct Trajectory {
  std::vector<State<Scalar>> states;
  std::vector<StepSummary<Scalar>> steps;
};

template <class Scalar>
Trajectory<Scalar> record(Scheme<Scalar>& scheme, const LinearModel<Scalar>& model,
                          const State<Scalar>& initial, const Scalar& h, const Scalar& T);
template <class Scalar>
Trajectory<Scalar> record(Scheme<Scalar>& scheme, const NonlinearModel<Scalar>& model,
                          const State<Scalar>& initial, const Scalar& h, const Scalar& T);

/// Check that a state fits a model: sizes n, finite entries. Throws InputError naming
/// "q0[i]" / "v0[i]".
template <class Scalar>
void validate_state(const LinearModel<Scalar>& model, const State<Scalar>& state);

}  // namespace nsh
