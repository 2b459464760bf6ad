#pragma once
// The nonsmooth Krenk-Hogsberg alpha-scheme and its algorithmic energy (docs/theory.md §3).
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
// the generalized-alpha formulas of nsh/schemes/newmark/generalized_alpha.hpp) or
// krenk-hogsberg:alpha_m=..,alpha_f=..
// [,beta=..,gamma=..] (alpha_m in [-1, 1), alpha_f in [-1, 1], gamma in (0, 2], beta in
// [0, 2]; gamma defaults to 1/2 + alpha_f - alpha_m, beta to (gamma + 1/2)^2/4); mixing rho
// with explicit parameters is a SpecError.
// Relation to the generalized-alpha scheme (tested:
// KrenkHogsberg.IsChenGeneralizedAlphaExactlyWithoutDamping,
// DiffersFromChenWithDampingAtSecondOrder). With C = 0, F constant and gamma = 1/2 + alpha_f -
// alpha_m (every rho; any beta) this step IS the Chen generalized-alpha step of
// nsh/schemes/newmark/generalized_alpha.hpp, an exact algebraic identity (equal trajectories in
// Rational, with contacts and either impact law): Chen's residual r = M a + K q - F obeys (1 -
// alpha_f) r_{k+1} + alpha_f r_k =
// -(alpha_f - alpha_m) M [a], which with [r] = M [a] + K [q] is the filter above, r_0 = 0 in
// both; and M a_{k+1-alpha_m} = F - K q_{k+1-alpha_f} is M a_{k+gamma} = F - K <q> - c [r]
// because 1 - alpha_m - gamma = 1/2 - alpha_f = c. So E_alg and D_k also coincide with
// the generalized-alpha scheme's. KH's own content is the damping (and a time-varying F, taken as
// <F>): C acts on [q]/h instead of on v~_{k+1-alpha_f} through the filter, which is what makes
// E_alg decay with C != 0; the trajectories then differ at O(h^2) at a fixed time (both are second
// order), except for rho = 1 (alpha_m = alpha_f = 1/2, beta = gamma/2: [q]/h = <v~>) in smooth
// phases. CLAIM DOMAINS: identity always; algorithmic_energy_decay for alpha_m <= alpha_f <= 1/2,
// alpha_m < 1/2 (or alpha_m = alpha_f), gamma >= 1/2, beta >= gamma/2, C PSD, F constant,
// inside the impact_work_nonpositive domain of nsh/schemes/newmark/generalized_alpha.hpp (every rho
// in [0, 1] qualifies); observed_order 2 always (SchemeInfo.smooth_order = 2).

#include <nsh/schemes/newmark/splitting.hpp>

namespace nsh {

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

template <class Scalar, class Storage = DenseStorage>
class KrenkHogsberg : public NewmarkSplitting<Scalar, Storage> {
 public:
  /// From a spec "krenk-hogsberg[:rho=..|alpha_m=..,alpha_f=..][,impact=..,activation=..,lcp=..]".
  explicit KrenkHogsberg(const SchemeSpec& spec);

  SchemeInfo info() const override;

 protected:
  void initialize_on(const typename NewmarkSplitting<Scalar, Storage>::Model& model,
                     const State<Scalar>& initial, const Scalar& h) override;
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

// Instantiated once, in the library (core/src/schemes/newmark); other files only link them.
extern template class KrenkHogsberg<double>;
extern template class KrenkHogsberg<Real50>;
extern template class KrenkHogsberg<Rational>;
extern template class KrenkHogsberg<double, SparseStorage>;
extern template class KrenkHogsberg<Real50, SparseStorage>;

}  // namespace nsh
