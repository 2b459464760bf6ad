// Event-driven reference: Real50 instantiation (body in event_driven.hxx).
#include "event_driven.hxx"

namespace nsh {

template class EventDrivenFlow<Real50>;
template class EventDriven<Real50>;
template std::vector<Event<Real50>> compute_events(const LinearModel<Real50>&, const State<Real50>&,
                                                   const Real50&,
                                                   const EventDrivenOptions<Real50>&);
template std::vector<Event<Real50>> compute_events(const SparseLinearModel<Real50>&,
                                                   const State<Real50>&, const Real50&,
                                                   const EventDrivenOptions<Real50>&);

}  // namespace nsh
