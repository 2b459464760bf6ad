// `nsh energy CASE --scheme SPEC --h H [--T T] [--out DIR]`
//
// The per-step energy ledger of one run (nsh/reports/energy.hpp): DIR/energy.csv (per step and
// cumulated), DIR/energy.json (totals, tightest and broken steps), DIR/energy.svg and
// DIR/energy_slack.svg. Exit status: 0 the run completed; 1 a step failed (StepError; the
// ledger up to it is written); 2 bad input or usage.
#include "commands.hpp"

#include <nsh/reports/energy.hpp>

#include <fmt/format.h>

#include <iostream>

namespace nsh::cli {
namespace {

struct EnergyArgs {
  std::string case_name;
  std::string scheme;
  std::string h;
  std::string T;
  std::string out = "nsh-energy";
};

int run(const EnergyArgs& args) {
  const auto report = reports::energy_report(args.case_name, args.scheme, args.h, args.T);
  reports::write_energy(report, args.out);
  const auto& last = report.rows.back();
  std::cout << fmt::format("{} on {}, h={:g}, {} steps\n", report.scheme, report.case_name,
                           report.h, report.rows.size() - 1);
  std::cout << fmt::format("  E: {:.10g} -> {:.10g}\n", report.rows.front().E, last.E);
  std::cout << fmt::format(
      "  sum W_ext {:.6g}, sum W_damp {:.6g}, sum W_contact {:.6g}, sum D {:.6g}\n", last.sum_W_ext,
      last.sum_W_damp, last.sum_W_contact, last.sum_dissipation);
  std::cout << fmt::format("  claim: {}\n", report.claim);
  if (report.tightest_step)
    std::cout << fmt::format("  tightest step {} (slack {:.3e})\n", *report.tightest_step,
                             report.rows[*report.tightest_step].slack);
  std::cout << fmt::format("  broken in {} steps (tolerance {:.3e})\n", report.broken_steps.size(),
                           report.tolerance);
  std::cout << "wrote " << args.out << "/energy.csv\n";
  if (!report.failure.empty()) {
    std::cerr << "nsh: energy: the run stopped at step " << report.rows.size() << ": "
              << report.failure << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

void add_energy_command(CLI::App& app, int& status) {
  auto args = std::make_shared<EnergyArgs>();
  auto* cmd = app.add_subcommand("energy", "Per-step energy ledger of one run");
  cmd->add_option("CASE", args->case_name, "built-in case name (nsh list cases) or a path")
      ->required();
  cmd->add_option("--scheme", args->scheme, "scheme spec (nsh list schemes)")->required();
  cmd->add_option("--h", args->h, "step size, e.g. 0.01 or 1/100")->required();
  cmd->add_option("--T", args->T, "final time (default: the case's T)");
  cmd->add_option("--out", args->out, "output directory (default: nsh-energy)");
  cmd->callback([args, &status] { status = run(*args); });
}

}  // namespace nsh::cli
