#pragma once
// Verdicts of the correctness gate written and read back: the one JSON form of a verdict (the
// objects of `nsh check --out`'s shard file and of `nsh report`'s verdicts.json, read back by
// `nsh merge`), the text table `nsh check` and `nsh merge` print, verdicts.csv and JUnit XML.
// docs/output-formats.md ("Verdicts") describes the JSON; docs/decisions.md says why it is the
// shard file's and the report's at once.

#include <nsh/properties/check.hpp>

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace nsh::properties {

/// The outcome of a key (outcome_key, check.hpp); InputError naming `where` ("....outcome") and the
/// text otherwise.
Outcome outcome_from_key(const std::string& key, const std::string& where);

/// One verdict as a JSON object with every field of Verdict: absent optionals are null, the
/// counterexample's values and the coverage are arrays of [name, value] pairs (their order is
/// meaningful and a name may repeat, which an object would lose).
nlohmann::json to_json(const Verdict& v);
/// The verdict to_json wrote: from_json(to_json(v)) == v. Throws InputError naming
/// `where`.field when the object is not a verdict.
Verdict from_json(const nlohmann::json& j, const std::string& where);

/// The failure report of one verdict: statement, values, case file and replay hint, reproduce.
std::string failure_text(const Verdict& v);

/// One row per verdict, then a `--- FAIL` report per failure and the count; returns the number
/// of failed verdicts.
int print_verdicts(std::ostream& out, const std::vector<Verdict>& verdicts);

/// verdicts.csv: `scheme,property,outcome,cases_run,note`, one row per verdict, every text
/// quoted (a spec has commas), outcome as outcome_key.
std::string verdicts_csv(const std::vector<Verdict>& verdicts);

/// Wall time of the run behind a JUnit file, for its `time` attributes in seconds. A negative
/// total is the wall time of this process when the file is written; a missing per-verdict time
/// is written as 0.
struct JunitTiming {
  double total_seconds{-1};
  std::vector<double> per_verdict_seconds;  ///< same order as the verdicts
};

/// JUnit XML: one testcase per verdict, classname junit_classname(scheme), name the property;
/// a failure carries failure_text, not claimed / n/a are skipped with the reason. InputError
/// naming `junit` when the file cannot be written.
void write_junit(const std::string& path, const std::vector<Verdict>& verdicts,
                 const std::string& suite, const JunitTiming& timing = {});

/// "nsh." + the spec with every '.' written as U+2024 (one dot leader), so that Jenkins, which
/// splits a classname at its last '.', keeps "moreau-jean:theta=0.3" in one piece.
std::string junit_classname(const std::string& spec);

}  // namespace nsh::properties
