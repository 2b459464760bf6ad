#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/friction.hpp>
#include <nsh/reports/svg_plot.hpp>

#include <nsh/cases/friction.hpp>

#include <fmt/format.h>

#include <cmath>

namespace nsh::reports {

FrictionStudy run_friction_study(const std::string& case_name, const std::string& scheme,
                                 const std::vector<std::string>& hs) {
  const CaseDocument document = read_case_file(locate_case(case_name));
  const LinearCase<Rational> exact = load_linear_case<Rational>(document);
  const auto closed = cases::PersistentContact<Rational>::from_case(exact.model, exact.initial);
  const auto stick = closed.stick_time();
  if (!stick)
    throw InputError("case",
                     "case '" + case_name + "' has no stop or onset of rolling in its closed form");
  FrictionStudy study;
  study.case_name = case_name;
  study.scheme = Registry::builtin().resolve(scheme).str();
  // A block comes to rest; a ball keeps moving once it rolls.
  const State<Rational> at_T = closed.state(exact.T);
  study.event = at_T.v(0) == Rational(0) ? "stop" : "rolling";
  study.event_reference = scalar_cast<double>(*stick);
  study.speed_reference = scalar_cast<double>(at_T.v(0));
  study.position_reference = scalar_cast<double>(at_T.q(0));
  study.T = scalar_cast<double>(exact.T);

  const LinearCase<double> c = load_linear_case<double>(document);
  const double velocity_tol = 1e-10 * (max_abs(c.initial.v) + 1);
  for (const std::string& text : hs) {
    const double h = parse_number<double>(text, "h");
    auto stepper = Registry::builtin().make<double>(study.scheme);
    FrictionRow row;
    row.h = text;
    row.h_value = h;
    const auto observe = [&](const State<double>& state, const StepSummary<double>&) {
      if (!row.reached && std::abs(c.model.tangential_velocity(state.v)(0)) <= velocity_tol) {
        row.reached = true;
        row.event_time = state.t;
      }
    };
    State<double> last;
    try {
      last = simulate<double>(*stepper, c.model, c.initial, h, c.T, observe);
    } catch (const InputError& e) {  // a scheme without friction refuses the model (mu)
      study.failure = e.what();
      study.rows.clear();
      return study;
    } catch (const StepError& e) {
      study.failure = "h = " + text + ": " + e.what();
      study.rows.clear();
      return study;
    }
    row.speed = last.v(0);
    row.position = last.q(0);
    row.event_error = row.reached ? std::abs(row.event_time - study.event_reference) : NAN;
    row.speed_error = std::abs(row.speed - study.speed_reference);
    row.position_error = std::abs(row.position - study.position_reference);
    study.rows.push_back(row);
  }
  return study;
}

std::vector<FrictionStudy> default_friction_studies() {
  const std::vector<std::string> hs = {"1/50", "1/100", "1/200", "1/400", "1/800", "1/1600"};
  std::vector<FrictionStudy> out;
  for (const char* name : {"sliding-block", "rolling-sphere", "rolling-cylinder"})
    out.push_back(run_friction_study(name, "moreau-jean:theta=1", hs));
  return out;
}

std::string friction_plot(const FrictionStudy& study) {
  SvgPlot plot(study.case_name + ": " + study.scheme + " against the closed form", "h", "error");
  plot.x_scale(AxisScale::log).y_scale(AxisScale::log);
  plot.subtitle(fmt::format("{} at t = {:.6g} (closed form), x'(T) = {:.6g}, T = {:g}", study.event,
                            study.event_reference, study.speed_reference, study.T));
  PlotSeries event{.name = "|t_" + study.event + " - t_ref|", .x = {}, .y = {}, .color = {}};
  PlotSeries position{.name = "|x(T) - x_ref(T)|", .x = {}, .y = {}, .color = {}};
  PlotSeries speed{.name = "|x'(T) - x'_ref(T)|", .x = {}, .y = {}, .color = {}};
  PlotSeries first_order{.name = "h (slope 1)", .x = {}, .y = {}, .color = {}};
  first_order.dashed = true;
  first_order.marker = Marker::none;
  for (const FrictionRow& r : study.rows) {
    event.x.push_back(r.h_value);
    event.y.push_back(r.event_error);
    position.x.push_back(r.h_value);
    position.y.push_back(r.position_error);
    speed.x.push_back(r.h_value);
    speed.y.push_back(r.speed_error);
    first_order.x.push_back(r.h_value);
    first_order.y.push_back(r.h_value);
  }
  plot.add(event).add(position).add(speed).add(first_order);
  plot.note("points at zero error (exact to round-off) are not drawn on the log axis");
  return plot.render();
}

}  // namespace nsh::reports
