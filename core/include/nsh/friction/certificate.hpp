#pragma once
// The certificate of a one-step friction solution and the three friction predicates
// (docs/friction.md). Everything here is recomputed from (W, b, mu, P) or from (P, U) alone,
// never taken from a solver, so that a solver's answer is judged by code that did not produce it.
//
// Tolerances. `friction_tolerance` is the linear tolerance
//
//   tol = relative * max(max|W|, max|b|) * (1 + max|P|),   relative = 64 n epsilons by default,
//
// n = m (1 + d) the number of unknowns (nsh::tolerance: operations x epsilon x scale). Products
// of an impulse and a velocity (complementarity products, dissipation) are judged against
// product_tol = tol * (1 + max|P| + max|U|). Both are exactly zero in Rational.
//
// Contact classes, at tolerance tol:
//   separated   P_N <= tol (then the cone forces P_T to zero; U_T is free);
//   sliding     on the cone boundary, ||P_T|| >= mu P_N - tol;
//   sticking    strictly inside, ||P_T|| < mu P_N - tol.
//
// Norms of P_T and U_T need a square root for d = 2; Rational has none, so in Rational the
// certificate and `maximal_dissipation` accept d = 1 only (InputError naming
// tangent_dimension), while `coulomb_cone` (in squares) and `friction_work_nonpositive` are
// exact for either d.

#include <nsh/friction/problem.hpp>

namespace nsh {

/// Every residual of a candidate P, with U = W P + b.
template <class Scalar>
struct FrictionCertificate {
  /// ||P - prox(P)||_inf, prox_N = max(0, P_N - r_N U_N), prox_T = proj_{mu [P_N]+ D}(P_T -
  /// r_T U_T), r_N = 1 / W_NN, r_T = d / trace(W_TT) (one r_T per contact: a different r per
  /// tangent direction would move the prox map's fixed points off the maximal-dissipation
  /// direction). Zero iff P solves the problem.
  Scalar prox_residual{0};
  /// max_a max(0, ||P_T|| - mu P_N, -P_N).
  Scalar cone_feasibility{0};
  /// max(0, -min_a U_N).
  Scalar normal_feasibility{0};
  /// max_a |min(P_N, U_N)| (the normal natural map).
  Scalar normal_complementarity{0};
  /// max over sticking contacts of ||U_T|| (must vanish).
  Scalar stick_velocity{0};
  /// max over sliding contacts of |P_T^T U_T + mu P_N ||U_T||| (maximal dissipation).
  Scalar dissipation_defect{0};
  /// max_a P_T^T U_T (the tangential work of each contact; <= 0 at a solution).
  Scalar friction_work{0};
  Index sticking{0}, sliding{0}, separated{0};  ///< contact counts by class
  Scalar tolerance{0};                          ///< tol (linear residuals)
  Scalar product_tolerance{0};                  ///< product_tol (dissipation, work)
  /// Every residual within its tolerance.
  bool accepted{false};
};

/// tol of the header comment; relative_tolerance = 0 means 64 n epsilons.
template <class Scalar>
Scalar friction_tolerance(const FrictionProblem<Scalar>& problem, const Vector<Scalar>& P,
                          const Scalar& relative_tolerance = Scalar(0));

/// The certificate of P (the problem is assumed valid: see validate). InputError for d = 2 in
/// Rational or a P of the wrong size.
template <class Scalar>
FrictionCertificate<Scalar> certify(const FrictionProblem<Scalar>& problem, const Vector<Scalar>& P,
                                    const Scalar& relative_tolerance = Scalar(0));

/// A predicate's answer: holds, or the first contact that breaks it and by how much.
template <class Scalar>
struct FrictionVerdict {
  bool holds{true};
  Index contact{-1};  ///< the first offending contact, -1 if none
  Scalar defect{0};   ///< the offending contact's defect (see each predicate)
};

/// Coulomb's cone at every contact, in squares (exact in Rational for d = 1 and 2):
/// P_N >= -tolerance and ||P_T||^2 <= (mu P_N + tolerance)^2. defect = ||P_T||^2 - (mu P_N)^2,
/// or -P_N for a negative normal impulse.
template <class Scalar>
FrictionVerdict<Scalar> coulomb_cone(const Vector<Scalar>& P, const Vector<Scalar>& mu,
                                     Index tangent_dimension, const Scalar& tolerance);

/// Maximal dissipation at every contact with P_N > tolerance: sticking (||P_T|| < mu P_N -
/// tolerance) needs ||U_T|| <= tolerance (defect ||U_T||); sliding needs |P_T^T U_T + mu P_N
/// ||U_T||| <= tolerance (1 + max|P| + max|U|) (defect that value). U is the post-step local
/// velocity (its tangential rows are read).
template <class Scalar>
FrictionVerdict<Scalar> maximal_dissipation(const Vector<Scalar>& P, const Vector<Scalar>& U,
                                            const Vector<Scalar>& mu, Index tangent_dimension,
                                            const Scalar& tolerance);

/// P_T^T U_T <= tolerance (1 + max|P| + max|U|) at every contact (defect P_T^T U_T): friction
/// does no positive work. Exact in Rational for d = 1 and 2.
template <class Scalar>
FrictionVerdict<Scalar> friction_work_nonpositive(const Vector<Scalar>& P, const Vector<Scalar>& U,
                                                  Index tangent_dimension, const Scalar& tolerance);

}  // namespace nsh
