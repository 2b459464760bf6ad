#pragma once
// The exact reference of a nonholonomic model with a closed-form flow (docs/theory.md §5,
// docs/nonholonomic.md): between impacts the model's exact_flow (for the rolling disk theta' and
// phi' constant, x and y on circles); an impact where some g_j reaches 0, located by a certified
// bracket and a safeguarded Newton iteration to the precision of the scalar (50 digits in
// Real50); the jump by continuous_reflection (E+ = E-, n^T u+ = -n^T u-).
//
// Locating an impact: g_j along the flow is sampled every `sample_step`; a sign change
// g_j(tau_a) < -delta, g_j(tau_b) > +delta, with delta the round-off bound of evaluating g_j, is a
// certified bracket (a root lies in it by continuity). Newton on g_j(flow(tau)) with derivative
// grad g_j . v stays inside the bracket (bisection otherwise) until the step is below the
// scalar's resolution of t. Limitation: a grazing touch that enters and leaves the boundary
// between two samples (a double root) is not seen; the sampling step bounds how short it is.
// Two inequalities reaching 0 at the same instant, or an impact with n^T u- = 0, throw StepError.

#include <nsh/nonholonomic/nonholonomic_model.hpp>

#include <vector>

namespace nsh {

template <class Scalar>
struct NonholonomicImpact {
  Scalar t{0};          ///< impact time
  Index inequality{0};  ///< j with g_j(q) = 0
  Vector<Scalar> q;     ///< impact point
  Vector<Scalar> v_minus, v_plus;
  Vector<Scalar> u_minus, u_plus;          ///< reduced velocities
  Scalar normal_minus{0}, normal_plus{0};  ///< n^T u- > 0, n^T u+ = -n^T u-
  Scalar energy_before{0}, energy_after{0};
  Scalar residual{0};  ///< |g_j(q)| at the located time
};

template <class Scalar>
struct NonholonomicReference {
  State<Scalar> initial;
  Scalar T{0};
  std::vector<NonholonomicImpact<Scalar>> impacts;  ///< in time order, t0 < t < = T
};

template <class Scalar>
struct ReferenceOptions {
  /// Sampling step of the bracket search; 0: (T - t0)/4096, at most 1/64.
  Scalar sample_step{0};
  int max_impacts{100000};
};

/// The impacts over [t0, T] from a validated initial state. Throws ModelError if the model has
/// no closed-form flow, StepError if an impact cannot be located or resolved.
template <class Scalar>
NonholonomicReference<Scalar> exact_reference(const NonholonomicModel<Scalar>& model,
                                              const State<Scalar>& initial, const Scalar& T,
                                              const ReferenceOptions<Scalar>& options = {});

/// The reference state at t in [t0, T] (the post-impact state at an impact time).
template <class Scalar>
State<Scalar> reference_state(const NonholonomicModel<Scalar>& model,
                              const NonholonomicReference<Scalar>& reference, const Scalar& t);

}  // namespace nsh
