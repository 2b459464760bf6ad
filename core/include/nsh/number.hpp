#pragma once
// Reading numbers exactly. Case files and the command line write numbers as decimal strings
// ("0.1", "-2.5e-3"), fractions ("1/3") or integers; each is read exactly into Rational,
// correctly rounded into Real50 and double.

#include <nsh/scalar.hpp>

#include <string>
#include <string_view>

namespace nsh {

/// Parse `text` as a number of type Scalar. Throws InputError naming `field` on malformed text
/// ("abc", "1/0", "", "nan", "inf"): nsh never accepts a non-finite number as input. Text with
/// more than limits::max_number_digits digits, or an exponent beyond
/// +-limits::max_number_exponent ("1e99999"), is refused the same way (nsh/limits.hpp,
/// docs/limits.md) before any big-integer work: reading d digits costs O(d^2).
template <class Scalar>
Scalar parse_number(std::string_view text, const std::string& field);

/// The exact rational value of a decimal or fraction string (the common first step).
Rational parse_rational(std::string_view text, const std::string& field);

/// The Scalar nearest an exact value, rounded as parse_number rounds the same number written as
/// text (so an option read exactly and then rounded steps with the same Scalar as one read in
/// Scalar). Throws InputError naming `field` if it overflows double.
template <class Scalar>
Scalar round_exact(const Rational& exact, const std::string& field);

}  // namespace nsh
