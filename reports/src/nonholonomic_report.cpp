// The report's nonholonomic part (nsh/reports/nonholonomic.hpp).
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/nonholonomic/discrete_lagrange_dalembert.hpp>
#include <nsh/nonholonomic/exact_reference.hpp>
#include <nsh/nonholonomic/nonlinear_adapter.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/nonholonomic.hpp>
#include <nsh/reports/order_fit.hpp>
#include <nsh/reports/svg_plot.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace nsh::reports {
namespace {

const std::vector<std::string>& nonholonomic_report_steps() {
  static const std::vector<std::string> steps{"0.02", "0.01", "0.005", "0.0025"};
  return steps;
}

/// The impact-time study's ladder: h <= 1/200 is where Moreau–Jean's impact-time errors are
/// asymptotic on the rolling disk (docs/nonholonomic.md); the coarse ladder above is not.
const std::vector<std::string>& nonholonomic_impact_steps() {
  static const std::vector<std::string> steps{"1/200", "1/400", "1/800", "1/1600"};
  return steps;
}

/// The impact-time study's horizon: halfway between the reference's second and third impacts,
/// so every run sees the first two and none is cut inside an impact step (the case's T if it
/// has fewer than three).
double first_two_impacts_horizon(const NonholonomicCase<double>& c) {
  const NonholonomicReference<double> reference = exact_reference(*c.model, c.initial, c.T);
  if (reference.impacts.size() < 3) return c.T;
  return (reference.impacts[1].t + reference.impacts[2].t) / 2;
}

/// max over impacts of |E+ - E-|/E of a DLA run: the first regular segment after an impact
/// against the last regular one before it (docs/nonholonomic.md).
double dla_worst_jump(const DlaTrajectory<double>& trajectory) {
  double worst = 0;
  const auto& s = trajectory.segments;
  for (std::size_t i = 1; i + 2 < s.size(); ++i)
    if (s[i].substep && !s[i - 1].substep && s[i + 1].substep && !s[i + 2].substep)
      worst = std::max(worst, std::abs(s[i + 2].energy - s[i - 1].energy) / s[i - 1].energy);
  return worst;
}

NonholonomicPath nonholonomic_path(const std::string& spec, const NonholonomicCase<double>& c,
                                   double h) {
  NonholonomicPath path;
  path.scheme = spec;
  const NonholonomicModelAdapter<double> model(*c.model);
  auto scheme = Registry::builtin().make<double>(spec);
  const auto record_state = [&](const State<double>& x) {
    path.t.push_back(x.t);
    path.x.push_back(x.q(0));
    path.y.push_back(x.q(1));
    path.energy.push_back(model.energy(x.q, x.v));
  };
  record_state(c.initial);
  simulate<double>(*scheme, model, c.initial, h, c.T,
                   [&](const State<double>& x, const StepSummary<double>&) { record_state(x); });
  return path;
}

NonholonomicStudy nonholonomic_study(const std::string& case_name,
                                     const std::function<void(const std::string&)>& progress) {
  NonholonomicStudy study;
  study.case_name = case_name;
  try {
    const CaseDocument document = read_case_file(locate_case(case_name));
    ConvergenceOptions options;
    options.case_name = case_name;
    options.schemes = {"dla", "moreau-jean"};
    options.h = nonholonomic_report_steps();
    options.reference = "exact";
    options.keep_going = true;
    options.progress = progress;
    study.studies = run_convergence(options);
    const NonholonomicCase<double> c = load_nonholonomic_case<double>(document);
    for (const auto& text : nonholonomic_report_steps()) {
      const double h = parse_number<double>(text, "h");
      study.jump_h.push_back(h);
      study.jump.push_back(dla_worst_jump(run_dla<double>(*c.model, c.initial, h, c.T)));
    }
    study.jump_fit = fit_order(study.jump_h, study.jump);
    ConvergenceOptions impacts = options;
    impacts.h = nonholonomic_impact_steps();
    study.impact_T = first_two_impacts_horizon(c);
    impacts.T = fmt::format("{}", study.impact_T);
    study.impact_studies = run_convergence(impacts);
    study.plot_h = 0.01;
    for (const char* spec : {"dla", "moreau-jean"})
      study.paths.push_back(nonholonomic_path(spec, c, study.plot_h));
    const auto parameters = document.root.at("parameters");
    study.a =
        parse_number<double>(parameters.at("a").is_string() ? parameters.at("a").get<std::string>()
                                                            : parameters.at("a").dump(),
                             "a");
    study.boundary = case_name == "rolling-disk" ? "circle" : "wall";
  } catch (const std::exception& e) {
    study.failure = e.what();
  }
  return study;
}

std::string nonholonomic_md_cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string nonholonomic_order_text(const OrderFit& fit) {
  if (!fit.reason.empty()) return fit.reason;
  return fit.defined() ? fmt::format("{:.2f}", fit.order) : "-";
}

double nonholonomic_largest_finite(const std::vector<double>& values) {
  double out = 0;
  for (double v : values)
    if (std::isfinite(v)) out = std::max(out, v);
  return out;
}

/// "confirmed" when the jump is far above round-off at every h (the seed's sentence), with the
/// fitted slope.
std::string nonholonomic_jump_sentence(const NonholonomicStudy& s) {
  bool nonzero = !s.jump.empty();
  for (double j : s.jump) nonzero = nonzero && j > 1e-9;
  return fmt::format(
      "\"does not conserve energy at impacts\": {} — the DLA's largest impact energy jump "
      "|E+ − E−|/E is {} at h = {} … {} (> 1e−9 at every h), fitted slope {} in h",
      nonzero ? "confirmed" : "refuted",
      s.jump.empty() ? std::string("-")
                     : fmt::format("{:.2e} … {:.2e}", s.jump.front(), s.jump.back()),
      s.jump_h.empty() ? 0.0 : s.jump_h.front(), s.jump_h.empty() ? 0.0 : s.jump_h.back(),
      nonholonomic_order_text(s.jump_fit));
}

std::string nonholonomic_path_plot(const NonholonomicStudy& s) {
  SvgPlot plot(s.case_name + ": the trajectory in the plane (h = " + format_short(s.plot_h) + ")",
               "x", "y");
  plot.size(520, 520);
  PlotSeries boundary;
  boundary.name = s.boundary == "circle" ? "table edge (radius a)" : "wall x = a";
  boundary.marker = Marker::none;
  boundary.dashed = true;
  boundary.color = "#888888";
  double y_lo = 0, y_hi = 0;
  for (const auto& p : s.paths)
    for (double y : p.y) {
      y_lo = std::min(y_lo, y);
      y_hi = std::max(y_hi, y);
    }
  if (s.boundary == "circle") {
    for (int i = 0; i <= 240; ++i) {
      const double angle = 2 * 3.14159265358979323846 * i / 240;
      boundary.x.push_back(s.a * std::cos(angle));
      boundary.y.push_back(s.a * std::sin(angle));
    }
  } else {
    boundary.x = {s.a, s.a};
    boundary.y = {y_lo, y_hi};
  }
  plot.add(boundary);
  for (const auto& p : s.paths) {
    PlotSeries series;
    series.name = p.scheme;
    series.x = p.x;
    series.y = p.y;
    series.marker = Marker::none;
    plot.add(series);
  }
  return plot.render();
}

std::string nonholonomic_energy_plot(const NonholonomicStudy& s) {
  SvgPlot plot(s.case_name + ": energy per step (h = " + format_short(s.plot_h) + ")", "t",
               "E = 1/2 v^T M v");
  for (const auto& p : s.paths) {
    PlotSeries series;
    series.name = p.scheme;
    series.x = p.t;
    series.y = p.energy;
    series.marker = Marker::none;
    plot.add(series);
  }
  plot.note("the exact flow keeps E; dla keeps it between impacts, with O(h^2) jumps at them");
  return plot.render();
}

std::string nonholonomic_jump_plot(const NonholonomicStudy& s) {
  SvgPlot plot(s.case_name + ": dla's impact energy jump", "h", "max |E+ - E-|/E");
  plot.x_scale(AxisScale::log).y_scale(AxisScale::log);
  PlotSeries jump;
  jump.name = "dla (slope " + nonholonomic_order_text(s.jump_fit) + ")";
  jump.x = s.jump_h;
  jump.y = s.jump;
  PlotSeries second;
  second.name = "h^2 (slope 2)";
  second.dashed = true;
  second.marker = Marker::none;
  for (double h : s.jump_h) {
    second.x.push_back(h);
    second.y.push_back(
        s.jump.empty() ? h * h : s.jump.front() * (h / s.jump_h.front()) * (h / s.jump_h.front()));
  }
  plot.add(jump).add(second);
  return plot.render();
}

/// One row per (scheme, measure): the impact times alone (`impact_times`) or everything else.
std::string nonholonomic_html_table(const std::vector<ConvergenceStudy>& studies,
                                    bool impact_times) {
  std::string html =
      "<table><tr><th>scheme</th><th>measure</th><th>fitted order</th><th>largest "
      "error</th><th>failed runs</th></tr>\n";
  for (const auto& c : studies) {
    int failed = 0;
    for (const auto& f : c.failures) failed += f.empty() ? 0 : 1;
    for (const auto& m : c.measures)
      if ((m == "impact_time") == impact_times)
        html += fmt::format(
            "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.2e}</td>"
            "<td class=\"num\">{}</td></tr>\n",
            xml_escape(c.scheme), xml_escape(m), xml_escape(nonholonomic_order_text(c.fits.at(m))),
            nonholonomic_largest_finite(c.errors.at(m)), failed);
  }
  return html + "</table>\n";
}

std::string nonholonomic_md_table(const std::vector<ConvergenceStudy>& studies, bool impact_times) {
  std::string md = "| scheme | measure | fitted order | largest error |\n|---|---|---|---|\n";
  for (const auto& c : studies)
    for (const auto& m : c.measures)
      if ((m == "impact_time") == impact_times)
        md += fmt::format("| {} | {} | {} | {:.2e} |\n", nonholonomic_md_cell(c.scheme), m,
                          nonholonomic_order_text(c.fits.at(m)),
                          nonholonomic_largest_finite(c.errors.at(m)));
  return md;
}

}  // namespace

std::vector<NonholonomicStudy> default_nonholonomic_studies(
    const std::function<void(const std::string&)>& progress) {
  return {nonholonomic_study("rolling-disk", progress), nonholonomic_study("knife-edge", progress)};
}

std::string nonholonomic_html(const std::vector<NonholonomicStudy>& studies,
                              const std::function<std::string(const std::string&)>& dir_of) {
  std::string html =
      "<h3 id=\"nonholonomic\">Nonholonomic systems with impacts (seed 003)</h3>\n<p "
      "class=\"note\">dla (the "
      "discrete Lagrange–d'Alembert integrator with the impact step (5a)–(5d)) and moreau-jean "
      "(the velocity constraints as bilateral rows) against the exact reference (closed-form "
      "flow, impacts to 50 digits), as <code>nsh converge</code> runs them "
      "(docs/nonholonomic.md).</p>\n";
  for (const auto& s : studies) {
    html += "<h4>" + xml_escape(s.case_name) + "</h4>\n";
    if (!s.failure.empty()) {
      html += "<p class=\"note\">Not run: " + xml_escape(s.failure) + "</p>\n";
      continue;
    }
    html += "<p class=\"note\">" + xml_escape(nonholonomic_jump_sentence(s)) +
            ". Data: <a href=\"" + xml_escape(dir_of(s.case_name)) +
            "/convergence.json\">convergence.json</a>.</p>\n";
    html += nonholonomic_html_table(s.studies, false);
    html += "<p class=\"note\">Impact times over the first two impacts (T = " +
            format_short(s.impact_T) + ", h = 1/200 … 1/1600: the coarse ladder above is not " +
            "asymptotic for them). Data: <a href=\"" + xml_escape(dir_of(s.case_name)) +
            "/impact-times/convergence.json\">impact-times/convergence.json</a>.</p>\n";
    html += nonholonomic_html_table(s.impact_studies, true);
    html += "<div class=\"plots\">\n" + nonholonomic_path_plot(s) + nonholonomic_energy_plot(s) +
            nonholonomic_jump_plot(s) + "</div>\n";
  }
  return html;
}

std::string nonholonomic_markdown(const std::vector<NonholonomicStudy>& studies) {
  std::string md = "### Nonholonomic systems with impacts (seed 003)\n\n";
  for (const auto& s : studies) {
    md += "#### " + s.case_name + "\n\n";
    if (!s.failure.empty()) {
      md += "- not run: " + nonholonomic_md_cell(s.failure) + "\n\n";
      continue;
    }
    md += nonholonomic_jump_sentence(s) + ".\n\n" + nonholonomic_md_table(s.studies, false) +
          "\nImpact times over the first two impacts (T = " + format_short(s.impact_T) +
          ", h = 1/200 … 1/1600):\n\n" + nonholonomic_md_table(s.impact_studies, true);
    md += "\n";
  }
  return md;
}

}  // namespace nsh::reports
