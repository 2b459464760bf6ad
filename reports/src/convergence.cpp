// Running convergence studies: one run per (scheme, precision, h), errors against the
// reference computed in Real50 (see convergence.hpp for the measures).
#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/limits.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/convergence.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

#include "convergence_row.hpp"

namespace nsh::reports {

namespace {

using R = Real50;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

struct RunResult {
  Index steps{0};
  double wall_seconds{kNaN};
  std::map<std::string, double> errors;
  std::string failure;
  double roundoff{kNaN};  ///< the error round-off alone explains (roundoff_bound)
  double scale{0};        ///< the solution's scale (ConvergenceStudy::error_scale)
};

template <class Scalar>
RunResult run_one(const std::string& spec, const CaseDocument& document, const std::string& h_text,
                  const std::string& T_text, const LinearModel<R>& model_r,
                  ConvergenceReference& reference, const std::optional<R>& reference_impact) {
  LinearCase<Scalar> c = load_linear_case<Scalar>(document);
  if (!T_text.empty()) c.T = parse_number<Scalar>(T_text, "T");
  const Scalar h = parse_number<Scalar>(h_text, "h");
  RunResult result;
  result.steps = step_count(c.initial.t, c.T, h);

  const auto start = std::chrono::steady_clock::now();
  auto scheme = Registry::builtin().make<Scalar>(spec);
  Trajectory<Scalar> run = record(*scheme, c.model, c.initial, h, c.T);
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const std::vector<State<R>> ref = reference.sample(h_text, result.steps);
  if (ref.size() != run.states.size())
    throw std::logic_error(
        fmt::format("reference has {} samples, the run {} states", ref.size(), run.states.size()));
  const R hr = parse_number<R>(h_text, "h");
  R q_max(0), v_l1(0);
  // The solution's scale for the round-off bound: every measure is a difference of states,
  // times, energies or a time integral of velocities.
  R scale =
      abs_value<R>(scalar_cast<R>(c.T)) + abs_value<R>(model_r.energy(ref.back().q, ref.back().v));
  for (const auto& x : ref) scale = std::max({scale, max_abs(x.q), max_abs(x.v)});
  for (std::size_t k = 0; k < run.states.size(); ++k) {
    const Vector<R> q = scalar_cast<R>(run.states[k].q), v = scalar_cast<R>(run.states[k].v);
    const R dq = max_abs(Vector<R>(q - ref[k].q));
    if (dq > q_max) q_max = dq;
    if (k > 0) v_l1 += hr * max_abs(Vector<R>(v - ref[k].v));
  }
  const Vector<R> qN = scalar_cast<R>(run.states.back().q);
  const Vector<R> vN = scalar_cast<R>(run.states.back().v);
  auto d = [](const R& x) { return scalar_cast<double>(x); };
  result.scale = d(scale);
  result.roundoff = roundoff_bound(d(R(epsilon<Scalar>())), static_cast<double>(result.steps),
                                   d(scale) * (1 + d(abs_value<R>(scalar_cast<R>(c.T)))));
  result.errors["q_final"] = d(max_abs(Vector<R>(qN - ref.back().q)));
  result.errors["v_final"] = d(max_abs(Vector<R>(vN - ref.back().v)));
  result.errors["q_max"] = d(q_max);
  result.errors["v_l1"] = d(v_l1);
  result.errors["energy_final"] =
      d(abs_value<R>(model_r.energy(qN, vN) - model_r.energy(ref.back().q, ref.back().v)));
  if (reference_impact) {
    double error = kNaN;  // a run that never impacts has no impact time to compare
    for (const auto& step : run.steps)
      if (step.impulse.size() > 0 && max_abs(step.impulse) > Scalar(0)) {
        error = d(abs_value<R>(scalar_cast<R>(step.t_after) - *reference_impact));
        break;
      }
    result.errors["impact_time"] = error;
  }
  return result;
}

}  // namespace

const std::vector<std::string>& error_measures() {
  static const std::vector<std::string> measures{"q_final", "v_final",      "q_max",
                                                 "v_l1",    "energy_final", "impact_time"};
  return measures;
}

std::vector<std::string> parse_step_list(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    while (!item.empty() && item.back() == ' ') item.pop_back();
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    if (item.empty()) throw InputError("--h", "empty entry in '" + text + "'");
    const Rational value = parse_rational(item, "--h");
    if (!(value > Rational(0))) throw InputError("--h", "step size '" + item + "' must be > 0");
    out.push_back(item);
  }
  if (out.empty()) throw InputError("--h", "no step sizes given");
  return out;
}

std::string fit_warning(const OrderFit& fit) {
  if (!fit.reason.empty()) return "";  // no order is claimed
  if (fit.points < 2) return "";       // no order at all (printed as -)
  std::string out;
  const auto add = [&out](const std::string& text) { out += (out.empty() ? "" : "; ") + text; };
  if (fit.points < 3)
    add(fmt::format("only {} points: a line through two always fits, the order is unchecked",
                    fit.points));
  else if (fit.residual > 0.15)
    add(
        fmt::format("residual {:.2f} decades: the errors are not on a line (not asymptotic, or "
                    "at round-off)",
                    fit.residual));
  if (fit.defined() && fit.order < 0)
    add("negative order: the error grows as h shrinks");
  else if (fit.defined() && fit.order < 0.2)
    add("order near 0: the error does not shrink with h (does the scheme converge to another "
        "solution than the reference's, e.g. a penalty model against the rigid one?)");
  return out;
}

// Every h's step count against the --max-steps bound, before the reference (whose analytic scan
// is 8 points per finest step) or any run is started: --h 1e-12 is refused at once.
void check_step_counts(const ConvergenceOptions& options, const LinearCase<R>& c) {
  const R span = c.T - c.initial.t;
  for (const auto& text : options.h) {
    const double steps = scalar_cast<double>(span / parse_number<R>(text, "--h"));
    limits::check_steps(steps, static_cast<double>(options.max_steps), "--h", "--max-steps");
  }
}

std::vector<ConvergenceStudy> run_convergence(const ConvergenceOptions& options) {
  if (options.schemes.empty()) throw InputError("--scheme", "no scheme given");
  if (options.h.empty()) throw InputError("--h", "no step sizes given");
  for (const auto& p : options.precisions)
    if (p != "double" && p != "50")
      throw InputError("--precision", "'" + p + "' is not one of: double, 50");
  const CaseDocument document = read_case_file(locate_case(options.case_name));
  if (document.family == "sweeping" || document.family == "penalty-line")
    return run_first_order_convergence(options, document);
  if (document.family == "lagrangian") return run_lagrangian_convergence(options, document);
  if (document.family == "nonholonomic") return run_nonholonomic_convergence(options, document);
  LinearCase<R> case_r = load_linear_case<R>(document);
  if (!options.T.empty()) case_r.T = parse_number<R>(options.T, "--T");
  const LinearModel<R>& model_r = case_r.model;
  std::vector<std::string> specs;
  for (const auto& s : options.schemes) specs.push_back(Registry::builtin().resolve(s).str());
  check_step_counts(options, case_r);

  auto reference = make_reference(options.reference, document, options.h, options.T);
  std::optional<R> impact;
  try {
    impact = reference->first_impact();  // computes the event-driven flow once
  } catch (const StepError& e) {
    throw StepError(
        fmt::format("the {} reference of {} on [{}, {}] failed (no scheme was run): "
                    "{}",
                    reference->name(), document.name, format_short(case_r.initial.t),
                    format_short(case_r.T), e.what()));
  }

  std::vector<ConvergenceStudy> studies;
  for (const auto& spec : specs)
    for (const auto& precision : options.precisions) {
      ConvergenceStudy study;
      study.case_name = document.name;
      study.scheme = spec;
      study.precision = precision;
      study.reference = reference->name();
      for (const auto& m : error_measures())
        if (m != "impact_time" || impact) study.measures.push_back(m);
      for (const auto& h_text : options.h) {
        RunResult run;
        try {
          run =
              precision == "double"
                  ? run_one<double>(spec, document, h_text, options.T, model_r, *reference, impact)
                  : run_one<R>(spec, document, h_text, options.T, model_r, *reference, impact);
        } catch (const StepError& e) {
          run.failure = e.what();
        } catch (const InputError& e) {
          if (!options.keep_going) throw;
          run = RunResult{};
          run.failure = e.what();
        }
        detail::append_run(study, run, scalar_cast<double>(parse_number<R>(h_text, "h")));
        if (options.progress) {
          const auto it = run.errors.find("q_max");
          options.progress(fmt::format(
              "converge {} {} [{}] h={}: {}", study.case_name, spec, precision, h_text,
              run.failure.empty()
                  ? fmt::format("q_max={:.3e} ({:.3f} s)",
                                it == run.errors.end() ? kNaN : it->second, run.wall_seconds)
                  : "failed: " + run.failure));
        }
      }
      for (const auto& m : study.measures) {
        study.fits[m] = fit_order(study.h, study.errors[m], study.roundoff);
        study.warnings[m] = fit_warning(study.fits[m]);
      }
      studies.push_back(std::move(study));
    }
  return studies;
}

}  // namespace nsh::reports
