#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/energy.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

namespace nsh::reports {

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Marks drawn on a plot: the tightest step and at most this many broken ones (all of them are
// flagged in the CSV).
constexpr std::size_t kMaxMarks = 12;

void add_marks(SvgPlot& plot, const EnergyReport& report) {
  if (report.tightest_step)
    plot.mark({report.rows[*report.tightest_step].t,
               fmt::format("tightest (step {})", *report.tightest_step), "#2c7a2c"});
  for (std::size_t i = 0; i < report.broken_steps.size() && i < kMaxMarks; ++i)
    plot.mark({report.rows[report.broken_steps[i]].t,
               i == 0 ? fmt::format("broken ({} steps)", report.broken_steps.size()) : "",
               "#c0392b"});
}

std::string mark_of(const EnergyReport& report, Index step) {
  if (report.tightest_step && *report.tightest_step == step) return "tightest";
  for (Index b : report.broken_steps)
    if (b == step) return "broken";
  return {};
}

}  // namespace

EnergyReport energy_report(const std::string& case_name, const std::string& spec,
                           const std::string& h_text, const std::string& T_text) {
  const CaseDocument document = read_case_file(locate_case(case_name));
  LinearCase<double> c = load_linear_case<double>(document);
  if (!T_text.empty()) c.T = parse_number<double>(T_text, "T");
  const double h = parse_number<double>(h_text, "h");
  auto scheme = Registry::builtin().make<double>(spec);

  EnergyReport report;
  report.case_name = document.name;
  report.scheme = Registry::builtin().resolve(spec).str();
  report.h = h;
  EnergyRow first;
  first.t = c.initial.t;
  first.E = c.model.energy(c.initial.q, c.initial.v);
  first.E_alg = kNaN;
  report.rows.push_back(first);

  double E_alg0 = kNaN;
  auto observe = [&](const State<double>&, const StepSummary<double>& s) {
    const EnergyRow& prev = report.rows.back();
    EnergyRow row;
    row.step = s.step;
    row.t = s.t_after;
    row.E = s.E_after;
    row.W_ext = s.W_ext;
    row.W_damp = s.W_damp;
    row.W_contact = s.W_contact;
    row.numerical_dissipation = s.numerical_dissipation;
    row.E_alg = s.has_algorithmic_energy ? s.E_alg_after : kNaN;
    row.algorithmic_dissipation = s.has_algorithmic_energy ? s.algorithmic_dissipation : 0;
    if (s.has_algorithmic_energy && std::isnan(E_alg0)) {
      E_alg0 = s.E_alg_before;
      report.rows.front().E_alg = E_alg0;
    }
    row.identity_defect = s.energy_identity_defect();
    // A scheme may have an algorithmic energy only on some models (the Newmark family needs
    // K SPD for its r-term): the step says whether it filled one.
    row.slack = s.has_algorithmic_energy ? s.E_alg_before - s.E_alg_after
                                         : s.W_ext + s.W_damp - (s.E_after - s.E_before);
    if (s.has_algorithmic_energy) report.algorithmic_energy = true;
    row.impulse = s.impulse.size() > 0 && max_abs(s.impulse) > 0;
    row.sum_W_ext = prev.sum_W_ext + s.W_ext;
    row.sum_W_damp = prev.sum_W_damp + s.W_damp;
    row.sum_W_contact = prev.sum_W_contact + s.W_contact;
    row.sum_dissipation = prev.sum_dissipation + s.numerical_dissipation;
    row.sum_defect = prev.sum_defect + row.identity_defect;
    report.rows.push_back(row);
  };
  try {
    simulate<double>(*scheme, c.model, c.initial, h, c.T, observe);
  } catch (const StepError& e) {
    report.failure = e.what();
  }

  report.claim = report.algorithmic_energy
                     ? "E_alg non-increasing: slack = E_alg(k) - E_alg(k+1) >= 0"
                     : "dissipation: slack = W_ext + W_damp - (E(k+1) - E(k)) >= 0";
  double scale = 0;
  for (const auto& r : report.rows) {
    scale = std::max(scale, std::abs(r.E));
    if (std::isfinite(r.E_alg)) scale = std::max(scale, std::abs(r.E_alg));
    scale = std::max({scale, std::abs(r.sum_W_ext), std::abs(r.sum_W_damp)});
  }
  report.tolerance = tolerance<double>(scale);
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t k = 1; k < report.rows.size(); ++k) {
    const double slack = report.rows[k].slack;
    if (!(slack >= -report.tolerance)) {  // NaN counts as broken: nothing vouches for it
      report.broken_steps.push_back(static_cast<Index>(k));
    } else if (slack < least) {
      least = slack;
      report.tightest_step = static_cast<Index>(k);
    }
  }
  return report;
}

std::string energy_csv(const EnergyReport& report) {
  std::string out =
      "step,t,E,W_ext,W_damp,W_contact,numerical_dissipation,E_alg,algorithmic_dissipation,"
      "identity_defect,slack,impulse,sum_W_ext,sum_W_damp,sum_W_contact,sum_dissipation,"
      "sum_defect,E_minus_E0,mark\n";
  auto c = [](double x) { return std::isfinite(x) ? fmt::format("{:.17g}", x) : std::string(); };
  const double E0 = report.rows.empty() ? 0 : report.rows.front().E;
  for (const auto& r : report.rows)
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r.step, c(r.t),
                       c(r.E), c(r.W_ext), c(r.W_damp), c(r.W_contact), c(r.numerical_dissipation),
                       c(r.E_alg), c(r.algorithmic_dissipation), c(r.identity_defect), c(r.slack),
                       r.impulse ? 1 : 0, c(r.sum_W_ext), c(r.sum_W_damp), c(r.sum_W_contact),
                       c(r.sum_dissipation), c(r.sum_defect), c(r.E - E0), mark_of(report, r.step));
  return out;
}

std::string energy_json(const EnergyReport& report) {
  auto n = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); };
  nlohmann::json j;
  j["case"] = report.case_name;
  j["scheme"] = report.scheme;
  j["h"] = report.h;
  j["steps"] = report.rows.empty() ? 0 : report.rows.size() - 1;
  j["algorithmic_energy"] = report.algorithmic_energy;
  j["claim"] = report.claim;
  j["tolerance"] = report.tolerance;
  j["tightest_step"] =
      report.tightest_step ? nlohmann::json(*report.tightest_step) : nlohmann::json(nullptr);
  j["broken_steps"] = report.broken_steps;
  j["failure"] = report.failure;
  if (!report.rows.empty()) {
    const EnergyRow& a = report.rows.front();
    const EnergyRow& b = report.rows.back();
    j["E_initial"] = n(a.E);
    j["E_final"] = n(b.E);
    j["sum_W_ext"] = n(b.sum_W_ext);
    j["sum_W_damp"] = n(b.sum_W_damp);
    j["sum_W_contact"] = n(b.sum_W_contact);
    j["sum_dissipation"] = n(b.sum_dissipation);
    j["sum_defect"] = n(b.sum_defect);
    double worst = 0;
    for (const auto& r : report.rows) worst = std::max(worst, std::abs(r.identity_defect));
    j["max_abs_identity_defect"] = n(worst);
    if (report.algorithmic_energy) {
      j["E_alg_initial"] = n(a.E_alg);
      j["E_alg_final"] = n(b.E_alg);
    }
  }
  return j.dump(2) + "\n";
}

SvgPlot energy_plot(const EnergyReport& report) {
  SvgPlot plot(fmt::format("{}: energy ledger, {} h={}", report.case_name, report.scheme,
                           fmt::format("{:g}", report.h)),
               "t", "cumulated energy");
  plot.size(760, 420);
  std::vector<double> t, dE, ext, damp, contact, diss, alg;
  const double E0 = report.rows.empty() ? 0 : report.rows.front().E;
  const double A0 = report.rows.empty() ? 0 : report.rows.front().E_alg;
  for (const auto& r : report.rows) {
    t.push_back(r.t);
    dE.push_back(r.E - E0);
    ext.push_back(r.sum_W_ext);
    damp.push_back(r.sum_W_damp);
    contact.push_back(r.sum_W_contact);
    diss.push_back(-r.sum_dissipation);
    alg.push_back(r.E_alg - A0);
  }
  auto line = [&](const std::string& name, const std::vector<double>& y, bool dashed) {
    PlotSeries s;
    s.name = name;
    s.x = t;
    s.y = y;
    s.marker = t.size() > 60 ? Marker::none : Marker::circle;
    s.dashed = dashed;
    plot.add(std::move(s));
  };
  line("E - E0", dE, false);
  line("sum W_ext", ext, false);
  line("sum W_damp", damp, false);
  line("sum W_contact", contact, false);
  line("- sum D (numerical)", diss, true);
  if (report.algorithmic_energy) line("E_alg - E_alg0", alg, true);
  add_marks(plot, report);
  return plot;
}

SvgPlot energy_slack_plot(const EnergyReport& report) {
  SvgPlot plot(fmt::format("{}: slack of the energy claim per step", report.case_name), "t",
               "slack (>= 0 keeps the claim)");
  plot.size(760, 360);
  PlotSeries s;
  s.name = report.algorithmic_energy ? "-Delta E_alg" : "W_ext + W_damp - Delta E";
  for (std::size_t k = 1; k < report.rows.size(); ++k) {
    s.x.push_back(report.rows[k].t);
    s.y.push_back(report.rows[k].slack);
  }
  s.marker = s.x.size() > 60 ? Marker::none : Marker::circle;
  plot.add(std::move(s));
  add_marks(plot, report);
  return plot;
}

std::vector<std::string> write_energy(const EnergyReport& report, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("--out", "cannot create directory '" + dir + "': " + ec.message());
  std::vector<std::string> written;
  auto put = [&](const std::string& name, const std::string& text) {
    const fs::path path = fs::path(dir) / name;
    std::ofstream out(path);
    out << text;
    if (!out) throw InputError("--out", "cannot write '" + path.string() + "'");
    written.push_back(path.string());
  };
  put("energy.csv", energy_csv(report));
  put("energy.json", energy_json(report));
  put("energy.svg", energy_plot(report).render());
  put("energy_slack.svg", energy_slack_plot(report).render());
  return written;
}

}  // namespace nsh::reports
