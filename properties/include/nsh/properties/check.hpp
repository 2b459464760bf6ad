#pragma once
// The correctness gate's plug-in interface: what `nsh check` runs, and how a family of schemes
// that is not an nsh::Scheme (first-order penalty, catching-up, ...) adds its own properties.
//
// A *provider* knows a set of schemes (by spec) and a set of properties. For each
// (scheme, property) pair it says whether the scheme *claims* the property (for the spec's
// parameters), and it *checks* it: random cases inside the claimed domain, plus, where the
// claim has a sharp boundary, a designed search just outside it. `nsh check` asks every
// registered provider, in registration order; the first provider whose handles_scheme() is
// true for a spec owns that spec (its canonical form, its `--scheme all` expansion), and every
// provider whose handles_scheme() is true contributes its properties: a property is checked by
// the first provider knowing both the scheme and the property. So a provider can add
// properties to a scheme another provider owns (the sweep provider's penalty2_* properties on
// the registry scheme penalty2) without either provider knowing the other.
//
// Determinism: a check must depend only on (spec, property, options). The same seed gives the
// same verdicts and the same counterexamples.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nsh::properties {

enum class Outcome {
  pass,           ///< the claim was checked on cases_run cases and held on every one
  fail,           ///< a counterexample was found (printed in Verdict::counterexample)
  not_claimed,    ///< the scheme does not claim the property here (and --force was not given)
  not_applicable  ///< the property's hypotheses cannot be met by this scheme (family, fields)
};

/// The display text of an outcome ("not claimed", "n/a"), as the table prints it.
const char* to_string(Outcome outcome);
/// The outcome as an identifier ("pass", "fail", "not_claimed", "not_applicable"): the JSON
/// and CSV value and the report's CSS class (nsh/properties/verdict_io.hpp).
const char* outcome_key(Outcome outcome);

/// The smallest case (after shrinking) that breaks a property.
struct Counterexample {
  /// Named values that broke it, printed at full precision: ("Delta E - W", "+7.8e-4"),
  /// ("theta", "1/2"), ("U_k[0]", "1/50"), ...
  std::vector<std::pair<std::string, std::string>> values;
  /// The shrunk model and state as a case file (docs/case-files.md) that `nsh simulate`
  /// replays; empty for families without a linear case file.
  std::string case_file;
  /// The spec and step size to replay it with: `nsh simulate FILE --scheme SPEC --h H`.
  std::string simulate_hint;
  /// RC_PARAMS-style reproduce string (`seed=... reproduce=...`) for the stamped gtest, and
  /// the `nsh check ...` command line that finds the same counterexample.
  std::string reproduce;
  std::string command;

  bool operator==(const Counterexample&) const = default;
};

struct Verdict {
  std::string scheme;    ///< the canonical spec checked
  std::string property;  ///< property name, e.g. "moreau_jean_energy_dissipation"
  Outcome outcome{Outcome::not_applicable};
  int cases_run{0};       ///< random + designed cases evaluated
  std::string statement;  ///< the property's statement (with the claim's domain if any)
  std::string note;       ///< e.g. "claim sharp: designed search outside found violation"
  std::optional<Counterexample> counterexample;
  /// Position of the failing case in the unsharded run's case order (designed cases, then the
  /// random ones); `nsh merge` keeps the earliest. nullopt when the failure is not one case.
  std::optional<long> failing_case;
  /// Coverage of the random cases: (class, number of evaluated random cases that exercised
  /// it), and the number evaluated first as ("evaluated", N). Printed by `nsh check --stats`.
  std::vector<std::pair<std::string, int>> coverage;
  /// True when the check is not split between shards (a deterministic computation, or a
  /// provider without shards_cases()): every shard runs it whole and `nsh merge` counts it once.
  bool whole{false};

  bool operator==(const Verdict&) const = default;
};

/// Restitution range [lo, hi] (0 <= lo <= hi <= 1), kept as exact text ("0", "1/2").
struct RestitutionRange {
  std::string lo{"0"};
  std::string hi{"1"};
};

/// One independent unit of a check run: a (scheme, property) verdict, or a mutant's verdicts.
struct CheckTask {
  std::string label;  ///< "scheme / property" or the mutant's spec, for messages
  std::function<std::vector<Verdict>()> run;
  /// Where the task's cases can be split (a provider that shards_cases(), an unsharded run):
  /// share I of N, the cases of `--shard I/N` without the suffix in the reproduce strings.
  /// merge_shares combines the N verdicts into run()'s when none of them failed, so
  /// `nsh check --jobs` splits one expensive pair over every core. Empty: not splittable.
  std::function<std::vector<Verdict>(int share, int shares)> run_share;
};

/// The verdict of an unsplit run from the verdicts of its shares 0..N-1 (in order), when no
/// share failed: the counts and the coverage are sums, the note is share 0's (the sharpness
/// search runs there), a `whole` or skipped verdict is share 0's. nullopt when a share failed
/// (the unsplit run stops at its first failing case, whose count and shrinking the shares do
/// not reproduce) or when a rule only whole runs judge might bite (nothing evaluated, a
/// coverage minimum missed): the caller then runs the task whole.
std::optional<Verdict> merge_shares(const std::vector<Verdict>& shares);

/// Adds a share's coverage to a sum, class by class (a class the sum lacks goes where a whole
/// run lists it: "evaluated" first, then the classes by name). merge_shares and `nsh merge` use
/// it.
void add_coverage(std::vector<std::pair<std::string, int>>& sum,
                  const std::vector<std::pair<std::string, int>>& share);

struct CheckOptions {
  int cases{100};                               ///< random cases per (scheme, property)
  std::uint64_t seed{0};                        ///< rapidcheck seed; same seed, same verdicts
  std::optional<RestitutionRange> restitution;  ///< narrows the generated e
  bool force{false};                            ///< check even where the scheme does not claim
  /// `nsh check --shard I/N`: evaluate only the cases whose index in the unsharded run order is
  /// I modulo N (in_shard); the others are not drawn (check_engine.hpp), and the union of the N
  /// shards evaluates exactly the cases of the unsharded run with the same seed and cases.
  int shard{0};
  int shards{1};
  /// The shard is a share of one `nsh check --jobs` run (CheckTask::run_share), not a
  /// `--shard` the user gave: no " --shard I/N" in the reproduce strings.
  bool share{false};
  /// Called by run_checks after each verdict with the wall time in seconds of the task that
  /// gave it (`nsh check` prints a progress line on a terminal and keeps the time for its JUnit
  /// file); it does not change what is checked.
  std::function<void(const Verdict&, double seconds)> progress;
  /// Runs the tasks of run_checks (or of the mutant gate) and returns what each returned, in
  /// task order; it calls `progress` itself. Empty: one after the other in this process.
  /// `nsh check --jobs N` sets one that runs them in N processes (cli/src/process_pool.hpp);
  /// every task is independent of the others, so the verdicts are the same.
  std::function<std::vector<std::vector<Verdict>>(const std::vector<CheckTask>&)> run_tasks;
};

/// Does this run evaluate the case at `index` of the unsharded case order?
inline bool in_shard(const CheckOptions& options, long index) {
  return options.shards <= 1 || index % options.shards == options.shard;
}

/// " --shard I/N" for a sharded run's reproduce command, empty otherwise.
std::string shard_suffix(const CheckOptions& options);

/// A property as the CLI lists it.
struct PropertyDescription {
  std::string name;
  std::string statement;   ///< the predicate, in formulas
  std::string hypotheses;  ///< what the property needs from the scheme and the model
  std::string tolerance;   ///< how the tolerance is derived (zero in Rational)
};

struct CaseOutcome;    // runner.hpp
struct GeneratedCase;  // generators.hpp

class PropertyProvider {
 public:
  virtual ~PropertyProvider() = default;
  /// Short name for messages ("nsh-schemes", "sweep").
  virtual std::string name() const = 0;
  /// True if this provider owns the scheme named by `spec` ("penalty:kappa=1e4", ...).
  virtual bool handles_scheme(const std::string& spec) const = 0;
  /// The specs `--scheme all` expands to for this provider (representative parameters).
  virtual std::vector<std::string> schemes() const = 0;
  /// The mutant specs this provider contributes to `nsh check --mutants` (each must be
  /// rejected: at least one claimed property must fail).
  virtual std::vector<std::string> mutants() const { return {}; }
  /// Every property this provider can check.
  virtual std::vector<PropertyDescription> properties() const = 0;
  /// Canonical form of a spec this provider handles (defaults filled in); identity by default.
  virtual std::string canonical(const std::string& spec) const { return spec; }
  /// Can the property be evaluated on this scheme at all? What `--property all` expands to on
  /// a scheme this provider does not own (the owner's `all` is every property it knows).
  virtual bool applies(const std::string& spec, const std::string& property) const {
    (void)spec;
    (void)property;
    return true;
  }
  /// Does the scheme claim the property for this spec's parameters?
  virtual bool claims(const std::string& spec, const std::string& property) const = 0;
  /// Check the property on the scheme. Must honour options.force (check even when not
  /// claimed) and return not_claimed otherwise; not_applicable when the property cannot be
  /// evaluated for this scheme. Bad input (spec, range) throws nsh::InputError.
  virtual Verdict check(const std::string& spec, const std::string& property,
                        const CheckOptions& options) const = 0;
  /// True if check() honours options.shard/shards (evaluates only its share of the cases and
  /// sets Verdict::failing_case). run_checks runs a provider without it whole in every shard
  /// (Verdict::whole), which is correct, only not faster.
  virtual bool shards_cases() const { return false; }
  /// True if a passing verdict's note counts the cases it ran (the sweep provider's "h kappa
  /// <= 1: 142 cases, ..."): share 0's note is then not the whole run's, so `nsh check --jobs`
  /// does not split the provider's pairs into shares (merge_shares keeps share 0's note).
  virtual bool pass_note_counts_cases() const { return false; }
  /// Why the property cannot be evaluated on this scheme ("" if it can): what check() reports
  /// as not_applicable. Default: from applies().
  virtual std::string inapplicable(const std::string& spec, const std::string& property) const {
    return applies(spec, property) ? "" : "not a property " + name() + " judges on this scheme";
  }
  /// Judge one given case (`nsh check --case FILE`) with the run and predicate check() uses for
  /// `property`. The default refuses: a provider whose properties are not judged on one linear
  /// case says so, and the verdict is "refused", never a pass.
  virtual CaseOutcome evaluate_case(const std::string& spec, const std::string& property,
                                    const GeneratedCase& c) const;
};

/// Add a provider (kept for the life of the program). Throws std::logic_error on a duplicate
/// provider name.
void register_provider(std::shared_ptr<PropertyProvider> provider);
/// Every registered provider, the built-in ones first (registered on first call by
/// register_builtin_providers, properties/src/builtin_providers.cpp: a provider living in
/// this module adds one declaration and one call there).
const std::vector<std::shared_ptr<PropertyProvider>>& providers();
void register_builtin_providers();

/// The provider owning `spec`; SpecError listing the known scheme names if none.
const PropertyProvider& provider_for(const std::string& spec);

/// Every provider whose handles_scheme(spec) is true, the owner first; SpecError as
/// provider_for if none.
std::vector<const PropertyProvider*> providers_for(const std::string& spec);

/// Every property name known to any provider, without duplicates, in first-seen order.
std::vector<PropertyDescription> all_properties();

/// Run (spec x property) for every spec and property given ("all" expands to the owner's
/// properties and the other providers' applicable ones); each property is checked by the first
/// provider of providers_for(spec) that knows it; a property no such provider knows gives
/// not_applicable.
std::vector<Verdict> run_checks(const std::vector<std::string>& specs,
                                const std::vector<std::string>& properties,
                                const CheckOptions& options);

/// Runs independent check tasks through options.run_tasks (or one after the other) and returns
/// each task's verdicts, in task order. run_checks and `nsh check --mutants` go through it.
std::vector<std::vector<Verdict>> run_check_tasks(const std::vector<CheckTask>& tasks,
                                                  const CheckOptions& options);

/// A mutant is rejected iff at least one verdict on it is `fail`. Returns the verdicts of the
/// claimed properties of `mutant_spec` (with force=false), from every provider knowing it, in
/// the providers' order, up to and including the first `fail` (the one that rejects it).
std::vector<Verdict> check_mutant(const std::string& mutant_spec, const CheckOptions& options);

}  // namespace nsh::properties
