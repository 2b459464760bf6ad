#pragma once
// One function per subcommand, each in its own cmd_<name>.cpp; main.cpp calls them all.
// A subcommand's callback stores its exit status in `status`:
//   0 every verdict holds, 1 a property failed, 2 bad input or usage (message on stderr).
// Throwing nsh::InputError (or a subclass) from a callback also gives status 2, with the
// message printed by main.

#include <CLI/CLI.hpp>

#include <ostream>

namespace nsh::cli {

void add_list_command(CLI::App& app, int& status);
void add_simulate_command(CLI::App& app, int& status);
void add_events_command(CLI::App& app, int& status);
void add_check_command(CLI::App& app, int& status);
void add_converge_command(CLI::App& app, int& status);
void add_energy_command(CLI::App& app, int& status);
void add_report_command(CLI::App& app, int& status);
void add_merge_command(CLI::App& app, int& status);

/// `nsh list properties`: one line per property of the shared suite. Defined by the properties
/// module's cmd_check.cpp; cmd_list.cpp calls it once that exists.
void list_properties(std::ostream& out);
/// `nsh list claims [SPEC]`: what each scheme (the representative specs, or SPEC) claims, where,
/// with the outside probes that show each claim sharp, and why the rest is not claimed or n/a.
void list_claims(std::ostream& out, const std::string& spec);

}  // namespace nsh::cli
