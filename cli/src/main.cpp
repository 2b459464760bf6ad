// nsh: the nonsmooth-integrator verification harness. See DESIGN.md for the command contract.
#include "commands.hpp"

#include <nsh/error.hpp>

#include <cstdio>
#include <exception>
#include <new>

int main(int argc, char** argv) {
  CLI::App app{"nsh: verifies time integrators for mechanical systems with unilateral contact"};
  app.require_subcommand(1);
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;  // usage errors are status 2, --help is 0
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
    std::fprintf(stderr, "nsh: internal error: out of memory (a limit of docs/limits.md is "
                         "missing; please report the command)\n");
    return 1;
  } catch (const std::exception& e) {
    // Not an InputError: nsh failed (exit 1), with what it was doing when the message says.
    std::fprintf(stderr, "nsh: internal error: %s\n", e.what());
    return 1;
  }
  return status;
}
