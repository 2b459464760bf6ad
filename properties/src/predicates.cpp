// The double instantiation of the step predicates, and the trajectory predicates.
#include <nsh/scalar.hpp>

#include "predicates.hxx"

#include <nsh/recorded_fields.hpp>

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

std::uint32_t recorded_fields_read(const std::string& property) {
  using F = RecordedField;
  const std::uint32_t impulse_law = bit(F::impulse) | bit(F::index_set) | bit(F::velocity_newton);
  const std::uint32_t friction = impulse_law | bit(F::tangential_impulse);
  if (property == "impact_work_nonpositive")
    return bit(F::impulse) | bit(F::velocity_newton) | bit(F::tangential_impulse);
  if (property == "newton_restitution" || property == "signorini_complementarity")
    return impulse_law;
  if (property == "lcp_certificate") return bit(F::lcp) | bit(F::index_set) | bit(F::impulse);
  if (property == "momentum_balance")
    return bit(F::external_impulse) | bit(F::impulse) | bit(F::tangential_impulse);
  if (property == "energy_identity")
    return bit(F::W_ext) | bit(F::W_damp) | bit(F::W_contact) | bit(F::numerical_dissipation);
  if (property == "moreau_jean_energy_dissipation") return bit(F::W_ext) | bit(F::W_damp);
  if (property == "algorithmic_energy_decay") return bit(F::E_alg_before) | bit(F::E_alg_after);
  if (property == "coulomb_cone" || property == "maximal_dissipation" ||
      property == "friction_certificate")
    return friction;
  if (property == "friction_work_nonpositive") return bit(F::tangential_impulse);
  return 0;  // penetration_bound reads the kit's gaps only
}

std::string unwritten_reads(const std::string& property, std::uint32_t recorded) {
  const std::uint32_t missing = recorded_fields_read(property) & ~recorded;
  if (missing == 0) return {};
  return property + " reads " + recorded_field_names(missing) +
         ", which the scheme did not write this step (a property must not judge a value the "
         "scheme never recorded: docs/adding-a-scheme.md)";
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
