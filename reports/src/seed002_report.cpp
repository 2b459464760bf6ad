// The report's seed-002 part (nsh/reports/seed002.hpp).
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/lagrangian_family.hpp>
#include <nsh/reports/order_fit.hpp>
#include <nsh/reports/seed002.hpp>
#include <nsh/reports/svg_plot.hpp>
#include <nsh/schemes/half_explicit_tdg.hpp>

#ifdef NSH_HAVE_FORMULA
#include <nsh/formula/lagrangian_case.hpp>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace nsh::reports {
namespace {

struct Seed002Plan {
  const char* case_name;
  const char* about;
  const char* measure;
  const char* reference;
  std::vector<std::string> h;
  const char* T;  ///< horizon override, or ""
};

/// Penetration, approach speed, Newton iterations and the energy of one run, step by step.
struct Seed002Observer {
  Seed002Run& run;
  const Scheme<double>& scheme;
  bool keep_energy;
  double iterations{0};

  void operator()(const State<double>& x, const StepSummary<double>& s) {
    for (Index a = 0; a < s.gap_after.size(); ++a) {
      run.penetration = std::max(run.penetration, -s.gap_after(a));
      if (s.gap_before(a) > 0 && s.gap_after(a) <= 0)
        run.impact_speed = std::max(run.impact_speed, -s.velocity_before(a));
    }
    // half-explicit-tdg and forecasting-trapezoidal count every stage's Newton iterations;
    // the others report their last LCP's (pivots or iterations).
    const auto* hets = dynamic_cast<const HalfExplicitTdg<double>*>(&scheme);
    iterations += hets ? static_cast<double>(hets->last_newton_iterations())
                       : static_cast<double>(s.lcp.iterations);
    if (keep_energy) {
      run.t.push_back(x.t);
      run.energy.push_back(s.E_after);
    }
  }
};

template <class Model>
void seed002_simulate(Seed002Run& run, const Model& model, const State<double>& initial, double T,
                      bool keep_energy) {
  const auto start = std::chrono::steady_clock::now();
  auto scheme = Registry::builtin().make<double>(run.scheme);
  Seed002Observer observer{run, *scheme, keep_energy};
  run.steps = step_count(initial.t, T, run.h);
  simulate<double>(*scheme, model, initial, run.h, T,
                   [&](const State<double>& x, const StepSummary<double>& s) { observer(x, s); });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.newton_per_step = observer.iterations / static_cast<double>(std::max<Index>(run.steps, 1));
  run.cpu_per_step = seconds / static_cast<double>(std::max<Index>(run.steps, 1));
}

Seed002Run seed002_run(const CaseDocument& document, const std::string& scheme,
                       const std::string& h_text, const std::string& T_text, bool keep_energy) {
  Seed002Run run;
  run.scheme = scheme;
  run.h = parse_number<double>(h_text, "h");
  try {
    if (document.family == "lagrangian") {
#ifdef NSH_HAVE_FORMULA
      const auto c = formula::load_lagrangian_case<double>(document);
      const double T = T_text.empty() ? c.T : parse_number<double>(T_text, "T");
      seed002_simulate(run, c.model, c.initial, T, keep_energy);
#else
      refuse_lagrangian_without_formula(document);
#endif
    } else {
      const auto c = load_linear_case<double>(document);
      const double T = T_text.empty() ? c.T : parse_number<double>(T_text, "T");
      seed002_simulate(run, c.model, c.initial, T, keep_energy);
    }
  } catch (const std::exception& e) {
    run.failure = e.what();
  }
  return run;
}

Seed002Case seed002_case(const Seed002Plan& plan,
                         const std::function<void(const std::string&)>& progress) {
  Seed002Case out;
  out.case_name = plan.case_name;
  out.about = plan.about;
  out.measure = plan.measure;
  try {
    const CaseDocument document = read_case_file(locate_case(plan.case_name));
    if (document.family == "lagrangian" && !lagrangian_family_available())
      refuse_lagrangian_without_formula(document);
    // One study per scheme: a scheme that refuses the case (a lagrangian model without the
    // gaps' curvature for forecasting-trapezoidal) leaves its row's failure, not the case's.
    for (const auto& scheme : seed002_schemes()) {
      ConvergenceOptions options;
      options.case_name = plan.case_name;
      options.schemes = {scheme};
      options.h = plan.h;
      options.reference = plan.reference;
      options.T = plan.T;
      options.keep_going = true;
      options.progress = progress;
      try {
        for (auto& study : run_convergence(options)) out.studies.push_back(std::move(study));
      } catch (const std::exception& e) {
        if (progress) progress(fmt::format("seed 002 {} {}: {}", plan.case_name, scheme, e.what()));
      }
    }
    out.plot_h = parse_number<double>(plan.h.front(), "h");
    for (const auto& scheme : seed002_schemes())
      for (const auto& h : plan.h)
        out.runs.push_back(seed002_run(document, scheme, h, plan.T, h == plan.h.front()));
  } catch (const std::exception& e) {
    out.failure = e.what();
  }
  return out;
}

std::string seed002_number(double value, const char* format = "{:.2e}") {
  return std::isfinite(value) ? fmt::format(fmt::runtime(format), value) : std::string("-");
}

std::string seed002_order_text(const OrderFit& fit) {
  if (!fit.reason.empty()) return fit.reason;
  return fit.defined() ? fmt::format("{:.2f}", fit.order) : "-";
}

/// The study of `scheme` (matched on the family: the study holds the canonical spec).
const ConvergenceStudy* seed002_study(const Seed002Case& c, const std::string& scheme) {
  for (const auto& s : c.studies)
    if (s.scheme.rfind(scheme, 0) == 0) return &s;
  return nullptr;
}

/// "7 passed, 0 failed" or "6 passed, 1 failed: name" over the verdicts of `scheme` as run (its
/// canonical spec: the report also checks other parameters of moreau-jean).
std::string seed002_claims(const std::vector<properties::Verdict>& verdicts,
                           const std::string& scheme) {
  std::string canonical;
  try {
    canonical = Registry::builtin().make<double>(scheme)->info().spec;
  } catch (const std::exception&) {
    return "not checked";
  }
  int pass = 0, fail = 0;
  std::string failed;
  for (const auto& v : verdicts) {
    if (v.scheme != canonical) continue;
    if (v.outcome == properties::Outcome::pass) ++pass;
    if (v.outcome == properties::Outcome::fail) {
      ++fail;
      failed += (failed.empty() ? ": " : ", ") + v.property;
    }
  }
  if (pass + fail == 0) return "not checked";
  return fmt::format("{} passed, {} failed{}", pass, fail, failed);
}

/// A (case, scheme) row: convergence order, largest error, penetration at each h, Newton
/// iterations and CPU per step at the largest h, or why it did not run.
struct Seed002Row {
  std::string scheme, order, error, penetration, newton, cpu, failure;
};

std::vector<Seed002Row> seed002_rows(const Seed002Case& c) {
  std::vector<Seed002Row> rows;
  for (const auto& scheme : seed002_schemes()) {
    Seed002Row row;
    row.scheme = scheme;
    if (const ConvergenceStudy* s = seed002_study(c, scheme)) {
      if (s->fits.count(c.measure)) row.order = seed002_order_text(s->fits.at(c.measure));
      double largest = 0;
      if (s->errors.count(c.measure))
        for (double e : s->errors.at(c.measure))
          if (std::isfinite(e)) largest = std::max(largest, e);
      row.error = seed002_number(largest);
    }
    for (const auto& r : c.runs) {
      if (r.scheme != scheme) continue;
      if (!r.failure.empty()) {
        row.failure = r.failure;
        continue;
      }
      row.penetration += (row.penetration.empty() ? "" : ", ") + seed002_number(r.penetration);
      if (r.h == c.plot_h) {
        row.newton = seed002_number(r.newton_per_step, "{:.2f}");
        row.cpu = seed002_number(r.cpu_per_step);
      }
    }
    rows.push_back(row);
  }
  return rows;
}

std::string seed002_steps_text(const Seed002Case& c) {
  std::string out;
  std::vector<double> hs;
  for (const auto& r : c.runs)
    if (std::find(hs.begin(), hs.end(), r.h) == hs.end()) hs.push_back(r.h);
  for (double h : hs) out += (out.empty() ? "" : ", ") + format_short(h);
  return out;
}

std::string seed002_penetration_sentence(const std::vector<Seed002Case>& cases) {
  const double hets = seed002_penetration_ratio(cases, "half-explicit-tdg");
  const double ftr = seed002_penetration_ratio(cases, "forecasting-trapezoidal");
  const double mj = seed002_penetration_ratio(cases, "moreau-jean");
  if (!std::isfinite(hets))
    return "\"without any penetration\": not measured (the bouncing ball did not run)";
  return fmt::format(
      "\"constraints are satisfied exactly without any penetration\": {} at position level — on "
      "the bouncing ball half-explicit-tdg's largest penetration is {:.2f} h|U-| (|U-| the "
      "approach speed before the impact; forecasting-trapezoidal {}, moreau-jean {}); the "
      "velocity constraint G^T u >= 0 on closed contacts holds (signorini_complementarity)",
      hets > 1e-9 ? "false" : "true", hets, seed002_number(ftr, "{:.2f} h|U-|"),
      seed002_number(mj, "{:.2f} h|U-|"));
}

std::string seed002_penetration_plot(const Seed002Case& c) {
  SvgPlot plot(c.case_name + ": largest penetration against h", "h", "max -g");
  plot.x_scale(AxisScale::log).y_scale(AxisScale::log);
  for (const auto& scheme : seed002_schemes()) {
    PlotSeries series;
    series.name = scheme;
    for (const auto& r : c.runs)
      if (r.scheme == scheme && r.failure.empty()) {
        series.x.push_back(r.h);
        series.y.push_back(r.penetration);
      }
    if (!series.x.empty()) plot.add(series);
  }
  plot.note("points at zero penetration are not drawn on the log axis");
  return plot.render();
}

std::string seed002_energy_plot(const Seed002Case& c) {
  SvgPlot plot(c.case_name + ": energy per step (h = " + format_short(c.plot_h) + ")", "t",
               "E after the step");
  for (const auto& r : c.runs) {
    if (r.h != c.plot_h || !r.failure.empty()) continue;
    PlotSeries series;
    series.name = r.scheme;
    series.x = r.t;
    series.y = r.energy;
    series.marker = Marker::none;
    plot.add(series);
  }
  return plot.render();
}

std::string seed002_md_cell(const std::string& s) {
  std::string out;
  for (char ch : s)
    out += ch == '|' ? std::string("\\|") : ch == '\n' ? std::string(" ") : std::string(1, ch);
  return out;
}

}  // namespace

const std::vector<std::string>& seed002_schemes() {
  static const std::vector<std::string> schemes{"half-explicit-tdg", "moreau-jean",
                                                "forecasting-trapezoidal"};
  return schemes;
}

std::vector<Seed002Case> default_seed002_cases(
    const std::function<void(const std::string&)>& progress) {
  const std::vector<Seed002Plan> plans{
      {"bouncing-ball",
       "the seed's bouncing ball (e = 1/2), against its closed form; impacts make every scheme "
       "first order",
       "q_max",
       "analytic",
       {"1/100", "1/200", "1/400", "1/800"},
       ""},
      {"sliding-block",
       "a block sliding to rest under Coulomb friction (one contact, mu = 1/2), against its closed "
       "form",
       "q_final",
       "analytic",
       {"1/100", "1/200", "1/400", "1/800"},
       ""},
      {"rod-on-corners",
       "a rigid rod falling across two corners, two contacts with friction (mu = 1/2); "
       "self-convergence: each scheme in Real50 at the smallest h / 16",
       "q_final",
       "self",
       {"1/100", "1/200", "1/400"},
       ""},
      {"falling-rod",
       "a rigid rod falling on the floor on its two ends, two contacts with friction (mu = 3/10); "
       "self-convergence over T = 1/2. Free flight is exact for every scheme here, so the error "
       "is set by where the two impacts (t = 0.394, 0.468) fall in the grid: half-explicit-tdg "
       "applies each at the first grid point with a closed gap, the same point (0.395, 0.47) at "
       "h = 1/200 and 1/400, which is why its errors there are equal (docs/half-explicit-tdg.md)",
       "q_final",
       "self",
       {"1/100", "1/200", "1/400"},
       "1/2"},
      {"coulomb-oscillator",
       "a block on a spring sliding on rough ground (one persistent frictional contact, "
       "mu = 1/5), against the stick-slip closed form over its first slide (T = 3/2, before the "
       "stop at pi/2): the non-impulsive frictional case with a smooth exact solution",
       "q_max",
       "analytic",
       {"1/50", "1/100", "1/200", "1/400"},
       ""},
      {"bar-on-two-supports",
       "a rigid bar on two frictional supports pulled by a spring (two simultaneous persistent "
       "contacts, mu = 1/5 and 1/10, a linear model all three schemes step), against the "
       "stick-slip closed form over its first slide (T = 3/2)",
       "q_max",
       "analytic",
       {"1/50", "1/100", "1/200", "1/400"},
       ""},
  };
  std::vector<Seed002Case> out;
  for (const auto& plan : plans) out.push_back(seed002_case(plan, progress));
  return out;
}

double seed002_penetration_ratio(const std::vector<Seed002Case>& cases, const std::string& scheme) {
  double ratio = std::numeric_limits<double>::quiet_NaN();
  for (const auto& c : cases) {
    if (c.case_name != "bouncing-ball") continue;
    for (const auto& r : c.runs)
      if (r.scheme == scheme && r.failure.empty() && r.impact_speed > 0) {
        const double here = r.penetration / (r.h * r.impact_speed);
        ratio = std::isfinite(ratio) ? std::max(ratio, here) : here;
      }
  }
  return ratio;
}

std::string seed002_html(const std::vector<Seed002Case>& cases,
                         const std::vector<properties::Verdict>& verdicts) {
  std::string html =
      "<h3 id=\"seed-002\">Seed 002: half-explicit TDG, Moreau–Jean and the forecasting "
      "trapezoidal rule</h3>\n<p class=\"note\">The three schemes on the same examples, "
      "computed when this report ran (docs/half-explicit-tdg.md): the convergence order of one "
      "measure (nsh converge's study), the largest penetration -min g at each h, Newton "
      "iterations and CPU time per step at the largest h, and the energy per step. Claims "
      "(this report's check): ";
  for (const auto& scheme : seed002_schemes())
    html += "<code>" + xml_escape(scheme) + "</code> " +
            xml_escape(seed002_claims(verdicts, scheme)) +
            (scheme == seed002_schemes().back() ? ".</p>\n" : "; ");
  html += "<p class=\"note\">" + xml_escape(seed002_penetration_sentence(cases)) + ".</p>\n";
  for (const auto& c : cases) {
    html += "<h4>" + xml_escape(c.case_name) + "</h4>\n<p class=\"note\">" + xml_escape(c.about) +
            ".</p>\n";
    if (!c.failure.empty()) {
      html += "<p class=\"note\">Not run: " + xml_escape(c.failure) + "</p>\n";
      continue;
    }
    html += fmt::format(
        "<table><tr><th>scheme</th><th>order ({})</th><th>largest error</th><th>penetration at "
        "h = {}</th><th>Newton iterations / step</th><th>CPU s / step</th><th>claims</th></tr>\n",
        xml_escape(c.measure), xml_escape(seed002_steps_text(c)));
    for (const auto& row : seed002_rows(c)) {
      if (!row.failure.empty()) {
        html += "<tr><td>" + xml_escape(row.scheme) +
                "</td><td colspan=\"6\">not run: " + xml_escape(row.failure) + "</td></tr>\n";
        continue;
      }
      html += fmt::format(
          "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td "
          "class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></"
          "tr>\n",
          xml_escape(row.scheme), xml_escape(row.order), xml_escape(row.error),
          xml_escape(row.penetration), xml_escape(row.newton), xml_escape(row.cpu),
          xml_escape(seed002_claims(verdicts, row.scheme)));
    }
    html += "</table>\n<div class=\"plots\">\n";
    bool drawn = false;
    for (const auto& s : c.studies)
      drawn = drawn || (s.errors.count(c.measure) && !s.errors.at(c.measure).empty());
    if (drawn) html += convergence_plot(c.studies, c.measure).render();
    html += seed002_penetration_plot(c) + seed002_energy_plot(c) + "</div>\n";
  }
  return html;
}

std::string seed002_markdown(const std::vector<Seed002Case>& cases,
                             const std::vector<properties::Verdict>& verdicts) {
  std::string md =
      "### Seed 002: half-explicit TDG, Moreau–Jean and the forecasting trapezoidal "
      "rule\n\n" +
      seed002_penetration_sentence(cases) + ".\n\n";
  for (const auto& c : cases) {
    md += "#### " + c.case_name + "\n\n";
    if (!c.failure.empty()) {
      md += "- not run: " + seed002_md_cell(c.failure) + "\n\n";
      continue;
    }
    md += fmt::format(
        "| scheme | order ({}) | largest error | penetration at h = {} | Newton iterations / "
        "step | CPU s / step | claims |\n|---|---|---|---|---|---|---|\n",
        c.measure, seed002_steps_text(c));
    for (const auto& row : seed002_rows(c)) {
      if (!row.failure.empty()) {
        md += "| " + row.scheme + " | not run: " + seed002_md_cell(row.failure) + " | | | | | |\n";
        continue;
      }
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", row.scheme, row.order, row.error,
                        row.penetration, row.newton, row.cpu,
                        seed002_md_cell(seed002_claims(verdicts, row.scheme)));
    }
    md += "\n";
  }
  return md;
}

}  // namespace nsh::reports
