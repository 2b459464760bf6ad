#pragma once
// Runs the event-driven reference on the bar through its first contact and measures the
// contact duration (from the impact at t = 0 to the last release of node 0 before the bar
// is clearly away) and the exit velocity (total momentum / total mass).
#include <nsh/scalar.hpp>

#include <nsh/cases/bar.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <algorithm>
#include <vector>

namespace nsh::cases::test {

struct BarContact {
  double duration{0};
  double exit_velocity{0};
  std::size_t events{0};
};

inline BarContact first_contact(Index N, BarMass mass) {
  BarParameters<double> p;
  p.horizon = 2.5;  // well past 2 L / c: the bar has left for good
  const auto c = make_sparse_bar<double>(N, mass, p);
  EventDrivenFlow<double> flow(c.model, c.initial);
  std::vector<Event<double>> events = flow.initial_events();
  flow.advance_to(c.T, &events);
  BarContact out;
  out.events = events.size();
  for (const auto& ev : events)
    if (ev.kind == EventKind::contact_opens || ev.kind == EventKind::impact)
      out.duration = std::max(out.duration, ev.t);
  const Vector<double> ones = Vector<double>::Ones(c.model.dofs());
  out.exit_velocity = ones.dot(c.model.M * flow.state().v) / ones.dot(c.model.M * ones);
  return out;
}

}  // namespace nsh::cases::test
