// Body of the event-driven reference (nsh/schemes/event_driven.hpp), included by
// event_driven.cpp (double) and event_driven_real50.cpp (Real50). The flow is split by concept
// in event_driven/: root_finding.hxx, taylor_flow.hxx, contact_modes.hxx, accumulation.hxx and
// flow.hxx (the state and the event loop); this file holds the public flow's forwarding
// members, compute_events and the Scheme wrapper.
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "accumulation.hxx"
#include "contact_modes.hxx"
#include "flow.hxx"
#include "root_finding.hxx"
#include "taylor_flow.hxx"

namespace nsh {

template <class Scalar>
EventDrivenFlow<Scalar>::EventDrivenFlow(const LinearModel<Scalar>& model,
                                         const State<Scalar>& initial,
                                         const EventDrivenOptions<Scalar>& options)
    : impl_(std::make_unique<Impl>(to_sparse(model), initial, options)) {}

template <class Scalar>
EventDrivenFlow<Scalar>::EventDrivenFlow(const SparseLinearModel<Scalar>& model,
                                         const State<Scalar>& initial,
                                         const EventDrivenOptions<Scalar>& options)
    : impl_(std::make_unique<Impl>(model, initial, options)) {}

template <class Scalar>
EventDrivenFlow<Scalar>::~EventDrivenFlow() = default;
template <class Scalar>
EventDrivenFlow<Scalar>::EventDrivenFlow(EventDrivenFlow&&) noexcept = default;
template <class Scalar>
EventDrivenFlow<Scalar>& EventDrivenFlow<Scalar>::operator=(EventDrivenFlow&&) noexcept = default;

template <class Scalar>
void EventDrivenFlow<Scalar>::advance_to(const Scalar& t_target,
                                         std::vector<Event<Scalar>>* events) {
  impl_->advance_to(t_target, events);
}
template <class Scalar>
const State<Scalar>& EventDrivenFlow<Scalar>::state() const {
  return impl_->state;
}
template <class Scalar>
const std::vector<Index>& EventDrivenFlow<Scalar>::closed_set() const {
  return impl_->closed;
}
template <class Scalar>
const std::vector<Event<Scalar>>& EventDrivenFlow<Scalar>::initial_events() const {
  return impl_->initial_events;
}
template <class Scalar>
Index EventDrivenFlow<Scalar>::segments() const {
  return impl_->segments;
}
template <class Scalar>
Vector<Scalar> EventDrivenFlow<Scalar>::impulse() const {
  return impl_->acc.impulse;
}
template <class Scalar>
Vector<Scalar> EventDrivenFlow<Scalar>::external_impulse() const {
  return impl_->acc.external;
}
template <class Scalar>
Scalar EventDrivenFlow<Scalar>::external_work() const {
  return impl_->acc.W_ext;
}
template <class Scalar>
Scalar EventDrivenFlow<Scalar>::damping_work() const {
  return impl_->acc.W_damp;
}
template <class Scalar>
Scalar EventDrivenFlow<Scalar>::impact_work() const {
  return impl_->acc_W_impact;
}
template <class Scalar>
std::vector<Index> EventDrivenFlow<Scalar>::touched() const {
  std::vector<Index> out;
  for (Index a = 0; a < impl_->m; ++a)
    if (impl_->acc_touched[static_cast<std::size_t>(a)]) out.push_back(a);
  return out;
}
template <class Scalar>
Vector<Scalar> EventDrivenFlow<Scalar>::last_U_minus() const {
  return impl_->acc_last_U;
}
template <class Scalar>
bool EventDrivenFlow<Scalar>::posed_lcp() const {
  return impl_->acc_posed;
}
template <class Scalar>
const LcpResult<Scalar>& EventDrivenFlow<Scalar>::last_lcp() const {
  return impl_->acc_lcp;
}
template <class Scalar>
void EventDrivenFlow<Scalar>::reset_accumulators() {
  impl_->reset();
}

namespace event_driven::detail {
template <class Model, class Scalar>
std::vector<Event<Scalar>> events_of(const Model& model, const State<Scalar>& initial,
                                     const Scalar& T, const EventDrivenOptions<Scalar>& options) {
  model.validate();
  EventDrivenFlow<Scalar> flow(model, initial, options);
  std::vector<Event<Scalar>> events = flow.initial_events();
  flow.advance_to(T, &events);
  return events;
}
}  // namespace event_driven::detail

template <class Scalar>
std::vector<Event<Scalar>> compute_events(const LinearModel<Scalar>& model,
                                          const State<Scalar>& initial, const Scalar& T,
                                          const EventDrivenOptions<Scalar>& options) {
  return event_driven::detail::events_of(model, initial, T, options);
}

template <class Scalar>
std::vector<Event<Scalar>> compute_events(const SparseLinearModel<Scalar>& model,
                                          const State<Scalar>& initial, const Scalar& T,
                                          const EventDrivenOptions<Scalar>& options) {
  return event_driven::detail::events_of(model, initial, T, options);
}

// ---- the Scheme ----

template <class Scalar>
EventDriven<Scalar>::EventDriven(const SchemeSpec& spec)
    : spec_(spec), options_(parse_options<EventDrivenOptions<Scalar>>(spec)) {}

template <class Scalar>
EventDriven<Scalar>::~EventDriven() = default;

template <class Scalar>
SchemeInfo EventDriven<Scalar>::info() const {
  SchemeInfo info;
  info.family = "event-driven";
  info.spec = canonical_spec("event-driven", options_, spec_);
  info.smooth_order = 0;  // exact flow: no truncation error, no order to observe
  info.impulse_lcp = false;
  info.algorithmic_energy = false;
  info.momentum_conserving = true;
  info.resolves_every_impact = true;
  return info;
}

template <class Scalar>
void EventDriven<Scalar>::do_initialize(const LinearModel<Scalar>& model,
                                        const State<Scalar>& initial, const Scalar& h) {
  bind(model, initial, h);
  model_ = &model;
  sparse_model_ = nullptr;
}

template <class Scalar>
void EventDriven<Scalar>::do_initialize(const SparseLinearModel<Scalar>& model,
                                        const State<Scalar>& initial, const Scalar& h) {
  bind(model, initial, h);
  model_ = nullptr;
  sparse_model_ = &model;
}

template <class Scalar>
template <class Model>
void EventDriven<Scalar>::bind(const Model& model, const State<Scalar>& initial, const Scalar& h) {
  if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
  flow_ = std::make_unique<EventDrivenFlow<Scalar>>(model, initial, options_);
  t0_ = initial.t;
  initial_ = initial;
  h_ = h;
  k_ = 0;
}

template <class Scalar>
void EventDriven<Scalar>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  if (!flow_) throw StepError("event-driven: step() before initialize()");
  // The events at t0 (an impact in the initial state) belong to the first step; the kit
  // derives the gaps, local velocities and energies of the states before and after.
  const Scalar target = t0_ + Scalar(k_ + 1) * h_;
  flow_->advance_to(target);
  ++k_;
  state = flow_->state();
  state.t = target;
  summary.step = k_;
  summary.index_set = flow_->touched();
  summary.impulse = flow_->impulse();
  summary.velocity_newton = flow_->last_U_minus();
  summary.external_impulse = flow_->external_impulse();
  summary.lcp_solved = flow_->posed_lcp();
  summary.lcp = flow_->last_lcp();
  summary.W_ext = flow_->external_work();
  summary.W_damp = flow_->damping_work();
  summary.W_contact = flow_->impact_work();
  summary.numerical_dissipation = Scalar(0);
  summary.has_algorithmic_energy = false;
  flow_->reset_accumulators();
}

}  // namespace nsh
