// Verdicts as text, JUnit XML and JSON (verdict_io.hpp).
#include "verdict_io.hpp"

#include <nsh/error.hpp>
#include <nsh/limits.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

namespace nsh::cli {
namespace {

using properties::Outcome;
using properties::Verdict;

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

Outcome outcome_from(const std::string& text, const std::string& where) {
  for (Outcome o : {Outcome::pass, Outcome::fail, Outcome::not_claimed, Outcome::not_applicable})
    if (text == properties::to_string(o)) return o;
  throw InputError(where + ".outcome", "'" + text + "' is not one of pass, fail, not claimed, n/a");
}

template <class T>
T field(const nlohmann::json& j, const char* name, const std::string& where) {
  if (!j.is_object() || !j.contains(name)) throw InputError(where + "." + name, "missing");
  try {
    return j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError(where + "." + name,
                     "has the wrong type: " + limits::describe_json(j.at(name)));
  }
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
                       properties::to_string(v.outcome), v.cases_run, v.note);
  }
  for (const auto& v : verdicts)
    if (v.outcome == Outcome::fail) out << "\n--- FAIL " << v.scheme << " / " << failure_text(v);
  out << fmt::format("\n{} verdict(s): {} failed\n", verdicts.size(), failed);
  return failed;
}

void write_junit(const std::string& path, const std::vector<Verdict>& verdicts,
                 const std::string& suite) {
  std::ofstream out(path);
  if (!out) throw InputError("junit", "cannot write '" + path + "'");
  int failures = 0, skipped = 0;
  for (const auto& v : verdicts) {
    failures += v.outcome == Outcome::fail;
    skipped += v.outcome == Outcome::not_claimed || v.outcome == Outcome::not_applicable;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << fmt::format("<testsuites name=\"nsh\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
                     verdicts.size(), failures, skipped);
  out << fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
                     xml_escape(suite), verdicts.size(), failures, skipped);
  for (const auto& v : verdicts) {
    out << fmt::format("    <testcase classname=\"{}\" name=\"{}\">", xml_escape(v.scheme),
                       xml_escape(v.property));
    if (v.outcome == Outcome::fail) {
      out << "\n      <failure message=\"" << xml_escape(v.note.empty() ? "failed" : v.note)
          << "\">" << xml_escape(failure_text(v)) << "</failure>\n    ";
    } else if (v.outcome != Outcome::pass) {
      out << "<skipped message=\""
          << xml_escape(std::string(properties::to_string(v.outcome)) +
                        (v.note.empty() ? "" : ": " + v.note))
          << "\"/>";
    }
    out << "</testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

nlohmann::json to_json(const Verdict& v) {
  nlohmann::json j;
  j["scheme"] = v.scheme;
  j["property"] = v.property;
  j["outcome"] = properties::to_string(v.outcome);
  j["cases_run"] = v.cases_run;
  j["statement"] = v.statement;
  j["note"] = v.note;
  j["whole"] = v.whole;
  j["failing_case"] = v.failing_case ? nlohmann::json(*v.failing_case) : nlohmann::json(nullptr);
  if (v.counterexample) {
    const auto& x = *v.counterexample;
    nlohmann::json values = nlohmann::json::array();
    for (const auto& [k, value] : x.values) values.push_back({k, value});
    j["counterexample"] = {{"values", values},
                           {"case_file", x.case_file},
                           {"simulate_hint", x.simulate_hint},
                           {"reproduce", x.reproduce},
                           {"command", x.command}};
  } else {
    j["counterexample"] = nullptr;
  }
  return j;
}

Verdict verdict_from_json(const nlohmann::json& j, const std::string& where) {
  Verdict v;
  v.scheme = field<std::string>(j, "scheme", where);
  v.property = field<std::string>(j, "property", where);
  v.outcome = outcome_from(field<std::string>(j, "outcome", where), where);
  v.cases_run = field<int>(j, "cases_run", where);
  v.statement = field<std::string>(j, "statement", where);
  v.note = field<std::string>(j, "note", where);
  v.whole = field<bool>(j, "whole", where);
  if (j.contains("failing_case") && !j.at("failing_case").is_null())
    v.failing_case = field<long>(j, "failing_case", where);
  if (j.contains("counterexample") && !j.at("counterexample").is_null()) {
    const auto& c = j.at("counterexample");
    const std::string at = where + ".counterexample";
    properties::Counterexample x;
    for (const auto& kv : field<nlohmann::json>(c, "values", at)) {
      if (!kv.is_array() || kv.size() != 2 || !kv[0].is_string() || !kv[1].is_string())
        throw InputError(at + ".values", "an entry is not [name, value]: " + limits::describe_json(kv));
      x.values.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
    }
    x.case_file = field<std::string>(c, "case_file", at);
    x.simulate_hint = field<std::string>(c, "simulate_hint", at);
    x.reproduce = field<std::string>(c, "reproduce", at);
    x.command = field<std::string>(c, "command", at);
    v.counterexample = std::move(x);
  }
  return v;
}

}  // namespace nsh::cli
