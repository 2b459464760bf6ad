#pragma once
// The event record of an event-driven spec, and deliberately broken event-driven references.
//
// The event-driven reference (nsh/schemes/event_driven.hpp) is judged on its *events*, not on
// grid steps: an impact inside (t_k, t_{k+1}] is followed by exact flow up to t_{k+1}, so the
// step-level Newton law U_{k+1} = -e U_k of the time-stepping schemes does not describe it.
// trace_events() runs the flow of a spec ("event-driven:..." or one of the mutants below) and
// returns every event plus the sampled states t_k = t0 + k h, which is what the event-level
// properties (properties/src/event_provider.cpp) read.
//
// Mutants, registered as "mutant:<name>"; each reports the SchemeInfo (family "event-driven",
// the healthy spec) of the healthy reference, so the claims of event-driven apply to it:
//   mutant:ed-restitution-plus-tenth  the impact law uses e + 1/10 instead of e (an impact
//                                     gains energy for e > 9/10; Newton's law is off by
//                                     U^- / 10 at every impact)
//   mutant:ed-late-event              the flow sees every gap offset by +sqrt(eps) (1 + |w|):
//                                     impacts are located late (the contact penetrates by
//                                     ~1.5e-8 in double before it bounces, by ~1e-25 in Real50)
//                                     and resting contacts sit at g = -sqrt(eps) (1 + |w|)
// Both exist in double and Real50 (the late event is caught by comparing the two).

#include <nsh/registry.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <string>
#include <vector>

namespace nsh {

/// The events and the grid samples of one event-driven run.
template <class Scalar>
struct EventTrace {
  std::vector<Event<Scalar>> events;  ///< in time order, those at t0 first
  std::vector<State<Scalar>> grid;    ///< grid[k] = state at t0 + k h (post-event), k = 0..steps
};

/// Run `spec` (family event-driven: the reference or a mutant:ed-*) on the model from `initial`
/// for `steps` steps of `h`. Throws SpecError for a spec outside the family, and whatever the
/// flow throws (InputError for an inadmissible initial state, StepError).
template <class Scalar>
EventTrace<Scalar> trace_events(const std::string& spec, const LinearModel<Scalar>& model,
                                const State<Scalar>& initial, const Scalar& h, int steps);

/// Registers every mutant:ed-* scheme.
void register_event_driven_mutants(Registry& registry);

extern template EventTrace<double> trace_events(const std::string&, const LinearModel<double>&,
                                                const State<double>&, const double&, int);
extern template EventTrace<Real50> trace_events(const std::string&, const LinearModel<Real50>&,
                                                const State<Real50>&, const Real50&, int);

}  // namespace nsh
