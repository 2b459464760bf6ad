// The event-driven flow's state and loop (nsh/schemes/event_driven.hpp): the state, the closed
// set, the tolerances from the running scale of the solution, the step's accumulators, and
// advance_to() (series, root search on every monitor, the segment to the first event) and
// process() (impact, then the contact mode, then accumulation). The pieces it calls are in
// root_finding.hxx, taylor_flow.hxx, contact_modes.hxx (decide_mode, set_mode) and
// accumulation.hxx.
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "root_finding.hxx"
#include "taylor_flow.hxx"

namespace nsh {

template <class Scalar>
struct EventDrivenFlow<Scalar>::Impl {
  // The flow's own copy of the model: sparse, whichever form it was given in.
  const SparseLinearModel<Scalar> model;
  EventDrivenOptions<Scalar> options;
  Index n{0}, m{0};
  State<Scalar> state;
  std::vector<Index> closed;
  std::vector<Event<Scalar>> initial_events;
  event_driven::detail::TaylorFlow<Scalar> flow;  ///< the operator of the closed set and its series

  Scalar rel_tol{0};
  Scalar G_norm{0}, w_norm{0}, F_norm{0}, K_norm{0}, C_norm{0};
  Scalar q_scale{0}, v_scale{0}, t_scale{0};
  /// The largest |t| + (t_target - t) over the calls of advance_to so far, which bounds
  /// |t| + S of every segment: the time scale of an event's location error, in gap_tol().
  Scalar location_span{0};
  Scalar t_start{0};

  // Accumulators since the last reset.
  event_driven::detail::SegmentIntegrals<Scalar>
      acc;  ///< impulse (impacts too), external, W_ext, W_damp
  Vector<Scalar> acc_last_U;
  Scalar acc_W_impact{0};
  std::vector<bool> acc_touched;
  bool acc_posed{false};
  LcpResult<Scalar> acc_lcp;

  // Work done over the run, for the bound options.max_segments.
  Index segments{0};      ///< series segments since construction
  Index events_total{0};  ///< events processed since construction

  /// Order at which decide_mode() decided each contact from a higher derivative (0: from the
  /// acceleration LCP or not at contact); read by the next segment's monitors.
  std::vector<int> decided_order;

  enum class Trigger { gap, multiplier };

  Impl(SparseLinearModel<Scalar> model_, const State<Scalar>& initial,
       const EventDrivenOptions<Scalar>& options_)
      : model(std::move(model_)), options(options_), state(initial), flow(model) {
    n = model.dofs();
    m = model.contacts();
    if (state.q.size() != n || state.v.size() != n)
      throw InputError("q0", fmt::format("event-driven: state of size {}/{} for a model with {} "
                                         "degrees of freedom",
                                         state.q.size(), state.v.size(), n));
    if (!std::isfinite(flow.frequency.total())) refuse_work(state.t, state.t);
    rel_tol = options.tolerance > Scalar(0) ? options.tolerance : Scalar(64) * epsilon<Scalar>();
    G_norm = max_abs(model.G);
    w_norm = max_abs(model.w);
    F_norm = max_abs(model.F) + (flow.has_Fa ? max_abs(model.F_amplitude) : Scalar(0));
    K_norm = max_abs(model.K);
    C_norm = max_abs(model.C);
    t_start = state.t;
    reset();
    update_scales();
    const Vector<Scalar> g = model.gap(state.q);
    for (Index a = 0; a < m; ++a)
      if (g(a) < -gap_tol())
        throw InputError(fmt::format("q0 (gap[{}])", a),
                         "event-driven needs an admissible initial state, but gap " +
                             format_scalar(g(a)) + " < 0");
    set_mode({});
    process(std::nullopt, -1, &initial_events);
  }

  void reset() {
    acc.impulse = Vector<Scalar>::Zero(m);
    acc.external = Vector<Scalar>::Zero(n);
    acc.W_ext = acc.W_damp = Scalar(0);
    acc_last_U = model.local_velocity(state.v);
    acc_W_impact = Scalar(0);
    acc_touched.assign(static_cast<std::size_t>(m), false);
    for (Index a : closed) acc_touched[static_cast<std::size_t>(a)] = true;
    acc_posed = false;
    acc_lcp = LcpResult<Scalar>{};
  }

  // ---- tolerances, from the running scale of the solution ----
  void update_scales() {
    q_scale = std::max(q_scale, event_driven::detail::max_norm(state.q));
    v_scale = std::max(v_scale, event_driven::detail::max_norm(state.v));
    t_scale = std::max(t_scale,
                       std::max(abs_value<Scalar>(state.t), abs_value<Scalar>(state.t - t_start)));
  }
  const Scalar& rho() const { return flow.rho; }
  Scalar time_ref() const { return rho() > Scalar(0) ? Scalar(Scalar(1) / rho()) : Scalar(0); }
  /// The gap's zero test: the position scale, plus the distance the fastest motion covers in
  /// the time an event is located to. first_root places an event up to a few s_tol = 4 eps
  /// (|t| + S) past the zero, so a gap just reached reads about |U| s_tol below zero; without
  /// the span term a micro-bounce (q ~ 0, rho = 0: no 1 / rho) read that as a penetration at
  /// s = 0 again and again (docs/coverage.md, "The micro-bouncing designed cases").
  Scalar gap_tol() const {
    return rel_tol * (G_norm * (q_scale + v_scale * std::max(time_ref(), location_span)) + w_norm);
  }
  Scalar velocity_tol() const {
    Scalar v = v_scale;
    if (rho() > Scalar(0)) v = std::max(v, q_scale * rho());
    return rel_tol * G_norm * v;
  }
  Scalar time_tol() const { return rel_tol * std::max(t_scale, time_ref()); }
  Scalar force_scale() const { return F_norm + K_norm * q_scale + C_norm * v_scale; }

  Scalar energy() const { return model.energy(state.q, state.v); }
  /// y = M^-1 f at the current state.
  Vector<Scalar> free_acceleration_now() const {
    using std::sin;
    const Scalar sn = flow.has_Fa ? Scalar(sin(flow.omega * state.t)) : Scalar(0);
    return flow.free_acceleration(state.q, state.v, Scalar(1), sn);
  }

  void push(std::vector<Event<Scalar>>* events, Event<Scalar> ev) {
    if (events) events->push_back(ev);
  }

  /// Series segments that [t, t_target] needs: (t_target - t) rho / segment_reach, in double.
  double segments_needed(const Scalar& t_target) const {
    if (flow.frequency.total() == 0) return 0;  // a polynomial flow: one segment
    return std::ceil(scalar_cast<double>(Scalar(t_target - state.t)) * flow.frequency.total() /
                     double(event_driven::detail::TaylorFlow<Scalar>::segment_reach));
  }
  /// The InputError of an infeasible interval: names the part of rho that makes it so (K, C,
  /// omega), or T when rho itself is moderate and the interval is long.
  [[noreturn]] void refuse_work(const Scalar& t_target, const Scalar& t_from) const;

  void advance_to(const Scalar& t_target, std::vector<Event<Scalar>>* events);
  void process(std::optional<Trigger> trigger, Index trigger_contact,
               std::vector<Event<Scalar>>* events);
  // contact_modes.hxx
  void set_mode(std::vector<Index> new_closed);
  Scalar gap_coefficient_tol(int k, const Scalar& t_ref) const;
  void decide_mode(Index exclude, Index force, std::vector<Event<Scalar>>* events);
  // accumulation.hxx
  void accumulation(const ImpactResult<Scalar>& impact, std::vector<Event<Scalar>>* events);
};

template <class Scalar>
void EventDrivenFlow<Scalar>::Impl::refuse_work(const Scalar& t_target,
                                                const Scalar& t_from) const {
  const auto& bound = flow.frequency;
  const double limit = static_cast<double>(options.max_segments);
  const double per_unit_time =
      bound.total() / double(event_driven::detail::TaylorFlow<Scalar>::segment_reach);
  const std::string interval = "[" + format_scalar(t_from) + ", " + format_scalar(t_target) + "]";
  if (!std::isfinite(bound.total())) {
    const char* field = !std::isfinite(bound.stiffness) ? "K"
                        : !std::isfinite(bound.damping) ? "C"
                                                        : "omega";
    throw InputError(field, fmt::format("event-driven: the spectral bound rho = sqrt(lambda_max("
                                        "M^-1 K)) + |M^-1 C| + |omega| overflows double ({:g}, "
                                        "{:g}, {:g}), so any interval needs unboundedly many flow "
                                        "segments (raising EventDrivenOptions::max_segments "
                                        "cannot help): rescale the model's units",
                                        bound.stiffness, bound.damping, bound.forcing));
  }
  const double needed = segments_needed(t_target);
  const std::string tail = fmt::format(
      "so {} needs ~{:.3g} flow segments of length 4 / rho; above the limit of {} "
      "(EventDrivenOptions::max_segments)",
      interval, needed, options.max_segments);
  if (per_unit_time <= limit)  // rho is moderate: the interval is what is long
    throw InputError(
        "T", fmt::format("event-driven: rho = {:.3g} per unit time, ", bound.total()) + tail);
  if (bound.stiffness >= bound.damping && bound.stiffness >= bound.forcing)
    throw InputError("K", fmt::format("event-driven: the stiffness/mass ratio gives "
                                      "sqrt(lambda_max(M^-1 K)) = {:.3g} per unit time, ",
                                      bound.stiffness) +
                              tail);
  if (bound.damping >= bound.forcing)
    throw InputError("C", fmt::format("event-driven: the damping/mass ratio gives |M^-1 C| = "
                                      "{:.3g} per unit time, ",
                                      bound.damping) +
                              tail);
  throw InputError(
      "omega",
      fmt::format("event-driven: the forcing frequency omega = {:.3g}, ", bound.forcing) + tail);
}

/// Advance exactly to t_target, processing every event in (t, t_target].
template <class Scalar>
void EventDrivenFlow<Scalar>::Impl::advance_to(const Scalar& t_target,
                                               std::vector<Event<Scalar>>* events) {
  if (t_target < state.t)
    throw InputError("T", "event-driven: cannot go back from t = " + format_scalar(state.t) +
                              " to " + format_scalar(t_target));
  // The work estimate before the loop: an interval that needs more segments than the limit is
  // refused at once (K = 1e300 would otherwise run ~1e150 segments).
  if (!(segments_needed(t_target) <= static_cast<double>(options.max_segments)))
    refuse_work(t_target, state.t);
  location_span = std::max(
      location_span, Scalar(abs_value<Scalar>(state.t) + abs_value<Scalar>(t_target - state.t)));
  const auto& qk = flow.qk;
  const auto& lamk = flow.lamk;
  int zero_length = 0;
  Index count = 0;
  while (state.t < t_target) {
    Scalar S = t_target - state.t;
    bool final_segment = true;
    if (flow.seg_max > Scalar(0) && S > flow.seg_max) {
      S = flow.seg_max;
      final_segment = false;
    }
    if (++segments > options.max_segments)
      throw StepError(fmt::format(
          "event-driven: more than {} flow segments (EventDrivenOptions::max_segments) in this "
          "run from t0 = {}: stopped at t = {} on the way to {}, {} events so far",
          options.max_segments, format_scalar(t_start), format_scalar(state.t),
          format_scalar(t_target), events_total));
    flow.series(state);
    const int used = flow.used;
    if (const Scalar reach = flow.series_reach(S); reach < S) {
      S = reach;
      final_segment = false;
    }
    const Scalar t_ref = rho() > Scalar(0) ? time_ref() : S;
    const Scalar s_tol = Scalar(4) * epsilon<Scalar>() * (abs_value<Scalar>(state.t) + S);
    std::optional<event_driven::detail::Root<Scalar>> best;
    Index best_contact = -1;
    Trigger best_kind = Trigger::gap;
    auto consider = [&](const std::optional<event_driven::detail::Root<Scalar>>& r, Index a,
                        Trigger kind) {
      if (r && (!best || r->s < best->s)) {
        best = r;
        best_contact = a;
        best_kind = kind;
      }
    };
    std::vector<Scalar> c(static_cast<std::size_t>(used + 1));
    std::vector<bool> is_closed(static_cast<std::size_t>(m), false);
    for (Index a : closed) is_closed[static_cast<std::size_t>(a)] = true;
    // The zero tests of a gap's coefficients are those of the contact logic: g <= gap_tol,
    // |U| <= velocity_tol (and that rate over t_ref for the higher ones), so that a monitor
    // deflated here is exactly a contact that process() sees as touching / at rest.
    std::vector<Scalar> gap_zero(static_cast<std::size_t>(used + 1));
    {
      const Scalar u_tol = velocity_tol();
      gap_zero[0] = gap_tol();
      Scalar p = u_tol;
      for (int k = 1; k <= used; ++k, p /= t_ref) gap_zero[k] = p;
    }
    // A contact decided from its k-th derivative at this instant starts its monitor at order
    // k (gap) or k - 2 (multiplier): the coefficients below are zero by that decision.
    const Scalar never = std::numeric_limits<Scalar>::max();
    auto forced = [&](std::vector<Scalar> tol, Index a, int shift) {
      const int order =
          decided_order.empty() ? 0 : decided_order[static_cast<std::size_t>(a)] - shift;
      for (int k = 0; k < order && k <= used; ++k) tol[static_cast<std::size_t>(k)] = never;
      return tol;
    };
    for (Index a = 0; a < m; ++a) {
      if (is_closed[static_cast<std::size_t>(a)]) continue;
      for (int k = 0; k <= used; ++k) c[k] = flow.Gs.col(a).dot(qk[k]);
      c[0] += model.w(a);
      consider(event_driven::detail::first_root<Scalar>(c, S, forced(gap_zero, a, 0), s_tol), a,
               Trigger::gap);
    }
    if (!closed.empty()) {
      Scalar lam_scale = force_scale();
      for (int k = 0; k <= used; ++k) {
        Scalar p(1);
        for (int i = 0; i < k; ++i) p *= t_ref;
        lam_scale = std::max(lam_scale, max_abs(lamk[k]) * p);
      }
      std::vector<Scalar> lam_zero(static_cast<std::size_t>(used + 1));
      Scalar p = rel_tol * lam_scale;
      for (int k = 0; k <= used; ++k, p /= t_ref) lam_zero[k] = p;
      for (std::size_t j = 0; j < closed.size(); ++j) {
        for (int k = 0; k <= used; ++k) c[k] = lamk[k](static_cast<Index>(j));
        consider(
            event_driven::detail::first_root<Scalar>(c, S, forced(lam_zero, closed[j], 2), s_tol),
            closed[j], Trigger::multiplier);
      }
    }
    decided_order.assign(static_cast<std::size_t>(m), 0);
    if (!best) {
      const State<Scalar> end = flow.evaluate(S);
      flow.integrate(S, state, end, closed, acc);
      state.q = end.q;
      state.v = end.v;
      state.t = final_segment ? t_target : Scalar(state.t + S);
      zero_length = 0;
      update_scales();
      continue;
    }
    Scalar s = best->s;
    if (s > S) s = S;
    if (s > Scalar(0)) {
      const State<Scalar> end = flow.evaluate(s);
      flow.integrate(s, state, end, closed, acc);
      state.q = end.q;
      state.v = end.v;
      state.t = (final_segment && s == S) ? t_target : Scalar(state.t + s);
    }
    update_scales();
    if (s <= s_tol) {
      if (++zero_length > 16 + 4 * static_cast<int>(m))
        throw StepError(fmt::format(
            "event-driven: {} events at t = {} without progress (contact {}); the contact "
            "mode cannot be decided at this tolerance",
            zero_length, format_scalar(state.t), best_contact));
    } else {
      zero_length = 0;
    }
    if (++count > options.max_events)
      throw StepError(fmt::format("event-driven: more than {} events before t = {}",
                                  options.max_events, format_scalar(t_target)));
    ++events_total;
    process(best_kind, best_contact, events);
  }
}

/// Handle the state at the current time: impacts, then the contact mode, then accumulation.
template <class Scalar>
void EventDrivenFlow<Scalar>::Impl::process(std::optional<Trigger> trigger, Index trigger_contact,
                                            std::vector<Event<Scalar>>* events) {
  const Scalar g_tol = gap_tol();
  const Scalar u_tol = velocity_tol();
  const Vector<Scalar> g = model.gap(state.q);
  Vector<Scalar> U = model.local_velocity(state.v);
  std::vector<Index> at_contact;
  for (Index a = 0; a < m; ++a)
    if (g(a) <= g_tol || std::find(closed.begin(), closed.end(), a) != closed.end())
      at_contact.push_back(a);
  bool approaching = false;
  for (Index a : at_contact) approaching = approaching || U(a) < -u_tol;
  std::optional<ImpactResult<Scalar>> impact;
  if (approaching) {
    const Scalar E0 = energy();
    impact = solve_impact<Scalar>(model.G, flow.Minv_G, model.e, state.v, at_contact,
                                  options.lcp_method);
    state.v = impact->v_plus;
    const Scalar E1 = energy();
    for (Index a : at_contact) {
      if (impact->impulse(a) == Scalar(0) && !(U(a) < -u_tol)) continue;
      push(events, Event<Scalar>{state.t, EventKind::impact, a, impact->U_minus(a),
                                 impact->U_plus(a), impact->impulse(a), E0, E1});
      acc_last_U(a) = impact->U_minus(a);
      acc_touched[static_cast<std::size_t>(a)] = true;
    }
    acc.impulse += impact->impulse;
    acc_W_impact += impact->kinetic_change;
    acc_posed = true;
    acc_lcp = impact->lcp;
    U = impact->U_plus;
    update_scales();
  }
  const Index exclude = (trigger && *trigger == Trigger::multiplier) ? trigger_contact : Index(-1);
  const Index force =
      (trigger && *trigger == Trigger::gap && !approaching) ? trigger_contact : Index(-1);
  if (impact) accumulation(*impact, events);
  decide_mode(exclude, force, events);
}

}  // namespace nsh
