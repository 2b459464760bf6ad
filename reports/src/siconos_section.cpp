// The report's "Siconos 4.4 under the gate" section (siconos_section.hpp).
#include "siconos_section.hpp"

#include <nsh/reports/svg_plot.hpp>

#include <nsh/properties/check.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/properties/runner.hpp>
#include <nsh/registry.hpp>

#include <fmt/format.h>

#include <exception>
#include <vector>

namespace nsh::reports {
namespace {

struct SiconosSectionRow {
  std::string spec, property;
  bool claimed{false};
  int cases{0};
  bool failed{false};
  std::string note;
};

}  // namespace

void siconos_section(const properties::CheckOptions& check, bool skipped,
                     const std::function<void(const std::string&)>& progress, std::string& html,
                     std::string& mdown) {
  const Registry& registry = Registry::builtin();
  std::vector<std::string> specs;
  for (const std::string& name : registry.names())
    if (name.rfind("siconos:", 0) == 0)
      for (const std::string& spec : registry.find(name).representatives) specs.push_back(spec);
  html += "<h2 id=\"siconos\">Siconos 4.4 under the gate</h2>\n";
  mdown += "## Siconos 4.4 under the gate\n\n";
  if (specs.empty()) {
    const std::string sentence =
        "The Siconos adapters (siconos:*) are not built into this program: the section is "
        "empty (docs/siconos.md).";
    html += "<p>" + xml_escape(sentence) + "</p>\n";
    mdown += sentence + "\n\n";
    return;
  }
  if (skipped) {
    const std::string sentence =
        "Skipped in this run (nsh report --no-siconos); without that option the section checks "
        "every siconos:* adapter (docs/siconos.md).";
    html += "<p>" + xml_escape(sentence) + "</p>\n";
    mdown += sentence + "\n\n";
    progress("siconos: skipped (--no-siconos)");
    return;
  }
  properties::CheckOptions options = check;
  options.force = true;  // the unclaimed properties are findings too
  options.progress = nullptr;
  std::vector<SiconosSectionRow> rows;
  for (const std::string& spec : specs) {
    std::vector<std::string> applicable;
    for (const std::string& property : properties::shared_property_names())
      if (properties::inapplicable_reason(spec, property).empty()) applicable.push_back(property);
    // One run_checks per adapter, so that its pairs share the --jobs processes; a check that
    // throws makes the rows run one by one, each saying whether it could run.
    std::vector<properties::Verdict> verdicts;
    try {
      verdicts = properties::run_checks({spec}, applicable, options);
    } catch (const std::exception&) {
      verdicts.clear();
    }
    for (std::size_t i = 0; i < applicable.size(); ++i) {
      SiconosSectionRow row;
      row.spec = spec;
      row.property = applicable[i];
      try {
        const auto scheme = registry.make<double>(spec);
        row.claimed = properties::find_claim(scheme->info(), row.property).has_value();
        const properties::Verdict v = verdicts.size() == applicable.size()
                                          ? verdicts[i]
                                          : properties::check_property(spec, row.property, options);
        if (v.outcome == properties::Outcome::not_applicable) continue;
        row.cases = v.cases_run;
        row.failed = v.outcome == properties::Outcome::fail;
        if (v.counterexample && !v.counterexample->values.empty())
          row.note = v.counterexample->values.front().second;
      } catch (const std::exception& e) {
        row.failed = true;
        row.note = std::string("the check could not run: ") + e.what();
      }
      rows.push_back(std::move(row));
    }
    int tried = 0, failed = 0;
    for (const auto& row : rows)
      if (row.spec == spec) {
        ++tried;
        failed += row.failed ? 1 : 0;
      }
    progress(fmt::format("siconos {}: {} properties, {} failed", spec, tried, failed));
  }
  html += fmt::format(
      "<p class=\"note\">Every siconos:* adapter of this program x every shared property that "
      "applies to it, claimed or not (unclaimed: checked as with <code>nsh check --force</code>), "
      "{} random cases plus the designed ones, seed {}. Failed = a counterexample was found "
      "(the search stops at the first and shrinks it). Reproduce one row with <code>nsh check "
      "--scheme SPEC --property P --force --cases {} --seed {}</code>.</p>\n",
      check.cases, check.seed, check.cases, check.seed);
  html +=
      "<table>\n<tr><th>integrator</th><th>property</th><th>claimed</th><th>cases "
      "tried</th><th>failed</th><th>what broke</th></tr>\n";
  mdown +=
      "| integrator | property | claimed | cases tried | failed | what broke |\n"
      "|---|---|---|---|---|---|\n";
  for (const auto& r : rows) {
    html += fmt::format(
        "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"
        "\n",
        xml_escape(r.spec), xml_escape(r.property), r.claimed ? "yes" : "no", r.cases,
        r.failed ? 1 : 0, xml_escape(r.note));
    std::string note = r.note;
    for (char& c : note)
      if (c == '|' || c == '\n') c = ' ';
    mdown += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", r.spec, r.property,
                         r.claimed ? "yes" : "no", r.cases, r.failed ? 1 : 0, note);
  }
  html += "</table>\n";
  mdown += "\n";
}

}  // namespace nsh::reports
