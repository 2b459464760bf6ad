// Deliberately broken event-driven references (nsh/properties/mutants.hpp), registered as
// "mutant:<name>", and the event record of an event-driven spec (trace_events), which runs the
// flow on the model a mutant sees.
//
//   mutant:ed-restitution-plus-tenth  the impact law uses e + 1/10 instead of e (an impact
//                                     gains energy for e > 9/10; Newton's law is off by
//                                     U^- / 10 at every impact)
//   mutant:ed-late-event              the flow sees every gap offset by +sqrt(eps) (1 + |w|):
//                                     impacts are located late (the contact penetrates by
//                                     ~1.5e-8 in double before it bounces, by ~1e-25 in Real50)
//                                     and resting contacts sit at g = -sqrt(eps) (1 + |w|)
//
// Each is the lying wrapper (lying_scheme.hpp) of the reference on its perturbed model, and
// reports the reference's SchemeInfo (family event-driven, the healthy spec), so the claims of
// event-driven apply to it. Both exist in double and Real50 (the late event is caught by
// comparing the two).
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/properties/mutants.hpp>
#include <nsh/registry.hpp>

#include "lying_scheme.hpp"

#include <cmath>
#include <memory>

namespace nsh::properties {
namespace {

enum class EventDrivenDefect { restitution_plus_tenth, late_event };

const struct {
  const char* name;
  EventDrivenDefect defect;
  const char* summary;
} event_driven_mutants[] = {
    {"mutant:ed-restitution-plus-tenth", EventDrivenDefect::restitution_plus_tenth,
     "event-driven whose impact law uses e + 1/10 while it reports the model's e"},
    {"mutant:ed-late-event", EventDrivenDefect::late_event,
     "event-driven whose flow sees every gap offset by sqrt(eps) (1 + |w|): "
     "events late, resting contacts penetrated"},
};

/// The model the defect's flow integrates (the judge keeps the true one).
template <class Scalar>
LinearModel<Scalar> seen_by(EventDrivenDefect defect, const LinearModel<Scalar>& model) {
  LinearModel<Scalar> out = model;
  if (defect == EventDrivenDefect::restitution_plus_tenth) {
    for (Index a = 0; a < out.e.size(); ++a) out.e(a) += Scalar(1) / 10;
  } else {
    using std::sqrt;
    const Scalar offset = Scalar(sqrt(epsilon<Scalar>())) * (Scalar(1) + max_abs(model.w));
    for (Index a = 0; a < out.w.size(); ++a) out.w(a) += offset;
  }
  return out;
}

/// The healthy reference the mutant pretends to be: same options, name event-driven.
SchemeSpec as_event_driven(const SchemeSpec& spec) {
  SchemeSpec out = SchemeSpec::parse("event-driven");
  for (const auto& [key, value] : spec.options()) out.set(key, value);
  return out;
}

template <class Scalar>
std::unique_ptr<Scheme<Scalar>> lying_event_driven(const SchemeSpec& spec,
                                                   EventDrivenDefect defect) {
  return std::make_unique<SeesPerturbedModel<Scalar>>(
      std::make_unique<EventDriven<Scalar>>(as_event_driven(spec)),
      [defect](const LinearModel<Scalar>& model) { return seen_by(defect, model); });
}

template <class Scalar>
EventDrivenOptions<Scalar> event_trace_options(const SchemeSpec& spec) {
  EventDrivenOptions<Scalar> options;
  if (spec.has("tolerance")) options.tolerance = spec.number<Scalar>("tolerance");
  if (spec.has("lcp")) options.lcp_method = parse_lcp_method(spec.text("lcp"));
  return options;
}

}  // namespace

template <class Scalar>
EventTrace<Scalar> trace_events(const std::string& spec_text, const LinearModel<Scalar>& model,
                                const State<Scalar>& initial, const Scalar& h, int steps,
                                Index max_segments) {
  register_builtin_mutants();
  const SchemeSpec spec = Registry::builtin().resolve(spec_text);
  std::unique_ptr<LinearModel<Scalar>> seen;
  if (spec.name() != "event-driven") {
    for (const auto& mutant : event_driven_mutants)
      if (spec.name() == mutant.name)
        seen = std::make_unique<LinearModel<Scalar>>(seen_by(mutant.defect, model));
    if (!seen)
      throw SpecError("scheme", "'" + spec.name() +
                                    "' is not an event-driven spec (event-driven, "
                                    "mutant:ed-restitution-plus-tenth, mutant:ed-late-event)");
  }
  if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
  EventDrivenOptions<Scalar> options = event_trace_options<Scalar>(spec);
  if (max_segments > 0) options.max_segments = max_segments;
  EventDrivenFlow<Scalar> flow(seen ? *seen : model, initial, options);
  EventTrace<Scalar> trace;
  trace.events = flow.initial_events();
  trace.grid.push_back(flow.state());
  trace.grid.back().t = initial.t;
  for (int k = 1; k <= steps; ++k) {
    const Scalar target = initial.t + Scalar(k) * h;
    flow.advance_to(target, &trace.events);
    trace.grid.push_back(flow.state());
    trace.grid.back().t = target;
  }
  trace.segments = flow.segments();
  return trace;
}

template EventTrace<double> trace_events(const std::string&, const LinearModel<double>&,
                                         const State<double>&, const double&, int, Index);
template EventTrace<Real50> trace_events(const std::string&, const LinearModel<Real50>&,
                                         const State<Real50>&, const Real50&, int, Index);

void register_event_driven_mutants(Registry& registry) {
  for (const auto& mutant : event_driven_mutants) {
    SchemeEntry entry;
    entry.name = mutant.name;
    entry.summary = mutant.summary;
    entry.options = {
        {"tolerance", "0", "relative tolerance of the event logic, >= 0 (0: 64 epsilons)", {}},
        {"lcp", "lemke", "solver of the impact and acceleration LCPs", {"lemke", "enumeration"}}};
    const EventDrivenDefect defect = mutant.defect;
    // No Rational: the flow needs iteration and sin/cos.
    entry.make.get<double>() = [defect](const SchemeSpec& s) {
      return lying_event_driven<double>(s, defect);
    };
    entry.make.get<Real50>() = [defect](const SchemeSpec& s) {
      return lying_event_driven<Real50>(s, defect);
    };
    entry.is_mutant = true;
    registry.add(std::move(entry));
  }
}

}  // namespace nsh::properties
