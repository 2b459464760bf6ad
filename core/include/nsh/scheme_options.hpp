#pragma once
// Checking a parsed spec against the options a scheme declares: shared by the scheme registry
// (registry.hpp) and the first-order registry (first_order/scheme.hpp), so that both reject an
// unknown option or choice with the same message and fill in defaults the same way.

#include <nsh/error.hpp>
#include <nsh/registry.hpp>

#include <type_traits>
#include <vector>

namespace nsh {

/// Throws SpecError naming `name:key` for an option not in `options` (listing the accepted
/// ones) or a value outside an option's choices (listing them); then sets every omitted option
/// that has a default.
void apply_scheme_options(SchemeSpec& spec, const std::vector<SchemeOption>& options);

/// The Scalar version of a resolved spec from an entry's make_double / make_real50 /
/// make_rational factories (SchemeEntry, FirstOrderSchemeEntry). SpecError naming the
/// precision if Scalar is Rational and the entry has no exact rational version.
template <class Scalar, class Entry>
auto make_from_entry(const Entry& entry, const SchemeSpec& spec) {
  if constexpr (std::is_same_v<Scalar, double>) {
    return entry.make_double(spec);
  } else if constexpr (std::is_same_v<Scalar, Real50>) {
    return entry.make_real50(spec);
  } else {
    if (!entry.make_rational)
      throw SpecError("precision", "scheme " + spec.name() +
                                       " has no exact rational version (it needs sqrt, exp or "
                                       "iteration); use --precision double or 50");
    return entry.make_rational(spec);
  }
}

}  // namespace nsh
