// Bodies of the stamp (stamp.hpp).
#include <nsh/io/case_file.hpp>
#include <nsh/properties/check_engine.hpp>
#include <nsh/properties/stamp.hpp>

#include <rapidcheck.h>

#include <cstdlib>
#include <cstring>
#include <sstream>

namespace nsh::properties {
namespace {

/// The stamp's rapidcheck budget and seed: RC_PARAMS' when it names them, else 100 cases on
/// seed 1, so that two runs of a user's CI give the same verdicts.
CheckOptions stamp_options() {
  CheckOptions options;
  const rc::detail::Configuration& config = rc::detail::configuration();
  options.cases = config.testParams.maxSuccess;
  const char* params = std::getenv("RC_PARAMS");
  const bool seeded = params && std::strstr(params, "seed=");
  options.seed = seeded ? config.testParams.seed : 1;
  return options;
}

}  // namespace

std::optional<std::string> stamp_skip_reason(const std::string& spec, const std::string& property) {
  if (const std::string reason = inapplicable_reason(spec, property); !reason.empty())
    return "not applicable: " + reason;
  const SchemeInfo info = Registry::builtin().make<double>(spec)->info();
  if (!find_claim(info, property)) return "not claimed by " + info.spec;
  if (!case_domain(spec, property, std::nullopt)) return "the claim's domain is empty";
  return std::nullopt;
}

std::string stamp_random(const std::string& spec, const std::string& property) {
  // observed_order measures its own oscillator and ignores the drawn case: one run is the whole
  // check (a hundred identical Real50 runs cost a CI minute and check nothing more).
  if (property == "observed_order") {
    const CaseOutcome out = evaluate_case(spec, property, GeneratedCase{});
    if (out.judgement.holds) return {};
    std::string text =
        property + ": " + describe(property).statement + "\n" + out.judgement.detail + "\n";
    for (const auto& [k, v] : out.judgement.values) text += "  " + k + " = " + v + "\n";
    return text;
  }
  const CheckOptions options = stamp_options();
  const CaseDomain domain = *case_domain(spec, property, std::nullopt);
  CaseSearch<GeneratedCase> search;
  search.id = "stamp/" + spec + "/" + property;
  search.draw = [domain] { return *gen_case(domain); };
  search.evaluate = [&spec, &property](const GeneratedCase& c) {
    return evaluate_case(spec, property, c);
  };
  search.sharded = false;
  const SearchResult<GeneratedCase> found = search_cases(search, options);
  if (found.end == SearchEnd::random_failure || found.end == SearchEnd::rapidcheck_failure) {
    std::ostringstream os;
    os << property << ": " << describe(property).statement << "\n";
    if (found.failing) {
      os << "broken at step " << found.outcome.failing_step << ": "
         << found.outcome.judgement.detail << "\n";
      for (const auto& [k, v] : found.outcome.judgement.values)
        os << "  " << k << " = " << v << "\n";
      os << "case file (" << found.failing->origin << "), "
         << (found.shrink_cut ? "shrinking stopped at the smallest found" : "shrunk") << ":\n"
         << case_file_text(*found.failing);
    } else {
      os << found.rapidcheck_message << "\n";
    }
    os << "reproduce: " << found.reproduce << "\n";
    return os.str();
  }
  if (found.end == SearchEnd::rapidcheck_error)
    return property + ": rapidcheck error: " + found.rapidcheck_message;
  // A search that evaluated nothing checked nothing: every case was an honest refusal.
  if (found.cases_run == 0)
    return property +
           ": no case was evaluated (the scheme refused every one with a StepError "
           "or InputError): a search that checked nothing is not a pass";
  return {};
}

std::vector<std::string> stamp_designed(const std::string& spec) {
  std::vector<std::string> failures;
  CheckOptions options;
  options.cases = 1;  // the random part is the per-property tests' job
  const SchemeInfo info = Registry::builtin().make<double>(spec)->info();
  for (const Claim& claim : claims_of(info)) {
    if (!inapplicable_reason(spec, claim.property).empty()) continue;
    const Verdict v = check_property(spec, claim.property, options);
    if (v.outcome == Outcome::fail) {
      std::string text = v.property + ": " + v.statement + "\n" + v.note + "\n";
      if (v.counterexample) {
        for (const auto& [k, value] : v.counterexample->values)
          text += "  " + k + " = " + value + "\n";
        text += v.counterexample->case_file;
      }
      failures.push_back(text);
    }
  }
  return failures;
}

std::string stamp_claims_nothing(const std::string& spec) {
  const Registry& registry = Registry::builtin();
  const SchemeEntry& entry = registry.find(registry.resolve(spec).name());
  if (entry.is_mutant) return {};
  const SchemeInfo info = registry.make<double>(spec)->info();
  try {
    if (!claims_of(info).empty()) return {};
  } catch (const InputError& e) {
    return spec + ": its claims cannot be found: " + e.what();
  }
  return spec + " (reporting spec '" + info.spec +
         "') claims no property, so every stamped property would be skipped and nothing "
         "checked; register it with nsh::properties::register_scheme(entry, claims) and claim "
         "what it guarantees (docs/adding-a-scheme.md)";
}

}  // namespace nsh::properties
