#pragma once
// What the nonsmooth Newmark / HHT / generalized-alpha family
// (nsh/schemes/newmark/generalized_alpha.hpp) and the Krenk-Hogsberg alpha-scheme
// (nsh/schemes/newmark/krenk_hogsberg.hpp) share: the Chen-Acary-Virlez-Bruls splitting into a
// smooth step without contact forces and an impulse LCP at velocity level (its Newton law and
// index set options), the exact parameters, the rho_inf map, the model-bound factorizations and
// the parts of the energy ledger that do not depend on the smooth step (docs/theory.md §3).
// Each member steps a dense LinearModel (every scalar) or, in its sparse storage, a
// SparseLinearModel (double and Real50; the registry's make_sparse, so `nsh simulate` of a sparse
// case file): the same equations, with LDL^T factorizations of the sparse matrices instead of LU.

#include <nsh/detail/sparse_ldlt.hpp>
#include <nsh/impulse_step.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/scheme_options.hpp>
#include <nsh/schemes/scheme.hpp>

#include <Eigen/LU>

#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace nsh {

/// Where a member's model lives (the second template parameter of the family's classes).
struct DenseStorage {};
struct SparseStorage {};

template <class Scalar, class Storage>
struct NewmarkStorage;

/// Dense M, C, K and their LU factorizations, in every scalar.
template <class Scalar>
struct NewmarkStorage<Scalar, DenseStorage> {
  static constexpr bool sparse = false;
  using Model = LinearModel<Scalar>;
  using ModelMatrix = Matrix<Scalar>;
  using Factorization = Eigen::PartialPivLU<Matrix<Scalar>>;
  using OwnedCopy = std::monostate;  // a dense model is stepped as it is
};

/// Sparse M, C, K (symmetric, SparseLinearModel::validate) and their LDL^T factorizations.
template <class Scalar>
struct NewmarkStorage<Scalar, SparseStorage> {
  static constexpr bool sparse = true;
  using Model = SparseLinearModel<Scalar>;
  using ModelMatrix = SparseMatrix<Scalar>;
  using Factorization = detail::SparseLdlt<Scalar>;
  using OwnedCopy = SparseLinearModel<Scalar>;  // the sparse copy of a dense model
};

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

/// What NewmarkFamily and KrenkHogsberg share (nsh/schemes/newmark/generalized_alpha.hpp and
/// krenk_hogsberg.hpp): the impulse-step
/// options, the model-bound factorizations, the impulse LCP and its workspace, and the parts of
/// the ledger that do not depend on the smooth step. Each scheme adds its own smooth step.
template <class Scalar, class Storage = DenseStorage>
class NewmarkSplitting : public Scheme<Scalar> {
 public:
  using Model = typename NewmarkStorage<Scalar, Storage>::Model;
  bool accepts_sparse() const override { return NewmarkStorage<Scalar, Storage>::sparse; }

  /// The Newton law the scheme claims (the mutant that lies uses another one in its LCP).
  NewmarkImpactLaw impact_law() const { return impulse_options_.impact; }
  NewmarkActivation activation() const { return impulse_options_.activation; }

 protected:
  using Scheme<Scalar>::do_initialize;
  /// The dense storage steps `model`, the sparse one its sparse copy (kept in owned_).
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  /// The sparse storage steps `model`; the dense one refuses it (Scheme's own refusal).
  void do_initialize(const SparseLinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  /// The member's initialize, on the model its storage steps.
  virtual void initialize_on(const Model& model, const State<Scalar>& initial, const Scalar& h) = 0;

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
  void bind(const char* scheme, const Model& model, const State<Scalar>& initial, const Scalar& h);
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
  const Model* model_{nullptr};
  typename NewmarkStorage<Scalar, Storage>::OwnedCopy owned_;
  Scalar h_{0};
  bool harmonic_{false};
  bool algorithmic_{false};  // has_algorithmic_energy for this model
  bool r_terms_{false};      // alpha_f != alpha_m in the ledger (needs K^{-1})
  typename NewmarkStorage<Scalar, Storage>::Factorization iteration_factor_, mass_factor_,
      stiffness_factor_;
  Matrix<Scalar> minv_g_, delassus_;

  // History and workspace.
  Vector<Scalar> a_, r_;  // a_k, r_k
  Vector<Scalar> f_k_, f_next_, rhs_, a_next_, vs_next_, q_next_, v_next_, r_next_;
  Vector<Scalar> work_, work2_, dq_, da_, dr_;
  Vector<Scalar> gap_next_, velocity_k_, velocity_smooth_, velocity_newton_, impulse_;
  ImpulseStepWorkspace<Scalar> impulse_work_;
  std::vector<Index> active_;
};

// Instantiated once, in the library (core/src/schemes/newmark); other files only link them.
extern template class NewmarkSplitting<double>;
extern template class NewmarkSplitting<Real50>;
extern template class NewmarkSplitting<Rational>;
extern template class NewmarkSplitting<double, SparseStorage>;
extern template class NewmarkSplitting<Real50, SparseStorage>;

}  // namespace nsh
