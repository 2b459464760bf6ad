// `nsh check`: the correctness gate. Runs the shared properties (nsh/properties/check.hpp) on
// schemes and prints one row per scheme x property; `--mutants` asserts that every mutant is
// rejected. `--shard I/N` evaluates the I-th of N shares of the cases and `--out FILE` writes
// the verdicts as a shard file for `nsh merge` (cmd_merge.cpp). Exit status 0 every checked
// claim holds, 1 a property failed (or a mutant survived), 2 bad input.
#include "commands.hpp"
#include "external_option.hpp"
#include "parallel_checks.hpp"
#include "process_pool.hpp"
#include "shard_file.hpp"

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/external/client.hpp>
#include <nsh/first_order/scheme.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/number.hpp>
#include <nsh/properties/check.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/properties/runner.hpp>
#include <nsh/properties/verdict_io.hpp>
#include <nsh/registry.hpp>

#include <fmt/format.h>

#include <algorithm>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include <unistd.h>

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
  std::string case_file;
  std::string h;
  bool stats{false};
  bool quiet{false};
  int jobs{0};  ///< 0: the number of cores
  ExternalArgs external;
};

/// `--stats`: what the random cases of each verdict exercised, against the requirements.
void print_coverage(std::ostream& out, const std::vector<Verdict>& verdicts) {
  out << "\ncoverage of the random cases (nsh check --stats):\n";
  for (const auto& v : verdicts) {
    if (v.coverage.empty()) continue;
    const bool event_level = v.coverage.front().first == properties::evaluated_key(true);
    if (!event_level && v.coverage.front().first != properties::evaluated_key(false)) continue;
    const int evaluated = v.coverage.front().second;
    out << fmt::format("  {} / {}: {} {}", v.scheme, v.property, evaluated,
                       v.coverage.front().first);
    std::string reasons;
    for (std::size_t i = 1; i < v.coverage.size(); ++i) {
      const auto& [what, count] = v.coverage[i];
      // Refused cases are not among the evaluated ones: a count, not a share of them; their
      // reasons (numbers written #) on lines of their own, the most frequent first.
      if (what == "refused")
        out << fmt::format(", {} refused", count);
      else if (what.rfind(properties::refused_prefix, 0) != 0)
        out << fmt::format(", {} {:.0f}%", what, evaluated ? 100.0 * count / evaluated : 0.0);
    }
    std::vector<std::pair<int, std::string>> refusals;
    for (const auto& [what, count] : v.coverage)
      if (what.rfind(properties::refused_prefix, 0) == 0)
        refusals.emplace_back(count, what.substr(std::string(properties::refused_prefix).size()));
    std::stable_sort(refusals.begin(), refusals.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [count, reason] : refusals)
      reasons += fmt::format("\n      refused {}: {}", count, reason);
    for (const auto& r : properties::coverage_requirements())
      if (r.property == v.property && r.event_level == event_level)
        out << fmt::format(" (needs '{}' >= {:.0f}%)", r.exercised, 100 * r.minimum_share);
    out << reasons << "\n";
  }
}

/// `--jobs N`: the checks' independent tasks in N processes (parallel_checks.hpp), each task's
/// verdicts sent back through the verdict serializer, which keeps every field the output reads.
/// Returns the number of processes.
int run_in_jobs(properties::CheckOptions& options, const CheckArgs& a) {
  int jobs = a.jobs == 0 ? available_cores() : a.jobs;
  if (!a.external.command.empty()) {
    // One client process speaks for the scheme; children of nsh cannot share its pipes.
    if (a.jobs > 1) throw InputError("--jobs", "--external runs one client program: use --jobs 1");
    jobs = 1;
  }
  if (jobs <= 1) return 1;
  options.run_tasks = parallel_task_runner(jobs, options.progress);
  return jobs;
}

/// The run's rate on stderr (issue 17: "report cases per second"): standard output stays the
/// same at every --jobs, so that runs can be compared byte for byte.
void print_rate(const std::vector<Verdict>& verdicts, double seconds, int jobs) {
  long cases = 0;
  for (const auto& v : verdicts) cases += v.cases_run;
  std::cerr << fmt::format("nsh check: {} cases in {:.1f} s, {:.1f} cases per second ({} job{})\n",
                           cases, seconds, seconds > 0 ? static_cast<double>(cases) / seconds : 0.0,
                           jobs, jobs == 1 ? "" : "s");
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
  if (!a.shard.empty()) {
    const auto [index, count] = parse_shard(a.shard);
    o.shard = index;
    o.shards = count;
  }
  if (a.jobs < 0) throw InputError("--jobs", fmt::format("must be >= 1, got {}", a.jobs));
  return o;
}

int run_check(const CheckArgs& a) {
  properties::CheckOptions options = options_from(a);
  // Long work is not silent: one line per verdict on stderr when it is a terminal. Each
  // verdict's task time is kept for the JUnit file's testcase times.
  const bool print_progress = !a.quiet && isatty(STDERR_FILENO);
  auto done = std::make_shared<int>(0);
  auto task_seconds = std::make_shared<std::map<std::pair<std::string, std::string>, double>>();
  const auto start = std::chrono::steady_clock::now();
  options.progress = [print_progress, done, task_seconds, start](const Verdict& v, double seconds) {
    (*task_seconds)[{v.scheme, v.property}] = seconds;
    if (!print_progress) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << fmt::format("nsh check: {} done ({:.0f} s): {} / {}: {} ({} cases)\n", ++*done,
                             elapsed, v.scheme, v.property, to_string(v.outcome), v.cases_run);
  };
  const int jobs = run_in_jobs(options, a);
  const std::vector<std::string> schemes =
      a.schemes.empty() ? std::vector<std::string>{"all"} : a.schemes;
  const std::vector<std::string> props =
      a.properties.empty() ? std::vector<std::string>{"all"} : a.properties;
  // A file that cannot be written is bad input before any case runs.
  if (!a.out.empty() && !std::ofstream(a.out, std::ios::app))
    throw InputError("--out", "cannot write '" + a.out + "'");
  std::vector<Verdict> verdicts = properties::run_checks(schemes, props, options);
  // A client that broke the protocol gave no verdict: its first violation is the answer.
  if (const auto violation = external::first_protocol_error()) {
    std::cerr << "nsh: error: " << *violation << "\n";
    return 2;
  }
  for (auto& v : verdicts)
    if (v.counterexample) {
      v.counterexample->simulate_hint =
          external_replay(a.external, v.counterexample->simulate_hint);
      v.counterexample->command = external_replay(a.external, v.counterexample->command);
    }
  const int failed = properties::print_verdicts(std::cout, verdicts);
  if (a.stats) print_coverage(std::cout, verdicts);
  if (!a.quiet)
    print_rate(verdicts,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
               jobs);
  // A run that evaluated no case checked nothing: its own outcome, never a green pass.
  long evaluated = 0;
  for (const auto& v : verdicts) evaluated += v.cases_run;
  if (!failed && evaluated == 0 && options.shards <= 1) {
    std::cerr << "nsh check: nothing was checked (0 cases evaluated):";
    for (const auto& v : verdicts)
      std::cerr << "\n  " << v.scheme << " / " << v.property << ": " << to_string(v.outcome)
                << (v.note.empty() ? "" : " (" + v.note + ")");
    std::cerr << "\n";
    return 2;
  }
  if (!a.junit.empty()) {
    properties::JunitTiming timing;
    for (const auto& v : verdicts) {
      const auto found = task_seconds->find({v.scheme, v.property});
      timing.per_verdict_seconds.push_back(found == task_seconds->end() ? 0.0 : found->second);
    }
    properties::write_junit(a.junit, verdicts, "nsh check", timing);
  }
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

/// `nsh check --case FILE --scheme SPEC [--property P]`: judge a case file (a shrunk
/// counterexample, edited or not, or a user's own model) with the same run and predicates as
/// the gate. Exit 1 if a claimed (or, with --force, any requested) property fails on it.
int run_case(const CheckArgs& a) {
  if (a.schemes.size() != 1 || a.schemes[0] == "all")
    throw InputError("--scheme", "--case judges one scheme: give exactly one --scheme SPEC");
  if (a.mutants || !a.shard.empty() || !a.out.empty())
    throw InputError("--case", "does not combine with --mutants, --shard or --out");
  const std::string spec = Registry::builtin().resolve(a.schemes[0]).str();
  const LinearCase<Rational> loaded = load_linear_case<Rational>(read_case_file(a.case_file));
  properties::GeneratedCase c;
  c.origin = "case file " + a.case_file;
  c.model = loaded.model;
  c.initial = loaded.initial;
  if (!a.h.empty())
    c.h = parse_rational(a.h, "--h");
  else if (loaded.h)
    c.h = *loaded.h;
  else
    throw InputError("--h", "the case file has no h; give --h");
  const Index steps = step_count(c.initial.t, loaded.T, c.h);
  if (steps > 1000000)
    throw InputError("--h", fmt::format("{} steps to T; --case judges at most 10^6", steps));
  c.steps = static_cast<int>(steps);
  // Each property is judged by the provider that judges it in `nsh check` (the first of
  // providers_for(spec) that knows it: the event-driven family's impact properties are judged
  // at its events), so a counterexample fails here as it failed there.
  const std::vector<const properties::PropertyProvider*> knowing = properties::providers_for(spec);
  const auto judge_of = [&](const std::string& property) -> const properties::PropertyProvider* {
    for (const properties::PropertyProvider* p : knowing)
      for (const auto& d : p->properties())
        if (d.name == property) return p;
    return nullptr;
  };
  std::vector<std::string> props = a.properties;
  if (props.empty() || props == std::vector<std::string>{"all"}) {
    props.clear();
    for (const properties::PropertyProvider* p : knowing)
      for (const auto& d : p->properties())
        if (d.name != "observed_order" && judge_of(d.name) == p &&
            p->inapplicable(spec, d.name).empty() &&
            std::find(props.begin(), props.end(), d.name) == props.end())
          props.push_back(d.name);
  }
  int failed = 0, evaluated = 0;
  std::cout << fmt::format("{} on {} ({} steps of h = {})\n", spec, a.case_file, c.steps,
                           format_scalar(c.h));
  for (const auto& property : props) {
    if (property == "observed_order")
      throw InputError("--property",
                       "observed_order is measured on its own oscillator, not on "
                       "a case file");
    const properties::PropertyProvider* provider = judge_of(property);
    if (!provider) {
      (void)properties::describe(property);  // InputError naming an unknown property
      std::cout << fmt::format("  {:<32} n/a (no provider of {} judges it)\n", property, spec);
      continue;
    }
    const std::string inapplicable = provider->inapplicable(spec, property);
    if (!inapplicable.empty()) {
      std::cout << fmt::format("  {:<32} n/a ({})\n", property, inapplicable);
      continue;
    }
    const bool claimed = provider->claims(spec, property);
    const properties::CaseOutcome out = provider->evaluate_case(spec, property, c);
    if (!out.evaluated) {
      std::cout << fmt::format("  {:<32} refused: {}\n", property, out.refusal);
      continue;
    }
    ++evaluated;
    const bool counts = claimed || a.force;
    const char* verdict = out.judgement.holds ? "pass" : (counts ? "FAIL" : "fails (not claimed)");
    std::cout << fmt::format("  {:<32} {}", property, verdict);
    if (!out.judgement.holds) {
      std::cout << fmt::format(" at step {}: {}\n", out.failing_step, out.judgement.detail);
      for (const auto& [k, v] : out.judgement.values)
        std::cout << fmt::format("      {} = {}\n", k, v);
      failed += counts ? 1 : 0;
    } else {
      std::cout << (claimed ? "" : " (not claimed)") << "\n";
    }
  }
  // A judgement that evaluated nothing is never a pass (every property n/a or refused).
  if (!failed && evaluated == 0) {
    std::cerr << "nsh check: nothing was checked on " << a.case_file
              << " (no requested property could be evaluated on " << spec << ")\n";
    return 2;
  }
  return failed ? 1 : 0;
}

int run_mutants(const CheckArgs& a) {
  if (!a.shard.empty() || !a.out.empty())
    throw InputError(a.shard.empty() ? "--out" : "--shard",
                     "applies to the property check, not to --mutants");
  properties::CheckOptions options = options_from(a);
  run_in_jobs(options, a);
  std::vector<std::string> mutants;
  std::vector<properties::CheckTask> tasks;
  for (const auto& provider : properties::providers())
    for (const auto& mutant : provider->mutants()) {
      mutants.push_back(mutant);
      tasks.push_back(
          {mutant, [mutant, options] { return properties::check_mutant(mutant, options); }, {}});
    }
  const std::vector<std::vector<Verdict>> per_mutant = properties::run_check_tasks(tasks, options);
  std::vector<Verdict> all, rejections;
  int survivors = 0;
  std::cout << fmt::format("{:<48}  {:<9}  {}\n", "mutant", "verdict", "rejected by");
  {
    for (std::size_t m = 0; m < mutants.size(); ++m) {
      const std::string& mutant = mutants[m];
      const std::vector<Verdict>& verdicts = per_mutant[m];
      std::string caught;
      for (const auto& v : verdicts)
        if (v.outcome == Outcome::fail) {
          caught += (caught.empty() ? "" : ", ") + v.property;
          rejections.push_back(v);
        }
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
  // Each rejection's counterexample, replayable with `nsh check --case` (and nsh simulate).
  for (const auto& v : rejections) {
    std::cout << "\n--- " << v.scheme << " / " << v.property << "\n" << properties::failure_text(v);
    // --case judges linear case files; a nonholonomic counterexample replays with nsh simulate,
    // and an order is a slope over many step sizes, not a verdict on one case.
    if (v.property == "observed_order")
      std::cout << "re-measure: nsh check --scheme '" << v.scheme
                << "' --property observed_order (a slope over many h on its own oscillator, "
                   "not a verdict on one case file)\n";
    else if (v.counterexample &&
             v.counterexample->case_file.find("\"family\": \"nonholonomic\"") == std::string::npos)
      std::cout << "re-judge: save the case file as FILE, then nsh check --case FILE --scheme '"
                << v.scheme << "' --property " << v.property << "\n";
  }
  if (!a.junit.empty()) properties::write_junit(a.junit, all, "nsh check --mutants");
  return survivors ? 1 : 0;
}

}  // namespace

void list_properties(std::ostream& out) {
  for (const auto& d : properties::all_properties()) {
    out << d.name << "\n    " << d.statement << "\n    hypotheses: " << d.hypotheses
        << "\n    tolerance: " << d.tolerance << "\n";
  }
}

namespace {

/// A scheme outside the linear registry (catching-up, penalty: FirstOrderRegistry; a
/// projection: the set operator seed 004 checks), property by property as its provider judges
/// it. A first-order scheme's claims come from its entry (properties/src/claims.cpp) with their
/// domains; a projection claims its properties on convex sets.
void list_provider_claims(std::ostream& out, const std::string& spec) {
  const properties::PropertyProvider& provider = properties::provider_for(spec);
  const std::string canonical = provider.canonical(spec);
  const std::string name = SchemeSpec::parse(canonical).name();
  std::vector<properties::Claim> claims;
  if (FirstOrderRegistry::builtin().contains(name))
    claims = properties::claims_of(FirstOrderRegistry::builtin().make<double>(canonical)->info());
  out << canonical << "\n";
  for (const auto& d : provider.properties()) {
    if (!provider.applies(canonical, d.name)) continue;  // another family's property
    if (!provider.claims(canonical, d.name)) {
      out << fmt::format("    {:<32} not claimed (nsh check --force checks it)\n", d.name);
      continue;
    }
    const auto claim = std::find_if(claims.begin(), claims.end(), [&](const properties::Claim& c) {
      return c.property == d.name;
    });
    out << fmt::format("    {:<32} claimed: {}\n", d.name,
                       claim != claims.end() ? claim->domain : d.hypotheses);
  }
}

}  // namespace

void list_claims(std::ostream& out, const std::string& spec) {
  const Registry& registry = Registry::builtin();
  if (!spec.empty() && !registry.contains(SchemeSpec::parse(spec).name()))
    return list_provider_claims(out, spec);
  std::vector<std::string> specs;
  if (!spec.empty()) {
    specs.push_back(registry.resolve(spec).str());
  } else {
    for (const auto& name : registry.names(false))
      for (const auto& s : registry.representatives(name))
        specs.push_back(registry.resolve(s).str());
  }
  for (const auto& s : specs) {
    const SchemeInfo info = registry.make<double>(s)->info();
    out << s << "\n";
    for (const auto& property : properties::shared_property_names()) {
      const std::string inapplicable = properties::inapplicable_reason(s, property);
      if (!inapplicable.empty()) {
        out << fmt::format("    {:<32} n/a: {}\n", property, inapplicable);
        continue;
      }
      const auto claim = properties::find_claim(info, property);
      if (!claim) {
        out << fmt::format("    {:<32} not claimed (nsh check --force checks it)\n", property);
        continue;
      }
      out << fmt::format("    {:<32} claimed: {}\n", property, claim->domain);
      for (const auto& probe : claim->outside)
        out << fmt::format("    {:<32}   sharp: must fail at {} ({})\n", "", probe.spec, probe.why);
    }
    // Claims on a family provider's own properties (nonholonomic_*, energy_conservation, ...).
    const auto& shared = properties::shared_property_names();
    for (const auto& claim : properties::claims_of(info))
      if (std::find(shared.begin(), shared.end(), claim.property) == shared.end())
        out << fmt::format("    {:<32} claimed: {}\n", claim.property, claim.domain);
  }
  if (!spec.empty()) return;
  // The schemes and sets `nsh check --scheme all` reaches outside the registry.
  for (const auto& provider : properties::providers())
    for (const auto& s : provider->schemes())
      if (!registry.contains(SchemeSpec::parse(s).name())) list_provider_claims(out, s);
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
  cmd->add_option("--case", args->case_file,
                  "judge this case file (e.g. a shrunk counterexample) with --scheme SPEC");
  cmd->add_option("--h", args->h, "step size for --case (default: the case file's h)");
  cmd->add_option("--jobs", args->jobs,
                  "processes that check independent scheme x property pairs (or mutants) at "
                  "once (default: the number of cores); the verdicts are those of --jobs 1")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--quiet", args->quiet,
                "no progress lines on stderr (they appear on a terminal) and no closing line "
                "with the cases per second");
  cmd->add_flag("--stats", args->stats,
                "print what share of the random cases exercised each property's interesting "
                "branch (impacts, e > 0, simultaneous impacts) and the share it requires");
  add_external_options(cmd, args->external);
  cmd->callback([args, &status] {
    if (!args->external.command.empty()) {
      if (args->mutants) throw InputError("--external", "does not combine with --mutants");
      if (args->schemes.empty()) args->schemes.push_back("");
      for (auto& s : args->schemes) s = external_spec(args->external, s);
    }
    status = !args->case_file.empty() ? run_case(*args)
             : args->mutants          ? run_mutants(*args)
                                      : run_check(*args);
  });
}

}  // namespace nsh::cli
