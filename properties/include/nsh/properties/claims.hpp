#pragma once
// Claims: which shared property a scheme promises, over which parameter domain. Claims are
// data (properties/src/claims.cpp), keyed by the scheme family and the options of the
// canonical spec the scheme reports in SchemeInfo::spec, so that a mutant that pretends to be
// "moreau-jean:theta=1/2" is held to exactly what that scheme claims.
//
// A claim also names its *outside probes*: scheme specs and restitution ranges just outside
// its domain where the designed search (generators.hpp) must find a counterexample. That is
// how the suite shows each claim is sharp and each property has power.

#include <nsh/properties/generators.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/scheme.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nsh::properties {

struct OutsideProbe {
  std::string spec;  ///< the scheme just outside the domain ("moreau-jean:theta=53/100,...")
  CaseDomain cases;  ///< restitution etc. of the designed cases
  std::string why;   ///< "theta = 1/(1+e) + 1/50 with e = 1"
};

struct Claim {
  std::string property;
  std::string domain;  ///< the domain, in words and formulas, for the table and messages
  CaseDomain cases;    ///< the generator domain inside the claim
  std::vector<OutsideProbe> outside;
};

/// The claims of a scheme, from its SchemeInfo (family + canonical spec).
std::vector<Claim> claims_of(const SchemeInfo& info);
std::optional<Claim> find_claim(const SchemeInfo& info, const std::string& property);

/// A user's scheme states its claims the same way: one function per family, called with the
/// parsed canonical spec. Replaces an earlier declaration for the same family.
using ClaimFunction = std::function<std::vector<Claim>(const SchemeSpec& spec)>;
void declare_claims(const std::string& family, ClaimFunction claims);

/// The names of the shared properties, in table order.
const std::vector<std::string>& shared_property_names();

}  // namespace nsh::properties
