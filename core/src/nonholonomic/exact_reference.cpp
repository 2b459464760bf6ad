#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/nonholonomic/exact_reference.hpp>

#include <fmt/format.h>

#include <optional>

namespace nsh {
namespace {

template <class Scalar>
Scalar evaluation_bound(const NonholonomicModel<Scalar>& model, const Vector<Scalar>& q) {
  // g is a short sum of products of q and the model's lengths: its round-off is a few epsilons
  // times the size of the terms, which |grad g| |q| + |g| bounds.
  const Scalar terms = max_abs(model.inequality_gradient(q)) * (max_abs(q) + Scalar(1)) +
                       max_abs(model.inequality(q));
  return tolerance<Scalar>(terms, Scalar(256));
}

// The root of g_j(flow(start, tau)) in the certified bracket [lo, hi] (g(lo) < 0 < g(hi)):
// Newton with the derivative grad g_j . v, bisection whenever Newton leaves the bracket.
template <class Scalar>
Scalar locate(const NonholonomicModel<Scalar>& model, const State<Scalar>& start, Index j,
              Scalar lo, Scalar hi) {
  Scalar tau = (lo + hi) / 2;
  const Scalar resolution = tolerance<Scalar>(abs_value<Scalar>(start.t) + hi, Scalar(4));
  for (int iteration = 0; iteration < 400; ++iteration) {
    const State<Scalar> s = model.exact_flow(start, tau);
    const Scalar value = model.inequality(s.q)(j);
    if (value == Scalar(0)) return tau;
    if (value < Scalar(0)) {
      lo = tau;
    } else {
      hi = tau;
    }
    const Scalar slope = model.inequality_gradient(s.q).col(j).dot(s.v);
    Scalar next = slope != Scalar(0) ? Scalar(tau - value / slope) : Scalar((lo + hi) / 2);
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    const Scalar step = abs_value<Scalar>(next - tau);
    tau = next;
    if (step <= resolution || hi - lo <= resolution) return tau;
  }
  throw StepError(
      fmt::format("exact reference: the impact of {} after t = {} was not located "
                  "in 400 iterations (bracket width {})",
                  model.inequality_name(j), format_scalar(start.t), format_scalar(hi - lo)));
}

// The first impact after `start` within [start.t, T]: (j, tau) or nothing. `fired` is the
// inequality the last impact left (its g is 0 at tau = 0 and must decrease).
template <class Scalar>
std::optional<std::pair<Index, Scalar>> first_impact(const NonholonomicModel<Scalar>& model,
                                                     const State<Scalar>& start, const Scalar& T,
                                                     const Scalar& step,
                                                     std::optional<Index> fired) {
  const Index p = model.inequalities();
  Vector<Scalar> previous = model.inequality(start.q);
  Scalar tau_a(0);
  for (bool first = true; start.t + tau_a < T; first = false) {
    Scalar tau_b = tau_a + step;
    if (start.t + tau_b > T) tau_b = T - start.t;
    const Vector<Scalar> q_b = model.exact_flow(start, tau_b).q;
    const Vector<Scalar> g = model.inequality(q_b);
    const Scalar delta = evaluation_bound(model, q_b);
    std::optional<std::pair<Index, Scalar>> hit;
    for (Index j = 0; j < p; ++j) {
      if (first && fired && *fired == j) {
        if (!(g(j) < Scalar(0)))
          throw StepError(
              fmt::format("exact reference: after the impact at t = {} the "
                          "trajectory does not re-enter ({} = {} at t = {})",
                          format_scalar(start.t), model.inequality_name(j), format_scalar(g(j)),
                          format_scalar(start.t + tau_b)));
        continue;
      }
      if (!(g(j) > delta)) continue;
      if (!(previous(j) < -delta))
        throw StepError(
            fmt::format("exact reference: no certified bracket for {} near t = {} "
                        "({} = {} at the bracket's left end)",
                        model.inequality_name(j), format_scalar(start.t + tau_a),
                        model.inequality_name(j), format_scalar(previous(j))));
      const Scalar root = locate(model, start, j, tau_a, tau_b);
      if (hit && abs_value<Scalar>(root - hit->second) <=
                     tolerance<Scalar>(abs_value<Scalar>(start.t) + tau_b, Scalar(1024)))
        throw StepError("exact reference: " + model.inequality_name(hit->first) + " and " +
                        model.inequality_name(j) + " reach 0 at the same time t = " +
                        format_scalar(start.t + root) + " (simultaneous impacts)");
      if (!hit || root < hit->second) hit = std::make_pair(j, root);
    }
    if (hit) return hit;
    previous = g;
    tau_a = tau_b;
  }
  return std::nullopt;
}

}  // namespace

template <class Scalar>
NonholonomicReference<Scalar> exact_reference(const NonholonomicModel<Scalar>& model,
                                              const State<Scalar>& initial, const Scalar& T,
                                              const ReferenceOptions<Scalar>& options) {
  if (!model.has_exact_flow())
    throw ModelError("model", "'" + model.name() + "' has no closed-form flow: no exact reference");
  model.validate(initial);
  NonholonomicReference<Scalar> out;
  out.initial = initial;
  out.T = T;
  Scalar step = options.sample_step;
  if (!(step > Scalar(0))) {
    step = (T - initial.t) / 4096;
    if (step > Scalar(1) / 64) step = Scalar(1) / 64;
  }
  State<Scalar> start = initial;
  std::optional<Index> fired;
  while (start.t < T) {
    const auto hit = first_impact(model, start, T, step, fired);
    if (!hit) break;
    if (static_cast<int>(out.impacts.size()) >= options.max_impacts)
      throw StepError(fmt::format("exact reference: more than {} impacts before T = {}",
                                  options.max_impacts, format_scalar(T)));
    const auto [j, tau] = *hit;
    const State<Scalar> before = model.exact_flow(start, tau);
    const Reflection<Scalar> jump = continuous_reflection(model, before.q, before.v, j);
    if (!(jump.normal_minus > Scalar(0)))
      throw StepError(fmt::format(
          "exact reference: at t = {} the trajectory reaches {} with "
          "n^T u- = {} (grazing, not an impact)",
          format_scalar(before.t), model.inequality_name(j), format_scalar(jump.normal_minus)));
    NonholonomicImpact<Scalar> impact;
    impact.t = before.t;
    impact.inequality = j;
    impact.q = before.q;
    impact.v_minus = before.v;
    impact.v_plus = jump.v_plus;
    impact.u_minus = jump.u_minus;
    impact.u_plus = jump.u_plus;
    impact.normal_minus = jump.normal_minus;
    impact.normal_plus = jump.normal_plus;
    impact.energy_before = model.energy(before.q, before.v);
    impact.energy_after = model.energy(before.q, jump.v_plus);
    impact.residual = abs_value<Scalar>(model.inequality(before.q)(j));
    out.impacts.push_back(impact);
    start = State<Scalar>{before.t, before.q, jump.v_plus};
    fired = j;
  }
  return out;
}

template <class Scalar>
State<Scalar> reference_state(const NonholonomicModel<Scalar>& model,
                              const NonholonomicReference<Scalar>& reference, const Scalar& t) {
  State<Scalar> start = reference.initial;
  for (const auto& impact : reference.impacts) {
    if (impact.t > t) break;
    start = State<Scalar>{impact.t, impact.q, impact.v_plus};
  }
  return model.exact_flow(start, t - start.t);
}

template NonholonomicReference<double> exact_reference<double>(const NonholonomicModel<double>&,
                                                               const State<double>&, const double&,
                                                               const ReferenceOptions<double>&);
template NonholonomicReference<Real50> exact_reference<Real50>(const NonholonomicModel<Real50>&,
                                                               const State<Real50>&, const Real50&,
                                                               const ReferenceOptions<Real50>&);
template State<double> reference_state<double>(const NonholonomicModel<double>&,
                                               const NonholonomicReference<double>&, const double&);
template State<Real50> reference_state<Real50>(const NonholonomicModel<Real50>&,
                                               const NonholonomicReference<Real50>&, const Real50&);

}  // namespace nsh
