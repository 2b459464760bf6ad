// `nsh check`: the correctness gate. Runs the shared properties (nsh/properties/check.hpp) on
// schemes and prints one row per scheme x property; `--mutants` asserts that every mutant is
// rejected. Exit status 0 every checked claim holds, 1 a property failed (or a mutant
// survived), 2 bad input.
#include "commands.hpp"

#include <nsh/error.hpp>
#include <nsh/properties/check.hpp>

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>

namespace nsh::cli {
namespace {

using properties::Outcome;
using properties::Verdict;

struct CheckArgs {
  std::vector<std::string> schemes;
  std::vector<std::string> properties;
  int cases{100};
  std::uint64_t seed{0};
  std::string restitution;
  bool force{false};
  bool mutants{false};
  std::string junit;
};

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

properties::CheckOptions options_from(const CheckArgs& a) {
  properties::CheckOptions o;
  if (a.cases < 1) throw InputError("cases", fmt::format("must be >= 1, got {}", a.cases));
  o.cases = a.cases;
  o.seed = a.seed;
  o.force = a.force;
  if (!a.restitution.empty()) {
    const auto colon = a.restitution.find(':');
    properties::RestitutionRange r;
    r.lo = a.restitution.substr(0, colon);
    r.hi = colon == std::string::npos ? r.lo : a.restitution.substr(colon + 1);
    if (r.lo.empty() || r.hi.empty())
      throw InputError("restitution", "'" + a.restitution + "' is not A or A:B");
    o.restitution = r;
  }
  return o;
}

int run_check(const CheckArgs& a) {
  const properties::CheckOptions options = options_from(a);
  const std::vector<std::string> schemes =
      a.schemes.empty() ? std::vector<std::string>{"all"} : a.schemes;
  const std::vector<std::string> props =
      a.properties.empty() ? std::vector<std::string>{"all"} : a.properties;
  const std::vector<Verdict> verdicts = properties::run_checks(schemes, props, options);
  std::size_t width = 6;
  for (const auto& v : verdicts) width = std::max(width, v.scheme.size());
  std::cout << fmt::format("{:<{}}  {:<31}  {:<12}  {:>6}  {}\n", "scheme", width, "property",
                           "verdict", "cases", "note");
  int failed = 0;
  for (const auto& v : verdicts) {
    failed += v.outcome == Outcome::fail;
    std::cout << fmt::format("{:<{}}  {:<31}  {:<12}  {:>6}  {}\n", v.scheme, width, v.property,
                             properties::to_string(v.outcome), v.cases_run, v.note);
  }
  for (const auto& v : verdicts)
    if (v.outcome == Outcome::fail)
      std::cout << "\n--- FAIL " << v.scheme << " / " << failure_text(v);
  std::cout << fmt::format("\n{} verdict(s): {} failed\n", verdicts.size(), failed);
  if (!a.junit.empty()) write_junit(a.junit, verdicts, "nsh check");
  return failed ? 1 : 0;
}

int run_mutants(const CheckArgs& a) {
  const properties::CheckOptions options = options_from(a);
  std::vector<Verdict> all;
  int survivors = 0;
  std::cout << fmt::format("{:<48}  {:<9}  {}\n", "mutant", "verdict", "rejected by");
  for (const auto& provider : properties::providers()) {
    for (const auto& mutant : provider->mutants()) {
      const std::vector<Verdict> verdicts = properties::check_mutant(mutant, options);
      std::string caught;
      for (const auto& v : verdicts)
        if (v.outcome == Outcome::fail) caught += (caught.empty() ? "" : ", ") + v.property;
      // In the JUnit file a mutant is one testcase that passes when some property caught it.
      Verdict row;
      row.scheme = mutant;
      row.property = "rejected";
      row.statement = "at least one claimed property fails on the mutant";
      row.outcome = caught.empty() ? Outcome::fail : Outcome::pass;
      row.note = caught.empty() ? "survived every claimed property" : "caught by " + caught;
      all.push_back(row);
      if (caught.empty()) ++survivors;
      std::cout << fmt::format("{:<48}  {:<9}  {}\n", mutant,
                               caught.empty() ? "SURVIVED" : "rejected",
                               caught.empty() ? "(no claimed property failed)" : caught);
    }
  }
  std::cout << fmt::format("\n{} mutant(s) survived\n", survivors);
  if (!a.junit.empty()) write_junit(a.junit, all, "nsh check --mutants");
  return survivors ? 1 : 0;
}

}  // namespace

void list_properties(std::ostream& out) {
  for (const auto& d : properties::all_properties()) {
    out << d.name << "\n    " << d.statement << "\n    hypotheses: " << d.hypotheses
        << "\n    tolerance: " << d.tolerance << "\n";
  }
}

void add_check_command(CLI::App& app, int& status) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "Check the shared properties that schemes claim");
  cmd->add_option("--scheme", args->schemes, "scheme spec, or 'all' (default; repeatable)");
  cmd->add_option("--property", args->properties, "property name, or 'all' (default; repeatable)");
  cmd->add_option("--cases", args->cases, "random cases per scheme x property (default 100)");
  cmd->add_option("--seed", args->seed, "rapidcheck seed (default 0): same seed, same verdicts");
  cmd->add_option("--restitution", args->restitution, "narrow the generated e to A or A:B");
  cmd->add_flag("--force", args->force, "check the property even where it is not claimed");
  cmd->add_flag("--mutants", args->mutants, "assert that every mutant is rejected");
  cmd->add_option("--junit", args->junit, "write JUnit XML (one testcase per scheme x property)");
  cmd->callback(
      [args, &status] { status = args->mutants ? run_mutants(*args) : run_check(*args); });
}

}  // namespace nsh::cli
