#pragma once
// The report's seed-002 part (docs/half-explicit-tdg.md "The seed's comparison"): the
// half-explicit time-discontinuous Galerkin scheme, Moreau–Jean and the forecasting trapezoidal
// rule on the same examples — the bouncing ball, the sliding block, and the rigid rod on two
// corners and falling on the floor (two contacts with friction) — measured when the report runs:
// convergence orders (nsh converge's studies), the largest penetration -min g against h, the
// energy per step, Newton iterations and CPU time per step; with the claims' verdicts of the
// report's check beside them, and the seed's "without any penetration" read at position level
// with the measured number.

#include <nsh/properties/check.hpp>
#include <nsh/reports/convergence.hpp>

#include <functional>
#include <string>
#include <vector>

namespace nsh::reports {

/// One (scheme, h) run of a seed-002 case, in double.
struct Seed002Run {
  std::string scheme;  ///< the spec as run
  double h{0};
  Index steps{0};
  double penetration{0};          ///< max over the steps of -min(0, min_a g_a(q_{k+1}))
  double impact_speed{0};         ///< max over the steps of -min(0, U) before a closing impact
  double newton_per_step{0};      ///< mean Newton (or LCP pivot) iterations per step
  double cpu_per_step{0};         ///< seconds per step (wall clock of the whole run / steps)
  std::vector<double> t, energy;  ///< E after every step (the plotted h only)
  std::string failure;            ///< why the run did not finish (refused model, StepError)
};

struct Seed002Case {
  std::string case_name;
  std::string about;    ///< the example and its reference, in words
  std::string measure;  ///< the convergence measure tabulated and plotted
  std::vector<ConvergenceStudy> studies;
  std::vector<Seed002Run> runs;  ///< every (scheme, h)
  double plot_h{0};              ///< the h whose energy per step is plotted
  std::string failure;           ///< why the convergence studies did not run
};

/// The three schemes of the comparison, as the report runs them.
const std::vector<std::string>& seed002_schemes();

/// bouncing-ball (analytic reference), sliding-block (analytic), rod-on-corners and falling-rod
/// (self-convergence in Real50; lagrangian, so forecasting-trapezoidal, which steps the linear
/// family only, shows its refusal), coulomb-oscillator and bar-on-two-supports (analytic, the
/// stick-slip closed form over the first slide; one and two persistent frictional contacts):
/// a few seconds in all.
std::vector<Seed002Case> default_seed002_cases(
    const std::function<void(const std::string&)>& progress = {});

/// The largest penetration over the bouncing ball's runs of `scheme` divided by h |U-|, where
/// |U-| is the run's largest approach speed before a closing impact (NaN without one).
double seed002_penetration_ratio(const std::vector<Seed002Case>& cases, const std::string& scheme);

/// The page's section (HTML) and its Markdown summary, with `verdicts` (the report's check) for
/// the claims of each scheme.
std::string seed002_html(const std::vector<Seed002Case>& cases,
                         const std::vector<properties::Verdict>& verdicts);
std::string seed002_markdown(const std::vector<Seed002Case>& cases,
                             const std::vector<properties::Verdict>& verdicts);

}  // namespace nsh::reports
