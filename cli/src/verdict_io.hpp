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

void write_junit(const std::string& path, const std::vector<properties::Verdict>& verdicts,
                 const std::string& suite);

nlohmann::json to_json(const properties::Verdict& v);
/// Throws InputError naming `where` and the field when the object is not a verdict.
properties::Verdict verdict_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace nsh::cli
