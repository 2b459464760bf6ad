// `nsh list [schemes|cases|properties|mutants]`: what this build knows, from the registries.
#include "commands.hpp"
#include "external_option.hpp"

#include <nsh/cases/catalogue.hpp>
#include <nsh/error.hpp>
#include <nsh/first_order/scheme.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/registry.hpp>

#include <iostream>
#include <string>

namespace nsh::cli {
namespace {

template <class Entry>
void print_entry(std::ostream& out, const Entry& entry, const std::string& marks) {
  out << entry.name << marks << (entry.make.template get<Rational>() ? "" : "  [no rational]")
      << "\n";
  if (!entry.summary.empty()) out << "    " << entry.summary << "\n";
  for (const auto& option : entry.options) {
    out << "    " << option.key << "="
        << (option.default_value.empty() ? "(optional, no default)" : option.default_value);
    if (!option.description.empty()) out << "  " << option.description;
    if (!option.choices.empty()) {
      out << "  [choices:";
      for (const auto& c : option.choices) out << " " << c;
      out << "]";
    }
    out << "\n";
  }
}

void list_entries(std::ostream& out, bool mutants) {
  const Registry& registry = Registry::builtin();
  const auto names = registry.names(mutants);
  if (names.empty()) out << (mutants ? "(no mutants registered)\n" : "(no schemes registered)\n");
  // dla and its mutants step nonholonomic models only (the nonholonomic cases).
  for (const auto& name : names)
    print_entry(
        out, registry.find(name),
        registry.make<double>(name)->info().family == "nonholonomic" ? "  [nonholonomic]" : "");
  if (mutants) return;
  // The first-order schemes step a sweeping process (x' in f - N_C(x)), not the linear model:
  // they run on the first-order cases (sweeping-*, penalty-line).
  const FirstOrderRegistry& first_order = FirstOrderRegistry::builtin();
  for (const auto& name : first_order.names())
    print_entry(out, first_order.find(name), "  [first-order]");
}

void list_cases(std::ostream& out) {
  const auto names = builtin_case_names();
  if (names.empty()) out << "(no built-in cases found; set NSH_CASES_DIR)\n";
  for (const auto& name : names) {
    out << name << "\n";
    // What is known exactly, from the cases catalogue (nsh/cases/catalogue.hpp).
    if (const auto* info = cases::find_case(name)) out << "    " << info->summary << "\n";
  }
}

// `nsh list properties` belongs to the property suite: nsh::cli::list_properties (declared in
// commands.hpp) is defined with the check command in cmd_check.cpp.
int list_properties_branch(std::ostream& out) {
  list_properties(out);
  return 0;
}

}  // namespace

void add_list_command(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("list", "List built-in schemes, cases, properties or mutants");
  auto what = std::make_shared<std::string>();
  auto spec = std::make_shared<std::string>();
  auto external = std::make_shared<ExternalArgs>();
  cmd->add_option("what", *what,
                  "schemes, cases, properties, mutants or claims (default: all but "
                  "properties and claims)")
      ->check(CLI::IsMember({"schemes", "cases", "properties", "mutants", "claims"}));
  cmd->add_option("spec", *spec,
                  "with claims: one scheme spec (default: every scheme's representative specs)");
  // `nsh list claims --external CMD`: what a client claims after its handshake (nothing but
  // the black-box set, or what its claims_as spec claims), as nsh check will judge it.
  add_external_options(cmd, *external);
  cmd->callback([what, spec, external, &status] {
    std::ostream& out = std::cout;
    if (!spec->empty() && *what != "claims")
      throw InputError("spec", "a scheme spec follows `nsh list claims` only");
    if (!external->command.empty() && *what != "claims")
      throw InputError("--external", "--external goes with `nsh list claims` only");
    if (*what == "claims") {
      list_claims(out, external->command.empty() ? *spec : external_spec(*external, *spec));
    } else if (*what == "schemes") {
      list_entries(out, false);
    } else if (*what == "cases") {
      list_cases(out);
    } else if (*what == "mutants") {
      list_entries(out, true);
    } else if (*what == "properties") {
      status = list_properties_branch(out);
      return;
    } else {
      out << "schemes:\n";
      list_entries(out, false);
      out << "\ncases:\n";
      list_cases(out);
      out << "\nmutants:\n";
      list_entries(out, true);
    }
    status = 0;
  });
}

}  // namespace nsh::cli
