// Writing convergence studies: JSON, CSV and SVG plots.
#include <nsh/error.hpp>
#include <nsh/reports/convergence.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace nsh::reports {

namespace {

nlohmann::json number_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

nlohmann::json list(const std::vector<double>& xs) {
  nlohmann::json out = nlohmann::json::array();
  for (double x : xs) out.push_back(number_or_null(x));
  return out;
}

nlohmann::json study_json(const ConvergenceStudy& s) {
  nlohmann::json j;
  j["case"] = s.case_name;
  j["scheme"] = s.scheme;
  j["precision"] = s.precision;
  j["reference"] = s.reference;
  j["h"] = list(s.h);
  j["steps"] = s.steps;
  j["wall_seconds"] = list(s.wall_seconds);
  j["measures"] = s.measures;
  nlohmann::json errors = nlohmann::json::object(), orders = nlohmann::json::object(),
                 residuals = nlohmann::json::object(), points = nlohmann::json::object(),
                 reasons = nlohmann::json::object(), warnings = nlohmann::json::object(),
                 relative = nlohmann::json::object();
  for (const auto& m : s.measures) {
    errors[m] = list(s.errors.at(m));
    const OrderFit& fit = s.fits.at(m);
    orders[m] = number_or_null(fit.order);
    residuals[m] = number_or_null(fit.residual);
    points[m] = fit.points;
    // Why orders[m] is null although the runs completed ("exact at every h"); null otherwise.
    reasons[m] = fit.reason.empty() ? nlohmann::json(nullptr) : nlohmann::json(fit.reason);
    // Why orders[m] should not be trusted (few points, bad residual, negative); null otherwise.
    const auto w = s.warnings.find(m);
    warnings[m] = w == s.warnings.end() || w->second.empty() ? nlohmann::json(nullptr)
                                                             : nlohmann::json(w->second);
    nlohmann::json rel = nlohmann::json::array();
    for (double e : s.errors.at(m))
      rel.push_back(s.error_scale > 0 ? number_or_null(e / s.error_scale)
                                      : nlohmann::json(nullptr));
    relative[m] = rel;
  }
  j["errors"] = errors;
  j["orders"] = orders;
  j["fit_residual"] = residuals;
  j["fit_points"] = points;
  j["order_reasons"] = reasons;
  j["order_warnings"] = warnings;
  // The solution's scale (ConvergenceStudy::error_scale) and every error divided by it.
  j["error_scale"] = number_or_null(s.error_scale);
  j["relative_errors"] = relative;
  j["roundoff"] = list(s.roundoff);
  j["failures"] = s.failures;
  return j;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  if (!out) throw InputError("--out", "cannot write '" + path.string() + "'");
  out << text;
  if (!out) throw InputError("--out", "failed writing '" + path.string() + "'");
}

std::string series_name(const ConvergenceStudy& s, const std::string& measure) {
  std::string name = s.scheme;
  if (s.precision != "double") name += " [" + s.precision + "]";
  auto it = s.fits.find(measure);
  if (it != s.fits.end() && !it->second.reason.empty()) name += " (" + it->second.reason + ")";
  if (it != s.fits.end() && it->second.defined())
    name += fmt::format(" p={:.2f}", it->second.order);
  const auto w = s.warnings.find(measure);
  if (w != s.warnings.end() && !w->second.empty()) name += " (?)";  // see order_warnings
  return name;
}

const Marker kMarkers[] = {Marker::circle, Marker::square, Marker::triangle, Marker::diamond,
                           Marker::cross};

}  // namespace

std::string convergence_json(const std::vector<ConvergenceStudy>& studies) {
  nlohmann::json root = studies.empty() ? nlohmann::json::object() : study_json(studies.front());
  root["studies"] = nlohmann::json::array();
  for (const auto& s : studies) root["studies"].push_back(study_json(s));
  return root.dump(2) + "\n";
}

std::string convergence_csv(const std::vector<ConvergenceStudy>& studies) {
  std::string out = "case,scheme,precision,reference,h,steps,wall_seconds";
  for (const auto& m : error_measures()) out += "," + m;
  out += "\n";
  auto cell = [](double x) { return std::isfinite(x) ? fmt::format("{:.17g}", x) : std::string(); };
  auto quoted = [](const std::string& text) {
    std::string q = "\"";
    for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  for (const auto& s : studies)
    for (std::size_t i = 0; i < s.h.size(); ++i) {
      out += fmt::format("{},{},{},{},{},{},{}", quoted(s.case_name), quoted(s.scheme), s.precision,
                         quoted(s.reference), cell(s.h[i]), s.steps[i], cell(s.wall_seconds[i]));
      for (const auto& m : error_measures()) {
        auto it = s.errors.find(m);
        out += "," + (it == s.errors.end() ? std::string() : cell(it->second[i]));
      }
      out += "\n";
    }
  return out;
}

namespace {

// Error of one measure against an abscissa of each study (h or wall time), log-log, one
// series per study; the two plots of a convergence study differ only in that abscissa.
SvgPlot error_plot(const std::vector<ConvergenceStudy>& studies, const std::string& measure,
                   const std::string& title, const std::string& x_label,
                   std::vector<double> ConvergenceStudy::*abscissa) {
  const std::string case_name = studies.empty() ? std::string() : studies.front().case_name;
  SvgPlot plot(fmt::format("{}: {}", case_name, title), x_label, "error " + measure);
  plot.x_scale(AxisScale::log).y_scale(AxisScale::log).size(760, 420);
  int i = 0;
  for (const auto& s : studies) {
    auto it = s.errors.find(measure);
    if (it == s.errors.end()) continue;
    PlotSeries series;
    series.name = series_name(s, measure);
    series.x = s.*abscissa;
    series.y = it->second;
    series.marker = kMarkers[i % 5];
    series.dashed = s.precision != "double";
    plot.add(std::move(series));
    ++i;
  }
  return plot;
}

}  // namespace

SvgPlot convergence_plot(const std::vector<ConvergenceStudy>& studies, const std::string& measure) {
  return error_plot(studies, measure, measure + " against h", "step size h", &ConvergenceStudy::h);
}

SvgPlot work_precision_plot(const std::vector<ConvergenceStudy>& studies,
                            const std::string& measure) {
  return error_plot(studies, measure, "work-precision (" + measure + ")", "wall time [s]",
                    &ConvergenceStudy::wall_seconds);
}

std::vector<std::string> write_convergence(const std::vector<ConvergenceStudy>& studies,
                                           const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("--out", "cannot create directory '" + dir + "': " + ec.message());
  std::vector<std::string> written;
  auto put = [&](const std::string& name, const std::string& text) {
    const fs::path path = fs::path(dir) / name;
    write_text(path, text);
    written.push_back(path.string());
  };
  put("convergence.json", convergence_json(studies));
  put("convergence.csv", convergence_csv(studies));
  std::vector<std::string> measures;
  for (const auto& s : studies)
    for (const auto& m : s.measures)
      if (std::find(measures.begin(), measures.end(), m) == measures.end()) measures.push_back(m);
  for (const auto& m : measures) {
    put("convergence_" + m + ".svg", convergence_plot(studies, m).render());
    put("work_precision_" + m + ".svg", work_precision_plot(studies, m).render());
  }
  return written;
}

}  // namespace nsh::reports
