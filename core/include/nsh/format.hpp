#pragma once
// Printing scalars at the full precision of their type. fmt's default for Boost numbers prints
// 6 digits, and "{:.4}" cuts the string; this is the one place that prints a number.

#include <nsh/scalar.hpp>

#include <string>
#include <vector>

namespace nsh {

/// Full precision: 17 significant digits for double (round-trips), 50 for Real50, the exact
/// fraction "p/q" (or "p") for Rational.
std::string format_scalar(double x);
std::string format_scalar(const Real50& x);
std::string format_scalar(const Rational& x);

/// Short form for tables and messages: `digits` significant digits (Rational converted).
template <class Scalar>
std::string format_short(const Scalar& x, int digits = 6);

/// "[a, b, c]" with format_scalar for each entry.
template <class Scalar>
std::string format_vector(const Vector<Scalar>& x);

/// "a, b, c": the items with `separator` between them (lists of accepted names in messages).
std::string join(const std::vector<std::string>& items, const std::string& separator = ", ");

/// "M[i][j]": the name of one entry of a matrix field in messages.
std::string entry_name(const std::string& field, Index i, Index j);

/// The text without leading and trailing blanks and tabs (spec strings, CSV column lists).
std::string trim_blanks(const std::string& text);

}  // namespace nsh
