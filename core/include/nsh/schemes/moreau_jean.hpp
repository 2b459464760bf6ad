#pragma once
// The Moreau–Jean theta-scheme for the linear model of docs/theory.md §1 (docs/theory.md §2.1).
//
// Sources: V. Acary, "Energy conservation and dissipation properties of time-integration
// methods for nonsmooth elastodynamics with contact", ZAMM 96(5):585–603, 2016 (INRIA
// RR-8602), Sect. 3; M. Jean, "The non-smooth contact dynamics method", CMAME 177:235–257,
// 1999; Siconos 4.4 kernel, MoreauJeanOSI (LagrangianLinearTIDS branch of computeFreeState /
// updateState and addInteractionInIndexSet), whose trajectories this class reproduces with
// activation=position (tested in core/tests/siconos_compare.cpp).
//
// One step from (t_k, q_k, v_k) to t_{k+1} = t_k + h, with x_{k+theta} = (1-theta) x_k +
// theta x_{k+1}:
//
//   M (v_{k+1} - v_k) + h C v_{k+theta} + h K q_{k+theta} - h F_{k+theta} = G P_{k+1}
//   q_{k+1} = q_k + h v_{k+theta}
//   U_{k+1} = G^T v_{k+1}
//   alpha not in I : P^alpha_{k+1} = 0
//   alpha in I     : 0 <= U^alpha_{k+1} + e^alpha U^alpha_k  _|_  P^alpha_{k+1} >= 0
//
// with F_{k+theta} = (1-theta) F(t_k) + theta F(t_{k+1}) (as Siconos evaluates fExt), and the
// index set I chosen from the state at t_k (gamma_p = 1/2, the Siconos default):
//
//   activation=position           I = { alpha : g^alpha_k + h/2 U^alpha_k <= 0 }
//   activation=position-velocity  I = { alpha : g^alpha_k + h/2 U^alpha_k <= 0 and U^alpha_k <= 0 }
//
// The second rule is the default because the energy theorem (docs/theory.md §2.4) needs U_k <= 0
// wherever P > 0; the first reproduces Siconos and can gain energy (docs/theory.md §2.4).
// In floating point "<= 0" is read to round-off: 64 eps times the scale of G^T q + w and of
// G^T v (exactly 0 in Rational). A contact held by the previous step's LCP has U_k and g_k zero
// only to round-off, and reading their sign dropped it for a step at random.
//
// Elimination (what `step` computes). With M^ = M + h theta C + h^2 theta^2 K, factorized once
// in `initialize` (partial-pivot LU, exact in Rational):
//
//   v_free  = v_k + M^{-1} [ -h C v_k - h K q_k - h^2 theta K v_k + h F_{k+theta} ]
//   W_I     = G_I^T M^{-1} G_I,   b_I = G_I^T v_free + e_I o U_{k,I}
//   0 <= W_I P_I + b_I  _|_  P_I >= 0          (solved by nsh::solve_lcp, certified)
//   v_{k+1} = v_free + M^{-1} G_I P_I,   q_{k+1} = q_k + h ((1-theta) v_k + theta v_{k+1})
//
// Energy ledger (docs/theory.md §2.2) and the exact one-step identity (docs/theory.md §2.3):
//
//   W_ext = h v_{k+theta}^T F_{k+theta},  W_damp = -h v_{k+theta}^T C v_{k+theta},
//   W_contact = U_{k+theta}^T P_{k+1},
//   numerical_dissipation = (theta - 1/2)(||v_{k+1} - v_k||_M^2 + ||q_{k+1} - q_k||_K^2),
//   E_{k+1} - E_k = W_ext + W_damp + W_contact - numerical_dissipation
//
// which holds to round-off in floating point and exactly (defect == 0) in Rational, for every
// theta, e, C, F and either index rule (multiply the momentum equation by v_{k+theta}^T and
// use h v_{k+theta} = q_{k+1} - q_k).
//
// Spec options: theta (default 1/2, in [0, 1]), activation (position | position-velocity,
// default position-velocity), lcp (lemke | enumeration | pgs | fb | prox, default lemke; only
// lemke and enumeration in Rational, the others iterate or need sqrt), friction (lemke |
// alart-curnier | pgs; unset: lemke for d = 1, alart-curnier for d = 2).
//
// Coulomb friction (docs/friction.md "Moreau–Jean with friction", docs/theory.md §9.1; Siconos
// MoreauJeanOSI + FrictionContact). On a model with has_friction() the impulse LCP becomes the
// one-step friction problem on the index set, contact-major with H = [G_N^a, G_T^a..] per
// active contact:
//
//   W = H^T M^-1 H,   b = H^T v_free + (e o U_k on the normal rows),   U = W P + b,
//   0 <= U_N _|_ P_N >= 0,  ||P_T|| <= mu P_N,  stick => U_T+ = 0,  slide => maximal dissipation,
//
// solved by nsh::solve_friction and refused (StepError) unless its certificate is accepted;
// v_{k+1} = v_free + M^-1 H P. The ledger's contact work carries the tangential term,
// W_contact = U_{k+theta}^T P_N + U_T,{k+theta}^T P_T, and the identity of §2.3 holds unchanged.
// Rational steps d = 1 only (lemke, exact); d = 2 needs square roots. A model with mu = 0 or
// no G_T takes the frictionless path above, bit for bit. The friction path allocates.
//
// Nonlinear models (nsh/model/nonlinear_model.hpp, the lagrangian family; docs/nonlinear-models.md
// "Moreau–Jean"; Siconos MoreauJeanOSI with LagrangianDS and LagrangianScleronomousR, first
// Newton iterate): the same options and the same one-step problems, with M at q_k, the smooth
// force linearised at (q_k, v_k) (K = -df/dq, C = -df/dv: the model's, or central
// differences), and W_N, W_T at the prediction q* = q_k + h/2 v_k:
//
//   v_free  = v_k + M^^-1 [ h ((1-theta) f(t_k, q_k, v_k) + theta f(t_{k+1}, q_k, v_k))
//                           - h^2 theta K v_k ],    M^ = M(q_k) + h theta C + h^2 theta^2 K
//   I from g(q_k) + h/2 W_N(q_k)^T v_k (and the activation rule), the LCP or friction problem
//   on W_N(q*), W_T(q*), v_{k+1} = v_free + M^^-1 (W_N P_N + W_T P_T),
//   q_{k+1} = q_k + h ((1-theta) v_k + theta v_{k+1}).
//
// For an affine f with constant M, W_N, W_T (LinearModelAdapter) this is the linear step above
// to round-off. Double and Real50; Rational when the model gives its own force Jacobians and
// every quantity is rational (a lagrangian file of rational formulas; friction with d = 1): the
// exact numbers then grow geometrically with the steps in contact, and the driver stops a run
// whose numbers exceed limits::max_exact_bits (docs/limits.md).
//
// Allocation: on the double path `step` allocates nothing once the summary has been sized by a
// first step, with or without active contacts, for lcp=lemke and lcp=pgs: the active Delassus
// block is the top-left corner of an m x m buffer and the LCP is solved in an LcpWorkspace
// reserved for the m contacts (nsh/lcp/workspace.hpp). enumeration, fb and prox allocate
// inside their solve.

#include <nsh/detail/moreau_jean_nonlinear_workspace.hpp>
#include <nsh/detail/moreau_jean_workspace.hpp>
#include <nsh/friction/solver.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/lcp/workspace.hpp>
#include <nsh/registry.hpp>
#include <nsh/scheme_options.hpp>
#include <nsh/schemes/scheme.hpp>

#include <Eigen/LU>

#include <optional>
#include <vector>

namespace nsh {

/// Which contacts enter the impulse LCP of a step.
enum class MoreauJeanActivation {
  position,          ///< g_k + h/2 U_k <= 0 (Siconos MoreauJeanOSI default)
  position_velocity  ///< g_k + h/2 U_k <= 0 and U_k <= 0 (needed by the energy theorem)
};

const char* to_string(MoreauJeanActivation activation);

/// The options of MoreauJean, declared once (nsh/scheme_options.hpp): the registry's list, the
/// parse of a spec, the canonical spec and the parameters all come from `visit`, whose default
/// texts are the defaults (parse_options(SchemeSpec::parse("moreau-jean")) gives them).
struct MoreauJeanOptions {
  Rational theta;  ///< exact whatever the Scalar, for the canonical spec and the claims
  MoreauJeanActivation activation{};
  LcpMethod lcp{};
  /// Empty: lemke for d = 1, alart-curnier for d = 2. No default value, so that the canonical
  /// spec of a frictionless run has no friction option.
  std::optional<FrictionMethod> friction;

  template <class V>
  void visit(V& v) {
    v("theta", theta, "1/2", "theta-method parameter, a number in [0, 1]", closed_range(0, 1));
    v("activation", activation, "position-velocity",
      "index set: position (g_k + h/2 U_k <= 0, the Siconos default) or position-velocity "
      "(also U_k <= 0, needed by the energy theorem)",
      one_of(MoreauJeanActivation::position, MoreauJeanActivation::position_velocity));
    visit_lcp_method(v, lcp);
    v("friction", friction, "",
      "one-step Coulomb friction solver (docs/friction.md); unset: lemke for d = 1 (exact in "
      "rational), alart-curnier for d = 2; rational arithmetic accepts lemke only",
      one_of(FrictionMethod::lemke, FrictionMethod::alart_curnier, FrictionMethod::pgs));
  }
};

template <class Scalar>
class MoreauJean : public Scheme<Scalar> {
 public:
  /// From a spec "moreau-jean[:theta=..,activation=..,lcp=..]"; missing options take their
  /// defaults. Throws SpecError naming the option for an unknown key, a theta outside [0, 1],
  /// an unknown activation or LCP method, or an iterative LCP method in Rational.
  explicit MoreauJean(const SchemeSpec& spec);

  SchemeInfo info() const override;
  /// True in double and Real50.
  bool accepts_nonlinear() const override;

  const Scalar& theta() const { return theta_; }
  MoreauJeanActivation activation() const { return options_.activation; }
  LcpMethod lcp_method() const { return options_.lcp; }
  /// The friction method named in the spec; empty: chosen from d (lemke for 1, alart-curnier 2).
  const std::optional<FrictionMethod>& friction_method() const { return options_.friction; }
  const MoreauJeanOptions& options() const { return options_; }

 private:
  MoreauJeanOptions options_;
  Scalar theta_;  // options_.theta in Scalar
  LcpOptions<Scalar> lcp_options_;

  // Bound by initialize.
  const LinearModel<Scalar>* model_{nullptr};
  Scalar h_{0};
  bool harmonic_{false};
  Eigen::PartialPivLU<Matrix<Scalar>> iteration_lu_;  // M^ = M + h theta C + h^2 theta^2 K
  Matrix<Scalar> minv_g_;                             // M^{-1} G, n x m
  Matrix<Scalar> delassus_;                           // G^T M^{-1} G, m x m
  // Friction (only when the model has_friction()): M^{-1} H and H^T M^{-1} H, contact-major.
  bool friction_{false};
  FrictionMethod friction_resolved_{FrictionMethod::lemke};
  Matrix<Scalar> minv_h_, delassus_local_;

  detail::MoreauJeanWorkspace<Scalar> work_;  // sized by initialize

  // Bound by initialize on a nonlinear model (then model_ is null).
  const NonlinearModel<Scalar>* nonlinear_model_{nullptr};
  detail::MoreauJeanNonlinearWorkspace<Scalar> nonlinear_work_;

  using Scheme<Scalar>::do_initialize;
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_initialize(const NonlinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override;
  /// numerical_dissipation of a linear model's step from the kit's products (the nonlinear
  /// step records its own, with M(q) and the stiffness of f).
  void do_complete_ledger(const EnergyProducts<Scalar>& products,
                          StepSummary<Scalar>& summary) override;
};

/// Registers "moreau-jean" (double, Real50, Rational).
void register_moreau_jean(Registry& registry);

// Instantiated once, in the library (core/src); other files only link them.
extern template class MoreauJean<double>;
extern template class MoreauJean<Real50>;
extern template class MoreauJean<Rational>;

}  // namespace nsh
