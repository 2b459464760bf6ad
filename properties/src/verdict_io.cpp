// Verdicts as JSON, text, CSV and JUnit XML (nsh/properties/verdict_io.hpp).
#include <nsh/properties/verdict_io.hpp>

#include <nsh/error.hpp>
#include <nsh/io/json_limits.hpp>
#include <nsh/limits.hpp>
#include <nsh/xml_escape.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <type_traits>
#include <utility>

namespace nsh::properties {
namespace {

template <class T>
T verdict_field(const nlohmann::json& j, const char* name, const std::string& where) {
  if (!j.is_object() || !j.contains(name)) throw InputError(where + "." + name, "missing");
  try {
    return j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError(where + "." + name,
                     "has the wrong type: " + limits::describe_json(j.at(name)));
  }
}

// [name, value] pairs keep their order and repeated names, which a JSON object would not.
template <class Value>
nlohmann::json pairs_to_json(const std::vector<std::pair<std::string, Value>>& pairs) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [name, value] : pairs) out.push_back({name, value});
  return out;
}

template <class Value>
std::vector<std::pair<std::string, Value>> pairs_from_json(const nlohmann::json& j,
                                                           const std::string& where) {
  if (!j.is_array()) throw InputError(where, "not an array: " + limits::describe_json(j));
  std::vector<std::pair<std::string, Value>> out;
  for (const auto& kv : j) {
    bool ok = kv.is_array() && kv.size() == 2 && kv[0].is_string();
    if constexpr (std::is_same_v<Value, std::string>)
      ok = ok && kv[1].is_string();
    else
      ok = ok && kv[1].is_number_integer();
    if (!ok) throw InputError(where, "an entry is not [name, value]: " + limits::describe_json(kv));
    out.emplace_back(kv[0].get<std::string>(), kv[1].get<Value>());
  }
  return out;
}

}  // namespace

std::string failure_text(const Verdict& v) {
  std::string out = v.property + ": " + v.statement + "\n";
  if (!v.note.empty()) out += v.note + "\n";
  if (!v.counterexample) return out;
  const auto& x = *v.counterexample;
  out += "values that broke it:\n";
  for (const auto& [k, value] : x.values) out += "  " + k + " = " + value + "\n";
  if (!x.case_file.empty()) {
    out += "counterexample case file (replay: " + x.simulate_hint + "):\n" + x.case_file;
    if (x.case_file.back() != '\n') out += "\n";
  }
  if (!x.reproduce.empty())
    out += "reproduce: " + x.reproduce + " " + x.command + "\n";
  else
    out += "reproduce: " + x.command + "\n";
  return out;
}

int print_verdicts(std::ostream& out, const std::vector<Verdict>& verdicts) {
  std::size_t width = 6;
  for (const auto& v : verdicts) width = std::max(width, v.scheme.size());
  out << fmt::format("{:<{}}  {:<31}  {:<12}  {:>6}  {}\n", "scheme", width, "property", "verdict",
                     "cases", "note");
  int failed = 0;
  for (const auto& v : verdicts) {
    failed += v.outcome == Outcome::fail;
    out << fmt::format("{:<{}}  {:<31}  {:<12}  {:>6}  {}\n", v.scheme, width, v.property,
                       to_string(v.outcome), v.cases_run, v.note);
  }
  for (const auto& v : verdicts)
    if (v.outcome == Outcome::fail) out << "\n--- FAIL " << v.scheme << " / " << failure_text(v);
  out << fmt::format("\n{} verdict(s): {} failed\n", verdicts.size(), failed);
  return failed;
}

// The start of the process, for the JUnit time of a run whose caller did not measure it: the
// file is written at the end of the command, so this is the command's wall time.
const auto junit_process_start = std::chrono::steady_clock::now();

std::string junit_classname(const std::string& spec) {
  // Jenkins reads a classname as package.Class and splits it at the last '.': the spec
  // "moreau-jean:theta=0.3" would become package "moreau-jean:theta=0", class "3". Every '.' of
  // the spec is written as U+2024 ONE DOT LEADER (which looks the same), under the package
  // "nsh"; docs/ci.md says so.
  std::string out = "nsh.";
  for (char c : spec) out += c == '.' ? std::string("\u2024") : std::string(1, c);
  return out;
}

void write_junit(const std::string& path, const std::vector<Verdict>& verdicts,
                 const std::string& suite, const JunitTiming& timing) {
  std::ofstream out(path);
  if (!out) throw InputError("junit", "cannot write '" + path + "'");
  int failures = 0, skipped = 0;
  for (const auto& v : verdicts) {
    failures += v.outcome == Outcome::fail;
    skipped += v.outcome == Outcome::not_claimed || v.outcome == Outcome::not_applicable;
  }
  // time: seconds. The suite's is the caller's measure, else the wall time of this nsh process
  // so far (the file is written when the command ends); a testcase's is its own when known,
  // else 0, written out so that strict schema readers accept the file.
  const double total =
      timing.total_seconds >= 0
          ? timing.total_seconds
          : std::chrono::duration<double>(std::chrono::steady_clock::now() - junit_process_start)
                .count();
  std::string stamp;
  {
    const std::time_t now = std::time(nullptr);
    char text[32];
    if (std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", std::gmtime(&now)))
      stamp = fmt::format(" timestamp=\"{}\"", text);
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << fmt::format(
      "<testsuites name=\"nsh\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" "
      "time=\"{:.3f}\">\n",
      verdicts.size(), failures, skipped, total);
  out << fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" "
      "time=\"{:.3f}\"{}>\n",
      xml_escape(suite), verdicts.size(), failures, skipped, total, stamp);
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    const auto& v = verdicts[i];
    const double seconds =
        i < timing.per_verdict_seconds.size() ? timing.per_verdict_seconds[i] : 0.0;
    out << fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\">",
                       xml_escape(junit_classname(v.scheme)), xml_escape(v.property), seconds);
    if (v.outcome == Outcome::fail) {
      out << "\n      <failure message=\"" << xml_escape(v.note.empty() ? "failed" : v.note)
          << "\">" << xml_escape(failure_text(v)) << "</failure>\n    ";
    } else if (v.outcome != Outcome::pass) {
      out << "<skipped message=\""
          << xml_escape(std::string(to_string(v.outcome)) + (v.note.empty() ? "" : ": " + v.note))
          << "\"/>";
    }
    out << "</testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

Outcome outcome_from_key(const std::string& key, const std::string& where) {
  for (Outcome o : {Outcome::pass, Outcome::fail, Outcome::not_claimed, Outcome::not_applicable})
    if (key == outcome_key(o)) return o;
  throw InputError(where + ".outcome",
                   "'" + key + "' is not one of pass, fail, not_claimed, not_applicable");
}

nlohmann::json to_json(const Verdict& v) {
  nlohmann::json j;
  j["scheme"] = v.scheme;
  j["property"] = v.property;
  j["outcome"] = outcome_key(v.outcome);
  j["cases_run"] = v.cases_run;
  j["statement"] = v.statement;
  j["note"] = v.note;
  if (v.counterexample) {
    const auto& x = *v.counterexample;
    j["counterexample"] = {{"values", pairs_to_json(x.values)},
                           {"case_file", x.case_file},
                           {"simulate", x.simulate_hint},
                           {"reproduce", x.reproduce},
                           {"command", x.command}};
  } else {
    j["counterexample"] = nullptr;
  }
  j["failing_case"] = v.failing_case ? nlohmann::json(*v.failing_case) : nlohmann::json(nullptr);
  j["coverage"] = pairs_to_json(v.coverage);
  j["whole"] = v.whole;
  return j;
}

Verdict from_json(const nlohmann::json& j, const std::string& where) {
  Verdict v;
  v.scheme = verdict_field<std::string>(j, "scheme", where);
  v.property = verdict_field<std::string>(j, "property", where);
  v.outcome = outcome_from_key(verdict_field<std::string>(j, "outcome", where), where);
  v.cases_run = verdict_field<int>(j, "cases_run", where);
  v.statement = verdict_field<std::string>(j, "statement", where);
  v.note = verdict_field<std::string>(j, "note", where);
  const auto counterexample = verdict_field<nlohmann::json>(j, "counterexample", where);
  if (!counterexample.is_null()) {
    const std::string at = where + ".counterexample";
    Counterexample x;
    x.values = pairs_from_json<std::string>(
        verdict_field<nlohmann::json>(counterexample, "values", at), at + ".values");
    x.case_file = verdict_field<std::string>(counterexample, "case_file", at);
    x.simulate_hint = verdict_field<std::string>(counterexample, "simulate", at);
    x.reproduce = verdict_field<std::string>(counterexample, "reproduce", at);
    x.command = verdict_field<std::string>(counterexample, "command", at);
    v.counterexample = std::move(x);
  }
  if (const auto failing = verdict_field<nlohmann::json>(j, "failing_case", where);
      !failing.is_null())
    v.failing_case = verdict_field<long>(j, "failing_case", where);
  v.coverage = pairs_from_json<int>(verdict_field<nlohmann::json>(j, "coverage", where),
                                    where + ".coverage");
  v.whole = verdict_field<bool>(j, "whole", where);
  return v;
}

std::string verdicts_csv(const std::vector<Verdict>& verdicts) {
  const auto quoted = [](const std::string& s) {
    std::string r = "\"";
    for (char c : s) r += c == '"' ? std::string("\"\"") : std::string(1, c);
    return r + "\"";
  };
  std::string csv = "scheme,property,outcome,cases_run,note\n";
  for (const auto& v : verdicts)
    csv += fmt::format("{},{},{},{},{}\n", quoted(v.scheme), quoted(v.property),
                       outcome_key(v.outcome), v.cases_run, quoted(v.note));
  return csv;
}

}  // namespace nsh::properties
