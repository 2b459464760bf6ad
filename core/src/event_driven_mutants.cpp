// The event record of an event-driven run and the mutant:ed-* references
// (nsh/schemes/event_driven_mutants.hpp).
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/schemes/event_driven_mutants.hpp>

#include <cmath>
#include <memory>

namespace nsh {
namespace {

enum class EventMutation { none, restitution_plus_tenth, late_event };

EventMutation mutation_of(const std::string& name) {
  if (name == "event-driven") return EventMutation::none;
  if (name == "mutant:ed-restitution-plus-tenth") return EventMutation::restitution_plus_tenth;
  if (name == "mutant:ed-late-event") return EventMutation::late_event;
  throw SpecError("scheme", "'" + name +
                                "' is not an event-driven spec (event-driven, "
                                "mutant:ed-restitution-plus-tenth, mutant:ed-late-event)");
}

/// The healthy reference the mutant pretends to be: same options, name event-driven.
SchemeSpec healthy_spec(const SchemeSpec& spec) {
  SchemeSpec out = SchemeSpec::parse("event-driven");
  for (const auto& [key, value] : spec.options()) out.set(key, value);
  return out;
}

/// The model the mutated flow integrates (the judge keeps the true one).
template <class Scalar>
LinearModel<Scalar> mutated_model(const LinearModel<Scalar>& model, EventMutation mutation) {
  LinearModel<Scalar> out = model;
  if (mutation == EventMutation::restitution_plus_tenth) {
    for (Index a = 0; a < out.e.size(); ++a) out.e(a) += Scalar(1) / 10;
  } else if (mutation == EventMutation::late_event) {
    using std::sqrt;
    const Scalar offset = Scalar(sqrt(epsilon<Scalar>())) * (Scalar(1) + max_abs(model.w));
    for (Index a = 0; a < out.w.size(); ++a) out.w(a) += offset;
  }
  return out;
}

template <class Scalar>
EventDrivenOptions<Scalar> options_of(const SchemeSpec& spec) {
  EventDrivenOptions<Scalar> options;
  if (spec.has("tolerance")) options.tolerance = spec.number<Scalar>("tolerance");
  if (spec.has("lcp")) options.lcp_method = parse_lcp_method(spec.text("lcp"));
  return options;
}

/// The reference with one defect in the model its flow sees; gaps in the summary are the true
/// model's, everything else is what the mutated reference reports.
template <class Scalar>
class EventDrivenMutant : public Scheme<Scalar> {
 public:
  EventDrivenMutant(const SchemeSpec& spec, EventMutation mutation)
      : inner_(healthy_spec(spec)), mutation_(mutation) {}

  SchemeInfo info() const override { return inner_.info(); }

  // The kit derives the gaps and energies from the true model; the inner flow sees the mutated.
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override {
    flowed_ = std::make_unique<LinearModel<Scalar>>(mutated_model(model, mutation_));
    inner_.initialize(*flowed_, initial, h);
  }

  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override {
    inner_.step(state, summary);
  }

 private:
  EventDriven<Scalar> inner_;
  EventMutation mutation_;
  std::unique_ptr<LinearModel<Scalar>> flowed_;
};

template <class Scalar>
class RestitutionPlusTenth : public EventDrivenMutant<Scalar> {
 public:
  explicit RestitutionPlusTenth(const SchemeSpec& spec)
      : EventDrivenMutant<Scalar>(spec, EventMutation::restitution_plus_tenth) {}
};

template <class Scalar>
class LateEvent : public EventDrivenMutant<Scalar> {
 public:
  explicit LateEvent(const SchemeSpec& spec)
      : EventDrivenMutant<Scalar>(spec, EventMutation::late_event) {}
};

template <template <class> class SchemeT>
void add_mutant(Registry& registry, const std::string& name, const std::string& summary) {
  SchemeEntry entry;
  entry.name = name;
  entry.summary = summary;
  entry.options = {
      {"tolerance", "0", "relative tolerance of the event logic, >= 0 (0: 64 epsilons)", {}},
      {"lcp", "lemke", "solver of the impact and acceleration LCPs", {"lemke", "enumeration"}}};
  // No Rational: the flow needs iteration and sin/cos.
  entry.make_double = [](const SchemeSpec& s) { return std::make_unique<SchemeT<double>>(s); };
  entry.make_real50 = [](const SchemeSpec& s) { return std::make_unique<SchemeT<Real50>>(s); };
  entry.is_mutant = true;
  registry.add(std::move(entry));
}

}  // namespace

template <class Scalar>
EventTrace<Scalar> trace_events(const std::string& spec_text, const LinearModel<Scalar>& model,
                                const State<Scalar>& initial, const Scalar& h, int steps) {
  const SchemeSpec spec = Registry::builtin().resolve(spec_text);
  const EventMutation mutation = mutation_of(spec.name());
  if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
  const LinearModel<Scalar> flowed = mutated_model(model, mutation);
  EventDrivenFlow<Scalar> flow(flowed, initial, options_of<Scalar>(spec));
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
  return trace;
}

template EventTrace<double> trace_events(const std::string&, const LinearModel<double>&,
                                         const State<double>&, const double&, int);
template EventTrace<Real50> trace_events(const std::string&, const LinearModel<Real50>&,
                                         const State<Real50>&, const Real50&, int);

void register_event_driven_mutants(Registry& registry) {
  add_mutant<RestitutionPlusTenth>(
      registry, "mutant:ed-restitution-plus-tenth",
      "event-driven whose impact law uses e + 1/10 while it reports the model's e");
  add_mutant<LateEvent>(registry, "mutant:ed-late-event",
                        "event-driven whose flow sees every gap offset by sqrt(eps) (1 + |w|): "
                        "events late, resting contacts penetrated");
}

}  // namespace nsh
