#pragma once
// The observed order of a convergence study: the least-squares line through
// (log10 h_i, log10 err_i),
//
//   log10 err ≈ order · log10 h + intercept,
//   order = Σ (x_i − x̄)(y_i − ȳ) / Σ (x_i − x̄)²,
//   residual = sqrt( Σ (y_i − order x_i − intercept)² / n )     (RMS, in decades),
//
// over the points with h_i > 0 and a finite err_i > 0 (an error that is exactly zero, e.g. an
// impact time hit exactly on the grid, says nothing about a slope and is left out). The fit uses
// every point, not the mean of successive ratios, so a study that is not yet asymptotic, or one
// whose errors stall at round-off or diverge, shows as a large residual rather than a plausible
// order. With fewer than two usable points (or all h equal) the order is undefined (NaN).

#include <cstddef>
#include <string>
#include <vector>

namespace nsh::reports {

struct OrderFit {
  double order;      ///< slope of log10 err against log10 h (NaN if undefined)
  double intercept;  ///< log10 err at h = 1 on the fitted line (NaN if undefined)
  double residual;   ///< RMS distance of the points from the line, in decades (NaN if undefined)
  std::size_t points{0};  ///< number of points used
  /// Why there is no slope although the runs completed: "exact at every h" (every error is 0)
  /// or "errors at round-off at every h" (every error below its round-off bound); empty
  /// otherwise. A slope through round-off noise (e.g. catching-up on sweeping-interval at steps
  /// dividing 1, fitted order -0.93) would be meaningless.
  std::string reason;
  bool defined() const { return points >= 2 && order == order; }
};

/// Throws std::invalid_argument if h and error differ in length.
OrderFit fit_order(const std::vector<double>& h, const std::vector<double>& error);

/// As above, with `roundoff[i]` the largest error at h[i] that round-off alone explains
/// (roundoff_bound). If every finite error is at or below its bound (and there is at least one),
/// the measure is exact at every h: order, intercept and residual are NaN and `reason` says so.
/// Throws std::invalid_argument if the lengths differ.
OrderFit fit_order(const std::vector<double>& h, const std::vector<double>& error,
                   const std::vector<double>& roundoff);

/// The error round-off alone can produce after `steps` steps in a precision with machine
/// epsilon `eps` on a solution of size `scale`: 64 (steps + 1) eps max(1, scale) (one rounding
/// per operation, a few dozen operations per step, accumulated linearly).
double roundoff_bound(double eps, double steps, double scale);

}  // namespace nsh::reports
