#pragma once
// The one check engine of the providers (architecture review P4): designed cases first, then
// random cases drawn by rapidcheck (deterministic in the seed, shrunk on failure), in the case
// order of the unsharded run that `--shard I/N` splits (check.hpp, in_shard). The scheme
// provider (runner.cpp) also runs its outside probes through it (designed cases only), the
// event provider its event-level claims, the sweep provider its first-order checks, and the
// stamp its RC_GTEST_PROP bodies; each turns the result into its verdict or message.
//
// A random case is drawn inside the rapidcheck property (`draw` calls *gen or any rc::gen), so
// every value it is built from is shrunk. rapidcheck gives each case its own split of the
// seed's random stream and a size that depends only on the successes before it (no generator
// of ours discards), so a case is the same whichever cases before it were drawn: a shard
// draws and evaluates only its share. Calls after the first failure are shrinking and evaluate, at
// most CaseSearch::max_shrink_evaluations of them: a shrink of a costly case (an event-driven run
// compared in Real50 takes a second) is otherwise unbounded — one ran for 30 minutes. After the
// cap every
// further candidate counts as passing, so rapidcheck ends with the smallest failing case found
// so far; a count, not a time, so that the same seed still gives the same counterexample.

#include <nsh/properties/check.hpp>
#include <nsh/properties/runner.hpp>

#include <rapidcheck.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nsh::properties {

/// Most shrinking evaluations of one search (docs/limits.md, "Shrinking").
inline constexpr int kMaxShrinkEvaluations = 1000;

template <class Case>
struct CaseSearch {
  std::string id;              ///< the rapidcheck id ("nsh_check/SPEC/PROPERTY"): reproduce strings
  std::vector<Case> designed;  ///< cases 0..D-1 of the unsharded order, evaluated in order
  /// One random case (cases D..D+cases-1), drawn with rapidcheck generators; none if empty.
  std::function<Case()> draw;
  std::function<CaseOutcome(const Case&)> evaluate;
  /// Count the cases the scheme refused (CaseOutcome::evaluated false) in cases_run too: the
  /// event provider's count, kept so that its verdicts did not move. The others count the
  /// evaluated cases only.
  bool count_refused{false};
  /// Evaluate only the shard's share (CheckOptions::shard/shards); false: every case.
  bool sharded{true};
  /// Most evaluations while shrinking a failure (lower where one evaluation is costly).
  int max_shrink_evaluations{kMaxShrinkEvaluations};
};

enum class SearchEnd {
  passed,              ///< no case broke the property
  designed_failure,    ///< a designed case broke it (SearchResult::failing)
  random_failure,      ///< a random case broke it, shrunk (failing, reproduce)
  rapidcheck_failure,  ///< rapidcheck failed without a case of ours (rapidcheck_message)
  rapidcheck_error     ///< rapidcheck itself gave up (rapidcheck_message)
};

template <class Case>
struct SearchResult {
  SearchEnd end{SearchEnd::passed};
  int cases_run{0};         ///< designed and random cases counted (with the shrinking's runs)
  int random_evaluated{0};  ///< the random part of cases_run
  /// Cases the scheme refused that cases_run counts (CaseSearch::count_refused), shrinking aside.
  int refused{0};
  /// Random cases judged (not refused) before any failure: the denominator of `coverage`.
  int random_judged{0};
  /// Coverage classes (CaseOutcome::exercised) of the evaluated random cases before any failure.
  std::map<std::string, int> coverage;
  /// Why the scheme refused cases (refusal_reason of the message -> count), searched cases
  /// before any failure: `nsh check --stats` shows them as "refused: <reason>" coverage entries.
  std::map<std::string, int> refusals;
  std::optional<Case> failing;  ///< the failing case (shrunk, if random)
  CaseOutcome outcome;          ///< its evaluation
  /// Index of the failure in the unsharded case order (for a random one: the first failing
  /// draw, before shrinking).
  std::optional<long> failing_index;
  std::string reproduce;           ///< RC_PARAMS string of a random or rapidcheck failure
  std::string rapidcheck_message;  ///< rapidcheck's description of a failure or error
  /// The shrinking reached kMaxShrinkEvaluations: `failing` is the smallest failing case found
  /// by then, perhaps not a minimal one.
  bool shrink_cut{false};
  int shrink_evaluations{0};  ///< evaluations while shrinking (at most the search's cap)
};

/// The note of a random failure: shrunk, or how far the shrinking got.
template <class Case>
std::string random_failure_note(const SearchResult<Case>& found) {
  return found.shrink_cut ? "random search found a counterexample (shrinking stopped after " +
                                std::to_string(found.shrink_evaluations) +
                                " evaluations: the smallest found, perhaps not minimal)"
                          : std::string("random search found a counterexample (shrunk)");
}

template <class Case>
SearchResult<Case> search_cases(const CaseSearch<Case>& search, const CheckOptions& options) {
  SearchResult<Case> r;
  const auto counts = [&](const CaseOutcome& out) { return out.evaluated || search.count_refused; };
  const auto breaks = [](const CaseOutcome& out) { return out.evaluated && !out.judgement.holds; };
  const auto here = [&](long index) { return !search.sharded || in_shard(options, index); };

  // 1. Designed cases, in order: the first that breaks the property ends the search.
  const long designed_count = static_cast<long>(search.designed.size());
  for (long i = 0; i < designed_count; ++i) {
    if (!here(i)) continue;
    const Case& c = search.designed[static_cast<std::size_t>(i)];
    CaseOutcome out = search.evaluate(c);
    if (counts(out)) ++r.cases_run;
    if (!out.evaluated && search.count_refused) ++r.refused;
    if (!out.evaluated) count_refusal(r.refusals, out.refusal);
    if (breaks(out)) {
      r.end = SearchEnd::designed_failure;
      r.failing = c;
      r.outcome = std::move(out);
      r.failing_index = i;
      return r;
    }
  }
  if (!search.draw) return r;

  // 2. Random cases.
  long drawn = 0;
  std::optional<long> first_failure;
  const auto property = [&]() {
    const long index = designed_count + drawn;
    if (!first_failure) {
      ++drawn;
      // Another shard's case is not drawn: rapidcheck gives every case its own split of the
      // seed's stream and a size that depends only on the successes so far, so skipping the
      // draw leaves this shard's cases what they are (drawing every case made a shard of the
      // 10^5-case run cost far more than its share).
      if (!here(index)) return;
    } else if (r.shrink_evaluations == search.max_shrink_evaluations) {
      r.shrink_cut = true;
      return;
    } else {
      ++r.shrink_evaluations;
    }
    Case c = search.draw();
    CaseOutcome out = search.evaluate(c);
    if (counts(out)) ++r.random_evaluated;
    if (!first_failure && !out.evaluated && search.count_refused) ++r.refused;
    if (!first_failure && !out.evaluated) count_refusal(r.refusals, out.refusal);
    if (!first_failure && out.evaluated) {
      ++r.random_judged;
      for (const auto& what : out.exercised) ++r.coverage[what];
    }
    if (breaks(out)) {
      if (!first_failure) first_failure = index;
      r.failing = std::move(c);
      r.outcome = std::move(out);
      RC_FAIL(r.outcome.judgement.detail);
    }
  };
  const rc::detail::TestResult result = random_search(search.id, options, property);
  r.cases_run += r.random_evaluated;
  rc::detail::FailureResult failure;
  if (result.match(failure)) {
    r.reproduce = reproduce_string(options.seed, search.id, failure.reproduce);
    if (r.failing) {
      r.end = SearchEnd::random_failure;
      r.failing_index = first_failure;
    } else {
      r.end = SearchEnd::rapidcheck_failure;
      r.rapidcheck_message = failure.description;
    }
    return r;
  }
  rc::detail::Error error;
  if (result.match(error)) {
    r.end = SearchEnd::rapidcheck_error;
    r.rapidcheck_message = error.description;
    r.failing.reset();
  }
  return r;
}

}  // namespace nsh::properties
