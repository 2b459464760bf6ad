// The double instantiation of the step predicates, and the trajectory predicates.
#include <nsh/scalar.hpp>

#include "predicates.hxx"

#include <cmath>

namespace nsh::properties {

NSH_INSTANTIATE_PREDICATES(double)

Judgement double_vs_real50(const std::vector<State<double>>& d, const std::vector<State<Real50>>& r,
                           const std::vector<std::vector<Index>>& index_sets_d,
                           const std::vector<std::vector<Index>>& index_sets_r,
                           const std::vector<double>& threshold_distance_d) {
  const std::size_t steps = std::min(d.size(), r.size());
  for (std::size_t k = 0; k < steps; ++k) {
    if (k > 0 && k - 1 < index_sets_d.size() && k - 1 < index_sets_r.size() &&
        index_sets_d[k - 1] != index_sets_r[k - 1]) {
      // A branch switch is legitimate only at a near-tie of the activation test.
      const double distance = k - 1 < threshold_distance_d.size() ? threshold_distance_d[k - 1] : 0;
      const double scale = 1 + max_abs(d[k - 1].q) + max_abs(d[k - 1].v);
      if (distance <= tolerance<double>(scale, 1024.0 * static_cast<double>(k + 1))) return {};
      return Judgement{false,
                       fmt::format("step {}: the double and Real50 runs took different index sets "
                                   "away from any activation threshold (distance {})",
                                   k, format_short(distance)),
                       {{"threshold distance", format_scalar(distance)}}};
    }
    const Vector<double> rq = scalar_cast<double>(r[k].q);
    const Vector<double> rv = scalar_cast<double>(r[k].v);
    const double diff = max_abs(d[k].q - rq) + max_abs(d[k].v - rv);
    const double scale = 1 + max_abs(rq) + max_abs(rv);
    const double n = static_cast<double>(rq.size());
    const double tol = tolerance<double>(scale, 1024.0 * static_cast<double>(k + 1) * (n + 1));
    if (diff > tol)
      return Judgement{false,
                       fmt::format("step {}: |x_double - x_Real50| = {} > {}", k,
                                   format_short(diff), format_short(tol)),
                       {{"step", std::to_string(k)},
                        {"difference", format_scalar(diff)},
                        {"tolerance", format_scalar(tol)}}};
  }
  return {};
}

double log_log_slope(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = std::min(x.size(), y.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  const double dn = static_cast<double>(n);
  return (dn * sxy - sx * sy) / (dn * sxx - sx * sx);
}

Judgement observed_order(const std::vector<double>& h, const std::vector<double>& error,
                         int expected_order) {
  for (double e : error)
    if (!(e > 0) || !std::isfinite(e))
      return Judgement{false,
                       "an error is zero or not finite; the order is undefined",
                       {{"error", format_scalar(e)}}};
  const double slope = log_log_slope(h, error);
  const double required = expected_order - 0.1;
  if (!(slope >= required)) {
    Judgement j{false,
                fmt::format("observed order {} < {} - 0.1", format_short(slope), expected_order),
                {{"observed order", format_scalar(slope)},
                 {"claimed order", std::to_string(expected_order)}}};
    for (std::size_t i = 0; i < h.size(); ++i)
      j.values.push_back({fmt::format("error(h={})", format_short(h[i])), format_scalar(error[i])});
    return j;
  }
  return {};
}

}  // namespace nsh::properties
