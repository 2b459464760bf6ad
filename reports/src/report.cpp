#include <nsh/error.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/convergence.hpp>
#include <nsh/reports/energy.hpp>
#include <nsh/reports/report.hpp>
#include <nsh/reports/svg_plot.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

// A stable identifier of an outcome for CSS classes and data attributes (to_string is the
// display text, e.g. "n/a").
const char* outcome_key(properties::Outcome o) {
  switch (o) {
    case properties::Outcome::pass:
      return "pass";
    case properties::Outcome::fail:
      return "fail";
    case properties::Outcome::not_claimed:
      return "not_claimed";
    case properties::Outcome::not_applicable:
      return "not_applicable";
  }
  return "unknown";
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
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1250px; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.pass { background: #dff0d8; } td.fail { background: #f2b8b5; font-weight: bold; }
td.not_claimed { background: #f7f7f7; color: #777; } td.not_applicable { color: #aaa; }
td.num { text-align: right; font-family: monospace; }
.plots { display: flex; flex-wrap: wrap; gap: 8px; }
pre { background: #f7f7f7; padding: 6px; overflow-x: auto; font-size: 0.8em; }
.note { color: #555; font-size: 0.9em; }
)css";

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
    if (name == "event-driven") continue;  // it is the reference
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
    std::string csv = "scheme,property,outcome,cases_run,note\n";
    for (const auto& v : result.verdicts) {
      nlohmann::json e = {{"scheme", v.scheme},
                          {"property", v.property},
                          {"outcome", outcome_key(v.outcome)},
                          {"cases_run", v.cases_run},
                          {"statement", v.statement},
                          {"note", v.note}};
      if (v.counterexample) {
        nlohmann::json values = nlohmann::json::object();
        for (const auto& [k, val] : v.counterexample->values) values[k] = val;
        e["counterexample"] = {{"values", values},
                               {"case_file", v.counterexample->case_file},
                               {"simulate", v.counterexample->simulate_hint},
                               {"reproduce", v.counterexample->reproduce},
                               {"command", v.counterexample->command}};
      }
      j["verdicts"].push_back(e);
      auto q = [](const std::string& s) {
        std::string r = "\"";
        for (char c : s) r += c == '"' ? std::string("\"\"") : std::string(1, c);
        return r + "\"";
      };
      csv += fmt::format("{},{},{},{},{}\n", q(v.scheme), q(v.property), outcome_key(v.outcome),
                         v.cases_run, q(v.note));
    }
    write_file(out / "verdicts.json", j.dump(2) + "\n", result.files);
    write_file(out / "verdicts.csv", csv, result.files);
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
    if (!set.studies.empty())
      for (auto& f : write_convergence(set.studies, (out / set.dir).string()))
        result.files.push_back(f);
    study_sets.push_back(std::move(set));
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
    const auto h_node = document.root.find("h");
    const std::string h = h_node != document.root.end() && h_node->is_string()
                              ? h_node->get<std::string>()
                              : std::string("1/100");
    for (const auto& scheme : schemes) {
      try {
        EnergyReport report = energy_report(case_name, scheme, h);
        const std::string dir = "energy/" + slug(case_name) + "/" + slug(report.scheme);
        for (auto& f : write_energy(report, (out / dir).string())) result.files.push_back(f);
        progress(fmt::format("energy {} {}: {} steps, claim broken in {}", case_name, report.scheme,
                             report.rows.size() - 1, report.broken_steps.size()));
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
  std::vector<std::string> props;  // property columns in first-seen order
  std::vector<std::string> rows;   // scheme rows
  std::map<std::pair<std::string, std::string>, const properties::Verdict*> cell;
  for (const auto& v : result.verdicts) {
    if (std::find(props.begin(), props.end(), v.property) == props.end())
      props.push_back(v.property);
    if (std::find(rows.begin(), rows.end(), v.scheme) == rows.end()) rows.push_back(v.scheme);
    cell[{v.scheme, v.property}] = &v;
  }
  std::map<std::string, int> counts;
  for (const auto& v : result.verdicts) ++counts[outcome_key(v.outcome)];

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
      "<p class=\"note\">Sections: <a href=\"#verdicts\">verdicts</a>, "
      "<a href=\"#convergence\">convergence</a>, <a href=\"#energy\">energy</a>. Data: "
      "<a href=\"verdicts.json\">verdicts.json</a>, <a href=\"verdicts.csv\">verdicts.csv</a>"
      ", <a href=\"summary.md\">summary.md</a>.</p>\n";
  mdown += "# nsh report\n\n" + totals +
           fmt::format(" (check options: --cases {} --seed {}).\n\n", options.check.cases,
                       options.check.seed);

  // Verdict table.
  html += "<h2 id=\"verdicts\">Every built-in scheme against every shared property</h2>\n";
  html += "<table class=\"verdicts\">\n<tr><th>scheme</th>";
  mdown += "## Verdicts\n\n| scheme |";
  for (const auto& p : props) {
    html += "<th>" + esc(p) + "</th>";
    mdown += " " + md(p) + " |";
  }
  html += "</tr>\n";
  mdown += "\n|---|";
  for (std::size_t i = 0; i < props.size(); ++i) mdown += "---|";
  mdown += "\n";
  for (const auto& r : rows) {
    html += "<tr><th>" + esc(r) + "</th>";
    mdown += "| " + md(r) + " |";
    for (const auto& p : props) {
      auto it = cell.find({r, p});
      if (it == cell.end()) {
        html += "<td></td>";
        mdown += " |";
        continue;
      }
      const auto& v = *it->second;
      const std::string outcome = outcome_key(v.outcome);
      const std::string text =
          v.outcome == properties::Outcome::pass || v.outcome == properties::Outcome::fail
              ? fmt::format("{} ({})", outcome, v.cases_run)
              : std::string(properties::to_string(v.outcome));
      html += fmt::format(
          "<td class=\"{}\" data-scheme=\"{}\" data-property=\"{}\" "
          "data-outcome=\"{}\" title=\"{}\">{}</td>",
          esc(outcome), esc(v.scheme), esc(v.property), esc(outcome),
          esc(v.note.empty() ? v.statement : v.note), esc(text));
      mdown += " " + md(text) + " |";
    }
    html += "</tr>\n";
    mdown += "\n";
  }
  html += "</table>\n";
  mdown += "\n";
  for (const auto& [spec, why] : result.check_errors) {
    html +=
        "<p class=\"note\"><b>check error</b> (no verdicts for this scheme; nsh check "
        "exits with status 2 here): " +
        esc(spec) + ": " + esc(why) + "</p>\n";
    mdown += "- **check error** on " + md(spec) + ": " + md(why) + "\n";
  }
  if (!result.check_errors.empty()) mdown += "\n";
  bool any_fail = false;
  for (const auto& v : result.verdicts) {
    if (v.outcome != properties::Outcome::fail) continue;
    if (!any_fail) {
      html += "<h3>Counterexamples</h3>\n";
      mdown += "### Counterexamples\n\n";
      any_fail = true;
    }
    html += "<p><b>" + esc(v.scheme) + "</b> breaks <b>" + esc(v.property) +
            "</b>: " + esc(v.statement) + "</p>\n";
    mdown += "- **" + md(v.scheme) + "** breaks **" + md(v.property) + "**";
    if (v.counterexample) {
      std::string values;
      for (const auto& [k, val] : v.counterexample->values) values += k + " = " + val + "\n";
      html += "<pre>" +
              esc(values + v.counterexample->simulate_hint + "\n" + v.counterexample->command +
                  "\n" + v.counterexample->case_file) +
              "</pre>\n";
      mdown += ": `" + v.counterexample->command + "`";
    }
    mdown += "\n";
  }
  if (any_fail) mdown += "\n";

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
      html += "<tr><th>" + esc(s.scheme) + "</th>";
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
      html += work_precision_plot(set.studies, "q_max").render();
      html += "</div>\n";
    }
  }
  mdown += "\n";

  // Energy.
  html += "<h2 id=\"energy\">Energy ledgers</h2>\n";
  html +=
      "<p class=\"note\">Per step: ΔE = W_ext + W_damp + W_contact − D (the scheme's own "
      "discrete ledger). The claim shown is ΔE ≤ W_ext + W_damp (or E_alg non-increasing "
      "for schemes with an algorithmic energy); marked steps: the tightest step that keeps "
      "it, and the steps that break it. Whether a scheme claims it for its parameters is "
      "the verdict table's business.</p>\n";
  mdown +=
      "## Energy ledgers\n\n| case | scheme | h | E0 | E_N | ΣW_ext | ΣW_damp | ΣW_contact "
      "| ΣD | max identity defect | claim broken in |\n|---|---|---|---|---|---|---|---|---|"
      "---|---|\n";
  for (const auto& set : energy_sets) {
    html += "<h3>" + esc(set.case_name) + "</h3>\n";
    html +=
        "<table><tr><th>scheme</th><th>h</th><th>E0</th><th>E_N</th><th>ΣW_ext</th>"
        "<th>ΣW_damp</th><th>ΣW_contact</th><th>ΣD</th><th>max |identity defect|</th>"
        "<th>claim broken in (steps)</th><th>data</th></tr>\n";
    for (std::size_t i = 0; i < set.reports.size(); ++i) {
      const EnergyReport& r = set.reports[i];
      const EnergyRow& a = r.rows.front();
      const EnergyRow& b = r.rows.back();
      double defect = 0;
      for (const auto& row : r.rows) defect = std::max(defect, std::abs(row.identity_defect));
      const std::string numbers = fmt::format(
          "<td class=\"num\">{:g}</td><td class=\"num\">{:.6g}</td><td class=\"num\">{:.6g}</td>"
          "<td class=\"num\">{:.4g}</td><td class=\"num\">{:.4g}</td><td class=\"num\">{:.4g}"
          "</td><td class=\"num\">{:.4g}</td><td class=\"num\">{:.2e}</td><td class=\"num\">{}"
          "</td>",
          r.h, a.E, b.E, b.sum_W_ext, b.sum_W_damp, b.sum_W_contact, b.sum_dissipation, defect,
          r.broken_steps.size());
      html += "<tr><th>" + esc(r.scheme) + "</th>" + numbers + "<td><a href=\"" + esc(set.dirs[i]) +
              "/energy.csv\">csv</a></td></tr>\n";
      mdown += fmt::format(
          "| {} | {} | {:g} | {:.6g} | {:.6g} | {:.4g} | {:.4g} | {:.4g} | {:.4g} "
          "| {:.2e} | {} |\n",
          md(r.case_name), md(r.scheme), r.h, a.E, b.E, b.sum_W_ext, b.sum_W_damp, b.sum_W_contact,
          b.sum_dissipation, defect, r.broken_steps.size());
    }
    html += "</table>\n";
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
