#pragma once
// Mutants: deliberately broken schemes, registered as "mutant:<name>", the instruments that show
// the property suite has power (`nsh check --mutants` asserts that every one fails a property
// it claims; properties/tests/mutants_test.cpp). They are test code: they live here, beside the
// properties that must catch them, and core names no defect (docs/adding-a-scheme.md).
//
// Each mutant reports the SchemeInfo of the healthy spec it pretends to be, so that it is held
// to that scheme's claims and must be caught from the states and the StepSummary alone. One
// pattern, a "lying wrapper": the healthy scheme runs on what the defect perturbs (the model it
// sees, or a parameter it steps with) and the wrapper reports the healthy identity (the
// event-driven mutants, four of the Moreau–Jean ones). Where the defect sits inside a step, the
// mutant uses a neutral seam of the scheme (the Newmark family's constructor taking the stepped
// and the ledger parameters apart, the DLA's evaluation points) or its own copy of the step
// (the other Moreau–Jean mutants, half-explicit-tdg: docs/decisions.md says why).
//
//   mutant:newmark-*, mutant:genalpha-*  properties/src/mutants/newmark.cpp
//   mutant:mj-*                          properties/src/mutants/moreau_jean.cpp
//   mutant:ed-*                          properties/src/mutants/event_driven.cpp
//   mutant:hets-*, mutant:ftr-*          properties/src/mutants/half_explicit_tdg.cpp
//   mutant:dla-*                         properties/src/mutants/dla.cpp

#include <nsh/model/linear_model.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <string>
#include <vector>

namespace nsh::properties {

/// Adds every mutant to Registry::builtin(), after the built-in schemes, in the order of
/// `nsh list mutants`. The first call registers; later calls do nothing. The property
/// providers call it before their first use (providers()), and so does the nsh program at
/// start, so that `nsh list mutants` and `nsh simulate --scheme mutant:...` see them.
void register_builtin_mutants();

/// The events and the grid samples of one event-driven run.
template <class Scalar>
struct EventTrace {
  std::vector<Event<Scalar>> events;  ///< in time order, those at t0 first
  std::vector<State<Scalar>> grid;    ///< grid[k] = state at t0 + k h (post-event), k = 0..steps
  Index segments{0};                  ///< the flow's series segments (EventDrivenFlow::segments)
};

/// Run `spec` (family event-driven: the reference or a mutant:ed-*) on the model from `initial`
/// for `steps` steps of `h`: the flow a mutant:ed-* sees is its perturbed model. What the
/// event-level properties (event_provider.cpp) read: an event-driven run is judged on its
/// events, not on grid steps. Throws SpecError for a spec outside the family, and whatever the
/// flow throws (InputError for an inadmissible initial state, StepError). `max_segments` > 0
/// replaces EventDrivenOptions::max_segments: the work bound of a reference run budgeted from
/// another run of the same case (its StepError says the time reached and the events so far).
template <class Scalar>
EventTrace<Scalar> trace_events(const std::string& spec, const LinearModel<Scalar>& model,
                                const State<Scalar>& initial, const Scalar& h, int steps,
                                Index max_segments = 0);

extern template EventTrace<double> trace_events(const std::string&, const LinearModel<double>&,
                                                const State<double>&, const double&, int, Index);
extern template EventTrace<Real50> trace_events(const std::string&, const LinearModel<Real50>&,
                                                const State<Real50>&, const Real50&, int, Index);

}  // namespace nsh::properties
