#pragma once
// Properties of projections, the sweeping process and penalty schemes (docs/theory.md §6),
// as pure functions: each evaluates one case and returns whether the predicate holds with the
// named values that decide it. Tolerances come from nsh::tolerance (zero in Rational).
// The "sweep" property provider (sweep_provider.cpp) draws the cases for `nsh check`.

#include <nsh/io/sweeping_case.hpp>
#include <nsh/projection/projection.hpp>
#include <nsh/step_summary.hpp>

#include <string>
#include <utility>
#include <vector>

namespace nsh::properties {

/// One evaluation of a property: holds, and the values that decide it ("|Py1 - Py2|^2", ...).
struct Finding {
  bool holds{true};
  std::vector<std::pair<std::string, std::string>> values;
};

/// projection_nonexpansive: |P y1 - P y2|^2 <= |y1 - y2|^2 (+ tol). Holds for closed convex C.
template <class Scalar>
Finding projection_nonexpansive(const ProjectionProvider<Scalar>& C, const Vector<Scalar>& y1,
                                const Vector<Scalar>& y2);

/// projection_idempotent: P(P(y)) = P(y) (within tol) and P(y) certified.
template <class Scalar>
Finding projection_idempotent(const ProjectionProvider<Scalar>& C, const Vector<Scalar>& y);

/// projection_variational_inequality: with p = P(y) and z = P(y') in C,
/// (y - p)^T (z - p) <= tol. Characterizes the projection onto a closed convex set; fails on a
/// finite set (C = {-1, 1}, y = 1/2, y' = -1: (1/2 - 1)(-1 - 1) = 1).
template <class Scalar>
Finding projection_variational_inequality(const ProjectionProvider<Scalar>& C,
                                          const Vector<Scalar>& y, const Vector<Scalar>& y_other);

/// catching_up_error_bound on sweeping-interval at step h (T >= 1): every step certified with
/// zero residual, x_k = max(1 - kh, 0), and sup |X_h - x| = s (h - s)/h <= h exactly
/// (s = 1 - floor(1/h) h). `trajectory` is catching-up's run at step h.
template <class Scalar>
Finding catching_up_error_bound(const FirstOrderTrajectory<Scalar>& trajectory, const Scalar& h);

/// penalty_convergence on the penalty line (C = [0, inf), f = -1, y0 = 0): every iterate of
/// the scheme is within 1/kappa of the constrained solution x = 0, i.e. y_k in [-1/kappa, 0];
/// in floating point also the exact path y_kappa(t) = -(1 - exp(-kappa t))/kappa at the nodes.
template <class Scalar>
Finding penalty_convergence(const FirstOrderTrajectory<Scalar>& trajectory, const Scalar& kappa);

/// penalty_stability on the penalty line from y0 = 0: every iterate in [-max(h, 1/kappa), 0].
/// Explicit Euler: holds iff h kappa <= 2; for h kappa > 2, y2 = kappa h^2 - 2h > 0.
template <class Scalar>
Finding penalty_stability(const FirstOrderTrajectory<Scalar>& trajectory, const Scalar& kappa,
                          const Scalar& h);

/// penalty2_energy_balance for one step of penalty2 (kappa, damping, method): the spring split
/// W_contact = (V_before - V_after) + W_dashpot - D_spring with V recomputed from the gaps, and
/// for the implicit method the signs D >= 0, D_spring >= 0, W_dashpot <= 0, W_damp <= 0. The
/// ledger's identity E_after - E_before = W_ext + W_damp + W_contact - D is the shared
/// energy_identity (claimed by penalty2, predicates.hpp), not repeated here.
template <class Scalar>
Finding penalty2_energy_balance(const StepSummary<Scalar>& step, const Scalar& kappa,
                                bool implicit);

/// penalty2_penetration_bound: with F = 0, sum_alpha min(0, g_alpha)^2 <= 2 H0 / kappa for
/// H0 = E_0 + V_0 (the implicit method never increases E + V).
template <class Scalar>
Finding penalty2_penetration_bound(const StepSummary<Scalar>& step, const Scalar& kappa,
                                   const Scalar& H0);

/// Register the "sweep" provider (catching-up, penalty, penalty2, projection:set=...).
void register_sweep_properties();

}  // namespace nsh::properties
