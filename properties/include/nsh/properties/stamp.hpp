#pragma once
// The stamp: one macro gives a scheme every shared property, as one gtest per property
// (random cases from generators.hpp inside the scheme's claimed domain, searched by
// rapidcheck with shrinking), plus one gtest that runs the designed searches inside and just
// outside every claim's domain, plus one that fails a scheme claiming nothing.
//
//   #include <nsh/properties/stamp.hpp>
//   NSH_STAMP_SCHEME(MoreauJeanHalf, "moreau-jean:theta=1/2")
//
// The scheme must be in nsh::Registry::builtin(): a user's own scheme is registered with its
// claims in one call, nsh::properties::register_scheme(entry, claims) (claims.hpp). A property
// the scheme does not claim, or that cannot be judged on it, is reported as SKIPPED with the
// reason, never as passed. The random search is reproducible: its seed is pinned (1) unless
// RC_PARAMS gives one (`RC_PARAMS="seed=7 max_success=1000"`), and RC_PARAMS' max_success sets
// the budget (default 100). Link the test with nsh::properties and give it the ctest label
// "property" with nsh_add_property_tests() from the installed cmake/nsh_stamp.cmake.
// A failure prints the statement, the values that broke it, the shrunk case file and the
// RC_PARAMS reproduce string.

#include <nsh/properties/property_names.hpp>
#include <nsh/properties/runner.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace nsh::properties {

/// Why the stamped (spec, property) is not checked (not claimed, not applicable, an empty
/// domain), or nullopt if it is.
std::optional<std::string> stamp_skip_reason(const std::string& spec, const std::string& property);
/// The random search of one stamped property: the failure text (statement, values, shrunk
/// case file, reproduce string), or empty if it held on every case.
std::string stamp_random(const std::string& spec, const std::string& property);
/// The designed searches: every claimed property inside (must hold) and every outside probe
/// (must find a violation). Returns the failure text of each failed verdict.
std::vector<std::string> stamp_designed(const std::string& spec);
/// Empty if the scheme claims at least one property (or is a mutant); otherwise why a scheme
/// that claims nothing fails its stamp: every property would be skipped, nothing checked.
std::string stamp_claims_nothing(const std::string& spec);

}  // namespace nsh::properties

#define NSH_STAMP_PROPERTY(Suite, Spec, Property)                                  \
  TEST(Suite, Property) {                                                          \
    if (const auto reason = ::nsh::properties::stamp_skip_reason(Spec, #Property)) \
      GTEST_SKIP() << *reason;                                                     \
    const std::string failure = ::nsh::properties::stamp_random(Spec, #Property);  \
    if (!failure.empty()) ADD_FAILURE() << failure;                                \
  }

#define NSH_STAMP_SCHEME(Suite, Spec)                                                             \
  NSH_STAMP_SCHEME_PROPERTIES_(Suite, Spec)                                                       \
  TEST(Suite, claims_something) {                                                                 \
    const std::string why = ::nsh::properties::stamp_claims_nothing(Spec);                        \
    if (!why.empty()) ADD_FAILURE() << why;                                                       \
  }                                                                                               \
  TEST(Suite, designed_searches) {                                                                \
    for (const auto& failure : ::nsh::properties::stamp_designed(Spec)) ADD_FAILURE() << failure; \
  }

// One NSH_STAMP_PROPERTY per shared property, generated from the one list of their names.
#define NSH_STAMP_ONE_(Suite, Spec, Property) NSH_STAMP_PROPERTY(Suite, Spec, Property)
#define NSH_STAMP_SCHEME_PROPERTIES_(Suite, Spec) NSH_SHARED_PROPERTIES(NSH_STAMP_ONE_, Suite, Spec)
