#pragma once
// Claims: which shared property a scheme promises, over which parameter domain. Claims live
// on the scheme's registry entry (SchemeEntry::claims) and are found from the canonical spec
// the scheme reports in SchemeInfo::spec: the entry its name names, called with the scheme's
// info (its exact parameters), so that a mutant that pretends to be "moreau-jean:theta=1/2" is
// held to exactly what that scheme claims, and a spec that names no entry is an error rather
// than "claims nothing". The built-in claims are properties/src/claims.cpp.
//
// A claim also names its *outside probes*: scheme specs and restitution ranges just outside
// its domain where the designed search (generators.hpp) must find a counterexample. That is
// how the suite shows each claim is sharp and each property has power.

#include <nsh/first_order/scheme.hpp>
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

/// What a scheme claims, given its info (canonical spec and exact parameters).
using ClaimFunction = std::function<std::vector<Claim>(const SchemeInfo& info)>;

/// The claims of a scheme, from the entry that its SchemeInfo::spec names. SpecError if the
/// spec names no registered scheme.
std::vector<Claim> claims_of(const SchemeInfo& info);
std::optional<Claim> find_claim(const SchemeInfo& info, const std::string& property);
/// The registry entry whose claims a scheme with this info is held to.
const SchemeEntry& claiming_entry(const SchemeInfo& info);

/// Attach `claims` to an entry (replacing any it had).
void set_claims(SchemeEntry& entry, ClaimFunction claims);
/// Register a user's scheme and its claims in one call (so the two cannot miss each other):
/// SpecError if the name is taken.
void register_scheme(SchemeEntry entry, ClaimFunction claims,
                     Registry& registry = Registry::builtin());
/// The built-in schemes' claims onto their entries (done on first use of claims_of).
void attach_builtin_claims(Registry& registry);

/// What a first-order scheme (nsh/first_order/scheme.hpp: catching-up, penalty) claims, on the
/// sweep provider's properties, given its info (the canonical spec with every option).
using FirstOrderClaimFunction = std::function<std::vector<Claim>(const FirstOrderSchemeInfo& info)>;
/// The claims of a first-order scheme, from the FirstOrderRegistry entry its spec names
/// (SpecError if none; an entry without claims claims nothing).
std::vector<Claim> claims_of(const FirstOrderSchemeInfo& info);
/// Attach `claims` to a first-order entry (replacing any it had).
void set_claims(FirstOrderSchemeEntry& entry, FirstOrderClaimFunction claims);

/// The names of the shared properties, in table order.
const std::vector<std::string>& shared_property_names();

}  // namespace nsh::properties
