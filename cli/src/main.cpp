// nsh: the nonsmooth-integrator verification harness. The commands and their exit statuses are
// documented in README.md and docs/getting-started.md; `nsh COMMAND --help` shows each one
// with an example.
#include "commands.hpp"
#include "plugins.hpp"

#include <nsh/error.hpp>
#include <nsh/properties/mutants.hpp>
#ifdef NSH_WITH_SICONOS
#include <nsh/siconos/schemes.hpp>
#endif

#include <cstdio>
#include <exception>
#include <new>
#include <string>

#ifndef NSH_VERSION
#define NSH_VERSION "unknown"
#endif

namespace {

// The help footer of a command: its exit statuses and one example. The commands register
// themselves (cmd_*.cpp); the footers are gathered here so that every help text reads alike.
struct CommandHelp {
  const char* name;
  const char* exit_status;
  const char* example;
};

const CommandHelp kHelp[] = {
    {"list", "0 listed; 2 usage error.", "nsh list schemes"},
    {"simulate",
     "0 the run completed; 1 a step could not certify its one-step solve (the rows\n"
     "before it are written, the message is on stderr); 2 bad input (the message names\n"
     "the field).",
     "nsh simulate bouncing-ball --scheme moreau-jean:theta=1/2 --precision rational "
     "--h 1/100 --out ball.csv"},
    {"events",
     "0 done; 1 the reference could not be computed (an uncertified LCP, an undecidable\n"
     "contact mode); 2 bad input.",
     "nsh events bouncing-ball --precision 50 --T 2"},
    {"check",
     "0 every checked claim holds; 1 a property failed (its counterexample and the\n"
     "command that replays it are printed) or, with --mutants, a mutant survived;\n"
     "2 bad input.",
     "nsh check --scheme moreau-jean:theta=1/2 --cases 200 --junit nsh-check.xml"},
    {"converge", "0 every run completed; 1 a run failed (its errors are null); 2 bad input.",
     "nsh converge bouncing-ball --scheme moreau-jean --scheme gen-alpha "
     "--h 1/50,1/100,1/200,1/400 --out conv"},
    {"energy", nullptr, nullptr},  // cmd_energy.cpp writes its own footer
    {"report",
     "0 no verdict failed; 1 a verdict failed (the page shows its counterexample);\n"
     "2 bad input or a check could not run.",
     "nsh report --out report --cases 100 --seed 0"},
    {"merge",
     "0 every verdict holds; 1 a shard found a violation (its counterexample is\n"
     "printed); 2 a missing or repeated shard, or shards of different runs (the message\n"
     "names the field).",
     "nsh merge shard-0.json shard-1.json shard-2.json --junit nsh-check.xml"},
};

}  // namespace

int main(int argc, char** argv) {
  // The mutants are the property module's test instruments; every command sees them (nsh list
  // mutants, nsh simulate --scheme mutant:..., nsh check --mutants), and before the plugins, so
  // that a plugin cannot take a mutant's name.
  nsh::properties::register_builtin_mutants();
#ifdef NSH_WITH_SICONOS
  nsh::siconos::register_schemes();  // before plugins: a plugin cannot take a siconos: name
#endif
  try {
    nsh::cli::load_plugins(argc, argv);  // before the commands, so that they see its schemes
  } catch (const nsh::InputError& e) {
    std::fprintf(stderr, "nsh: error: %s\n", e.what());
    return 2;
  }
  CLI::App app{"nsh " NSH_VERSION
               ": verifies time integrators for mechanical systems with unilateral contact"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("nsh ") + NSH_VERSION);
  app.footer(
      "Plugins: --plugin PATH (repeatable) or NSH_PLUGINS=PATH[:PATH...] loads a shared\n"
      "library that registers your schemes (nsh_add_plugin, docs/adding-a-scheme.md).\n"
      "Exit status: 0 success; 1 a run or a property failed; 2 bad input or usage (the\n"
      "message names the field). `nsh COMMAND --help` gives each command's statuses and an\n"
      "example. Documentation: docs/getting-started.md, docs/case-files.md, docs/schemes.md,\n"
      "docs/properties.md and docs/ci.md in the source tree.");
  int status = 0;
  // Each line registers one subcommand (add yours when its cmd_*.cpp exists).
  nsh::cli::add_list_command(app, status);
  nsh::cli::add_simulate_command(app, status);
  nsh::cli::add_events_command(app, status);
  nsh::cli::add_check_command(app, status);
  nsh::cli::add_converge_command(app, status);
  nsh::cli::add_energy_command(app, status);
  nsh::cli::add_report_command(app, status);
  nsh::cli::add_merge_command(app, status);
  for (const auto& help : kHelp) {
    if (help.exit_status == nullptr) continue;
    CLI::App* command = nullptr;
    try {
      command = app.get_subcommand(help.name);
    } catch (const CLI::OptionNotFound&) {
      continue;  // a command this build does not have
    }
    command->footer(std::string("Exit status: ") + help.exit_status + "\nExample: " + help.example);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;  // usage errors are status 2, --help and --version are 0
  } catch (const nsh::InputError& e) {
    // Bad input: the message names the field or the option (exit 2).
    std::fprintf(stderr, "nsh: error: %s\n", e.what());
    return 2;
  } catch (const nsh::StepError& e) {
    std::fprintf(stderr, "nsh: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    // Every declared size is checked against docs/limits.md before allocating; reaching this
    // is a failure of nsh, not of the input.
    std::fprintf(stderr,
                 "nsh: internal error: out of memory (a limit of docs/limits.md is "
                 "missing; please report the command)\n");
    return 1;
  } catch (const std::exception& e) {
    // Not an InputError: nsh failed (exit 1), with what it was doing when the message says.
    std::fprintf(stderr, "nsh: internal error: %s\n", e.what());
    return 1;
  }
  return status;
}
