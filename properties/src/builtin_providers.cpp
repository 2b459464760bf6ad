// The property providers built into nsh. A provider living in this module defines one
// `register_*_properties()` function; add its declaration and its call here.
#include <nsh/properties/check.hpp>
#include <nsh/properties/mutants.hpp>

namespace nsh::properties {

void register_event_properties();
void register_nonholonomic_properties();
void register_scheme_properties();
void register_sweep_properties();

void register_builtin_providers() {
  // The scheme provider lists the registry's mutants for nsh check --mutants.
  register_builtin_mutants();
  // Before the scheme provider: it owns the event-driven family (event_provider.cpp).
  register_event_properties();
  // Before the scheme provider: it owns the nonholonomic family (nonholonomic_provider.cpp).
  register_nonholonomic_properties();
  register_scheme_properties();
  register_sweep_properties();
}

}  // namespace nsh::properties
