#pragma once
// The half-explicit time-discontinuous Galerkin scheme of lowest order on the linear model
// (docs/half-explicit-tdg.md, docs/theory.md §4): velocity-level contact constraints in
// prox form solved by semismooth Newton, every other evaluation explicit, impulsive and
// non-impulsive contact forces split.
//
// Sources: M. Schindler, S. Rezaei, J. Kursawe, V. Acary, "Half-explicit timestepping
// schemes on velocity level based on time-discontinuous Galerkin methods", CMAME 290:250–276,
// 2015; the step is the lowest-order one of MBSim's HETS2Integrator (Schindler is its author).
//
// One step from (t_n, q_n, u_n), f(t, q, u) = F(t) - C u - K q, gaps g = G^T q + w >= 0:
//
//   A_n     = { a : g^a(q_n) <= 0 }                                   (closed contacts)
//   forecast  u_1 = u_n + h M^-1 ( f(t_n, q_n, u_n) + G lambda_1 ),
//             0 <= G_A^T u_1  _|_  lambda_1 >= 0 on A_n (lambda_1 = 0 elsewhere)
//   q_{n+1} = q_n + h/2 (u_n + u_1)                                    (trapezoidal)
//   A_{n+1} = { a : g^a(q_{n+1}) <= 0 };  impact  <=>  some a in A_{n+1} has G^a^T u_1 < 0
//   u*      = u_n + h/2 M^-1 ( f_n + f(t_{n+1}, q_{n+1}, u_1) )
//   impact:         u_{n+1} = u* + M^-1 G Lambda,
//                   0 <= G^T u_{n+1} + e o G^T u*  _|_  Lambda >= 0 on A_{n+1}
//   non-impulsive:  u_{n+1} = u* + h/2 M^-1 G (lambda_1 + lambda_2),
//                   0 <= G^T u_{n+1}  _|_  lambda_2 >= 0 on A_{n+1}
//
// Both complementarity problems are posed on impulses (z_1 = h lambda_1, z_2 = h/2 lambda_2 or
// Lambda) with the Delassus matrix W = G^T M^-1 G, and solved by the prox equation
// z = max(0, z - r o (W z + b)) with semismooth Newton: the rows with z_i - r_i w_i > 0 are
// active and the Newton step solves W_AA z_A = -b_A, z = 0 elsewhere (an active-set method,
// exact in Rational). r_i = 1/W_ii by default (MBSim), or a positive constant. Newton stops at
// z >= 0, W z + b >= 0 to the problem's own round-off and an accepted LCP certificate
// (nsh/lcp/lcp.hpp), never on its own residual; if it has not certified after max_iterations
// (or the active-set system is inconsistent, or it stalls) the fallback LCP solver (lemke by
// default, exact in Rational) solves the problem. An uncertified answer from either is a
// StepError. Comparisons with zero (the closed sets, the impact test) are read to 256 (m+1) eps
// times the scale of the stage's velocities (and of q for a gap), exactly in Rational.
//
// What the step records (the scheme kit derives gaps, local velocities and energies):
//   index_set = A_{n+1}; lcp, impulse = the last problem's (Lambda, or z_2 = h/2 lambda_2);
//   velocity_newton = G^T u* at an impact step, 0 at a non-impulsive one (its law has no e);
//   forecast_impulse = z_1 / 2 = h/2 lambda_1 at a non-impulsive step, 0 at an impact step;
//   external_impulse = h/2 (F(t_n) + F(t_{n+1})), so that the momentum balance
//   M [u] = external_impulse - h/2 (C u_n + K q_n + C u_1 + K q_{n+1}) + G (impulse +
//   forecast_impulse) holds exactly; the ledger W_ext = [q]^T (F_n + F_{n+1})/2,
//   W_damp = -h <u>^T C <u>, W_contact = <U>^T (impulse + forecast_impulse) with
//   numerical_dissipation = 0: the scheme has no exact energy identity in E, so energy_identity
//   is not claimed. (Without damping and closed contacts the step is velocity Verlet: it
//   conserves E - F^T q - h^2/8 (F - K q)^T M^-1 (F - K q) exactly, and E rises on some steps.)
//
// Spec options: r (delassus | a positive number), tolerance (relative natural-map tolerance, 0 =
// 4096 eps), max_iterations (Newton steps, a positive integer, default 50), fallback (lemke |
// enumeration | none), friction (lemke | alart-curnier | pgs; unset: lemke for d = 1,
// alart-curnier for d = 2). Double, Real50 and Rational (Newton and both fallbacks are exact
// there; a harmonic force is refused in Rational as by every scheme).
//
// Coulomb friction (docs/half-explicit-tdg.md "Friction", docs/theory.md §9.1): on a model with
// has_friction() each of the three problems becomes the one-step friction problem on its closed
// set, contact-major with H = [G_N^a, G_T^a..], W = H^T M^-1 H, b = H^T v_free (normal rows
// shifted by e o U* at an impact): the prox equations P_N = max(0, P_N - r_N U_N),
// P_T = proj_{mu P_N D}(P_T - r_T U_T), solved by nsh::solve_friction (Alart–Curnier's
// semismooth Newton on exactly these equations, PGS, or Lemke for d = 1, exact in Rational) and
// refused unless certified. The forecast's tangential impulse h/2 lambda_T,1 is recorded in
// forecast_tangential_impulse at a non-impulsive step. Rational steps d = 1 only.
//
// Nonlinear models (nsh/model/nonlinear_model.hpp, the lagrangian family; double and Real50): the
// same stages with each evaluated where it stands (docs/half-explicit-tdg.md "Nonlinear models", a
// reconstruction): the forecast with M(q_n), W(q_n); A_{n+1}, the impact test and the last
// problem with M(q_{n+1}), W(q_{n+1}); u* = u_n + h/2 (M(q_n)^-1 f_n + M(q_{n+1})^-1 f_1), and
// the non-impulsive step adds the forecast's h/2 M(q_n)^-1 W(q_n) lambda_1. With constant M and
// W (LinearModelAdapter) it is the linear step to round-off.

#include <nsh/friction/solver.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/model/nonlinear_model.hpp>
#include <nsh/registry.hpp>
#include <nsh/scheme_options.hpp>

#include <nsh/schemes/scheme.hpp>
#include <optional>

#include <Eigen/LU>

#include <string>
#include <vector>

namespace nsh {

/// The LCP solver when the semismooth Newton does not certify its answer.
enum class HalfExplicitFallback { lemke, enumeration, none };
const char* to_string(HalfExplicitFallback fallback);

/// The options of HalfExplicitTdg, declared once (nsh/scheme_options.hpp).
struct HalfExplicitTdgOptions {
  /// The prox parameter: empty (r=delassus) r_i = 1 / W_ii (MBSim), else r_i = *r.
  std::optional<Rational> r;
  Rational tolerance;  ///< relative natural-map tolerance of the certificate; 0: 4096 eps
  Index max_iterations{};
  HalfExplicitFallback fallback{};
  /// Empty: lemke for d = 1, alart-curnier for d = 2. No default value, so that the canonical
  /// spec of a frictionless run has no friction option.
  std::optional<FrictionMethod> friction;

  template <class V>
  void visit(V& v) {
    OptionRange positive = above(0, "delassus or a positive number");
    positive.violation = "is not positive";
    positive.keyword = "delassus";
    v("r", r, "delassus", "prox parameter: delassus (r_i = 1/W_ii, as MBSim) or a positive number",
      positive);
    OptionRange nonnegative = at_least(0, "a number >= 0");
    nonnegative.violation = "is negative";
    v("tolerance", tolerance, "0", "relative natural-map tolerance of the certificate; 0: 4096 eps",
      nonnegative);
    OptionRange iterations = closed_range(1, 100000);
    iterations.text = "an integer in [1, 100000]";
    iterations.violation = "is not accepted";
    v("max_iterations", max_iterations, "50", "semismooth Newton iterations before the fallback",
      iterations);
    v("fallback", fallback, "lemke", "LCP solver when Newton does not certify (none: a StepError)",
      one_of(HalfExplicitFallback::lemke, HalfExplicitFallback::enumeration,
             HalfExplicitFallback::none));
    v("friction", friction, "",
      "one-step Coulomb friction solver (docs/half-explicit-tdg.md); unset: lemke for d = 1 "
      "(exact in rational), alart-curnier for d = 2; rational arithmetic accepts lemke only",
      one_of(FrictionMethod::lemke, FrictionMethod::alart_curnier, FrictionMethod::pgs));
  }
};

/// The prox semismooth Newton of the scheme (docs/half-explicit-tdg.md) on LCP(W, b), with the
/// fallback: the result carries the certificate of the answer it returns. `r` has b.size()
/// positive entries. Exposed for the tests and the mutants.
template <class Scalar>
LcpResult<Scalar> half_explicit_prox_newton(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                            const Vector<Scalar>& r, Index max_iterations,
                                            const LcpOptions<Scalar>& options, bool use_fallback,
                                            LcpMethod fallback);

template <class Scalar>
class HalfExplicitTdg : public Scheme<Scalar> {
 public:
  /// From a spec "half-explicit-tdg[:r=..,tolerance=..,max_iterations=..,fallback=..]".
  /// Throws SpecError naming the option for an unknown key or a bad value.
  explicit HalfExplicitTdg(const SchemeSpec& spec);

  SchemeInfo info() const override;
  /// True in double and Real50.
  bool accepts_nonlinear() const override;

  /// Newton iterations of the last step (forecast + last problem), for the report.
  Index last_newton_iterations() const { return last_newton_iterations_; }

 protected:
  /// The stages with the non-impulsive constraints on acceleration level (0 <= G^T (u_1 - u_n)
  /// and 0 <= G^T (u_{n+1} - (u_n + u_1)/2), each complementary to its force, on the closed
  /// contacts that are not separating): the forecasting trapezoidal rule
  /// (nsh/schemes/forecasting_trapezoidal.hpp), named `name` in its errors. Impacts as here.
  HalfExplicitTdg(const SchemeSpec& spec, const char* name, bool acceleration_level);

  const HalfExplicitTdgOptions& options() const { return options_; }

 private:
  const char* name_{"half-explicit-tdg"};
  bool acceleration_level_{false};
  HalfExplicitTdgOptions options_;
  bool use_fallback_{true};               // options_.fallback != none
  LcpMethod fallback_{LcpMethod::lemke};  // options_.fallback as an LCP method
  LcpOptions<Scalar> lcp_options_;

  // Bound by initialize.
  const LinearModel<Scalar>* model_{nullptr};
  Scalar h_{0};
  Scalar t0_{0};  // the initial time, for drift_steps
  Eigen::PartialPivLU<Matrix<Scalar>> mass_lu_;
  Matrix<Scalar> minv_g_;    // M^-1 G
  Matrix<Scalar> delassus_;  // G^T M^-1 G
  Index last_newton_iterations_{0};
  // Friction (only when the model has_friction()): M^-1 H and H^T M^-1 H, contact-major.
  bool friction_{false};
  FrictionMethod friction_resolved_{FrictionMethod::lemke};
  Matrix<Scalar> minv_h_, delassus_local_;
  // Bound by initialize on a nonlinear model (then model_ is null).
  const NonlinearModel<Scalar>* nonlinear_model_{nullptr};

  using Scheme<Scalar>::do_initialize;
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_initialize(const NonlinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override;

  /// Solve the LCP of the active contacts `active` with b = G^T free_velocity (+ normal_shift,
  /// m entries, when given: e o U_newton at an impact); throws StepError unless certified.
  /// Returns z in model order (m).
  Vector<Scalar> solve_active(const char* stage, const std::vector<Index>& active,
                              const Vector<Scalar>& free_velocity,
                              const Vector<Scalar>* normal_shift, const Scalar& t,
                              LcpResult<Scalar>& result);
  /// The friction problem on `active` (b = H^T v_free, + normal_shift on the normal rows);
  /// throws StepError unless certified. Returns the local impulse in model order, m (1 + d),
  /// and fills `record` with the normal part as an LCP record (z = P_N, w = U_N).
  Vector<Scalar> solve_friction_active(const char* stage, const std::vector<Index>& active,
                                       const Vector<Scalar>& free_velocity,
                                       const Vector<Scalar>* normal_shift, const Scalar& t,
                                       LcpResult<Scalar>& record);
  void friction_step(State<Scalar>& state, StepSummary<Scalar>& summary);
  static void record_no_problem(LcpResult<Scalar>& lcp);
  /// Acceleration level: the number of steps since t_0 at t, plus one. The acceleration-level
  /// constraints act on increments of G^T u and never bring it back to zero, so a resting
  /// contact's G^T u carries the round-off of every step since it closed; the zero tests that
  /// decide "separating" scale with it (docs/half-explicit-tdg.md, "The forecasting trapezoidal
  /// rule": a fixed test dropped a resting contact once the drift outgrew it).
  Scalar drift_steps(const Scalar& t) const;
  /// drift_steps(t) at acceleration level, else 1: k in the closed test of a gap, whose zero is
  /// scaled as k |q| + k^2 h |u| (the gap integrates a velocity drift of up to k steps of
  /// round-off over k steps, h sum_j j delta <= k^2 h delta).
  Scalar gap_drift_steps(const Scalar& t) const;
  /// Acceleration level only (else empty, and nothing changes): drops the separating contacts
  /// (G^T u_n > 0 beyond the drift of drift_steps(t) steps at velocity_scale) from A_n and
  /// returns the shift -G^T u_n of the forecast problem's normal rows.
  Vector<Scalar> forecast_shift(std::vector<Index>& closed_n, const Vector<Scalar>& u,
                                const Scalar& velocity_scale, const Scalar& t) const;
  /// Acceleration level only: drops the contacts with G^T u_1 > separating_zero from A_{n+1} and
  /// returns the shift -G^T u_mid, u_mid = (u_n + u_1)/2, of the non-impulsive problem's normal
  /// rows.
  Vector<Scalar> non_impulsive_shift(std::vector<Index>& closed_next, const Vector<Scalar>& U_1,
                                     const Scalar& separating_zero,
                                     const Vector<Scalar>& u_mid) const;
  /// Acceleration level, non-impulsive step: the last impulse joins the forecast impulse and the
  /// index set is emptied (no velocity-level LCP is recorded).
  static void record_acceleration_level(Vector<Scalar>& forecast, Vector<Scalar>& last,
                                        std::vector<Index>& index_set);
  /// One stage's problem on a nonlinear model: H contact-major (n x m (1 + d)), M^-1 H, b =
  /// H^T v_free (+ normal_shift, m entries, on the normal rows: e o U_newton at an impact, the
  /// acceleration-level shift otherwise); the LCP (d = 0) or the friction problem.
  Vector<Scalar> solve_nonlinear_stage(const char* stage, const std::vector<Index>& active,
                                       const Matrix<Scalar>& H, const Matrix<Scalar>& minv_h,
                                       const Vector<Scalar>& free_velocity,
                                       const Vector<Scalar>* normal_shift, const Scalar& t,
                                       LcpResult<Scalar>& record);
  void nonlinear_step(State<Scalar>& state, StepSummary<Scalar>& summary);
};

/// Registers "half-explicit-tdg" (double, Real50, Rational).
void register_half_explicit_tdg(Registry& registry);

// Instantiated once, in the library (core/src); other files only link them.
extern template class HalfExplicitTdg<double>;
extern template class HalfExplicitTdg<Real50>;
extern template class HalfExplicitTdg<Rational>;

extern template LcpResult<double> half_explicit_prox_newton(const Matrix<double>&,
                                                            const Vector<double>&,
                                                            const Vector<double>&, Index,
                                                            const LcpOptions<double>&, bool,
                                                            LcpMethod);
extern template LcpResult<Real50> half_explicit_prox_newton(const Matrix<Real50>&,
                                                            const Vector<Real50>&,
                                                            const Vector<Real50>&, Index,
                                                            const LcpOptions<Real50>&, bool,
                                                            LcpMethod);
extern template LcpResult<Rational> half_explicit_prox_newton(const Matrix<Rational>&,
                                                              const Vector<Rational>&,
                                                              const Vector<Rational>&, Index,
                                                              const LcpOptions<Rational>&, bool,
                                                              LcpMethod);

}  // namespace nsh
