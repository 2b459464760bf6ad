// --external (external_option.hpp): the client as the registry scheme "external".
#include "external_option.hpp"

#include <nsh/error.hpp>
#include <nsh/external/external_scheme.hpp>
#include <nsh/properties/claims.hpp>

namespace nsh::cli {

void add_external_options(CLI::App* cmd, ExternalArgs& args) {
  cmd->add_option("--external", args.command,
                  "run the scheme in this program (a shell command speaking the step protocol "
                  "of docs/external-protocol.md); --scheme may then only be external[:options]");
  cmd->add_option("--external-timeout", args.timeout_seconds,
                  "seconds the program may take for one request (default 10)")
      ->check(CLI::PositiveNumber);
}

std::string external_spec(const ExternalArgs& args, const std::string& scheme) {
  if (args.command.empty()) return scheme;
  if (!scheme.empty() && SchemeSpec::parse(scheme).name() != external::scheme_name)
    throw InputError("--scheme", "'" + scheme +
                                     "' with --external: give --scheme only as "
                                     "external[:key=value,...] (the client's options)");
  Registry& registry = Registry::builtin();
  if (!registry.contains(external::scheme_name)) {
    external::ExternalCommand command;
    command.command = args.command;
    command.timeout_seconds = args.timeout_seconds;
    const external::ClientInfo info = external::register_external_scheme(registry, command);
    // A client that claims nothing is held to the black-box properties, judged from its states
    // and impulses alone; claims_as holds it to a built-in scheme's claims table instead.
    properties::set_claims(registry.find(external::scheme_name), [](const SchemeInfo& i) {
      std::vector<properties::Claim> out;
      const auto add = [&](const char* p, const char* domain) {
        out.push_back({p, domain, {}, {}});
      };
      if (i.impulse_lcp) {
        add("newton_restitution", "every model (black box: states and impulses)");
        add("signorini_complementarity", "every model (black box)");
        add("impact_work_nonpositive", "every model (black box, Thomson-Tait)");
      }
      add("penetration_bound", "every model (black box)");
      if (i.momentum_conserving) add("momentum_balance", "every model (black box)");
      return out;
    });
    if (!info.claims_as.empty()) {
      const SchemeSpec as = SchemeSpec::parse(info.claims_as);
      if (as.name() == external::scheme_name || !registry.contains(as.name()) ||
          registry.find(as.name()).is_mutant)
        throw SpecError("--external", "the client's claims_as '" + info.claims_as +
                                          "' names no built-in scheme (nsh list schemes)");
      (void)properties::claims_of(registry.make<double>("external")->info());
    }
  }
  return scheme.empty() ? std::string(external::scheme_name) : scheme;
}

std::string external_replay(const ExternalArgs& args, const std::string& line) {
  if (args.command.empty()) return line;
  std::string out = line;
  const std::string key = "--scheme '";
  const auto at = out.find(key + external::scheme_name);
  if (at == std::string::npos) return out;
  const auto end = out.find('\'', at + key.size());
  const std::string spec = out.substr(at + key.size(), end - at - key.size());
  std::string replacement = "--external " + external::shell_quote(args.command);
  if (spec != external::scheme_name) replacement += " --scheme '" + spec + "'";
  out.replace(at, end + 1 - at, replacement);
  return out;
}

}  // namespace nsh::cli
