#pragma once
// rapidcheck generators of valid linear models and states near contact, and the designed
// searches that random search almost never finds (docs/theory.md §2.4 and §3.4).
//
// Every number is a dyadic rational built from small integers, so the same case runs exactly
// in double, Real50 and Rational. The generator draws a *recipe* of integers (dimension,
// contacts, matrix factors, the kind of state at each contact, the step size) and builds the
// model from it; rapidcheck shrinks the integers towards zero, which shrinks the system to one
// degree of freedom, one contact, resting contact, K = C = 0.
//
//   M = B^T B + d I (SPD), K = k A^T A (PSD, rank 0..n), C = D^T D / 8 (PSD),
//   G = [I_m; N] (full column rank), gaps and local velocities chosen per contact:
//   resting (g = 0, U = 0, pushed by F), grazing (g = 0, U = -1/64), slightly penetrated
//   (g = -1/1024..-1/64), separating slowly (g <= 0, U = +1/64..+1/32), approaching
//   (g = 1/16..1/2, U < 0), far (g = 1..4).

#include <nsh/model/linear_model.hpp>

#include <rapidcheck.h>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace nsh::properties {

/// One generated (or designed) test case: a model, an initial state, a step and a horizon.
struct GeneratedCase {
  std::string origin;  ///< "random" or "designed: resting contact, delta = 1/1000"
  LinearModel<Rational> model;
  State<Rational> initial;
  Rational h{Rational(1) / 100};
  int steps{1};
  /// If set, run this spec instead of the one under test (designed searches just outside a
  /// claim's domain change the scheme's parameters, e.g. theta past 1/(1+e)).
  std::optional<std::string> spec_override;
  Rational horizon() const { return initial.t + h * steps; }
};

/// Prints the case as a case file (docs/case-files.md) (what `nsh simulate` replays).
void showValue(const GeneratedCase& c, std::ostream& os);
std::string case_file_text(const GeneratedCase& c);

/// What the generated models must satisfy (a claim's hypotheses).
struct CaseDomain {
  Rational e_lo{0};
  Rational e_hi{1};
  bool uniform_e{false};      ///< one restitution for every contact
  bool damping{true};         ///< C may be nonzero
  bool stiffness_spd{false};  ///< K symmetric positive definite (Newmark's E_alg needs it)
  int max_dofs{6};
  int max_contacts{3};
  int max_steps{12};
  /// Draw models with Coulomb friction too (schemes with SchemeInfo::friction): two thirds of
  /// the cases get d = 1 or 2 tangent directions per contact and mu in {0, 1/4, .., 2}
  /// (docs/friction.md); the rest stay frictionless.
  bool friction{false};
  /// On the frictional cases: restitution at most this, and (pure_impulse) F = K = C = 0, so
  /// that a step is the impact of docs/theory.md §9.2 (U+ = U- + W P).
  Rational friction_e_hi{1};
  bool friction_pure_impulse{false};
  /// Initial gaps >= 0: the two penetrating state kinds (2 and 3 of CaseRecipe::state_kind)
  /// draw the mirrored gap, just open, instead, and the designed penetrated case is left out.
  /// For a scheme that refuses an inadmissible initial state (the event-driven reference):
  /// half of its random cases were refused.
  bool admissible_initial_state{false};
  /// When > 0: the designed resting-contact cases whose exact motion has more impacts than this
  /// are left out — e = 1 from the floor at speed delta bounces h g / (2 delta) times in a step
  /// (490 500 at delta = 1e-6, h = 1/10). A time-stepping scheme takes that step at once; an
  /// event-driven run resolves every impact, seconds of a check each, and tells nothing the
  /// other cases do not.
  long max_designed_impacts{0};
};

/// CaseDomain::max_designed_impacts of a scheme that resolves every impact
/// (SchemeInfo::resolves_every_impact): the designed cases it leaves out (e = 1 from the floor
/// at delta <= 1e-5 or h = 1/10, delta = 1e-4: 4905 to 490 500 impacts in a step) took Siconos'
/// EventDriven + LsodarOSI about 15 s per property, and ask nothing the kept ones do not.
inline constexpr long kMaxDesignedImpactsResolved = 1000;

/// The integer recipe (exposed so that tests can build a case by hand).
struct CaseRecipe {
  int dofs{1};
  int contacts{1};
  int mass_shift{0};             ///< d - 1, d in 1..4
  std::vector<int> mass_factor;  ///< B, n*n entries in [-2, 2]
  int stiffness_rank{0};
  int stiffness_scale{0};             ///< index into {1, 4, 16, 100}
  std::vector<int> stiffness_factor;  ///< A, n*n entries (rows beyond the rank unused)
  int damping_rank{0};
  std::vector<int> damping_factor;         ///< D, n*n
  std::vector<int> coupling;               ///< N, (n - m)*m entries in [-2, 2]
  std::vector<int> force;                  ///< n entries in [-8, 8]
  std::vector<int> load;                   ///< m entries in [0, 8]: F -= G load
  std::vector<int> state_kind;             ///< m entries: 0 resting .. 5 far
  std::vector<int> state_detail;           ///< m entries in [0, 3]
  std::vector<int> q_free, v_free;         ///< n - m entries in [-2, 2]
  int restitution_choice{0};               ///< 0 lo, 1 hi, 2 mid, 3.. random
  std::vector<int> restitution_numerator;  ///< m entries in [0, 16]
  int step_choice{0};                      ///< index into {1/64, 1/16, 1/128, 1/8, 1/1024}
  int steps{1};
  /// Friction (drawn only when the domain has friction): d in 0..2 and mu = k/4 per contact.
  /// The contacts shrink to at most n / (1 + d) and n grows to m (1 + d) so that H = [G, G_T]
  /// has full column rank (W positive definite); G_T's columns are unit vectors on the
  /// coordinates after the first m.
  int tangent_dimension{0};
  std::vector<int> friction_numerator;  ///< m entries in [0, 8]
};

/// Build the case of a recipe inside a domain (always a valid model).
GeneratedCase build_case(const CaseRecipe& recipe, const CaseDomain& domain);

/// rapidcheck generator of recipes and cases.
rc::Gen<CaseRecipe> gen_recipe(const CaseDomain& domain);
rc::Gen<GeneratedCase> gen_case(const CaseDomain& domain);

/// The designed searches inside `domain` (docs/theory.md §2.4: resting contact under gravity, a
/// small approach speed delta, closed form Delta E - W = delta[-(theta-1/2)(1+e)^2 delta +
/// s(1+e) delta + s h g], s = theta(1+e) - 1; a slightly penetrated contact separating slowly;
/// docs/theory.md §3.4: a spring pushing away from the wall; a free oscillator for theta < 1/2).
std::vector<GeneratedCase> designed_cases(const CaseDomain& domain);

/// The designed frictional cases inside `domain` (docs/theory.md §9.2): a sliding block, a slip
/// stopped by stick within one step under a reversing tangential force (positive tangential
/// work U_T,{k+theta}^T P_T for theta < 1), and the Kane–Levinson impact (M = [[3, 2], [2, 2]],
/// U- = (-1, 1), mu = 1/2, e = 1: Delta K = +1). Empty unless domain.friction.
std::vector<GeneratedCase> designed_friction_cases(const CaseDomain& domain);

/// Restitution values used by designed searches inside [lo, hi]: the endpoints, 1/5, 1/2, 1.
std::vector<Rational> restitution_samples(const Rational& lo, const Rational& hi);

}  // namespace nsh::properties
