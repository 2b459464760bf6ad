#pragma once
// The shared properties of registry schemes, named once: NSH_SHARED_PROPERTIES(X, ...) calls
// X(..., name) for each, in table order. The stamp (stamp.hpp) generates one gtest per name and
// shared_property_names() (claims.hpp) lists them from it, so a new property reaches every
// stamped scheme, users' included, on rebuild. The statements, hypotheses and tolerances are
// the table in properties/src/runner.cpp (describe()), checked against this list by a test.

#define NSH_SHARED_PROPERTIES(X, ...)            \
  X(__VA_ARGS__, impact_work_nonpositive)        \
  X(__VA_ARGS__, newton_restitution)             \
  X(__VA_ARGS__, signorini_complementarity)      \
  X(__VA_ARGS__, lcp_certificate)                \
  X(__VA_ARGS__, momentum_balance)               \
  X(__VA_ARGS__, energy_identity)                \
  X(__VA_ARGS__, moreau_jean_energy_dissipation) \
  X(__VA_ARGS__, penetration_bound)              \
  X(__VA_ARGS__, double_vs_real50)               \
  X(__VA_ARGS__, algorithmic_energy_decay)       \
  X(__VA_ARGS__, observed_order)                 \
  X(__VA_ARGS__, coulomb_cone)                   \
  X(__VA_ARGS__, maximal_dissipation)            \
  X(__VA_ARGS__, friction_work_nonpositive)      \
  X(__VA_ARGS__, friction_certificate)
