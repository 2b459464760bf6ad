#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/number.hpp>
#include <nsh/properties/verdict_io.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/convergence.hpp>
#include <nsh/reports/energy.hpp>
#include <nsh/reports/friction.hpp>
#include <nsh/reports/nonholonomic.hpp>
#include <nsh/reports/report.hpp>
#include <nsh/reports/seed002.hpp>
#include <nsh/reports/svg_plot.hpp>
#include "siconos_section.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace nsh::reports {

namespace fs = std::filesystem;

namespace {

struct StudySet {
  ReportCaseStudy spec;
  std::vector<ConvergenceStudy> studies;
  std::vector<std::pair<std::string, std::string>> skipped;  ///< (scheme, why)
  std::string dir;                                           ///< relative to out_dir
};

struct EnergySet {
  std::string case_name;
  std::vector<EnergyReport> reports;
  std::vector<std::string> dirs;                             ///< relative, one per report
  std::vector<std::pair<std::string, std::string>> skipped;  ///< (scheme, why)
};

void write_file(const fs::path& path, const std::string& text, std::vector<std::string>& files) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path);
  out << text;
  if (!out) throw InputError("--out", "cannot write '" + path.string() + "'");
  files.push_back(path.string());
}

std::string esc(const std::string& s) {
  return xml_escape(s);
}

std::string md(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string fmt_order(const OrderFit& fit) {
  if (!fit.reason.empty()) return fit.reason;  // "exact at every h": no slope to show
  return fit.defined() ? fmt::format("{:.2f}", fit.order) : "–";
}
std::string fmt_residual(const OrderFit& fit) {
  return fit.defined() ? fmt::format("{:.2g}", fit.residual) : "–";
}

const char* kCss = R"css(
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1250px; padding: 0 12px;
       color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
.scroll { max-width: 100%; overflow-x: auto; }
table.verdicts td { text-align: center; white-space: nowrap; padding: 2px 4px; }
table.verdicts td a { color: inherit; text-decoration: none; display: block; }
table.verdicts th.scheme { max-width: 21em; overflow-wrap: anywhere; font-weight: normal;
                           font-family: monospace; font-size: 0.95em; }
table.verdicts th.group { text-align: center; }
table.verdicts th.property { vertical-align: bottom; padding: 4px 2px; }
table.verdicts th.property span { writing-mode: vertical-rl; transform: rotate(180deg);
                                  white-space: nowrap; font-weight: normal; }
table.legend td { max-width: 30em; overflow-wrap: anywhere; }
table.legend th { white-space: nowrap; }
table.legend td.domains { max-width: 28em; font-size: 0.95em; }
td.pass { background: #dff0d8; } td.fail { background: #f2b8b5; font-weight: bold; }
td.not_claimed { background: #f7f7f7; color: #777; } td.not_applicable { color: #aaa; }
td.none { color: #ccc; }
td.num { text-align: right; font-family: monospace; }
div.detail { border-left: 4px solid #ccc; padding: 2px 8px; margin: 4px 0; font-size: 0.85em;
             overflow-wrap: anywhere; }
div.detail.pass { border-color: #8bc48a; } div.detail.fail { border-color: #c0392b; }
div.detail:target { background: #fff6d5; }
.plots { display: flex; flex-wrap: wrap; gap: 8px; }
.plots svg { max-width: 100%; height: auto; }
pre { background: #f7f7f7; padding: 6px; overflow-x: auto; font-size: 0.8em; }
.note { color: #555; font-size: 0.9em; }
)css";

// Work-precision from one run per point zig-zags: a sub-millisecond run is at the mercy of
// the cache and the scheduler. The report times each point again, the way the study does
// (scheme construction + simulation): runs until there are at least kMinRuns and kMinSeconds of
// them (at most kMaxRuns, the study's own run counting as the first), and keeps the median.
constexpr int kMinRuns = 3, kMaxRuns = 15;
constexpr double kMinSeconds = 0.02;
// A run this long is timed once: scheduler and cache noise are a small part of it, and rerunning
// the slow points would dominate the report's time.
constexpr double kLongRun = 0.05;
const char* const kTimingNote =
    "wall time: median of at least 3 runs and 20 ms of runs per point (one run from 50 ms up; "
    "scheme construction + simulation), as written in convergence.json";

template <class Scalar>
double run_seconds(const CaseDocument& document, const std::string& spec, const std::string& h_text,
                   const std::string& T_text) {
  LinearCase<Scalar> c = load_linear_case<Scalar>(document);
  if (!T_text.empty()) c.T = parse_number<Scalar>(T_text, "T");
  const Scalar h = parse_number<Scalar>(h_text, "h");
  const auto start = std::chrono::steady_clock::now();
  auto scheme = Registry::builtin().make<Scalar>(spec);
  (void)simulate<Scalar>(*scheme, c.model, c.initial, h, c.T);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void retime(std::vector<ConvergenceStudy>& studies, const ReportCaseStudy& cs,
            const std::function<void(const std::string&)>& progress) {
  const CaseDocument document = read_case_file(locate_case(cs.case_name));
  const auto family = document.root.find("family");
  if (family != document.root.end() && !(family->is_string() && *family == "linear")) return;
  for (auto& s : studies) {
    if (s.h.size() != cs.h.size() || s.wall_seconds.size() != s.h.size()) continue;
    for (std::size_t i = 0; i < s.h.size(); ++i) {
      if (i < s.failures.size() && !s.failures[i].empty()) continue;
      if (!(s.wall_seconds[i] < kLongRun)) continue;
      std::vector<double> runs{s.wall_seconds[i]};
      double total = runs.front();
      try {
        while ((runs.size() < kMinRuns || total < kMinSeconds) && runs.size() < kMaxRuns) {
          runs.push_back(s.precision == "50"
                             ? run_seconds<Real50>(document, s.scheme, cs.h[i], cs.T)
                             : run_seconds<double>(document, s.scheme, cs.h[i], cs.T));
          total += runs.back();
        }
      } catch (const std::exception&) {
        continue;  // the study's own run stands (it succeeded; a rerun should too)
      }
      std::sort(runs.begin(), runs.end());
      s.wall_seconds[i] = runs[runs.size() / 2];
    }
    progress(
        fmt::format("timed {} {} (median of >= {} runs per h)", cs.case_name, s.scheme, kMinRuns));
  }
}

// A spec as a reader wants it in a table: the options that differ from the scheme's defaults
// ("moreau-jean:theta=1" for moreau-jean:activation=position-velocity,lcp=lemke,theta=1). The
// full canonical spec stays in the data attributes, the tooltip and the details.
std::string short_spec(const std::string& spec) {
  SchemeSpec parsed;
  try {
    parsed = SchemeSpec::parse(spec);
  } catch (const std::exception&) {
    return spec;
  }
  const Registry& registry = Registry::builtin();
  if (!registry.contains(parsed.name())) return spec;
  std::map<std::string, std::string> defaults;
  for (const auto& o : registry.find(parsed.name()).options) defaults[o.key] = o.default_value;
  SchemeSpec out = SchemeSpec::parse(parsed.name());
  for (const auto& [key, value] : parsed.options()) {
    const auto d = defaults.find(key);
    if (d == defaults.end() || d->second != value) out.set(key, value);
  }
  return out.str();
}

// The verdict tables. Properties are grouped by what they are about; the schemes of the linear
// model (nsh::Scheme, second order), the nonholonomic ones (dla: their own seven properties)
// and the first-order schemes and projections (catching-up, penalty, projection:*) get a table
// each with only the properties that apply to them, so that no table is a sea of n/a (nor
// wider than the page: the browser check in cli/tests/report_suite.cpp). Every cell links to its
// details (statement with the claim's domain, note, counterexample) further down.
struct PropertyGroup {
  const char* title;
  std::vector<std::string> members;
};

const std::vector<PropertyGroup>& property_groups() {
  static const std::vector<PropertyGroup> groups{
      {"Contact law",
       {"signorini_complementarity", "newton_restitution", "lcp_certificate",
        "impact_work_nonpositive", "penetration_bound", "penalty2_penetration_bound"}},
      {"Energy",
       {"energy_identity", "moreau_jean_energy_dissipation", "algorithmic_energy_decay",
        "energy_conservation", "penalty2_energy_balance"}},
      {"Momentum and accuracy", {"momentum_balance", "double_vs_real50", "observed_order"}},
      {"Friction",
       {"coulomb_cone", "maximal_dissipation", "friction_work_nonpositive",
        "friction_certificate"}},
      {"Nonholonomic constraints",
       {"nonholonomic_admissible", "nonholonomic_discrete_constraints",
        "nonholonomic_smooth_energy", "nonholonomic_impact_point", "nonholonomic_impact_multiplier",
        "nonholonomic_impact_reflection", "nonholonomic_impact_energy_order"}},
      {"Projections",
       {"projection_nonexpansive", "projection_idempotent", "projection_variational_inequality"}},
      {"First-order schemes",
       {"catching_up_error_bound", "penalty_convergence", "penalty_stability"}},
  };
  return groups;
}

std::string group_of(const std::string& property) {
  for (const auto& g : property_groups())
    if (std::find(g.members.begin(), g.members.end(), property) != g.members.end()) return g.title;
  return "Other";
}

std::string anchor_of(const properties::Verdict& v) {
  return "v-" + slug(v.scheme) + "--" + v.property;
}

bool second_order(const std::string& spec) {
  const std::string family = spec.substr(0, spec.find(':'));
  return Registry::builtin().contains(family);
}

bool nonholonomic(const std::string& spec) {
  if (!second_order(spec)) return false;
  try {
    return Registry::builtin().make<double>(spec)->info().family == "nonholonomic";
  } catch (const std::exception&) {
    return false;  // a scheme without a double factory: its row stays in the linear table
  }
}

// Short cell text: the outcome and, for a checked claim, the number of cases.
std::string cell_text(const properties::Verdict& v) {
  switch (v.outcome) {
    case properties::Outcome::pass:
      return fmt::format("pass {}", v.cases_run);
    case properties::Outcome::fail:
      return "FAIL";
    case properties::Outcome::not_claimed:
      return "–";
    case properties::Outcome::not_applicable:
      return "n/a";
  }
  return "?";
}

void verdict_table(const std::string& title, const std::string& id,
                   const std::vector<std::string>& rows,
                   const std::vector<properties::Verdict>& verdicts, std::string& html,
                   std::string& mdown) {
  std::map<std::pair<std::string, std::string>, const properties::Verdict*> cell;
  std::set<std::string> present;
  for (const auto& v : verdicts) {
    if (std::find(rows.begin(), rows.end(), v.scheme) == rows.end()) continue;
    cell[{v.scheme, v.property}] = &v;
    if (v.outcome != properties::Outcome::not_applicable) present.insert(v.property);
  }
  // Columns: the groups' properties in group order, then any other property seen.
  std::vector<std::pair<std::string, std::vector<std::string>>> columns;
  for (const auto& g : property_groups()) {
    std::vector<std::string> members;
    for (const auto& p : g.members)
      if (present.count(p)) members.push_back(p);
    if (!members.empty()) columns.emplace_back(g.title, members);
  }
  std::vector<std::string> others;
  for (const auto& v : verdicts)
    if (present.count(v.property) && group_of(v.property) == "Other" &&
        std::find(others.begin(), others.end(), v.property) == others.end())
      others.push_back(v.property);
  if (!others.empty()) columns.emplace_back("Other", others);

  html += "<h3 id=\"" + id + "\">" + esc(title) + "</h3>\n<div class=\"scroll\">";
  html += "<table class=\"verdicts\">\n<tr><th rowspan=\"2\" class=\"scheme\">scheme</th>";
  for (const auto& [group, members] : columns)
    html += fmt::format("<th colspan=\"{}\" class=\"group\">{}</th>", members.size(), esc(group));
  html += "</tr>\n<tr>";
  mdown += "### " + title + "\n\n| scheme |";
  std::string rule = "|---|";
  for (const auto& [group, members] : columns)
    for (const auto& p : members) {
      html += "<th class=\"property\"><a href=\"#p-" + esc(p) + "\"><span>" + esc(p) +
              "</span></a></th>";
      mdown += " " + md(p) + " |";
      rule += "---|";
    }
  html += "</tr>\n";
  mdown += "\n" + rule + "\n";
  for (const auto& r : rows) {
    html += "<tr><th class=\"scheme\" title=\"" + esc(r) + "\">" + esc(short_spec(r)) + "</th>";
    mdown += "| " + md(r) + " |";
    for (const auto& [group, members] : columns)
      for (const auto& p : members) {
        auto it = cell.find({r, p});
        if (it == cell.end()) {
          html +=
              "<td class=\"none\" title=\"not checked: no provider of this scheme knows the "
              "property\">·</td>";
          mdown += " |";
          continue;
        }
        const auto& v = *it->second;
        const std::string outcome = properties::outcome_key(v.outcome);
        html += fmt::format(
            "<td class=\"{}\" data-scheme=\"{}\" data-property=\"{}\" data-outcome=\"{}\">"
            "<a href=\"#{}\" title=\"{}\">{}</a></td>",
            esc(outcome), esc(v.scheme), esc(v.property), esc(outcome), esc(anchor_of(v)),
            esc(v.note.empty() ? v.statement : v.note), esc(cell_text(v)));
        mdown += " " + md(cell_text(v)) + " |";
      }
    html += "</tr>\n";
    mdown += "\n";
  }
  html += "</table></div>\n";
  mdown += "\n";
  // Properties every row of this table has as n/a are left out: say which.
  std::vector<std::string> dropped;
  for (const auto& v : verdicts)
    if (std::find(rows.begin(), rows.end(), v.scheme) != rows.end() && !present.count(v.property) &&
        std::find(dropped.begin(), dropped.end(), v.property) == dropped.end())
      dropped.push_back(v.property);
  if (!dropped.empty()) {
    std::string list;
    for (const auto& p : dropped) list += (list.empty() ? "" : ", ") + p;
    html +=
        "<p class=\"note\">Not applicable to any scheme of this table (not shown): " + esc(list) +
        ".</p>\n";
  }
}

void verdict_section(const ReportResult& result, const ReportOptions& options, std::string& html,
                     std::string& mdown) {
  std::vector<std::string> linear, constrained, first_order;
  std::set<std::string> placed;
  for (const auto& v : result.verdicts) {
    if (!placed.insert(v.scheme).second) continue;  // one table per scheme, decided once
    auto& rows = nonholonomic(v.scheme)   ? constrained
                 : second_order(v.scheme) ? linear
                                          : first_order;
    rows.push_back(v.scheme);
  }
  html += "<h2 id=\"verdicts\">Every built-in scheme against the shared properties</h2>\n";
  html += fmt::format(
      "<p class=\"note\">A scheme <em>claims</em> a property over a parameter domain. "
      "<b>pass N</b>: the claim was checked on N cases (designed cases, then {} random cases "
      "drawn inside the domain; for a claim with a sharp boundary, plus a designed search just "
      "outside it, which must find a violation) and held on every one. <b>FAIL</b>: a "
      "counterexample was found (click for it). <b>–</b>: not claimed for these parameters, so "
      "not checked (<code>nsh check --force</code> checks it anyway). <b>n/a</b>: the property "
      "cannot be evaluated on this scheme. Every cell links to its statement, domain and "
      "note; each column head links to the property's definition. The properties are defined in "
      "docs/properties.md.</p>\n",
      options.check.cases);
  mdown +=
      "## Verdicts\n\npass N: checked on N cases, held; FAIL: counterexample; –: not "
      "claimed; n/a: not applicable.\n\n";
  verdict_table("Schemes of the linear model (second order)", "verdicts-linear", linear,
                result.verdicts, html, mdown);
  if (!constrained.empty())
    verdict_table("Nonholonomic schemes (velocity constraints)", "verdicts-nonholonomic",
                  constrained, result.verdicts, html, mdown);
  if (!first_order.empty())
    verdict_table("First-order schemes and projections", "verdicts-first-order", first_order,
                  result.verdicts, html, mdown);

  for (const auto& [spec, why] : result.check_errors) {
    html +=
        "<p class=\"note\"><b>check error</b> (no verdicts for this scheme; nsh check "
        "exits with status 2 here): " +
        esc(spec) + ": " + esc(why) + "</p>\n";
    mdown += "- **check error** on " + md(spec) + ": " + md(why) + "\n";
  }
  if (!result.check_errors.empty()) mdown += "\n";

  // Legend: every property with its statement, hypotheses and tolerance, by group.
  html += "<h3 id=\"legend\">The properties</h3>\n";
  std::set<std::string> seen;
  for (const auto& v : result.verdicts) seen.insert(v.property);
  const auto descriptions = properties::all_properties();
  // The claims' domains, from the verdicts' statements ("...  [claimed: DOMAIN]"): which
  // schemes claim each property, where.
  std::map<std::string, std::vector<std::pair<std::string, std::vector<std::string>>>> domains;
  for (const auto& v : result.verdicts) {
    if (v.outcome != properties::Outcome::pass && v.outcome != properties::Outcome::fail) continue;
    const std::string marker = "  [claimed: ";
    const auto at = v.statement.find(marker);
    // A provider that states no domain in its statements claims the hypotheses as given.
    const std::string domain =
        at == std::string::npos || v.statement.back() != ']'
            ? std::string("the hypotheses as stated")
            : v.statement.substr(at + marker.size(), v.statement.size() - at - marker.size() - 1);
    auto& list = domains[v.property];
    auto it = std::find_if(list.begin(), list.end(),
                           [&](const auto& entry) { return entry.first == domain; });
    if (it == list.end()) it = list.insert(list.end(), {domain, {}});
    it->second.push_back(short_spec(v.scheme));
  }
  std::vector<std::string> groups;
  for (const auto& g : property_groups()) groups.push_back(g.title);
  groups.push_back("Other");
  for (const auto& group : groups) {
    std::string rows;
    for (const auto& d : descriptions) {
      if (!seen.count(d.name) || group_of(d.name) != group) continue;
      std::string claimed;
      for (const auto& [domain, specs] : domains[d.name]) {
        std::string names;
        for (const auto& spec : specs) names += (names.empty() ? "" : ", ") + spec;
        claimed += "<div><b>" + esc(names) + "</b>: " + esc(domain) + "</div>";
      }
      rows += "<tr id=\"p-" + esc(d.name) + "\"><th>" + esc(d.name) + "</th><td>" +
              esc(d.statement) + "</td><td>" + esc(d.hypotheses) + "</td><td>" + esc(d.tolerance) +
              "</td><td class=\"domains\">" +
              (claimed.empty() ? std::string("(checked on no scheme here)") : claimed) +
              "</td></tr>\n";
    }
    if (rows.empty()) continue;
    html += "<h4>" + esc(group) +
            "</h4>\n<div class=\"scroll\"><table class=\"legend\"><tr><th>property</th>"
            "<th>statement</th><th>hypotheses</th><th>tolerance</th>"
            "<th>claimed by (domain)</th></tr>\n" +
            rows + "</table></div>\n";
  }

  // Details of every verdict: what a cell links to.
  html += "<h3 id=\"details\">Verdict details</h3>\n";
  html +=
      "<p class=\"note\">One entry per cell: the statement as the scheme claims it (with "
      "its domain), the cases, the note; for a failure, the values that broke it, the "
      "shrunk case file and the commands that replay it.</p>\n";
  bool any_fail = false;
  for (const auto& v : result.verdicts) {
    const std::string outcome = properties::outcome_key(v.outcome);
    html += "<div class=\"detail " + esc(outcome) + "\" id=\"" + esc(anchor_of(v)) +
            "\" data-scheme=\"" + esc(v.scheme) + "\" data-property=\"" + esc(v.property) +
            "\" data-outcome=\"" + esc(outcome) + "\"><b>" + esc(v.scheme) +
            "</b> / <a href=\"#p-" + esc(v.property) + "\">" + esc(v.property) +
            "</a>: <span class=\"outcome\">" + esc(properties::to_string(v.outcome)) + "</span>" +
            (v.cases_run > 0 ? fmt::format(" on {} cases", v.cases_run) : std::string()) + "<br/>" +
            esc(v.statement) + (v.note.empty() ? std::string() : "<br/><i>" + esc(v.note) + "</i>");
    if (v.outcome == properties::Outcome::fail) {
      if (!any_fail) {
        mdown += "### Counterexamples\n\n";
        any_fail = true;
      }
      mdown += "- **" + md(v.scheme) + "** breaks **" + md(v.property) + "**";
      if (v.counterexample) {
        std::string values;
        for (const auto& [k, val] : v.counterexample->values) values += k + " = " + val + "\n";
        html += "<pre>" +
                esc(values + v.counterexample->simulate_hint + "\n" + v.counterexample->command +
                    "\n" + v.counterexample->case_file) +
                "</pre>";
        mdown += ": `" + v.counterexample->command + "`";
      }
      mdown += "\n";
    }
    html += "</div>\n";
  }
  if (any_fail) mdown += "\n";
}

}  // namespace

std::string slug(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.';
    out += keep ? c : (c == ':' ? '_' : '-');
  }
  return out;
}

std::vector<std::string> default_report_schemes() {
  std::vector<std::string> specs;
  for (const auto& name : Registry::builtin().names(false)) {
    if (name == "event-driven") continue;                  // it is the reference
    if (!Registry::builtin().find(name).in_all) continue;  // siconos:* has its own table
    // dla steps nonholonomic models only, not the linear cases of these studies.
    if (Registry::builtin().make<double>(name)->info().family == "nonholonomic") continue;
    if (name == "moreau-jean") {
      specs.push_back("moreau-jean:theta=1/2");
      specs.push_back("moreau-jean:theta=1");
    } else {
      specs.push_back(name);
    }
  }
  return specs;
}

std::vector<ReportCaseStudy> default_report_studies() {
  return {
      {"free-oscillator", {"1/25", "1/50", "1/100", "1/200", "1/400"}, "auto", ""},
      {"bouncing-ball", {"1/50", "1/100", "1/200", "1/400", "1/800"}, "auto", ""},
      {"impacting-bar", {"1/50", "1/100", "1/200", "1/400"}, "event-driven", ""},
  };
}

ReportResult run_report(const ReportOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  auto progress = [&](const std::string& line) {
    if (!options.progress) return;
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    options.progress(fmt::format("[{:6.1f} s] {}", s, line));
  };
  const fs::path out = options.out_dir;
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) throw InputError("--out", "cannot create '" + options.out_dir + "': " + ec.message());
  ReportResult result;

  // 1. Verdicts, scheme by scheme (the same calls `nsh check --scheme all` makes).
  std::vector<std::string> check_specs;
  for (const auto& provider : properties::providers())
    for (const auto& spec : provider->schemes()) check_specs.push_back(spec);
  for (std::size_t i = 0; i < check_specs.size(); ++i) {
    std::vector<properties::Verdict> verdicts;
    try {
      verdicts = properties::run_checks({check_specs[i]}, {"all"}, options.check);
    } catch (const std::exception& e) {
      // `nsh check` stops here with status 2; the report says so and goes on.
      result.check_errors.emplace_back(check_specs[i], e.what());
      progress(fmt::format("check {}/{} {}: error: {}", i + 1, check_specs.size(), check_specs[i],
                           e.what()));
      continue;
    }
    int failed = 0;
    for (const auto& v : verdicts) failed += v.outcome == properties::Outcome::fail ? 1 : 0;
    result.failed_verdicts += failed;
    progress(fmt::format("check {}/{} {}: {} verdicts, {} failed", i + 1, check_specs.size(),
                         check_specs[i], verdicts.size(), failed));
    for (auto& v : verdicts) result.verdicts.push_back(std::move(v));
  }
  {
    nlohmann::json j = nlohmann::json::object();
    j["options"] = {{"cases", options.check.cases},
                    {"seed", options.check.seed},
                    {"force", options.check.force}};
    j["verdicts"] = nlohmann::json::array();
    for (const auto& v : result.verdicts) j["verdicts"].push_back(properties::to_json(v));
    write_file(out / "verdicts.json", j.dump(2) + "\n", result.files);
    write_file(out / "verdicts.csv", properties::verdicts_csv(result.verdicts), result.files);
  }

  // 2. Convergence studies.
  const std::vector<std::string> schemes =
      options.schemes.empty() ? default_report_schemes() : options.schemes;
  const std::vector<ReportCaseStudy> study_specs =
      options.studies.empty() ? default_report_studies() : options.studies;
  std::vector<StudySet> study_sets;
  for (const auto& cs : study_specs) {
    StudySet set;
    set.spec = cs;
    set.dir = "convergence/" + slug(cs.case_name);
    // One study set per case, so the reference is computed once for every scheme; a spec that
    // does not resolve is listed as skipped, a scheme that rejects the case fails its runs.
    ConvergenceOptions co;
    co.case_name = cs.case_name;
    co.h = cs.h;
    co.reference = cs.reference;
    co.T = cs.T;
    co.keep_going = true;
    co.progress = progress;
    for (const auto& scheme : schemes) {
      try {
        co.schemes.push_back(Registry::builtin().resolve(scheme).str());
      } catch (const InputError& e) {
        set.skipped.emplace_back(scheme, e.what());
      }
    }
    try {
      set.studies = run_convergence(co);
      for (const auto& s : set.studies) {
        int failed = 0;
        for (const auto& f : s.failures) failed += f.empty() ? 0 : 1;
        auto it = s.fits.find("q_max");
        progress(fmt::format("converge {} {}: order(q_max) {}{}", cs.case_name, s.scheme,
                             it == s.fits.end() ? "-" : fmt_order(it->second),
                             failed ? fmt::format(", {} runs failed", failed) : ""));
      }
    } catch (const InputError& e) {
      set.skipped.emplace_back("(all schemes)", e.what());
      progress(fmt::format("converge {}: skipped ({})", cs.case_name, e.what()));
    }
    if (!set.studies.empty()) retime(set.studies, cs, progress);
    if (!set.studies.empty())
      for (auto& f : write_convergence(set.studies, (out / set.dir).string()))
        result.files.push_back(f);
    study_sets.push_back(std::move(set));
  }

  // 2b. Friction: the frictional scheme against the closed forms of the stop and of rolling.
  std::vector<FrictionStudy> friction_studies;
  try {
    friction_studies = default_friction_studies();
  } catch (const InputError& e) {
    progress(fmt::format("friction: skipped ({})", e.what()));
  }
  for (const auto& study : friction_studies) {
    const std::string dir = "friction/" + slug(study.case_name);
    std::string csv =
        "case,scheme,h,reached,event_time,event_reference,event_error,speed,speed_reference,"
        "speed_error,position,position_reference,position_error\n";
    for (const auto& r : study.rows)
      csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", study.case_name, study.scheme,
                         r.h, r.reached ? 1 : 0, r.event_time, study.event_reference, r.event_error,
                         r.speed, study.speed_reference, r.speed_error, r.position,
                         study.position_reference, r.position_error);
    write_file(out / dir / "friction.csv", csv, result.files);
    if (!study.rows.empty())
      write_file(out / dir / "friction.svg", friction_plot(study), result.files);
    progress(fmt::format("friction {} {}: {}", study.case_name, study.scheme,
                         study.failure.empty() ? fmt::format("{} step sizes", study.rows.size())
                                               : "not run (" + study.failure + ")"));
  }

  // 2c. Friction on nonlinear rigid bodies (lagrangian case files): convergence studies of
  // moreau-jean at a few step sizes, against the rocking block's closed form and the rod's
  // self-convergence reference.
  const std::vector<LagrangianFrictionStudy> lagrangian_friction =
      default_lagrangian_friction_studies(progress);
  for (const auto& study : lagrangian_friction) {
    if (!study.studies.empty())
      for (auto& f :
           write_convergence(study.studies, (out / ("friction/" + slug(study.case_name))).string()))
        result.files.push_back(f);
    progress(
        fmt::format("friction {}: {}", study.case_name,
                    study.studies.empty()
                        ? "not run (" + study.failure + ")"
                        : fmt::format("order({}) {}", study.measure,
                                      fmt_order(study.studies.front().fits.at(study.measure)))));
  }

  // 2d. Nonholonomic systems: dla and moreau-jean on the rolling disk and the knife edge
  // against the exact reference, the DLA's impact energy jump against h, the paths.
  const std::vector<NonholonomicStudy> nonholonomic = default_nonholonomic_studies(progress);
  const auto nonholonomic_dir = [](const std::string& case_name) {
    return "nonholonomic/" + slug(case_name);
  };
  for (const auto& study : nonholonomic) {
    if (!study.studies.empty())
      for (auto& f :
           write_convergence(study.studies, (out / nonholonomic_dir(study.case_name)).string()))
        result.files.push_back(f);
    if (!study.impact_studies.empty())
      for (auto& f :
           write_convergence(study.impact_studies,
                             (out / nonholonomic_dir(study.case_name) / "impact-times").string()))
        result.files.push_back(f);
    progress(fmt::format("nonholonomic {}: {}", study.case_name,
                         study.failure.empty() ? "done" : "not run (" + study.failure + ")"));
  }

  // 2e. Seed 002: half-explicit-tdg, moreau-jean and forecasting-trapezoidal on the same
  // examples (orders, penetration against h, energy, Newton iterations and CPU per step).
  const std::vector<Seed002Case> seed002 = default_seed002_cases(progress);
  for (const auto& c : seed002) {
    if (!c.studies.empty())
      for (auto& f : write_convergence(c.studies, (out / "seed002" / slug(c.case_name)).string()))
        result.files.push_back(f);
    progress(fmt::format("seed 002 {}: {}", c.case_name,
                         c.failure.empty() ? "done" : "not run (" + c.failure + ")"));
  }

  // 3. Energy ledgers at each case's own h.
  const std::vector<std::string> energy_cases =
      options.energy_cases.empty() ? std::vector<std::string>{"bouncing-ball", "free-oscillator"}
                                   : options.energy_cases;
  std::vector<EnergySet> energy_sets;
  for (const auto& case_name : energy_cases) {
    EnergySet set;
    set.case_name = case_name;
    const CaseDocument document = read_case_file(locate_case(case_name));
    // The case's own h, else 1/100.
    const std::string h = document.root.contains("h") ? std::string() : std::string("1/100");
    for (const auto& scheme : schemes) {
      try {
        const std::string canonical = Registry::builtin().resolve(scheme).str();
        const std::string dir = "energy/" + slug(case_name) + "/" + slug(canonical);
        fs::create_directories(out / dir);
        EnergyOptions eo;
        eo.case_name = case_name;
        eo.spec = canonical;
        eo.h = h;
        eo.csv_path = (out / dir / "energy.csv").string();
        EnergyReport report = energy_report(eo);
        result.files.push_back(eo.csv_path);
        for (auto& f : write_energy(report, (out / dir).string())) result.files.push_back(f);
        progress(fmt::format("energy {} {}: {} steps, {}", case_name, report.scheme, report.steps,
                             report.verdict_text()));
        set.reports.push_back(std::move(report));
        set.dirs.push_back(dir);
      } catch (const InputError& e) {
        set.skipped.emplace_back(scheme, e.what());
        progress(fmt::format("energy {} {}: skipped ({})", case_name, scheme, e.what()));
      }
    }
    energy_sets.push_back(std::move(set));
  }

  // 4. The page and the Markdown summary.
  std::map<std::string, int> counts;
  for (const auto& v : result.verdicts) ++counts[properties::outcome_key(v.outcome)];

  std::string html;
  std::string mdown;
  html += "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n";
  html += "<meta charset=\"utf-8\"/>\n<title>nsh report</title>\n<style>";
  html += kCss;
  html += "</style>\n</head>\n<body>\n<h1>nsh report</h1>\n";
  const std::string totals = fmt::format(
      "{} verdicts: {} pass, {} fail, {} not claimed, {} not applicable", result.verdicts.size(),
      counts["pass"], counts["fail"], counts["not_claimed"], counts["not_applicable"]);
  html += "<p>" + esc(totals) +
          fmt::format(
              ". Check options: {} random cases per (scheme, property), seed {} "
              "(reproduce with <code>nsh check --scheme all --property all --cases {} "
              "--seed {}</code>).</p>\n",
              options.check.cases, options.check.seed, options.check.cases, options.check.seed);
  html +=
      "<p class=\"note\">Sections: <a href=\"#verdicts\">verdicts</a> (<a "
      "href=\"#legend\">the properties</a>, <a href=\"#details\">details</a>), "
      "<a href=\"#siconos\">Siconos under the gate</a>, "
      "<a href=\"#convergence\">convergence</a>, <a href=\"#friction\">friction</a> "
      "(<a href=\"#nonholonomic\">nonholonomic systems</a>, <a href=\"#seed-002\">seed "
      "002</a>), <a href=\"#energy\">energy</a>. Data: "
      "<a href=\"verdicts.json\">verdicts.json</a>, <a href=\"verdicts.csv\">verdicts.csv</a>"
      ", <a href=\"summary.md\">summary.md</a>.</p>\n";
  mdown += "# nsh report\n\n" + totals +
           fmt::format(" (check options: --cases {} --seed {}).\n\n", options.check.cases,
                       options.check.seed);

  verdict_section(result, options, html, mdown);
  siconos_section(options.check, !options.siconos, progress, html, mdown);

  // Convergence.
  html += "<h2 id=\"convergence\">Convergence and work-precision</h2>\n";
  html +=
      "<p class=\"note\">Observed order = least-squares slope of log10(error) against "
      "log10(h); residual = RMS distance of the points from that line, in decades (a large "
      "residual means the study is not in its asymptotic range, or stalls, or diverges). "
      "Errors are max-norms over the degrees of freedom; v_l1 is the time integral of "
      "|v − v_ref|, meaningful across velocity jumps; impact_time compares the first step "
      "with a nonzero impulse with the reference's first impact.</p>\n";
  mdown += "## Convergence (observed order, fit residual in decades)\n\n";
  for (const auto& set : study_sets) {
    const std::string reference =
        set.studies.empty() ? set.spec.reference : set.studies.front().reference;
    html += "<h3>" + esc(set.spec.case_name) +
            "</h3>\n<p class=\"note\">reference: " + esc(reference) + "; h = ";
    std::string hs;
    for (std::size_t i = 0; i < set.spec.h.size(); ++i) hs += (i ? ", " : "") + set.spec.h[i];
    html += esc(hs) + ". Data: <a href=\"" + esc(set.dir) + "/convergence.json\">" +
            "convergence.json</a>, <a href=\"" + esc(set.dir) + "/convergence.csv\">" +
            "convergence.csv</a>.</p>\n";
    mdown += "### " + set.spec.case_name + " (reference: " + reference + "; h = " + hs + ")\n\n";
    std::vector<std::string> measures;
    for (const auto& s : set.studies)
      for (const auto& m : s.measures)
        if (std::find(measures.begin(), measures.end(), m) == measures.end()) measures.push_back(m);
    html += "<table><tr><th>scheme</th>";
    mdown += "| scheme |";
    for (const auto& m : measures) {
      html += "<th>" + esc(m) + " order</th><th>residual</th>";
      mdown += " " + m + " |";
    }
    html += "<th>failed runs</th></tr>\n";
    mdown += " failed runs |\n|---|";
    for (std::size_t i = 0; i <= measures.size(); ++i) mdown += "---|";
    mdown += "\n";
    for (const auto& s : set.studies) {
      int failed = 0;
      for (const auto& f : s.failures) failed += f.empty() ? 0 : 1;
      html += "<tr><th title=\"" + esc(s.scheme) + "\">" + esc(short_spec(s.scheme)) + "</th>";
      mdown += "| " + md(s.scheme) + " |";
      for (const auto& m : measures) {
        auto it = s.fits.find(m);
        if (it == s.fits.end()) {
          html += "<td></td><td></td>";
          mdown += " |";
          continue;
        }
        html += "<td class=\"num\">" + fmt_order(it->second) + "</td><td class=\"num\">" +
                fmt_residual(it->second) + "</td>";
        mdown += " " + fmt_order(it->second) + " (" + fmt_residual(it->second) + ") |";
      }
      html += fmt::format("<td class=\"num\">{}</td></tr>\n", failed);
      mdown += fmt::format(" {} |\n", failed);
    }
    html += "</table>\n";
    mdown += "\n";
    for (const auto& [scheme, why] : set.skipped) {
      html += "<p class=\"note\">not run: " + esc(scheme) + ": " + esc(why) + "</p>\n";
      mdown += "- not run: " + md(scheme) + ": " + md(why) + "\n";
    }
    if (!set.studies.empty()) {
      html += "<div class=\"plots\">\n";
      for (const auto& m : measures) html += convergence_plot(set.studies, m).render();
      html += work_precision_plot(set.studies, "q_max").note(kTimingNote).render();
      html += "</div>\n";
    }
  }
  mdown += "\n";

  // Friction.
  html += "<h2 id=\"friction\">Friction</h2>\n";
  html +=
      "<p class=\"note\">Coulomb friction (docs/theory.md §9.2, docs/case-files.md "
      "\"Frictional cases\"): the frictional scheme on the cases whose contact stays closed, "
      "against their closed forms, computed by this run: the event is the first step at which "
      "the contact's tangential velocity U_T is zero (the sliding block's stop at t* = v0/(mu "
      "g); the onset of rolling of the sphere at 2 v0/(7 mu g) and of the cylinder at v0/(3 mu "
      "g)); x'(T) is to reach 0, 5 v0/7 and 2 v0/3.</p>\n";
  mdown += "## Friction\n\n";
  for (const auto& study : friction_studies) {
    const std::string dir = "friction/" + slug(study.case_name);
    html += "<h3>" + esc(study.case_name) + "</h3>\n<p class=\"note\">" + esc(study.scheme) +
            fmt::format(
                "; closed form: {} at t = {:.10g}, x'(T) = {:.10g}, x(T) = {:.10g} (T = "
                "{:g}). Data: ",
                study.event, study.event_reference, study.speed_reference, study.position_reference,
                study.T) +
            "<a href=\"" + esc(dir) + "/friction.csv\">friction.csv</a>.</p>\n";
    mdown += fmt::format("### {} ({}; {} at t = {:.10g}, x'(T) = {:.10g})\n\n", study.case_name,
                         study.scheme, study.event, study.event_reference, study.speed_reference);
    if (!study.failure.empty()) {
      html += "<p class=\"note\">not run: " + esc(study.failure) + "</p>\n";
      mdown += "- not run: " + md(study.failure) + "\n\n";
      continue;
    }
    html +=
        "<table><tr><th>h</th><th>t_event</th><th>|t_event − t_ref|</th><th>x'(T)</th>"
        "<th>|x'(T) − ref|</th><th>|x(T) − ref|</th></tr>\n";
    mdown += "| h | t_event | error | x'(T) | error | x(T) error |\n|---|---|---|---|---|---|\n";
    for (const auto& r : study.rows) {
      const std::string event = r.reached ? fmt::format("{:.6g}", r.event_time) : "not reached";
      const std::string event_error = r.reached ? fmt::format("{:.3e}", r.event_error) : "";
      html += fmt::format(
          "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td "
          "class=\"num\">{:.10g}</td><td class=\"num\">{:.3e}</td><td "
          "class=\"num\">{:.3e}</td></tr>\n",
          esc(r.h), event, event_error, r.speed, r.speed_error, r.position_error);
      mdown += fmt::format("| {} | {} | {} | {:.10g} | {:.3e} | {:.3e} |\n", r.h, event,
                           event_error, r.speed, r.speed_error, r.position_error);
    }
    html += "</table>\n<div class=\"plots\">\n" + friction_plot(study) + "</div>\n";
    mdown += "\n";
  }

  // Friction on nonlinear rigid bodies.
  html +=
      "<h3>Nonlinear rigid bodies (lagrangian case files)</h3>\n<p class=\"note\">Moreau–Jean "
      "on the catalogue's nonlinear models given by formulas (docs/nonlinear-models.md), as "
      "<code>nsh converge</code> runs it, computed by this run at a few step sizes.</p>\n";
  mdown += "### Nonlinear rigid bodies (lagrangian case files)\n\n";
  for (const auto& study : lagrangian_friction) {
    const std::string dir = "friction/" + slug(study.case_name);
    html += "<h4>" + esc(study.case_name) + "</h4>\n<p class=\"note\">" + esc(study.about) + ".";
    mdown += "#### " + study.case_name + "\n\n" + md(study.about) + ".\n\n";
    if (study.studies.empty()) {
      html += " Not run: " + esc(study.failure) + "</p>\n";
      mdown += "- not run: " + md(study.failure) + "\n\n";
      continue;
    }
    const ConvergenceStudy& s = study.studies.front();
    const OrderFit& fit = s.fits.at(study.measure);
    html += " " + esc(s.scheme) + " [" + esc(s.precision) + "] against " + esc(s.reference) +
            ". Data: <a href=\"" + esc(dir) + "/convergence.json\">convergence.json</a>.</p>\n";
    html += "<table><tr><th>h</th><th>steps</th><th>" + esc(study.measure) +
            " error</th><th>failure</th></tr>\n";
    mdown +=
        fmt::format("{} [{}] against {}: fitted order of {} {} (residual {})\n\n", s.scheme,
                    s.precision, s.reference, study.measure, fmt_order(fit), fmt_residual(fit));
    mdown += "| h | steps | " + study.measure + " error | failure |\n|---|---|---|---|\n";
    const auto& errors = s.errors.at(study.measure);
    for (std::size_t i = 0; i < s.h.size(); ++i) {
      html += fmt::format(
          "<tr><td class=\"num\">{:g}</td><td class=\"num\">{}</td><td "
          "class=\"num\">{:.3e}</td><td>{}</td></tr>\n",
          s.h[i], s.steps[i], errors[i], esc(s.failures[i]));
      mdown += fmt::format("| {:g} | {} | {:.3e} | {} |\n", s.h[i], s.steps[i], errors[i],
                           md(s.failures[i]));
    }
    html += fmt::format(
        "<tr><th colspan=\"2\">fitted order</th><td class=\"num\">{}</td><td>residual {}{}"
        "</td></tr>\n</table>\n",
        fmt_order(fit), fmt_residual(fit),
        s.warnings.count(study.measure) && !s.warnings.at(study.measure).empty()
            ? "; untrusted: " + esc(s.warnings.at(study.measure))
            : std::string());
    mdown += "\n";
    html += "<div class=\"plots\">\n" + convergence_plot(study.studies, study.measure).render() +
            "</div>\n";
  }

  // Nonholonomic systems (seed 003, docs/nonholonomic.md).
  html += nonholonomic_html(nonholonomic, nonholonomic_dir);
  mdown += nonholonomic_markdown(nonholonomic);

  // Seed 002 (docs/half-explicit-tdg.md).
  html += seed002_html(seed002, result.verdicts);
  mdown += seed002_markdown(seed002, result.verdicts);

  // Energy.
  html += "<h2 id=\"energy\">Energy ledgers</h2>\n";
  html +=
      "<p class=\"note\">Per step: ΔE = W_ext + W_damp + W_contact − D (the scheme's own "
      "discrete ledger). The inequality shown is ΔE ≤ W_ext + W_damp "
      "(moreau_jean_energy_dissipation), or E_alg non-increasing (algorithmic_energy_decay) "
      "for schemes with an algorithmic energy; marked steps: the tightest step that keeps it, "
      "and the steps that break it. <b>claim</b> says whether the scheme claims the inequality "
      "on this case: broken steps count as a failure only where it is claimed and the case is "
      "inside the claim's domain (as in the verdict table); outside the domain they are what "
      "the claim's boundary predicts.</p>\n";
  mdown +=
      "## Energy ledgers\n\n| case | scheme | h | E0 | E_N | ΣW_ext | ΣW_damp | ΣW_contact "
      "| ΣD | max identity defect | broken steps | claim |\n|---|---|---|---|---|---|---|---|---|"
      "---|---|---|\n";
  for (const auto& set : energy_sets) {
    html += "<h3>" + esc(set.case_name) + "</h3>\n<div class=\"scroll\">";
    html +=
        "<table><tr><th>scheme</th><th>h</th><th>E0</th><th>E_N</th><th>ΣW_ext</th>"
        "<th>ΣW_damp</th><th>ΣW_contact</th><th>ΣD</th><th>max |identity defect|</th>"
        "<th>broken steps</th><th>claim</th><th>data</th></tr>\n";
    for (std::size_t i = 0; i < set.reports.size(); ++i) {
      const EnergyReport& r = set.reports[i];
      const EnergyRow& a = r.initial;
      const EnergyRow& b = r.last;
      const std::string numbers = fmt::format(
          "<td class=\"num\">{:g}</td><td class=\"num\">{:.6g}</td><td class=\"num\">{:.6g}</td>"
          "<td class=\"num\">{:.4g}</td><td class=\"num\">{:.4g}</td><td class=\"num\">{:.4g}"
          "</td><td class=\"num\">{:.4g}</td><td class=\"num\">{:.2e}</td><td class=\"num\">{}"
          "</td>",
          r.h, a.E, b.E, b.sum_W_ext, b.sum_W_damp, b.sum_W_contact, b.sum_dissipation,
          r.max_abs_identity_defect, r.broken_count);
      const std::string status = r.status == ClaimStatus::outside_domain
                                     ? std::string("outside the domain: ") + r.outside_reason
                                     : std::string(to_string(r.status));
      const std::string cls = r.fails()                          ? "fail"
                              : r.status == ClaimStatus::claimed ? "pass"
                                                                 : "not_claimed";
      html += "<tr><th title=\"" + esc(r.scheme) + "\">" + esc(short_spec(r.scheme)) + "</th>" +
              numbers + "<td class=\"" + cls + "\" title=\"" + esc(r.verdict_text()) + "\">" +
              esc(status) + "</td><td><a href=\"" + esc(set.dirs[i]) +
              "/energy.csv\">csv</a> <a href=\"" + esc(set.dirs[i]) +
              "/energy.json\">json</a></td></tr>\n";
      mdown += fmt::format(
          "| {} | {} | {:g} | {:.6g} | {:.6g} | {:.4g} | {:.4g} | {:.4g} | {:.4g} "
          "| {:.2e} | {} | {} |\n",
          md(r.case_name), md(r.scheme), r.h, a.E, b.E, b.sum_W_ext, b.sum_W_damp, b.sum_W_contact,
          b.sum_dissipation, r.max_abs_identity_defect, r.broken_count, md(status));
    }
    html += "</table></div>\n";
    for (const auto& [scheme, why] : set.skipped) {
      html += "<p class=\"note\">not run: " + esc(scheme) + ": " + esc(why) + "</p>\n";
      mdown += "- not run on " + md(set.case_name) + ": " + md(scheme) + ": " + md(why) + "\n";
    }
    html += "<div class=\"plots\">\n";
    for (const auto& r : set.reports) html += energy_plot(r).render();
    html += "</div>\n";
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  html += fmt::format("<p class=\"note\">Generated by nsh report in {:.1f} s.</p>\n", seconds);
  html += "</body>\n</html>\n";
  write_file(out / "index.html", html, result.files);
  write_file(out / "summary.md", mdown, result.files);
  progress("wrote " + (out / "index.html").string());
  return result;
}

}  // namespace nsh::reports
