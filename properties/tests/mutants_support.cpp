// Every test program of the property module sees the mutants in Registry::builtin(), as the nsh
// program does (cli/src/main.cpp): the tests name them directly (check_property, the stamp's
// probes, trace_events), not only through the providers.
#include <nsh/properties/mutants.hpp>

namespace {
[[maybe_unused]] const bool mutants_registered = [] {
  nsh::properties::register_builtin_mutants();
  return true;
}();
}  // namespace
