#pragma once
// Case files of the first-order families "sweeping" and "penalty-line" (same fields):
//
//   { "name": "sweeping-interval", "family": "sweeping",
//     "set": {"type": "interval", "lower": 0, "upper": 1},
//     "A": [[0]], "b": [-1], "c": [0],          // f(t, x) = A x + b + t c; A, c default to 0
//     "x0": [1], "t0": 0, "T": 2, "h": "1/10" }
//
// Sets: {"type": "interval", "lower": l, "upper": u}  (either bound may be omitted or null),
//       {"type": "box", "lower": [..], "upper": [..]}  (null entries are infinite),
//       {"type": "half-space", "a": [..], "b": beta}, {"type": "ball", "center": [..],
//       "radius": R} (double and 50 only), {"type": "polyhedron", "A": [[..]], "b": [..]},
//       {"type": "finite", "points": [[..], ..]}.

#include <nsh/first_order/scheme.hpp>
#include <nsh/io/case_file.hpp>

#include <optional>

namespace nsh {

template <class Scalar>
struct SweepingCase {
  SweepingProcess<Scalar> model;
  FirstOrderState<Scalar> initial;
  Scalar T{1};
  std::optional<Scalar> h;
};

/// The projection provider described by a "set" node; errors name `field` ("set.lower").
template <class Scalar>
std::shared_ptr<const ProjectionProvider<Scalar>> load_projection_set(const nlohmann::json& node,
                                                                      const std::string& field);

/// Load a "sweeping" or "penalty-line" document; validates the model and x0 in C.
template <class Scalar>
SweepingCase<Scalar> load_sweeping_case(const CaseDocument& document);

/// Run a first-order scheme spec ("catching-up", "penalty:kappa=1000,method=implicit") on a
/// case at step h over [t0, T]: the entry point for `nsh converge` on first-order cases.
template <class Scalar>
FirstOrderTrajectory<Scalar> run_first_order(const std::string& spec,
                                             const SweepingCase<Scalar>& sweeping_case,
                                             const Scalar& h);

/// The exact solution of a one-dimensional sweeping process on [lo, hi] with constant drift f
/// from x0 in [lo, hi]: x(t) = min(hi, max(lo, x0 + f (t - t0))). sweeping-interval (lo = 0,
/// hi = 1, f = -1, x0 = 1): x(t) = max(1 - t, 0). Its kink is at t0 + (bound - x0)/f.
template <class Scalar>
Scalar interval_sweeping_exact(const Scalar& lo, const Scalar& hi, const Scalar& f,
                               const Scalar& x0, const Scalar& t0, const Scalar& t);

/// x(t) = max(1 - t, 0), the solution of cases/data/sweeping-interval.json.
template <class Scalar>
Scalar sweeping_interval_exact(const Scalar& t) {
  return interval_sweeping_exact<Scalar>(Scalar(0), Scalar(1), Scalar(-1), Scalar(1), Scalar(0), t);
}

/// The exact sup over [0, T >= 1] of |X_h - x| for catching-up on sweeping-interval, s (h - s) / h
/// with s = 1 - floor(1/h) h (0 if 1/h is an integer; docs/theory.md §6 item 5), exact in Rational.
template <class Scalar>
Scalar sweeping_interval_sup_error(const Scalar& h);

/// The sup error of a catching-up (or any) trajectory of sweeping-interval against x(t),
/// computed exactly from nodes and the kink t = 1 (interpolation_sup_error).
template <class Scalar>
Scalar sweeping_interval_error(const FirstOrderTrajectory<Scalar>& trajectory);

}  // namespace nsh
