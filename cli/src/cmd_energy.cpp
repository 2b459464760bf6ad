// `nsh energy CASE --scheme SPEC [--h H] [--T T] [--precision double|50|rational] [--out DIR]`
//
// The per-step energy ledger of one run (nsh/reports/energy.hpp): DIR/energy.csv (per step and
// cumulated, streamed as the run goes: memory does not grow with the step count),
// DIR/energy.json (totals, claim status, tightest and broken steps), DIR/energy.svg and
// DIR/energy_slack.svg. The energy inequality is judged against the scheme's claim: broken
// steps outside the claim's domain (or where the scheme does not claim it) are reported, not
// failed.
#include "commands.hpp"
#include "external_option.hpp"

#include <nsh/error.hpp>
#include <nsh/reports/energy.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <iostream>

namespace nsh::cli {
namespace {

struct EnergyArgs {
  std::string case_name;
  std::string scheme;
  std::string h;
  std::string T;
  std::string precision = "double";
  std::string out = "nsh-energy";
  ExternalArgs external;
};

int run(const EnergyArgs& args) {
  std::error_code ec;
  std::filesystem::create_directories(args.out, ec);
  if (ec) throw InputError("--out", "cannot create directory '" + args.out + "': " + ec.message());
  reports::EnergyOptions options;
  options.case_name = args.case_name;
  options.spec = args.scheme;
  options.h = args.h;
  options.T = args.T;
  options.precision = args.precision;
  options.csv_path = (std::filesystem::path(args.out) / "energy.csv").string();
  const auto report = reports::energy_report(options);
  reports::write_energy(report, args.out);
  const auto& last = report.last;
  std::cout << fmt::format("{} on {}, h = {} ({}), {} steps\n", report.scheme, report.case_name,
                           report.h_text, report.precision, report.steps);
  std::cout << fmt::format("  E: {:.10g} -> {:.10g}\n", report.initial.E, last.E);
  std::cout << fmt::format(
      "  sum W_ext {:.6g}, sum W_damp {:.6g}, sum W_contact {:.6g}, sum D {:.6g}\n", last.sum_W_ext,
      last.sum_W_damp, last.sum_W_contact, last.sum_dissipation);
  std::cout << fmt::format("  inequality: {}\n", report.claim);
  if (report.tightest_step)
    std::cout << fmt::format("  tightest step {} (slack {:.3e})\n", *report.tightest_step,
                             report.tightest_slack);
  std::cout << "  " << report.verdict_text() << "\n";
  if (report.broken_count > 0 && !report.first_broken_detail.empty())
    std::cout << "  first broken step: " << report.first_broken_detail << "\n";
  std::cout << "wrote " << args.out << "/energy.csv, energy.json, energy.svg, energy_slack.svg\n";
  if (!report.failure.empty()) {
    std::cerr << "nsh: energy: the run stopped at step " << report.steps + 1 << ": "
              << report.failure << "\n";
    return 1;
  }
  if (report.fails()) {
    std::cerr << "nsh: energy: " << report.property << " is claimed for " << report.scheme
              << " on this case and fails in " << report.broken_count << " steps\n";
    return 1;
  }
  return 0;
}

}  // namespace

void add_energy_command(CLI::App& app, int& status) {
  auto args = std::make_shared<EnergyArgs>();
  auto* cmd = app.add_subcommand("energy",
                                 "Per-step energy ledger of one run, judged against "
                                 "the scheme's energy claim");
  cmd->add_option("CASE", args->case_name, "built-in case name (nsh list cases) or a path")
      ->required();
  cmd->add_option("--scheme", args->scheme, "scheme spec (nsh list schemes)");
  add_external_options(cmd, args->external);
  cmd->add_option("--h", args->h, "step size, e.g. 0.01 or 1/100 (default: the case's h)");
  cmd->add_option("--T", args->T, "final time (default: the case's T)");
  cmd->add_option("--precision", args->precision, "double (default), 50 or rational")
      ->check(CLI::IsMember({"double", "50", "rational"}));
  cmd->add_option("--out", args->out, "output directory (default: nsh-energy)");
  cmd->footer(
      "Exit status: 0 the run completed and the energy inequality holds wherever the scheme\n"
      "claims it (broken steps outside the claim's domain are reported, not failed);\n"
      "1 a claimed inequality fails inside its domain, or a step failed (the ledger up to it\n"
      "is written); 2 bad input or usage.\n"
      "Example: nsh energy bouncing-ball --scheme moreau-jean:theta=1/2 --precision rational\n"
      "See docs/properties.md (moreau_jean_energy_dissipation, algorithmic_energy_decay).");
  cmd->callback([args, &status] {
    args->scheme = external_spec(args->external, args->scheme);
    if (args->scheme.empty()) throw InputError("--scheme", "give --scheme SPEC or --external CMD");
    status = run(*args);
  });
}

}  // namespace nsh::cli
