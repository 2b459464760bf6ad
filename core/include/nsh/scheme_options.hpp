#pragma once
// Checking a parsed spec against the options a scheme declares: shared by the scheme registry
// (registry.hpp) and the first-order registry (first_order/scheme.hpp), so that both reject an
// unknown option or choice with the same message and fill in defaults the same way.

#include <nsh/registry.hpp>

#include <vector>

namespace nsh {

/// Throws SpecError naming `name:key` for an option not in `options` (listing the accepted
/// ones) or a value outside an option's choices (listing them); then sets every omitted option
/// that has a default.
void apply_scheme_options(SchemeSpec& spec, const std::vector<SchemeOption>& options);

}  // namespace nsh
