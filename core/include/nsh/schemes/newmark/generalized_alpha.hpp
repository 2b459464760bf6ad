#pragma once
// Nonsmooth Newmark, HHT and generalized-alpha (Chen-Acary-Virlez-Bruls splitting) with their
// algorithmic energies (docs/theory.md §3).
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

#include <nsh/schemes/newmark/splitting.hpp>

namespace nsh {

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

template <class Scalar, class Storage = DenseStorage>
class NewmarkFamily : public NewmarkSplitting<Scalar, Storage> {
 public:
  /// From a spec named "newmark", "hht" or "gen-alpha" (see the header comment); missing
  /// options take their defaults. SpecError names the option for any bad value.
  explicit NewmarkFamily(const SchemeSpec& spec);

  SchemeInfo info() const override;

 protected:
  void initialize_on(const typename NewmarkSplitting<Scalar, Storage>::Model& model,
                     const State<Scalar>& initial, const Scalar& h) override;
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

// Instantiated once, in the library (core/src/schemes/newmark); other files only link them.
extern template class NewmarkFamily<double>;
extern template class NewmarkFamily<Real50>;
extern template class NewmarkFamily<Rational>;
extern template class NewmarkFamily<double, SparseStorage>;
extern template class NewmarkFamily<Real50, SparseStorage>;

}  // namespace nsh
