#pragma once
// Verdicts of `nsh check` as text (the table, the failure report, JUnit XML) and as the shard
// file that `nsh check --out FILE` writes and `nsh merge` reads (docs/decisions.md, "Shards").

#include <nsh/properties/check.hpp>

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace nsh::cli {

/// The failure report of one verdict: statement, values, case file and replay hint, reproduce.
std::string failure_text(const properties::Verdict& v);

/// One row per verdict, then a `--- FAIL` report per failure and the count; returns the number
/// of failed verdicts.
int print_verdicts(std::ostream& out, const std::vector<properties::Verdict>& verdicts);

/// Wall time of the run behind a JUnit file, for its `time` attributes in seconds. A negative
/// total is the wall time of this nsh process when the file is written; a missing per-verdict
/// time is written as 0.
struct JunitTiming {
  double total_seconds{-1};
  std::vector<double> per_verdict_seconds;  ///< same order as the verdicts
};

/// JUnit XML: one testcase per verdict, classname junit_classname(scheme), name the property;
/// a failure carries failure_text, not claimed / n/a are skipped with the reason.
void write_junit(const std::string& path, const std::vector<properties::Verdict>& verdicts,
                 const std::string& suite, const JunitTiming& timing = {});

/// "nsh." + the spec with every '.' written as U+2024 (one dot leader), so that Jenkins, which
/// splits a classname at its last '.', keeps "moreau-jean:theta=0.3" in one piece.
std::string junit_classname(const std::string& spec);

nlohmann::json to_json(const properties::Verdict& v);
/// Throws InputError naming `where` and the field when the object is not a verdict.
properties::Verdict verdict_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace nsh::cli
