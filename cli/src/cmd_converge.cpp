// `nsh converge CASE --scheme SPEC [--scheme SPEC ...] --h H1,H2,...
//               [--reference auto|analytic|event-driven|FILE] [--precision double|50|double,50]
//               [--T T] [--out DIR] [--max-steps N]`
//
// Convergence and work-precision study (nsh/reports/convergence.hpp): writes
// DIR/convergence.json, DIR/convergence.csv, DIR/convergence_<measure>.svg and
// DIR/work_precision_<measure>.svg, and prints the fitted orders. The default reference,
// "auto", is the closed form of the file's own model when its data has one (never chosen by the
// file's "name") and the event-driven flow otherwise. On a lagrangian case (a nonlinear model,
// docs/nonlinear-models.md) the references are housner (the rocking block's closed form, where
// the file's model is that block) and self (the scheme in Real50 at the smallest h / 16), "auto"
// choosing housner where it applies; the output says which.
// Exit status: 0 every run completed; 1 a run failed (StepError; its errors are null) or the
// reference could not be computed (the message names it); 2 bad input or usage (the message
// names the field or option).
#include "commands.hpp"
#include "external_option.hpp"

#include <nsh/error.hpp>
#include <nsh/registry.hpp>

#include <nsh/limits.hpp>
#include <nsh/reports/convergence.hpp>

#include <fmt/format.h>

#include <iostream>
#include <sstream>

namespace nsh::cli {
namespace {

struct ConvergeArgs {
  std::string case_name;
  std::vector<std::string> schemes;
  std::string h;
  std::string reference = "auto";
  std::string precision = "double";
  std::string T;
  std::string out = "nsh-converge";
  Index max_steps = limits::default_converge_max_steps;
  ExternalArgs external;
};

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

int run(const ConvergeArgs& args) {
  reports::ConvergenceOptions options;
  options.case_name = args.case_name;
  options.schemes = args.schemes;
  options.h = reports::parse_step_list(args.h);
  options.reference = args.reference;
  options.precisions = split_commas(args.precision);
  options.T = args.T;
  options.max_steps = args.max_steps;
  options.progress = [](const std::string& line) { std::cerr << line << "\n"; };
  const auto studies = reports::run_convergence(options);
  reports::write_convergence(studies, args.out);
  int status = 0;
  for (const auto& s : studies) {
    // The rocking block's Housner reference measures a ratio and an angular speed, not a
    // trajectory: no solution scale to quote.
    const bool trajectory_reference = s.reference.rfind("housner", 0) != 0;
    std::cout << fmt::format(
        "{} [{}] on {} against {}{}:\n", s.scheme, s.precision, s.case_name, s.reference,
        trajectory_reference ? fmt::format(" (error scale {:.3g}: the largest of |T - t0|, "
                                           "|q|, |v| and |E| of the reference)",
                                           s.error_scale)
                             : std::string());
    for (const auto& m : s.measures) {
      const auto& fit = s.fits.at(m);
      if (!fit.reason.empty()) {  // no slope through round-off noise
        std::cout << fmt::format(
            "  {:<13} order      -  {}{}\n", m, fit.reason,
            fit.reason == "exact at every h" ? "" : " (errors <= 64 (N+1) eps scale)");
        continue;
      }
      const auto& errors = s.errors.at(m);
      double largest = 0;
      for (double e : errors)
        if (e == e && e > largest) largest = e;
      const auto warning = s.warnings.find(m);
      std::cout << fmt::format("  {:<13} order {:>6}  residual {:>8}  max error {:.2e}{}\n", m,
                               fit.defined() ? fmt::format("{:.3f}", fit.order) : "-",
                               fit.defined() ? fmt::format("{:.2e}", fit.residual) : "-", largest,
                               warning != s.warnings.end() && !warning->second.empty()
                                   ? "  (untrusted: " + warning->second + ")"
                                   : std::string());
    }
    for (std::size_t i = 0; i < s.failures.size(); ++i)
      if (!s.failures[i].empty()) {
        std::cout << fmt::format("  h={:g} failed: {}\n", s.h[i], s.failures[i]);
        status = 1;
      }
  }
  std::cout << "wrote " << args.out << "/convergence.json\n";
  return status;
}

}  // namespace

void add_converge_command(CLI::App& app, int& status) {
  auto args = std::make_shared<ConvergeArgs>();
  auto* cmd = app.add_subcommand("converge", "Convergence and work-precision study of schemes");
  cmd->add_option("CASE", args->case_name, "built-in case name (nsh list cases) or a path")
      ->required();
  cmd->add_option("--scheme", args->schemes, "scheme spec; repeat for several schemes");
  add_external_options(cmd, args->external);
  cmd->add_option("--h", args->h, "comma-separated step sizes, e.g. 0.04,0.02,0.01,1/200")
      ->required();
  cmd->add_option("--reference", args->reference,
                  "auto (default), analytic, event-driven, or a CSV written by nsh simulate; "
                  "lagrangian cases: auto, housner or self");
  cmd->add_option("--precision", args->precision, "double (default), 50, or both as double,50");
  cmd->add_option("--T", args->T, "final time (default: the case's T)");
  cmd->add_option("--out", args->out, "output directory (default: nsh-converge)");
  cmd->add_option("--max-steps", args->max_steps,
                  fmt::format("most steps of one run, checked before any run (default {}; "
                              "docs/limits.md)",
                              limits::default_converge_max_steps))
      ->check(CLI::PositiveNumber);
  cmd->callback([args, &status] {
    // Beside --external, built-in schemes may be compared with the client in one study.
    if (!args->external.command.empty()) {
      bool named = false;
      for (const auto& s : args->schemes)
        named = named || SchemeSpec::parse(s).name() == "external";
      if (!named)
        args->schemes.push_back(external_spec(args->external, ""));
      else
        (void)external_spec(args->external, "external");
    }
    if (args->schemes.empty()) throw InputError("--scheme", "give --scheme SPEC or --external CMD");
    status = run(*args);
  });
}

}  // namespace nsh::cli
