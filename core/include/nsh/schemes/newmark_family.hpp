#pragma once
// Nonsmooth Newmark, HHT and generalized-alpha (Chen-Acary-Virlez-Bruls splitting) and the
// nonsmooth Krenk-Hogsberg alpha-scheme, with their algorithmic energies (docs/theory.md §3).
//
// ============================================================================================
// 1. NewmarkFamily<Scalar>: specs "newmark", "hht", "gen-alpha"            family "newmark-family"
// ============================================================================================
// Sources: Q.Z. Chen, V. Acary, G. Virlez, O. Bruls, "A nonsmooth generalized-alpha scheme for
// flexible multibody systems with unilateral constraints", IJNME 96:487-511, 2013 (structure:
// smooth generalized-alpha step without contact forces, then an impulse LCP at velocity level);
// M. Arnold, O. Bruls, "Convergence of the generalized-alpha scheme for constrained mechanical
// systems", Multibody Syst. Dyn. 18:185-202, 2007 (the a / x'' form); parameters from rho_inf
// as in Siconos NewMarkAlphaOSI::setParametersFromRho_infty. Step equations (docs/theory.md
// §3.1): a is the acceleration-like variable, x'' the smooth acceleration, v~ the smooth end
// velocity (before the impulse), x_{k+1-alpha} = (1 - alpha) x_{k+1} + alpha x_k:
//
//   q_{k+1}  = q_k + h v_k + h^2 (1/2 - beta) a_k + h^2 beta a_{k+1}
//   v~_{k+1} = v_k + h (1 - gamma) a_k + h gamma a_{k+1}
//   M x''_{k+1} + C v~_{k+1} + K q_{k+1} = F(t_{k+1})
//   (1 - alpha_m) a_{k+1} + alpha_m a_k = (1 - alpha_f) x''_{k+1} + alpha_f x''_k
//   M (v_{k+1} - v~_{k+1}) = G P_{k+1}
//   alpha not in I: P^alpha = 0;  alpha in I: 0 <= U^alpha_{k+1} + e^alpha U^alpha_N  _|_  P^alpha
//   >= 0
//
// with the pre-impact velocity of the Newton law U_N (StepSummary::velocity_newton):
//   impact=smooth    U_N = U~_{k+1} = G^T v~_{k+1}   (DEFAULT, see below)
//   impact=previous  U_N = U_k = G^T v_k             (Moreau's form, docs/theory.md §3.1 'prev')
// and the index set, from the predicted position q_{k+1} (known before the LCP):
//   activation=position           I = { alpha : g^alpha(q_{k+1}) <= 0 }  (docs/theory.md §3.1)
//   activation=position-velocity  I = { alpha : g^alpha(q_{k+1}) <= 0 and U^alpha_N <= 0 }
//   (DEFAULT)
// The position is not corrected by the impulse (docs/theory.md §3.1: none taken).
// History (a_k, x''_k, v~_k) lives in the scheme; initialize sets
// a_0 = x''_0 = M^{-1}(F(t_0) - C v_0 - K q_0) and v~_0 = v_0.
//
// Elimination: S a_{k+1} = F_{k+1} - M (alpha_m a_k - alpha_f x''_k)/(1 - alpha_f)
//   - C (v_k + h(1-gamma) a_k) - K (q_k + h v_k + h^2(1/2-beta) a_k),
//   S = (1-alpha_m)/(1-alpha_f) M + h gamma C + h^2 beta K  (partial-pivot LU once; exact in
// Rational); impulse LCP W_I = G_I^T M^{-1} G_I, b_I = U~_I + e_I o U_N,I, v = v~ + M^{-1} G P.
//
// Parameters (all rational when the spec's numbers are; the rho formulas are rational):
//   newmark:beta=B,gamma=G      alpha_m = alpha_f = 0; defaults beta=1/4, gamma=1/2;
//                               beta in [0, 1], gamma in [0, 1]
//   hht:alpha=A                 A in [-1/3, 0] (default -1/10): alpha_m = 0, alpha_f = -A,
//                               gamma = 1/2 - A, beta = (1 - A)^2 / 4
//   gen-alpha:rho=R             R in [0, 1] (default 1/2): alpha_m = (2R-1)/(R+1),
//                               alpha_f = R/(R+1), gamma = 1/2 + alpha_f - alpha_m,
//                               beta = (gamma + 1/2)^2 / 4
//   gen-alpha:alpha_m=..,alpha_f=..[,beta=..,gamma=..]
//                               explicit; alpha_m and alpha_f in [-1, 1), beta in [0, 2],
//                               gamma in [0, 2]; gamma defaults to 1/2 + alpha_f - alpha_m and
//                               beta to (gamma + 1/2)^2/4. Mixing rho with any explicit
//                               parameter is a SpecError.
// Common options: impact=smooth|previous, activation=position-velocity|position,
// lcp=lemke|enumeration|pgs|fb|prox (rational: lemke or enumeration only). An uncertified LCP
// throws StepError.
//
// Energy ledger (exact for every parameter set, any C, any F(t), K PSD) - derivation: multiply
// v~_{k+1} - v_k = h a_{k+gamma} by M <v>, <v> = (v_k + v~_{k+1})/2, use
// [q] = h <v> + h^2 (beta - gamma/2) [a], write the filter as M a_{k+1-alpha_m} =
// F'_{k+1-alpha_f} - K q_{k+1-alpha_f} with F' = F - C v~, and r = M(a - x'') =
// M a + C v~ + K q - F:
//
//   E_{k+1} - E_k = W_ext + W_damp + W_contact - numerical_dissipation, with
//   W_ext     = [q]^T (F(t_k) + F(t_{k+1}))/2
//   W_damp    = -h w^T C w,  w = (v~_k + v~_{k+1})/2                       (<= 0 for C PSD)
//   W_contact = 1/2 (U_{k+1} + U~_{k+1})^T P_{k+1}   (discrete Thomson-Tait, U~ as pre-impact)
//   numerical_dissipation = (1/2 - alpha_f)[q]^T[r] - delta [q]^T M [a]
//        + 1/2 h^2 (beta - gamma/2)(||a_{k+1}||_M^2 - ||a_k||_M^2)
//        + h^2 (beta - gamma/2)(gamma - 1/2) ||[a]||_M^2 + ([q] - h w)^T C w,
//   delta = gamma - 1/2 - alpha_f + alpha_m (zero for every rho / HHT / trapezoidal choice).
// numerical_dissipation is NOT sign-definite (it carries the change of the algorithmic terms);
// the signed statement is the algorithmic energy below. external_impulse = h (F_{k+gamma} +
// r_{k+gamma}) = M (v~_{k+1} - v_k) + h C v~_{k+gamma} + h K q_{k+gamma} (the scheme's
// discrete integral of F: the filter lag r is zero for Newmark and has no component in a
// direction c with K c = C c = 0 when F is constant).
//
// Algorithmic energy (docs/theory.md §3.2, generalized to delta != 0; exact identity). Available
// (has_algorithmic_energy = true) iff C = 0, F constant (no harmonic part), and K SPD or
// alpha_f = alpha_m (then r = 0 identically and the r terms are dropped). Otherwise
// has_algorithmic_energy = false and only the ledger above is reported.
//
//   E_alg = 1/2||v||_M^2 + 1/2||q||_K^2 - F^T q + 1/2 h^2 (beta - gamma/2) ||a||_M^2
//           + c_r ||r||_{K^-1}^2,                   c_r = (1 - gamma - alpha_m)/(2(alpha_f -
//           alpha_m))
//   D_k   = delta ||[q]||_K^2 + h^2 (beta - gamma/2)(gamma - 1/2) ||[a]||_M^2
//           + c_r (1 - 2 alpha_m) ||[r]||_{K^-1}^2
//   E_alg_after - E_alg_before = -D_k + W_contact          (algorithmic_dissipation = D_k)
// (with delta = 0, c_r = (1 - 2 alpha_f)/(4(alpha_f - alpha_m)) as in docs/theory.md §3.2.)
//
// CLAIM DOMAINS (for the property suite; every hypothesis is readable from SchemeInfo.spec and
// the model):
//  * energy identity (energy_identity_defect() == 0 in Rational, round-off otherwise): every
//    parameter set, every option, any model.
//  * impact_work_nonpositive (W_contact <= 0): impact=smooth with activation=position-velocity
//    (any e in [0,1]); impact=smooth with equal e on all contacts (any activation:
//    W_contact = -(1-e)/(2(1+e)) P^T W P); or every e = 0 (either law). NOT for
//    impact=previous with some e > 0 (docs/theory.md §3.4: the spring case, W_contact = +0.376).
//  * algorithmic_energy_decay (E_alg_after <= E_alg_before, equivalently D_k >= 0 and
//    W_contact <= 0): has_algorithmic_energy, the impact_work_nonpositive domain above, and
//      gamma = 1/2 + alpha_f - alpha_m, alpha_m <= alpha_f <= 1/2, beta >= gamma/2
//    (Newmark: alpha_m = alpha_f = 0, 2 beta >= gamma >= 1/2; HHT: every alpha in [-1/3, 0];
//    gen-alpha: every rho in [0, 1]). Each term of D_k is then >= 0 (alpha_m <= 1/2 follows).
//    Outside: gamma < 1/2, alpha_f > 1/2, alpha_m > alpha_f, beta < gamma/2 each make a term of
//    D_k negative on a suitable step.
//  * observed_order 2 (q and v in smooth phases) iff gamma = 1/2 + alpha_f - alpha_m
//    (SchemeInfo.smooth_order is 2 then, else 1).
//
// Why impact=smooth is the default: with U~_{k+1} as pre-impact velocity the discrete
// Thomson-Tait work is provably <= 0 (above), which is what the decay claim needs; with Moreau's
// U_k it is not (docs/theory.md §3.4), so the 'previous' law carries no decay claim for e > 0. Why
// position-velocity is the default: it extends W_contact <= 0 to contacts with different e.
//
// ============================================================================================
// 2. KrenkHogsberg<Scalar>: spec "krenk-hogsberg"                          family "krenk-hogsberg"
// ============================================================================================
// The published equations of the "nonsmooth Krenk-Hogsberg alpha-scheme" (Acary, INRIA RR-8602
// / ZAMM 2016, Sect. 6, after S. Krenk, J. Hogsberg, "Properties of time integration with first
// order filter damping", IJNME 64:547-566, 2005, and S. Krenk, "Energy conservation in Newmark
// based time integration algorithms", CMAME 195:6110-6124, 2006) could not be retrieved: only
// the abstracts were found (search of docs/pages/code corpora, 2026-12-01). The scheme below is
// DERIVED here [R] from the stated idea: the equation of motion written in MEAN-VALUE form (so
// that it is energy-conserving as in Krenk 2006), structural damping evaluated on the secant
// velocity [q]/h, and algorithmic damping introduced (i) by a first-order filter r on the
// stiffness increment K[q] and (ii) by the Newmark kinematics with gamma > 1/2, so that the
// algorithmic energy decays also with C != 0. Filter state r (a force), r_0 = 0,
// c = 1/2 - alpha_f, a the acceleration-like variable (a_0 = M^{-1}(F_0 - C v_0 - K q_0)):
//
//   q_{k+1}  = q_k + h v_k + h^2 (1/2 - beta) a_k + h^2 beta a_{k+1}
//   v~_{k+1} = v_k + h (1 - gamma) a_k + h gamma a_{k+1}
//   (1 - alpha_m) r_{k+1} + alpha_m r_k = (alpha_f - alpha_m) K [q]
//   M ((1-gamma) a_k + gamma a_{k+1}) = <F> - C [q]/h - K <q> - c [r]
//   then the same impulse step (impact, activation, lcp options) as NewmarkFamily,
// with <F> = (F(t_k) + F(t_{k+1}))/2, <q> = (q_k + q_{k+1})/2, [x] = x_{k+1} - x_k. With
// gamma = 1/2, beta = 1/4 the kinematics is the trapezoidal rule; with alpha_m = 0 the filter
// term is HHT's (r_{k+1} = alpha_f K[q], cf. docs/theory.md §3.2's HHT D term). Elimination:
//   (gamma M + h beta C + h^2 beta kappa K) a_{k+1} = <F> - (1-gamma) M a_k - C [q]*/h - K q_k
//     - kappa K [q]* + c r_k/(1-alpha_m),  [q]* = h v_k + h^2 (1/2 - beta) a_k,
//   kappa = 1/2 + c (alpha_f - alpha_m)/(1 - alpha_m).
// Order 2 in smooth phases: a_k tracks x''(t_k + (1/2 - gamma) h) so that a_{k+gamma} is the
// midpoint acceleration; [r] = O(h^2) (tested with and without damping). Spectral radius of
// the amplification matrix (1 dof, C = 0) measured with the rho map below at omega h = 1e4:
// 0.34 (rho = 0), 0.50 (rho = 1/2), 0.81 (rho = 0.8), 1 (rho = 1); at omega h = 10: 0.33,
// 0.68, 0.93, 1. (With gamma = 1/2 the high-frequency limit is undamped: the filter alone
// does not damp the velocity mode.)
//
// Ledger (exact, any C, any F(t), K PSD): W_ext = [q]^T <F>, W_damp = -||[q]||_C^2 / h
// (<= 0), W_contact = 1/2 (U_{k+1} + U~_{k+1})^T P,
// numerical_dissipation = c [q]^T [r] + 1/2 h^2 (beta - gamma/2)(||a_{k+1}||_M^2 - ||a_k||_M^2)
//   + h^2 (beta - gamma/2)(gamma - 1/2) ||[a]||_M^2;
// external_impulse = h <F> (exact in every direction c with K c = C c = G^T c = 0, since r
// stays in range(K)). Derivation: multiply the momentum equation by h <v>, <v> = (v_k +
// v~_{k+1})/2, and use [q] = h <v> + h^2 (beta - gamma/2) [a] and, for the filter,
// K[q] = (<r> + (1/2 - alpha_m)[r])/(alpha_f - alpha_m).
// Algorithmic energy (exact), available iff F constant and (K SPD or alpha_f = alpha_m);
// damping C is allowed - that is the point of the scheme:
//   E_alg = 1/2||v||_M^2 + 1/2||q||_K^2 - F^T q + 1/2 h^2 (beta - gamma/2) ||a||_M^2
//           + c/(2(alpha_f - alpha_m)) ||r||_{K^-1}^2
//   D_k   = ||[q]||_C^2 / h + h^2 (beta - gamma/2)(gamma - 1/2) ||[a]||_M^2
//           + c (1 - 2 alpha_m)/(2(alpha_f - alpha_m)) ||[r]||_{K^-1}^2
//   E_alg_after - E_alg_before = -D_k + W_contact
// Parameters: krenk-hogsberg:rho=R (R in [0, 1], default 1/2: alpha_m, alpha_f, gamma, beta by
// the generalized-alpha formulas of section 1) or krenk-hogsberg:alpha_m=..,alpha_f=..
// [,beta=..,gamma=..] (alpha_m in [-1, 1), alpha_f in [-1, 1], gamma in (0, 2], beta in
// [0, 2]; gamma defaults to 1/2 + alpha_f - alpha_m, beta to (gamma + 1/2)^2/4); mixing rho
// with explicit parameters is a SpecError.
// Relation to section 1 (tested: KrenkHogsberg.IsChenGeneralizedAlphaExactlyWithoutDamping,
// DiffersFromChenWithDampingAtSecondOrder). With C = 0, F constant and gamma = 1/2 + alpha_f -
// alpha_m (every rho; any beta) this step IS the Chen generalized-alpha step of section 1, an
// exact algebraic identity (equal trajectories in Rational, with contacts and either impact
// law): Chen's residual r = M a + K q - F obeys (1 - alpha_f) r_{k+1} + alpha_f r_k =
// -(alpha_f - alpha_m) M [a], which with [r] = M [a] + K [q] is the filter above, r_0 = 0 in
// both; and M a_{k+1-alpha_m} = F - K q_{k+1-alpha_f} is M a_{k+gamma} = F - K <q> - c [r]
// because 1 - alpha_m - gamma = 1/2 - alpha_f = c. So E_alg and D_k also coincide with
// section 1's. KH's own content is the damping (and a time-varying F, taken as <F>): C acts on
// [q]/h instead of on v~_{k+1-alpha_f} through the filter, which is what makes E_alg decay with
// C != 0; the trajectories then differ at O(h^2) at a fixed time (both are second order), except
// for rho = 1 (alpha_m = alpha_f = 1/2, beta = gamma/2: [q]/h = <v~>) in smooth phases.
// CLAIM DOMAINS: identity always; algorithmic_energy_decay for alpha_m <= alpha_f <= 1/2,
// alpha_m < 1/2 (or alpha_m = alpha_f), gamma >= 1/2, beta >= gamma/2, C PSD, F constant,
// inside the impact_work_nonpositive domain of section 1 (every rho in [0, 1] qualifies);
// observed_order 2 always (SchemeInfo.smooth_order = 2).

#include <nsh/impulse_step.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/registry.hpp>
#include <nsh/scheme_options.hpp>
#include <nsh/schemes/scheme.hpp>

#include <Eigen/LU>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nsh {

/// The pre-impact velocity of the Newton law at the impulse step.
enum class NewmarkImpactLaw {
  smooth,   ///< 0 <= U_{k+1} + e U~_{k+1}  (U~ = G^T v~_{k+1}, the smooth end velocity)
  previous  ///< 0 <= U_{k+1} + e U_k       (Moreau's form)
};
const char* to_string(NewmarkImpactLaw law);

/// Which contacts enter the impulse LCP (gap at the predicted q_{k+1}).
enum class NewmarkActivation {
  position,          ///< g(q_{k+1}) <= 0
  position_velocity  ///< g(q_{k+1}) <= 0 and U_N <= 0 (U_N the Newton law's velocity)
};
const char* to_string(NewmarkActivation activation);

/// Parameters of the alpha-family, exact (for the canonical spec) whatever Scalar is.
struct NewmarkParameters {
  Rational alpha_m{0}, alpha_f{0}, beta{Rational(1) / 4}, gamma{Rational(1) / 2};
};

// The options of the family, declared once (nsh/scheme_options.hpp). Each member's own options
// come first, then the impulse-step options every member has (NewmarkFamilyOptions), in the
// order `nsh list schemes` shows them. parse_options fills every member from its default text.

/// impact, activation and lcp: the impulse-step options of every member of the family.
struct NewmarkImpulseOptions {
  NewmarkImpactLaw impact{};
  NewmarkActivation activation{};
  LcpMethod lcp{};

  template <class V>
  void visit(V& v) {
    v("impact", impact, "smooth",
      "Newton law pre-impact velocity: smooth (U~_{k+1}, the smooth end velocity; its impact "
      "work is provably <= 0) or previous (U_k, Moreau's form)",
      one_of(NewmarkImpactLaw::smooth, NewmarkImpactLaw::previous));
    v("activation", activation, "position-velocity",
      "index set: position (g(q_{k+1}) <= 0) or position-velocity (also the Newton law's "
      "pre-impact velocity <= 0)",
      one_of(NewmarkActivation::position_velocity, NewmarkActivation::position));
    visit_lcp_method(v, lcp);
  }
};

/// newmark: beta and gamma.
struct NewmarkOptions {
  Rational beta, gamma;

  template <class V>
  void visit(V& v) {
    v("beta", beta, "1/4", "Newmark beta, a number in [0, 1]", closed_range(0, 1));
    v("gamma", gamma, "1/2", "Newmark gamma, a number in [0, 1]", closed_range(0, 1));
  }
  NewmarkParameters parameters() const;
};

/// hht: alpha, mapped to alpha_m = 0, alpha_f = -alpha, gamma = 1/2 - alpha,
/// beta = (1 - alpha)^2 / 4.
struct HhtOptions {
  Rational alpha;

  template <class V>
  void visit(V& v) {
    v("alpha", alpha, "-1/10", "HHT alpha, a number in [-1/3, 0]",
      closed_range(Rational(-1) / 3, 0));
  }
  NewmarkParameters parameters() const;
};

/// gen-alpha and krenk-hogsberg: rho_inf (default 1/2), or the explicit alpha_m and alpha_f with
/// beta and gamma defaulting to the second-order, rho-consistent values. After resolve either
/// rho alone or all four explicit parameters have a value, which is the canonical spec.
struct AlphaFormOptions {
  std::optional<Rational> rho, alpha_m, alpha_f, beta, gamma;

  /// The parameters the scheme steps with; the one map rho_inf -> (alpha_m, alpha_f, gamma,
  /// beta) (Siconos NewMarkAlphaOSI::setParametersFromRho_infty).
  NewmarkParameters parameters() const;

 protected:
  /// SpecError naming `scheme:rho` for rho with an explicit parameter, `scheme:alpha_m` or
  /// `scheme:alpha_f` for an explicit form without both; then fills rho = 1/2 or the default
  /// gamma = 1/2 + alpha_f - alpha_m and beta = (gamma + 1/2)^2 / 4. Returns whether gamma was
  /// given.
  bool resolve_form(const std::string& scheme);
  /// The five options in their listed order; rho, alpha_f and gamma as the member says.
  template <class V>
  void visit_form(V& v, const char* rho_text, const char* alpha_f_text,
                  const OptionRange& alpha_f_range, const char* gamma_text,
                  const OptionRange& gamma_range) {
    v("rho", rho, "", rho_text, closed_range(0, 1));
    v("alpha_m", alpha_m, "", "explicit alpha_m in [-1, 1) (not with rho)",
      closed_open_range(-1, 1));
    v("alpha_f", alpha_f, "", alpha_f_text, alpha_f_range);
    v("beta", beta, "", "explicit beta in [0, 2] (default (gamma+1/2)^2/4; not with rho)",
      closed_range(0, 2));
    v("gamma", gamma, "", gamma_text, gamma_range);
  }
};

struct GenAlphaOptions : AlphaFormOptions {
  template <class V>
  void visit(V& v) {
    visit_form(v, "spectral radius at infinity rho_inf in [0, 1] (default 1/2)",
               "explicit alpha_f in [-1, 1) (not with rho)", closed_open_range(-1, 1),
               "explicit gamma in [0, 2] (default 1/2+alpha_f-alpha_m; not with rho)",
               closed_range(0, 2));
  }
  /// The form, and a default gamma inside [0, 2].
  void resolve(const std::string& scheme);
};

struct KrenkHogsbergOptions : AlphaFormOptions {
  template <class V>
  void visit(V& v) {
    OptionRange gamma_range = closed_range(0, 2);
    gamma_range.text = "a number in (0, 2]";  // 0 is refused by resolve, which says why
    visit_form(v, "rho in [0, 1] (default 1/2), mapped by the generalized-alpha formulas",
               "explicit alpha_f in [-1, 1] (not with rho)", closed_range(-1, 1),
               "explicit gamma in (0, 2] (default 1/2+alpha_f-alpha_m; not with rho)", gamma_range);
  }
  /// The form, and gamma > 0 (gamma M is the leading term of the iteration matrix).
  void resolve(const std::string& scheme);
};

/// A member's own options, then the impulse-step options.
template <class Own>
struct NewmarkFamilyOptions {
  Own own;
  NewmarkImpulseOptions impulse;

  template <class V>
  void visit(V& v) {
    own.visit(v);
    impulse.visit(v);
  }
  void resolve(const std::string& scheme) {
    scheme_options_detail::resolve_if_declared(own, scheme);
  }
};

/// What NewmarkFamily and KrenkHogsberg share (sections 1 and 2 above): the impulse-step
/// options, the model-bound factorizations, the impulse LCP and its workspace, and the parts of
/// the ledger that do not depend on the smooth step. Each scheme adds its own smooth step.
template <class Scalar>
class NewmarkSplitting : public Scheme<Scalar> {
 public:
  /// The Newton law the scheme claims (the mutant that lies uses another one in its LCP).
  NewmarkImpactLaw impact_law() const { return impulse_options_.impact; }
  NewmarkActivation activation() const { return impulse_options_.activation; }

 protected:
  /// Reads the spec into Options (NewmarkFamilyOptions<Own>): keeps its impulse options and the
  /// canonical values of its own (SpecError names the option); returns the own options.
  template <class Own>
  Own parse(const SchemeSpec& spec);
  /// The Scalar copies of the parameters the step computes with.
  void set_dynamics(const NewmarkParameters& p);
  /// The info with `claimed` as its exact parameters (SchemeInfo::parameters).
  SchemeInfo splitting_info(const char* family, int smooth_order,
                            const NewmarkParameters& claimed) const;

  /// Validates h and the initial state and binds the model (first part of initialize).
  void bind(const char* scheme, const LinearModel<Scalar>& model, const State<Scalar>& initial,
            const Scalar& h);
  /// After the scheme has factorized its iteration matrix: factorizes M, forms M^{-1} G and the
  /// Delassus matrix, decides has_algorithmic_energy (F constant, C = 0 unless
  /// damping_allowed, K SPD when r_terms), sizes the workspace and sets a_0 = M^{-1}(F_0 - C v_0
  /// - K q_0), r_0 = 0.
  void prepare(const char* scheme, const State<Scalar>& initial, bool r_terms,
               bool damping_allowed);
  void force_at(const Scalar& t, Vector<Scalar>& out) const;

  /// The impulse step with the Newton law `law` from (q_next_, vs_next_) into v_next_; the
  /// summary's velocity_newton is the claimed law's.
  void impulse(const char* scheme, NewmarkImpactLaw law, const State<Scalar>& state,
               StepSummary<Scalar>& summary);
  /// t, h, gap_before, E_before, E_after and W_contact of the step state -> (q_next_, v_next_).
  void mechanical_ledger(const State<Scalar>& state, StepSummary<Scalar>& summary);
  /// E_alg_before/after = E - F^T q + 1/2 h^2 bg ||a||_M^2 (+ c_r ||r||_{K^-1}^2) and
  /// algorithmic_dissipation = D (+ c_r (1 - 2 alpha_m) ||[r]||_{K^-1}^2), the r terms when
  /// r_terms_; zero (and has_algorithmic_energy = false) when the model has none.
  void algorithmic_ledger(const State<Scalar>& state, const Scalar& bg, const Scalar& a2_k,
                          const Scalar& a2_next, Scalar D, const Scalar& c_r, const Scalar& alpha_m,
                          StepSummary<Scalar>& summary);
  /// Commits the step: a_k, r_k, q, v, t.
  void advance(State<Scalar>& state);

  NewmarkImpulseOptions impulse_options_;  // the law is the claimed one (a mutant may use another)
  std::string name_;
  std::map<std::string, std::string> own_values_;  // the member's own options, canonical
  LcpOptions<Scalar> lcp_options_;
  Scalar am_{0}, af_{0}, beta_{0}, gamma_{0};  // dynamics

  // Bound by bind / prepare.
  const LinearModel<Scalar>* model_{nullptr};
  Scalar h_{0};
  bool harmonic_{false};
  bool algorithmic_{false};  // has_algorithmic_energy for this model
  bool r_terms_{false};      // alpha_f != alpha_m in the ledger (needs K^{-1})
  Eigen::PartialPivLU<Matrix<Scalar>> iteration_lu_, mass_lu_, stiffness_lu_;
  Matrix<Scalar> minv_g_, delassus_;

  // History and workspace.
  Vector<Scalar> a_, r_;  // a_k, r_k
  Vector<Scalar> f_k_, f_next_, rhs_, a_next_, vs_next_, q_next_, v_next_, r_next_;
  Vector<Scalar> work_, work2_, dq_, da_, dr_;
  Vector<Scalar> gap_next_, velocity_k_, velocity_smooth_, velocity_newton_, impulse_;
  ImpulseStepWorkspace<Scalar> impulse_work_;
  std::vector<Index> active_;
};

template <class Scalar>
class NewmarkFamily : public NewmarkSplitting<Scalar> {
 public:
  /// From a spec named "newmark", "hht" or "gen-alpha" (see the header comment); missing
  /// options take their defaults. SpecError names the option for any bad value.
  explicit NewmarkFamily(const SchemeSpec& spec);

  SchemeInfo info() const override;

 protected:
  using Scheme<Scalar>::do_initialize;
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override;

 public:
  const NewmarkParameters& parameters() const { return ledger_; }
  /// The acceleration-like variable a_k and smooth acceleration x''_k of the current state.
  const Vector<Scalar>& acceleration_like() const { return this->a_; }
  const Vector<Scalar>& smooth_acceleration() const { return xdd_; }

 protected:
  /// A seam for instruments (the mutants of properties/src/mutants/newmark.cpp): the scheme
  /// that `claimed` names in info() and in velocity_newton, stepping the parameters `dynamics`
  /// with the Newton law `dynamic_law` in its LCP and keeping its ledger with `ledger`. With
  /// ledger = dynamics = parameters() and dynamic_law = impact_law() it is NewmarkFamily(claimed).
  NewmarkFamily(const SchemeSpec& claimed, const NewmarkParameters& ledger,
                const NewmarkParameters& dynamics, NewmarkImpactLaw dynamic_law);

 private:
  NewmarkParameters ledger_;   // what the scheme claims (spec, info, ledger)
  NewmarkParameters dynamic_;  // what the step computes (ledger_ but through the seam)
  NewmarkParameters claimed_;  // what info() reports (ledger_ but through the seam)
  NewmarkImpactLaw dynamic_law_{NewmarkImpactLaw::smooth};  // used in the LCP
  Scalar lam_{0}, laf_{0}, lbeta_{0}, lgamma_{0};           // ledger
  Vector<Scalar> xdd_, vs_, xdd_next_, wbar_;               // x''_k, v~_k

  /// The Scalar copies of dynamic_ (the step) and ledger_ (the ledger terms).
  void use_parameters();
};

template <class Scalar>
class KrenkHogsberg : public NewmarkSplitting<Scalar> {
 public:
  /// From a spec "krenk-hogsberg[:rho=..|alpha_m=..,alpha_f=..][,impact=..,activation=..,lcp=..]".
  explicit KrenkHogsberg(const SchemeSpec& spec);

  SchemeInfo info() const override;

 protected:
  using Scheme<Scalar>::do_initialize;
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override;

 public:
  /// alpha_m, alpha_f, beta, gamma as used (exact).
  const NewmarkParameters& parameters() const { return parameters_; }
  /// The filter state r_k.
  const Vector<Scalar>& filter_state() const { return this->r_; }

 private:
  NewmarkParameters parameters_;
  Vector<Scalar> fmean_;
};

/// Registers "newmark", "hht", "gen-alpha" and "krenk-hogsberg" (double, Real50, Rational).
void register_newmark_family(Registry& registry);

// Instantiated once, in the library (core/src); other files only link them.
extern template class NewmarkSplitting<double>;
extern template class NewmarkSplitting<Real50>;
extern template class NewmarkSplitting<Rational>;
extern template class NewmarkFamily<double>;
extern template class NewmarkFamily<Real50>;
extern template class NewmarkFamily<Rational>;
extern template class KrenkHogsberg<double>;
extern template class KrenkHogsberg<Real50>;
extern template class KrenkHogsberg<Rational>;

}  // namespace nsh
