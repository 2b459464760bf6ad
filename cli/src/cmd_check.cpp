// `nsh check`: the correctness gate. Runs the shared properties (nsh/properties/check.hpp) on
// schemes and prints one row per scheme x property; `--mutants` asserts that every mutant is
// rejected. `--shard I/N` evaluates the I-th of N shares of the cases and `--out FILE` writes
// the verdicts as a shard file for `nsh merge` (cmd_merge.cpp). Exit status 0 every checked
// claim holds, 1 a property failed (or a mutant survived), 2 bad input.
#include "commands.hpp"
#include "shard_file.hpp"
#include "verdict_io.hpp"

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
  std::string shard;
  std::string out;
};

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
  if (!a.shard.empty()) {
    const auto [index, count] = parse_shard(a.shard);
    o.shard = index;
    o.shards = count;
  }
  return o;
}

int run_check(const CheckArgs& a) {
  const properties::CheckOptions options = options_from(a);
  const std::vector<std::string> schemes =
      a.schemes.empty() ? std::vector<std::string>{"all"} : a.schemes;
  const std::vector<std::string> props =
      a.properties.empty() ? std::vector<std::string>{"all"} : a.properties;
  // A file that cannot be written is bad input before any case runs.
  if (!a.out.empty() && !std::ofstream(a.out, std::ios::app))
    throw InputError("--out", "cannot write '" + a.out + "'");
  const std::vector<Verdict> verdicts = properties::run_checks(schemes, props, options);
  const int failed = print_verdicts(std::cout, verdicts);
  if (!a.junit.empty()) write_junit(a.junit, verdicts, "nsh check");
  if (!a.out.empty()) {
    ShardFile file;
    file.shard = options.shard;
    file.shards = options.shards;
    file.seed = options.seed;
    file.cases = options.cases;
    file.schemes = schemes;
    file.properties = props;
    file.restitution = a.restitution;
    file.force = options.force;
    file.verdicts = verdicts;
    write_shard_file(a.out, file);
  }
  return failed ? 1 : 0;
}

int run_mutants(const CheckArgs& a) {
  if (!a.shard.empty() || !a.out.empty())
    throw InputError(a.shard.empty() ? "--out" : "--shard",
                     "applies to the property check, not to --mutants");
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
  cmd->add_option("--shard", args->shard,
                  "I/N: evaluate the I-th of N shares (0 <= I < N) of the cases that the run "
                  "with the same --seed and --cases checks; combine the shards with nsh merge");
  cmd->add_option("--out", args->out,
                  "write the verdicts and counterexamples as a JSON shard file for nsh merge");
  cmd->callback(
      [args, &status] { status = args->mutants ? run_mutants(*args) : run_check(*args); });
}

}  // namespace nsh::cli
