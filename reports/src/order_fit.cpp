#include <nsh/reports/order_fit.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace nsh::reports {

OrderFit fit_order(const std::vector<double>& h, const std::vector<double>& error) {
  if (h.size() != error.size())
    throw std::invalid_argument("fit_order: " + std::to_string(h.size()) + " step sizes but " +
                                std::to_string(error.size()) + " errors");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> x, y;
  for (std::size_t i = 0; i < h.size(); ++i)
    if (h[i] > 0 && std::isfinite(h[i]) && error[i] > 0 && std::isfinite(error[i])) {
      x.push_back(std::log10(h[i]));
      y.push_back(std::log10(error[i]));
    }
  OrderFit fit{nan, nan, nan, x.size(), {}};
  if (x.size() < 2) return fit;
  const double n = static_cast<double>(x.size());
  double xm = 0, ym = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    xm += x[i] / n;
    ym += y[i] / n;
  }
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - xm) * (x[i] - xm);
    sxy += (x[i] - xm) * (y[i] - ym);
  }
  if (!(sxx > 0)) return fit;  // every h equal: no slope
  fit.order = sxy / sxx;
  fit.intercept = ym - fit.order * xm;
  double ss = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - fit.order * x[i] - fit.intercept;
    ss += r * r;
  }
  fit.residual = std::sqrt(ss / n);
  return fit;
}

OrderFit fit_order(const std::vector<double>& h, const std::vector<double>& error,
                   const std::vector<double>& roundoff) {
  if (roundoff.size() != error.size())
    throw std::invalid_argument("fit_order: " + std::to_string(error.size()) + " errors but " +
                                std::to_string(roundoff.size()) + " round-off bounds");
  std::size_t finite = 0;
  bool at_roundoff = true, zero = true;
  for (std::size_t i = 0; i < error.size(); ++i) {
    if (!std::isfinite(error[i])) continue;  // a failed run says nothing either way
    ++finite;
    if (error[i] != 0) zero = false;
    if (!(std::abs(error[i]) <= roundoff[i])) at_roundoff = false;
  }
  if (finite == 0 || !at_roundoff) return fit_order(h, error);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  OrderFit fit{nan, nan, nan, 0, {}};
  fit.reason = zero ? "exact at every h" : "errors at round-off at every h";
  return fit;
}

double roundoff_bound(double eps, double steps, double scale) {
  return 64 * (steps + 1) * eps * std::max(1.0, scale);
}

}  // namespace nsh::reports
