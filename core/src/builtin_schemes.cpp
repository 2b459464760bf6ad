// The list of built-in schemes. Each scheme's .cpp defines its register_* function; add one
// declaration and one call per scheme here. The mutants (test instruments) are not core's: the
// property module registers them (nsh/properties/mutants.hpp).
#include <nsh/registry.hpp>

namespace nsh {

void register_moreau_jean(Registry& registry);
void register_newmark_family(Registry& registry);
void register_event_driven(Registry& registry);
void register_penalty2(Registry& registry);
void register_half_explicit_tdg(Registry& registry);
void register_forecasting_trapezoidal(Registry& registry);
void register_dla(Registry& registry);

void register_builtin_schemes(Registry& registry) {
  register_moreau_jean(registry);
  register_newmark_family(registry);
  register_event_driven(registry);
  register_penalty2(registry);
  register_half_explicit_tdg(registry);
  register_forecasting_trapezoidal(registry);
  register_dla(registry);
}

}  // namespace nsh
