// Convergence studies of first-order schemes (catching-up, penalty) on first-order cases
// ("sweeping", "penalty-line" families): the same ConvergenceStudy as the linear family, with
// the measures that make sense for a first-order trajectory x(t):
//   x_final  |x_N - x(T)|_inf
//   x_sup    sup over [t0, T] of |X_h(t) - x(t)|_inf of the piecewise-linear interpolant,
//            computed exactly through the kink of x (docs/theory.md §6 item 5: s (h - s) / h).
// The reference is the closed form of the case (only sweeping-interval has one so far).
#include <nsh/error.hpp>
#include <nsh/io/sweeping_case.hpp>
#include <nsh/limits.hpp>
#include <nsh/number.hpp>
#include <nsh/reports/convergence.hpp>
#include <nsh/scalar.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace nsh::reports {
namespace {

using R = Real50;

// Both measures are exact functions of the computed nodes (x is piecewise linear), so the
// only error they show is the scheme's.
template <class Scalar>
std::map<std::string, double> first_order_errors(const std::string& spec,
                                                 const SweepingCase<Scalar>& sweeping_case,
                                                 const Scalar& h, Index& steps) {
  const FirstOrderTrajectory<Scalar> trajectory = run_first_order<Scalar>(spec, sweeping_case, h);
  steps = static_cast<Index>(trajectory.steps.size());
  const auto& last = trajectory.states.back();
  const Scalar exact_final = sweeping_interval_exact<Scalar>(last.t);
  return {{"x_final", scalar_cast<double>(max_abs(Vector<Scalar>(last.x.array() - exact_final)))},
          {"x_sup", scalar_cast<double>(sweeping_interval_error<Scalar>(trajectory))}};
}

/// roundoff_bound for the run: the solution's scale is max |x| over the nodes and the horizon.
template <class Scalar>
double first_order_roundoff(const SweepingCase<Scalar>& sweeping_case, Index steps) {
  double scale = std::abs(scalar_cast<double>(sweeping_case.T));
  const auto& x0 = sweeping_case.initial.x;
  for (Index i = 0; i < x0.size(); ++i)
    scale = std::max(scale, std::abs(scalar_cast<double>(x0(i))));
  return roundoff_bound(scalar_cast<double>(epsilon<Scalar>()), static_cast<double>(steps), scale);
}

}  // namespace

std::vector<ConvergenceStudy> run_first_order_convergence(const ConvergenceOptions& options,
                                                          const CaseDocument& document) {
  if (document.name != "sweeping-interval")
    throw InputError("CASE", "first-order case '" + document.name +
                                 "' has no closed-form reference yet; only sweeping-interval has");
  if (options.reference != "auto" && options.reference != "analytic")
    throw InputError("--reference", "first-order cases take the analytic reference, got '" +
                                        options.reference + "'");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  {
    // Every h's step count against --max-steps before any run (each holds its trajectory).
    SweepingCase<R> c = load_sweeping_case<R>(document);
    if (!options.T.empty()) c.T = parse_number<R>(options.T, "--T");
    for (const auto& text : options.h)
      limits::check_steps(scalar_cast<double>((c.T - c.initial.t) / parse_number<R>(text, "--h")),
                          static_cast<double>(options.max_steps), "--h", "--max-steps");
  }
  std::vector<ConvergenceStudy> studies;
  for (const auto& spec : options.schemes)
    for (const auto& precision : options.precisions) {
      ConvergenceStudy study;
      study.case_name = document.name;
      study.scheme = spec;
      study.precision = precision;
      study.reference = "analytic";
      study.measures = {"x_final", "x_sup"};
      for (const auto& h_text : options.h) {
        const auto start = std::chrono::steady_clock::now();
        std::map<std::string, double> errors;
        Index steps = 0;
        double roundoff = nan;
        std::string failure;
        try {
          if (precision == "double") {
            SweepingCase<double> c = load_sweeping_case<double>(document);
            if (!options.T.empty()) c.T = parse_number<double>(options.T, "--T");
            errors =
                first_order_errors<double>(spec, c, parse_number<double>(h_text, "--h"), steps);
            roundoff = first_order_roundoff(c, steps);
          } else {
            SweepingCase<R> c = load_sweeping_case<R>(document);
            if (!options.T.empty()) c.T = parse_number<R>(options.T, "--T");
            errors = first_order_errors<R>(spec, c, parse_number<R>(h_text, "--h"), steps);
            roundoff = first_order_roundoff(c, steps);
          }
        } catch (const StepError& e) {
          failure = e.what();
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        study.h.push_back(scalar_cast<double>(parse_number<R>(h_text, "--h")));
        study.steps.push_back(steps);
        study.wall_seconds.push_back(seconds);
        study.failures.push_back(failure);
        study.roundoff.push_back(roundoff);
        if (failure.empty())  // roundoff = 64 (N + 1) eps max(1, scale): the same scale
          study.error_scale =
              std::max(study.error_scale,
                       roundoff / (64 * (static_cast<double>(steps) + 1) *
                                   (precision == "double" ? scalar_cast<double>(epsilon<double>())
                                                          : scalar_cast<double>(epsilon<R>()))));
        for (const auto& m : study.measures)
          study.errors[m].push_back(failure.empty() ? errors.at(m) : nan);
        if (options.progress)
          options.progress(
              fmt::format("converge {} {} [{}] h={}: {}", study.case_name, spec, precision, h_text,
                          failure.empty() ? fmt::format("x_sup={:.3e}", errors.at("x_sup"))
                                          : "failed: " + failure));
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
