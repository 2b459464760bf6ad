#pragma once
// `--external 'CMD'` on nsh check, simulate, converge and energy (docs/external-protocol.md):
// registers the client as the scheme "external" with its claims, and checks how the flag
// combines with --scheme (only external[:options] may be given beside it).
#include <CLI/CLI.hpp>

#include <string>

namespace nsh::cli {

struct ExternalArgs {
  std::string command;
  double timeout_seconds{10};
};

/// Adds --external and --external-timeout to `cmd`.
void add_external_options(CLI::App* cmd, ExternalArgs& args);

/// With --external: register the client (once) and return the spec to run — `scheme` if it
/// names external[:options], "external" if it is empty; InputError (exit 2) for any other
/// --scheme. Without --external: `scheme` unchanged.
std::string external_spec(const ExternalArgs& args, const std::string& scheme);

/// A replay line with --scheme 'external...' rewritten to --external 'CMD' [--scheme ...].
std::string external_replay(const ExternalArgs& args, const std::string& line);

}  // namespace nsh::cli
