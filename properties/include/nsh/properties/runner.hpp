#pragma once
// Running a shared property on a scheme from the registry: one case (run the scheme over the
// case's steps and judge every step), or a whole check (designed cases inside the claim's
// domain, random cases from the generators, designed probes just outside the domain). Used by
// `nsh check`, by the stamp (stamp.hpp) and by the mutant test.

#include <nsh/error.hpp>
#include <nsh/properties/check.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/properties/generators.hpp>
#include <nsh/properties/predicates.hpp>

#include <rapidcheck.h>

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace nsh::properties {

struct CaseOutcome {
  bool evaluated{true};  ///< false: the scheme threw StepError (honestly refused a step)
  Judgement judgement;   ///< holds / what broke
  int failing_step{0};
  std::string refusal;  ///< the StepError message when !evaluated
  /// What the run exercised (coverage classes: "impact", "impact with e > 0", "simultaneous
  /// impacts"), each listed once, for `nsh check --stats` and the coverage requirements.
  std::vector<std::string> exercised;
};

/// The share of random cases that must exercise a class for a property's check to count
/// (in the spirit of QuickCheck's `cover`): below it the search missed what the property is
/// about and the verdict fails, naming the class and the share.
/// Two levels share the property names: a step property's coverage counts its judged cases
/// under "evaluated", an event-level one (the event-driven reference, judged on whole runs,
/// properties/src/event_provider.cpp) under "evaluated runs"; a requirement applies at its
/// level only.
struct CoverageRequirement {
  std::string property;
  std::string exercised;  ///< the class, as CaseOutcome::exercised names it
  double minimum_share;   ///< of the evaluated random cases, in [0, 1]
  bool event_level{false};
};
const std::vector<CoverageRequirement>& coverage_requirements();

/// The coverage key of the judged random cases at each level ("evaluated", "evaluated runs").
const char* evaluated_key(bool event_level);

/// The rules only a whole run judges, on its passing verdict's property, case count and
/// coverage (a shard or a share may hold few or none of a property's cases): a check that
/// evaluated no case checked nothing (cases_run 0, or all of them "refused" in the coverage, where
/// a provider counts refused cases), and a search of at least 50 evaluated random cases
/// ("evaluated" or "evaluated runs" in the coverage) must reach every coverage minimum of its
/// property at that level. The note of the failure, or empty. The runner, the --jobs shares
/// and `nsh merge` all judge by it.
std::string whole_run_failure(const std::string& property, int cases_run,
                              const std::vector<std::pair<std::string, int>>& coverage);

/// A provider's passing verdict of an unsharded run, judged by whole_run_failure: on a failure
/// the verdict fails with its note and true is returned. A shard's or a share's verdict is left
/// to the merge.
bool fails_whole_run(Verdict& v, const CheckOptions& options);

/// Run `body` (which fills its CaseOutcome); a scheme that honestly refuses the case
/// (StepError, or an InputError/ModelError such as event-driven's admissible initial state) is
/// not evaluated: every provider reads a refusal the same way.
template <class Body>
CaseOutcome refusing(Body body) {
  CaseOutcome out;
  try {
    body(out);
  } catch (const StepError& e) {
    out.evaluated = false;
    out.refusal = e.what();
  } catch (const InputError& e) {  // ModelError is an InputError
    out.evaluated = false;
    out.refusal = e.what();
  }
  return out;
}

/// A refusal's message with its numbers (integers, decimals, exponents, fractions) written #
/// and cut at 160 characters: the key under which `nsh check --stats` counts the refusals
/// that share a cause ("q0 (gap[#]): event-driven needs an admissible initial state, but gap
/// # < #").
std::string refusal_reason(const std::string& message);

/// Count one refusal under its reason; past 8 distinct reasons, under "other reasons" (a
/// scheme with a number in every message's words cannot flood a verdict).
void count_refusal(std::map<std::string, int>& refusals, const std::string& message);

/// The coverage entry of a refusal reason: "refused: " + reason (cmd_check's --stats prints
/// these as counts, not as shares of the evaluated cases).
inline constexpr const char* refused_prefix = "refused: ";

/// Run `spec` (or the case's spec_override) on the case and judge `property` after every step
/// (the trajectory properties judge the whole run). The scheme comes from Registry::builtin().
CaseOutcome evaluate_case(const std::string& spec, const std::string& property,
                          const GeneratedCase& c);

/// Why a property cannot be evaluated for a scheme (empty if it can): the scheme's family
/// does not produce what the predicate reads (impulse LCP, algorithmic energy, momentum
/// ledger, a Real50 version).
std::string inapplicable_reason(const std::string& spec, const std::string& property);

/// The generator domain for (spec, property): the claim's domain (or the default one when
/// the scheme claims nothing), narrowed by the restitution range. Empty if the range and the
/// domain do not meet.
/// With `force`, the default domain (every model the generators make) narrowed by the range.
std::optional<CaseDomain> case_domain(const std::string& spec, const std::string& property,
                                      const std::optional<RestitutionRange>& restitution,
                                      bool force = false);

/// The outside probe `probe_spec` of a claim, run on the scheme under test: the probe itself
/// when the scheme is the claim's own entry, otherwise the scheme under test with the probe's
/// options (so inherited claims probe the inheriting scheme, never the built-in one).
/// SpecError if the scheme under test does not accept those options.
std::string probe_on_scheme_under_test(const std::string& scheme_spec,
                                       const std::string& probe_spec);

/// Run `body` as a rapidcheck property under `id` with the check's seed and case budget, quietly
/// (no per-case output) and honouring RC_PARAMS' reproduce string: the one place nsh's
/// providers drive rapidcheck. The body RC_FAILs on a violation; the result says how it ended.
rc::detail::TestResult random_search(const std::string& id, const CheckOptions& options,
                                     const std::function<void()>& body);

/// The RC_PARAMS string that replays the failure `reproduce` of the search `id` on `seed`.
std::string reproduce_string(std::uint64_t seed, const std::string& id,
                             const rc::detail::Reproduce& reproduce);

/// The full check of one (spec, property) pair: what `nsh check` prints one row for.
Verdict check_property(const std::string& spec, const std::string& property,
                       const CheckOptions& options);

/// Throws a rapidcheck failure (RC_FAIL) with the statement, the values and the case file
/// unless `property` holds on `c`; used inside RC_GTEST_PROP bodies by the stamp.
void assert_property(const std::string& spec, const std::string& property, const GeneratedCase& c);

/// The statement of a shared property.
const PropertyDescription& describe(const std::string& property);

/// The built-in provider: every nsh::Scheme in Registry::builtin(), every shared property.
void register_scheme_properties();

}  // namespace nsh::properties
