#pragma once
// First-order schemes for the sweeping process and its penalty regularization (catching-up,
// first-order penalty). They are not nsh::Scheme (which steps the second-order LinearModel):
// they step a SweepingProcess, with their own summary, registry and driver below. Specs use
// the same syntax and number reader as nsh::SchemeSpec ("penalty:kappa=1000,method=explicit").

#include <nsh/first_order/model.hpp>
#include <nsh/registry.hpp>

#include <any>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace nsh {

template <class Scalar>
struct FirstOrderStepSummary {
  Index step{0};
  Scalar t_before{0};
  Scalar t_after{0};
  Scalar h{0};
  Vector<Scalar> x_before;  ///< x_k
  Vector<Scalar> x_after;   ///< x_{k+1}
  /// The unconstrained Euler point x_k + h f(t_k, x_k) (catching-up projects it).
  Vector<Scalar> predictor;
  /// (x_{k+1} - x_k)/h - f(t_k, x_k): minus an element of N_C(x_{k+1}) for catching-up; the
  /// penalty force kappa sum max(0, -g) grad g (+ the change of f for implicit) for penalty.
  Vector<Scalar> reaction;
  /// Gaps g(x_{k+1}) of the polyhedral form of C (empty if C is not polyhedral).
  Vector<Scalar> gap_after;
  bool has_projection{false};  ///< catching-up: the projection's certificate below applies
  ProjectionStatus projection_status{ProjectionStatus::unique};
  ProjectionCertificate<Scalar> certificate;
  /// Implicit penalty: |residual of the implicit equation|_inf at x_{k+1} and its tolerance.
  Scalar solve_residual{0};
  Scalar solve_tolerance{0};
  Index iterations{0};  ///< active-set iterations of an implicit solve
};

struct FirstOrderSchemeInfo {
  std::string family;  ///< "catching-up", "penalty"
  std::string spec;    ///< canonical spec with every option
  int order{1};        ///< order of convergence the scheme claims on smooth problems
};

template <class Scalar>
class FirstOrderScheme {
 public:
  virtual ~FirstOrderScheme() = default;
  virtual FirstOrderSchemeInfo info() const = 0;
  /// Bind to a validated model and a step size h > 0 (ModelError if the model does not fit).
  virtual void initialize(const SweepingProcess<Scalar>& model,
                          const FirstOrderState<Scalar>& initial, const Scalar& h) = 0;
  /// Advance by h; StepError if the step cannot be certified.
  virtual void step(FirstOrderState<Scalar>& state, FirstOrderStepSummary<Scalar>& summary) = 0;
};

template <class Scalar>
using FirstOrderSchemeFactory =
    std::function<std::unique_ptr<FirstOrderScheme<Scalar>>(const SchemeSpec&)>;

struct FirstOrderSchemeEntry {
  std::string name;
  std::string summary;
  std::vector<SchemeOption> options;
  /// One factory per scalar (make.get<double>(), ...); an empty one: no version in that scalar.
  PerScalar<FirstOrderSchemeFactory> make;
  /// What the scheme claims: a nsh::properties::FirstOrderClaimFunction, type-erased as
  /// SchemeEntry::claims is (core does not depend on the property suite, which sets and reads
  /// it: properties/src/claims.cpp).
  std::any claims;
};

/// The first-order schemes by name ("catching-up", "penalty").
class FirstOrderRegistry {
 public:
  static FirstOrderRegistry& builtin();
  void add(FirstOrderSchemeEntry entry);
  bool contains(const std::string& name) const;
  const FirstOrderSchemeEntry& find(const std::string& name) const;
  FirstOrderSchemeEntry& find(const std::string& name);
  std::vector<std::string> names() const;
  /// Parse, check the options (unknown key or choice: SpecError listing the accepted ones)
  /// and fill in the defaults.
  SchemeSpec resolve(const std::string& text) const;
  template <class Scalar>
  std::unique_ptr<FirstOrderScheme<Scalar>> make(const std::string& text) const;

 private:
  std::vector<FirstOrderSchemeEntry> entries_;
};

/// Defined in catching_up.cpp and penalty.cpp.
void register_catching_up(FirstOrderRegistry& registry);
void register_penalty(FirstOrderRegistry& registry);

/// states[0] is the initial state; states[k], steps[k-1] belong to step k.
template <class Scalar>
struct FirstOrderTrajectory {
  std::vector<FirstOrderState<Scalar>> states;
  std::vector<FirstOrderStepSummary<Scalar>> steps;
};

/// Validate, initialize and take step_count(t0, T, h) steps with t_k = t0 + k h exactly.
template <class Scalar>
FirstOrderTrajectory<Scalar> record_first_order(FirstOrderScheme<Scalar>& scheme,
                                                const SweepingProcess<Scalar>& model,
                                                const FirstOrderState<Scalar>& initial,
                                                const Scalar& h, const Scalar& T);

/// The piecewise-linear interpolant X_h(t) of a trajectory (t outside [t0, t_N] clamps).
template <class Scalar>
Vector<Scalar> interpolate(const FirstOrderTrajectory<Scalar>& trajectory, const Scalar& t);

/// sup over [t0, t_N] of |X_h(t) - x(t)|_inf, exact when x is piecewise linear with its kinks
/// among `kinks` (both are then linear between consecutive points of nodes and kinks).
template <class Scalar>
Scalar interpolation_sup_error(const FirstOrderTrajectory<Scalar>& trajectory,
                               const std::function<Vector<Scalar>(const Scalar&)>& exact,
                               const std::vector<Scalar>& kinks);

}  // namespace nsh
