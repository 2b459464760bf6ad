#pragma once
// The stamp: one macro gives a scheme every shared property, as one RC_GTEST_PROP per
// property (random cases from generators.hpp inside the scheme's claimed domain; a property
// the scheme does not claim, or cannot be judged on, passes as "not claimed"), plus one
// gtest that runs the designed searches inside and just outside every claim's domain.
//
//   #include <nsh/properties/stamp.hpp>
//   NSH_STAMP_SCHEME(MoreauJeanHalf, "moreau-jean:theta=1/2")
//
// The scheme must be in nsh::Registry::builtin() (a user's own scheme adds its SchemeEntry
// there first, e.g. with nsh::properties::ensure_registered, and states its claims with
// nsh::properties::declare_claims). Link the test with nsh::properties and give it the ctest
// label "property" with nsh_add_property_tests() from the installed cmake/nsh_stamp.cmake.
// A failure prints the statement, the values that broke it, the shrunk case file and
// rapidcheck's RC_PARAMS reproduce string.

#include <nsh/properties/runner.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

namespace nsh::properties {

/// The body of one stamped RC_GTEST_PROP: draws a case in the claim's domain and asserts.
void stamp_case(const std::string& spec, const std::string& property);
/// The designed searches: every claimed property inside (must hold) and every outside probe
/// (must find a violation). Returns the failure text of each failed verdict.
std::vector<std::string> stamp_designed(const std::string& spec);
/// Add `entry` to Registry::builtin() unless a scheme of that name is there already.
void ensure_registered(SchemeEntry entry);

}  // namespace nsh::properties

#define NSH_STAMP_PROPERTY(Suite, Spec, Property)   \
  RC_GTEST_PROP(Suite, Property, ()) {              \
    ::nsh::properties::stamp_case(Spec, #Property); \
  }

#define NSH_STAMP_SCHEME(Suite, Spec)                                                             \
  NSH_STAMP_PROPERTY(Suite, Spec, impact_work_nonpositive)                                        \
  NSH_STAMP_PROPERTY(Suite, Spec, newton_restitution)                                             \
  NSH_STAMP_PROPERTY(Suite, Spec, signorini_complementarity)                                      \
  NSH_STAMP_PROPERTY(Suite, Spec, lcp_certificate)                                                \
  NSH_STAMP_PROPERTY(Suite, Spec, momentum_balance)                                               \
  NSH_STAMP_PROPERTY(Suite, Spec, energy_identity)                                                \
  NSH_STAMP_PROPERTY(Suite, Spec, moreau_jean_energy_dissipation)                                 \
  NSH_STAMP_PROPERTY(Suite, Spec, penetration_bound)                                              \
  NSH_STAMP_PROPERTY(Suite, Spec, double_vs_real50)                                               \
  NSH_STAMP_PROPERTY(Suite, Spec, algorithmic_energy_decay)                                       \
  NSH_STAMP_PROPERTY(Suite, Spec, observed_order)                                                 \
  TEST(Suite, designed_searches) {                                                                \
    for (const auto& failure : ::nsh::properties::stamp_designed(Spec)) ADD_FAILURE() << failure; \
  }
