// `nsh report [--out DIR] [--cases N] [--seed S] [--scheme SPEC]... [--jobs N] [--no-siconos]`
//
// The main job (nsh/reports/report.hpp): every built-in scheme against every shared property
// (the verdict table of `nsh check --scheme all --property all --cases N --seed S`),
// convergence studies of each scheme on the free oscillator, the bouncing ball and the
// impacting bar, and energy ledgers, gathered in DIR/index.html (self-contained: inline SVG, no
// script, no network) with DIR/summary.md and the JSON/CSV behind every plot. One progress line
// per finished piece of work on stderr.
// Exit status: 0 no verdict failed; 1 a verdict failed (the page shows its counterexample);
// 2 bad input or usage.
#include "commands.hpp"
#include "parallel_checks.hpp"
#include "process_pool.hpp"

#include <nsh/reports/report.hpp>

#include <iostream>

namespace nsh::cli {
namespace {

struct ReportArgs {
  std::string out = "nsh-report";
  int cases = 100;
  std::uint64_t seed = 0;
  std::vector<std::string> schemes;
  int jobs{0};  ///< 0: the number of cores
  bool no_siconos{false};
};

}  // namespace

void add_report_command(CLI::App& app, int& status) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand(
      "report", "The main job: verdicts, convergence and energy reports in one HTML page");
  cmd->add_option("--out", args->out, "output directory (default: nsh-report)");
  cmd->add_option("--cases", args->cases,
                  "random cases per (scheme, property) in the verdict table (default 100, as "
                  "nsh check)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", args->seed, "seed of the verdict table (default 0, as nsh check)");
  cmd->add_option("--scheme", args->schemes,
                  "scheme of the convergence and energy parts (repeatable; default: the built-in "
                  "ones). The verdict table checks every registered scheme, plugins' included");
  cmd->add_flag("--no-siconos", args->no_siconos,
                "skip the Siconos section (the slowest; the page says it was skipped)");
  cmd->add_option("--jobs", args->jobs,
                  "processes for the verdict table's and the Siconos section's checks "
                  "(default: the number of cores); the verdicts are those of --jobs 1")
      ->check(CLI::PositiveNumber);
  cmd->callback([args, &status] {
    reports::ReportOptions options;
    options.out_dir = args->out;
    options.check.cases = args->cases;
    options.check.seed = args->seed;
    options.schemes = args->schemes;
    options.siconos = !args->no_siconos;
    if (const int jobs = args->jobs == 0 ? available_cores() : args->jobs; jobs > 1)
      options.check.run_tasks = parallel_task_runner(jobs, nullptr);
    options.progress = [](const std::string& line) { std::cerr << "nsh report " << line << "\n"; };
    const auto result = reports::run_report(options);
    std::cout << "wrote " << args->out << "/index.html (" << result.verdicts.size() << " verdicts, "
              << result.failed_verdicts << " failed)\n";
    status = result.status();
  });
}

}  // namespace nsh::cli
