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
  // Not set_factories: its rational lambda would instantiate EventDriven<Rational>.
  entry.make_double = [](const SchemeSpec& s) { return std::make_unique<EventDriven<double>>(s); };
  entry.make_real50 = [](const SchemeSpec& s) { return std::make_unique<EventDriven<Real50>>(s); };
  registry.add(std::move(entry));
}

}  // namespace nsh
