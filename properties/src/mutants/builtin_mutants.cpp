// The mutants built into nsh (nsh/properties/mutants.hpp). A family's file in this folder
// defines one `register_*_mutants(Registry&)`; add its declaration and its call here, in the
// order of `nsh list mutants`.
#include <nsh/properties/mutants.hpp>
#include <nsh/registry.hpp>

#include <mutex>

namespace nsh::properties {

void register_newmark_mutants(Registry& registry);
void register_moreau_jean_mutants(Registry& registry);
void register_event_driven_mutants(Registry& registry);
void register_half_explicit_tdg_mutants(Registry& registry);
void register_dla_mutants(Registry& registry);

void register_builtin_mutants() {
  static std::once_flag once;
  std::call_once(once, [] {
    Registry& registry = Registry::builtin();
    register_newmark_mutants(registry);
    register_moreau_jean_mutants(registry);
    register_event_driven_mutants(registry);
    register_half_explicit_tdg_mutants(registry);
    register_dla_mutants(registry);
  });
}

}  // namespace nsh::properties
