#pragma once
// Plugins: a user's shared library that registers schemes and their claims (from a static
// initializer calling nsh::properties::register_scheme), loaded before the command line is
// parsed so that every command — list, simulate, converge, energy, check, report — sees them.
// Built with nsh_add_plugin() from the installed cmake/nsh_stamp.cmake (docs/adding-a-scheme.md).

#include <string>
#include <vector>

namespace nsh::cli {

/// Loads every `--plugin PATH` (repeatable; given before or after the subcommand) and every
/// path of the NSH_PLUGINS environment variable (':'-separated), removing the --plugin options
/// from argv. Throws InputError naming --plugin (or NSH_PLUGINS) and the loader's message for
/// a library that cannot be loaded. Returns the paths loaded, in order.
std::vector<std::string> load_plugins(int& argc, char** argv);

}  // namespace nsh::cli
