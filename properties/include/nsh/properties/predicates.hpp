#pragma once
// The shared properties as predicates over one step (model, state before, state after,
// StepSummary) or over a trajectory. Each predicate recomputes what it judges from the step
// data itself (energies from the states, the Newton-shifted velocities from U and e, the
// null-space directions of the momentum balance from K, C, G) and never trusts the scheme's
// own verdict fields. Tolerances come from nsh::tolerance<Scalar>() at the scale of the
// quantities compared; they are exactly zero in Rational.
//
// Sign conventions (docs/theory.md §1): g = G^T q + w, U = G^T v, U < 0 approaching.

#include <nsh/model/linear_model.hpp>
#include <nsh/schemes/scheme.hpp>
#include <nsh/step_summary.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nsh::properties {

/// The outcome of one predicate on one step or trajectory.
struct Judgement {
  bool holds{true};
  std::string detail;  ///< what broke, e.g. "contact 1: U_{k+1} = 0.5 but -e U = -0.25"
  /// The values that broke it (name, full-precision text).
  std::vector<std::pair<std::string, std::string>> values;
};

/// One step as the predicates see it.
template <class Scalar>
struct StepView {
  const LinearModel<Scalar>& model;
  const State<Scalar>& before;
  const State<Scalar>& after;
  const StepSummary<Scalar>& step;
  /// The scheme's info (its exact parameters), where the judge has it: properties that
  /// recompute a scheme-defined quantity from the state (E_alg) need the claimed parameters.
  const SchemeInfo* info{nullptr};
  /// The largest |v| of the run's states up to `before`, where the judge has the run (0
  /// otherwise). A state carries the rounding of every earlier step, eps times the velocities
  /// it came from, which the step's own numbers do not show once an impact has brought the
  /// system to rest: a contact left with U_k = -4e-18 after v0 = -1/64 (found by the 5000-case
  /// sweep, seed 4) is at rest, not approaching. The velocity and impulse tolerances include it.
  Scalar inherited_velocity{0};
};

/// impact_work_nonpositive: W_impact = 1/2 (U_{k+1} + U_newton)^T P_{k+1} <= tol.
/// (Thomson-Tait: with Newton's law on P^a > 0 this is 1/2 sum (1 - e^a) U_newton^a P^a, which
/// is <= 0 iff the pre-impact velocity approaches, U_newton^a <= 0, wherever P^a > 0.)
/// With friction the tangential term 1/2 (U_T,{k+1} + U_T,k)^T P_T is added: on a pure impulse
/// step (U+ = U- + W P) the sum is the kinetic energy change (docs/theory.md §9.2), <= 0 for
/// e = 0 and positive for some e > 0 with W coupling normal and tangent (Kane–Levinson).
template <class Scalar>
Judgement impact_work_nonpositive(const StepView<Scalar>& s);

/// newton_restitution: every contact with P^a > tol is in the index set and has
/// U^a_{k+1} = -e^a U^a_newton (to tol).
template <class Scalar>
Judgement newton_restitution(const StepView<Scalar>& s);

/// signorini_complementarity (velocity level): on the index set
/// 0 <= U_{k+1} + e o U_newton  _|_  P_{k+1} >= 0; outside it P = 0 exactly.
template <class Scalar>
Judgement signorini_complementarity(const StepView<Scalar>& s);

/// lcp_certificate: a posed LCP reports status solved and an accepted certificate, its z is
/// P on the index set, its w is U_{k+1} + e o U_newton on the index set (recomputed here), and
/// the natural map ||min(z, w)||_inf of the recomputed pair is within tolerance.
template <class Scalar>
Judgement lcp_certificate(const StepView<Scalar>& s);

/// momentum_balance: for every c with K c = 0, C c = 0 (a basis of that null space, computed
/// here), c^T M (v_{k+1} - v_k) = c^T external_impulse + (G^T c)^T P_{k+1} (+ (G_T^T c)^T
/// P_T,{k+1} with friction): the impulses the scheme reports are held to the momentum jump of
/// its states.
template <class Scalar>
Judgement momentum_balance(const StepView<Scalar>& s);

/// energy_identity: with E recomputed from the states,
/// E_{k+1} - E_k = W_ext + W_damp + W_contact - numerical_dissipation (equality), and the
/// summary's E_before / E_after agree with the recomputed energies.
template <class Scalar>
Judgement energy_identity(const StepView<Scalar>& s);

/// moreau_jean_energy_dissipation (docs/theory.md §2.4): E_{k+1} - E_k <= W_ext + W_damp + tol.
template <class Scalar>
Judgement moreau_jean_energy_dissipation(const StepView<Scalar>& s);

/// penetration_bound: a gap deepens by at most two steps of travel at the step's local speed,
/// g^a_{k+1} >= min(0, g^a_k) - 2 h max(|U^a_k|, |U^a_{k+1}|) - tol (recomputed from q).
template <class Scalar>
Judgement penetration_bound(const StepView<Scalar>& s);

/// algorithmic_energy_decay: E_alg_after - E_alg_before <= tol (schemes with an algorithmic
/// energy, docs/theory.md §3.2).
template <class Scalar>
Judgement algorithmic_energy_decay(const StepView<Scalar>& s);

// Coulomb friction (docs/friction.md, docs/theory.md §9.1). Each judges the contacts of the
// index set on the local vectors P = [P_N, P_T..] and U = [U_N+ + e U_newton, U_T+..] per
// contact (contact-major), rebuilt from the summary's impulses and the velocities the kit
// derived from the states; each holds trivially on a frictionless model.

/// coulomb_cone: ||P_T||^2 <= mu^2 P_N^2 and P_N >= 0 at every contact, in squares (exact in
/// Rational for d = 1 and 2); contacts outside the index set must have P_T = 0.
template <class Scalar>
Judgement coulomb_cone(const StepView<Scalar>& s);

/// maximal_dissipation: at every contact with P_N > tol, stick (||P_T|| < mu P_N) implies
/// U_T+ = 0 and slide implies P_T^T U_T+ = -mu P_N ||U_T+||, to the tolerance of the recomputed
/// friction certificate (nsh::friction_tolerance at 256 (n+m+1)(n+1) epsilons; 0 in Rational).
template <class Scalar>
Judgement maximal_dissipation(const StepView<Scalar>& s);

/// friction_work_nonpositive: U_T,{k+theta}^T P_T <= tol at every contact, U_T,{k+theta} =
/// (1 - theta) U_T,k + theta U_T,{k+1}, theta the scheme's parameter (1 if it reports none):
/// the tangential term of the ledger (docs/theory.md §9.1). At theta = 1 it is P_T^T U_T+ <= 0
/// by maximal dissipation; for theta < 1 a stick that stops a slip within the step has
/// (1 - theta) U_T,k^T P_T > 0.
template <class Scalar>
Judgement friction_work_nonpositive(const StepView<Scalar>& s);

/// friction_certificate: the certificate of nsh/friction/certificate.hpp recomputed on the
/// index set from the model and the states alone (W = H^T M^-1 H for the prox scales, b = U -
/// W P with U from the states), never the scheme's: every residual within tolerance.
template <class Scalar>
Judgement friction_certificate(const StepView<Scalar>& s);

/// double_vs_real50: the double trajectory follows the Real50 one: after step k,
/// max|q_d - q_50| + max|v_d - v_50| <= 1024 (k + 1) n eps_double scale. The comparison stops
/// (and holds) at the first step whose index sets differ with a contact within tolerance of
/// its activation threshold, where a rounding can legitimately change the branch.
Judgement double_vs_real50(const std::vector<State<double>>& d, const std::vector<State<Real50>>& r,
                           const std::vector<std::vector<Index>>& index_sets_d,
                           const std::vector<std::vector<Index>>& index_sets_r,
                           const std::vector<double>& threshold_distance_d);

/// observed_order: least-squares slope of log(error) against log(h) >= expected - 1/10.
Judgement observed_order(const std::vector<double>& h, const std::vector<double>& error,
                         int expected_order);

/// Least-squares slope of log(y) against log(x).
double log_log_slope(const std::vector<double>& x, const std::vector<double>& y);

/// The fields only the scheme records (RecordedField bits, nsh/recorded_fields.hpp) that the
/// statement of the step property `property` reads; fields read only for a tolerance's scale,
/// and optional ones an absent value makes zero (forecast_impulse, acceleration_like_*), are
/// not counted. 0 for a property that is not a step property.
std::uint32_t recorded_fields_read(const std::string& property);

/// Empty, or why a step cannot be judged for `property`: the fields it reads that are not in
/// `recorded` (StepSummary::recorded: what do_step wrote, probed in debug builds), named.
std::string unwritten_reads(const std::string& property, std::uint32_t recorded);

/// A basis (columns) of {c : K c = 0, C c = 0}, by exact-in-Rational Gaussian
/// elimination with a pivot tolerance at the scale of the matrices.
template <class Scalar>
Matrix<Scalar> momentum_directions(const LinearModel<Scalar>& model);

}  // namespace nsh::properties
