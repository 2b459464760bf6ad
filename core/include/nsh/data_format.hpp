#pragma once
// Numbers in nsh's data files (the trajectory CSV of `nsh simulate`). Beside nsh/format.hpp,
// whose format_scalar prints the 17-digit text that messages and case files use, and in its own
// header so that the many files including nsh/format.hpp do not depend on it.

#include <nsh/scalar.hpp>

#include <string>

namespace nsh {

/// Appends x to `out`: for double the shortest decimal that reads back to the same bits (fmt's
/// default "{}" form: 0.1, -0, 5e-324, 1e+308, nan, inf), shorter and several times faster to
/// print than format_scalar's 17 digits; Real50 and Rational exactly as format_scalar (50
/// digits, the exact fraction). Allocates nothing for double once `out` has the capacity, so a
/// writer reuses one buffer for a whole row.
void append_scalar(std::string& out, double x);
void append_scalar(std::string& out, const Real50& x);
void append_scalar(std::string& out, const Rational& x);

/// The text of append_scalar(double) written at `out`, which must have room for 48 bytes (the
/// text is at most 24; the rest is scratch); returns the end. For writers that fill a row
/// buffer of known size without a capacity check per number.
char* write_scalar(char* out, double x);

}  // namespace nsh
