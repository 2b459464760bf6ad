#pragma once
// One step size's run appended to a convergence study: the linear (convergence.cpp) and the
// lagrangian (convergence_lagrangian.cpp) families fill a study the same way.

#include <nsh/reports/convergence.hpp>

#include <algorithm>
#include <limits>

namespace nsh::reports::detail {

/// `Run` has steps, wall_seconds, failure, roundoff, scale and errors (measure -> error); a
/// measure the run did not produce is NaN in the study (drawn as a gap, never as zero).
template <class Run>
void append_run(ConvergenceStudy& study, const Run& run, double h) {
  study.h.push_back(h);
  study.steps.push_back(run.steps);
  study.wall_seconds.push_back(run.wall_seconds);
  study.failures.push_back(run.failure);
  study.roundoff.push_back(run.roundoff);
  study.error_scale = std::max(study.error_scale, run.scale);
  for (const auto& m : study.measures) {
    const auto it = run.errors.find(m);
    study.errors[m].push_back(it == run.errors.end() ? std::numeric_limits<double>::quiet_NaN()
                                                     : it->second);
  }
}

}  // namespace nsh::reports::detail
