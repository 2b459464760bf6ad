// Event-driven reference: double instantiation and registration (body in event_driven.hxx).
#include "event_driven.hxx"

namespace nsh {

const char* to_string(EventKind kind) {
  switch (kind) {
    case EventKind::impact:
      return "impact";
    case EventKind::contact_closes:
      return "contact-closes";
    case EventKind::contact_opens:
      return "contact-opens";
    case EventKind::accumulation:
      return "accumulation";
  }
  return "?";
}

template class EventDrivenFlow<double>;
template class EventDriven<double>;
template std::vector<Event<double>> compute_events(const LinearModel<double>&, const State<double>&,
                                                   const double&,
                                                   const EventDrivenOptions<double>&);
template std::vector<Event<double>> compute_events(const SparseLinearModel<double>&,
                                                   const State<double>&, const double&,
                                                   const EventDrivenOptions<double>&);

void register_event_driven(Registry& registry) {
  SchemeEntry entry;
  entry.name = "event-driven";
  entry.summary =
      "event-driven reference: exact flow between events (exponential to the scalar's "
      "epsilon), events located to full precision, impact and acceleration LCPs, accumulations";
  entry.options = declared_options<EventDrivenOptions<double>>();
  set_factories<EventDriven>(entry, InexactScalars{});  // no rational: it needs roots
  registry.add(std::move(entry));
}

}  // namespace nsh
