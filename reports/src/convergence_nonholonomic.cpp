// Convergence studies on "nonholonomic" cases (docs/nonholonomic.md "Convergence"): the schemes
// that step nonlinear models with velocity constraints (dla; moreau-jean, which keeps A(q) v = 0
// as bilateral rows), run through the model's nonlinear view, against the exact reference
// (nsh/nonholonomic/exact_reference.hpp, in 50 digits):
//   q_smooth      max |q_k - q_ref(t_k)| at the last node before the first reference impact
//                 (the order between impacts)
//   q_final       max |q_N - q_ref(T)|
//   impact_time   max over impacts i |t_i - t_ref,i| (the run must have the reference's impact
//                 count, else the run is a failure naming both counts)
//   energy_final  |E(q_N, v_N) - E_0| (the exact flow conserves E: the scheme's energy error
//                 after every impact)
// A run's impact times: the DLA's own (q_bar = q_k + alpha h w_bar, t_k + alpha h); for any other
// scheme, each step with a positive contact impulse, at t_k + g_k / (-U_k) (the gap's linear
// extrapolation by its approach velocity, clipped to the step).
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/limits.hpp>
#include <nsh/nonholonomic/exact_reference.hpp>
#include <nsh/nonholonomic/nonlinear_adapter.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/convergence.hpp>
#include <nsh/schemes/dla.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "convergence_row.hpp"

namespace nsh::reports {
namespace {

const double kNonholonomicNaN = std::numeric_limits<double>::quiet_NaN();

struct NonholonomicRunResult {
  Index steps{0};
  double wall_seconds{kNonholonomicNaN};
  std::map<std::string, double> errors;
  std::string failure;
  double roundoff{kNonholonomicNaN};
  double scale{0};
};

template <class Scalar>
NonholonomicRunResult nonholonomic_run(const std::string& spec, const CaseDocument& document,
                                       const std::string& h_text, const std::string& T_text,
                                       const NonholonomicModel<Real50>& model_r,
                                       const NonholonomicReference<Real50>& reference) {
  NonholonomicRunResult result;
  const auto start = std::chrono::steady_clock::now();
  const NonholonomicCase<Scalar> c = load_nonholonomic_case<Scalar>(document);
  const NonholonomicModelAdapter<Scalar> model(*c.model);
  const Scalar h = parse_number<Scalar>(h_text, "--h");
  const Scalar T = T_text.empty() ? c.T : parse_number<Scalar>(T_text, "--T");
  auto scheme = Registry::builtin().make<Scalar>(spec);
  std::vector<Scalar> impact_times;
  std::vector<State<Scalar>> states{c.initial};
  const auto* dla = dynamic_cast<const DlaScheme<Scalar>*>(scheme.get());
  simulate<Scalar>(*scheme, model, c.initial, h, T,
                   [&](const State<Scalar>& x, const StepSummary<Scalar>& s) {
                     states.push_back(x);
                     if (dla) {
                       for (const auto& impact : dla->last_step().impacts)
                         impact_times.push_back(impact.t);
                       return;
                     }
                     for (Index j = 0; j < s.impulse.size(); ++j)
                       if (s.impulse(j) > Scalar(0)) {
                         Scalar tau = s.h;
                         if (s.velocity_before(j) < Scalar(0) && s.gap_before(j) > Scalar(0))
                           tau = std::min<Scalar>(s.h, s.gap_before(j) / -s.velocity_before(j));
                         impact_times.push_back(s.t_before + tau);
                         break;
                       }
                   });
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.steps = static_cast<Index>(states.size()) - 1;
  const Real50 hr = parse_number<Real50>(h_text, "--h");
  const Real50 t0 = reference.initial.t;
  const auto to_double = [](const Real50& x) { return scalar_cast<double>(x); };
  // Scale: |T - t0|, the reference's |q|, |v| and E.
  const State<Real50> end = reference_state(model_r, reference, reference.T);
  const Real50 E0 = model_r.energy(reference.initial.q, reference.initial.v);
  Real50 scale = abs_value<Real50>(reference.T - t0) + abs_value<Real50>(E0);
  scale = std::max({scale, max_abs(end.q), max_abs(end.v), max_abs(reference.initial.q),
                    max_abs(reference.initial.v)});
  result.scale = to_double(scale);
  result.roundoff =
      roundoff_bound(to_double(Real50(epsilon<Scalar>())), static_cast<double>(result.steps),
                     to_double(scale) * (1 + to_double(abs_value<Real50>(T - t0))));
  const Vector<Real50> qN = scalar_cast<Real50>(states.back().q);
  const Vector<Real50> vN = scalar_cast<Real50>(states.back().v);
  result.errors["q_final"] = to_double(max_abs(Vector<Real50>(qN - end.q)));
  result.errors["energy_final"] = to_double(abs_value<Real50>(model_r.energy(qN, vN) - E0));
  const Real50 first = reference.impacts.empty() ? reference.T : reference.impacts.front().t;
  // The last node strictly before the first impact (and before it by a step: the node after
  // a DLA impact is past it).
  Index k = 0;
  while (k + 1 < static_cast<Index>(states.size()) && t0 + Real50(k + 1) * hr < first) ++k;
  if (k > 0) {
    const State<Real50> x = reference_state(model_r, reference, Real50(t0 + Real50(k) * hr));
    result.errors["q_smooth"] = to_double(
        max_abs(Vector<Real50>(scalar_cast<Real50>(states[static_cast<std::size_t>(k)].q) - x.q)));
  }
  if (impact_times.size() != reference.impacts.size()) {
    result.failure = fmt::format("{} impacts in [t0, T], the exact reference has {}",
                                 impact_times.size(), reference.impacts.size());
    return result;
  }
  if (!impact_times.empty()) {
    Real50 worst(0);
    for (std::size_t i = 0; i < impact_times.size(); ++i)
      worst = std::max(
          worst, abs_value<Real50>(scalar_cast<Real50>(impact_times[i]) - reference.impacts[i].t));
    result.errors["impact_time"] = to_double(worst);
  }
  return result;
}

}  // namespace

std::vector<ConvergenceStudy> run_nonholonomic_convergence(const ConvergenceOptions& options,
                                                           const CaseDocument& document) {
  NonholonomicCase<Real50> case_r;
  try {
    case_r = load_nonholonomic_case<Real50>(document);
  } catch (const InputError& e) {
    throw InputError("", "case " + document.source + ": " + e.what());
  }
  if (!options.T.empty()) case_r.T = parse_number<Real50>(options.T, "--T");
  for (const auto& text : options.h)
    limits::check_steps(
        scalar_cast<double>((case_r.T - case_r.initial.t) / parse_number<Real50>(text, "--h")),
        static_cast<double>(options.max_steps), "--h", "--max-steps");
  if (options.reference != "auto" && options.reference != "exact")
    throw InputError("--reference", "case " + document.name +
                                        " is of family 'nonholonomic', whose reference is the "
                                        "exact one (auto or exact: the closed-form flow with "
                                        "impacts located to 50 digits); got '" +
                                        options.reference + "'");
  const NonholonomicModel<Real50>& model_r = *case_r.model;
  NonholonomicReference<Real50> reference;
  try {
    reference = exact_reference<Real50>(model_r, case_r.initial, case_r.T);
  } catch (const StepError& e) {
    throw StepError(fmt::format(
        "the exact reference of {} on [{}, {}] failed (no scheme was "
        "run): {}",
        document.name, format_short(case_r.initial.t), format_short(case_r.T), e.what()));
  }
  std::vector<std::string> specs;
  for (const auto& s : options.schemes) specs.push_back(Registry::builtin().resolve(s).str());
  std::vector<ConvergenceStudy> studies;
  for (const auto& spec : specs)
    for (const auto& precision : options.precisions) {
      ConvergenceStudy study;
      study.case_name = document.name;
      study.scheme = spec;
      study.precision = precision;
      study.reference = fmt::format("exact: closed-form flow, {} impacts located to 50 digits",
                                    reference.impacts.size());
      study.measures = {"q_smooth", "q_final", "energy_final"};
      if (!reference.impacts.empty()) study.measures.push_back("impact_time");
      for (const auto& h_text : options.h) {
        NonholonomicRunResult run;
        try {
          run =
              precision == "double"
                  ? nonholonomic_run<double>(spec, document, h_text, options.T, model_r, reference)
                  : nonholonomic_run<Real50>(spec, document, h_text, options.T, model_r, reference);
        } catch (const StepError& e) {
          run.failure = e.what();
        } catch (const InputError& e) {
          if (!options.keep_going) throw;
          run = NonholonomicRunResult{};
          run.failure = e.what();
        }
        detail::append_run(study, run, scalar_cast<double>(parse_number<Real50>(h_text, "h")));
        if (options.progress) {
          const auto it = run.errors.find("q_final");
          options.progress(
              fmt::format("converge {} {} [{}] h={}: {}", study.case_name, spec, precision, h_text,
                          run.failure.empty()
                              ? fmt::format("q_final={:.3e} ({:.3f} s)",
                                            it == run.errors.end() ? kNonholonomicNaN : it->second,
                                            run.wall_seconds)
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
