// Bodies of the stamp (stamp.hpp).
#include <nsh/properties/stamp.hpp>

namespace nsh::properties {

void stamp_case(const std::string& spec, const std::string& property) {
  if (!inapplicable_reason(spec, property).empty()) RC_SUCCEED("not applicable");
  const SchemeInfo info = Registry::builtin().make<double>(spec)->info();
  if (!find_claim(info, property)) RC_SUCCEED("not claimed");
  const auto domain = case_domain(spec, property, std::nullopt);
  if (!domain) RC_SUCCEED("empty domain");
  const GeneratedCase c = *gen_case(*domain);
  assert_property(spec, property, c);
}

std::vector<std::string> stamp_designed(const std::string& spec) {
  std::vector<std::string> failures;
  CheckOptions options;
  options.cases = 1;  // the random part is the RC_GTEST_PROPs' job
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

void ensure_registered(SchemeEntry entry) {
  if (!Registry::builtin().contains(entry.name)) Registry::builtin().add(std::move(entry));
}

}  // namespace nsh::properties
