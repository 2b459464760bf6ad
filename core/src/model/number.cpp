#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/limits.hpp>
#include <nsh/number.hpp>

#include <cctype>
#include <cmath>
#include <cstdint>

namespace nsh {
namespace {

using boost::multiprecision::cpp_int;

// Appends the decimal digits of s[i..] to `mantissa` 18 at a time (one multiply-add of the big
// integer per 18 digits instead of per digit); returns how many digits were read.
std::size_t read_digits(std::string_view s, std::size_t& i, cpp_int& mantissa) {
  std::size_t count = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    std::uint64_t chunk = 0, scale = 1;
    for (int k = 0; k < 18 && i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));
         ++k, ++i, ++count) {
      chunk = chunk * 10 + static_cast<std::uint64_t>(s[i] - '0');
      scale *= 10;
    }
    mantissa = mantissa * scale + chunk;
  }
  return count;
}

// Parses [+-]digits[.digits][(e|E)[+-]digits] exactly; returns false on malformed text and
// throws InputError(field) beyond the digit and exponent limits (nsh/limits.hpp), checked on the
// text before any big-integer work.
bool parse_decimal(std::string_view s, Rational& out, const std::string& field) {
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  std::size_t digit_count = 0;
  for (std::size_t k = i;
       k < s.size() && (std::isdigit(static_cast<unsigned char>(s[k])) || s[k] == '.'); ++k)
    digit_count += s[k] != '.';
  limits::check_number_digits(digit_count, field, std::string(s));
  cpp_int mantissa = 0;
  long long exponent10 = 0;
  bool digits = read_digits(s, i, mantissa) > 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    const std::size_t fraction = read_digits(s, i, mantissa);
    exponent10 -= static_cast<long long>(fraction);
    digits = digits || fraction > 0;
  }
  if (!digits) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool negative_exponent = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative_exponent = s[i++] == '-';
    long long e = 0;
    bool exponent_digits = false;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      if (e <= limits::max_number_exponent) e = e * 10 + (s[i] - '0');  // no overflow
      ++i;
      exponent_digits = true;
    }
    if (!exponent_digits) return false;
    if (i != s.size()) return false;
    limits::check_number_exponent(negative_exponent ? -e : e, field, std::string(s));
    exponent10 += negative_exponent ? -e : e;
  }
  if (i != s.size()) return false;
  cpp_int power = boost::multiprecision::pow(
      cpp_int(10), static_cast<unsigned>(exponent10 < 0 ? -exponent10 : exponent10));
  Rational value = exponent10 < 0 ? Rational(mantissa, power) : Rational(mantissa * power);
  out = negative ? Rational(-value) : value;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

Rational parse_rational(std::string_view text, const std::string& field) {
  const std::string_view s = trim(text);
  const std::string shown = "'" + std::string(text) + "'";
  if (s.empty()) throw InputError(field, "expected a number, got an empty string");
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos) {
    Rational value;
    if (!parse_decimal(s, value, field))
      throw InputError(field, "expected a number such as 0.1, -2.5e-3 or 1/3, got " + shown);
    return value;
  }
  Rational numerator, denominator;
  if (!parse_decimal(trim(s.substr(0, slash)), numerator, field) ||
      !parse_decimal(trim(s.substr(slash + 1)), denominator, field))
    throw InputError(field, "expected a fraction p/q of two numbers, got " + shown);
  if (denominator == 0) throw InputError(field, "division by zero in " + shown);
  return numerator / denominator;
}

template <>
Rational round_exact<Rational>(const Rational& exact, const std::string&) {
  return exact;
}

template <>
Real50 round_exact<Real50>(const Rational& r, const std::string&) {
  // numerator / denominator in 50 digits: one rounding for integers and decimals whose
  // denominator is exact, at most one more for general fractions (both below 1e-50 relative).
  return Real50(numerator(r)) / Real50(denominator(r));
}

template <>
double round_exact<double>(const Rational& r, const std::string& field) {
  // Correct rounding of the exact value (cpp_rational's conversion rounds to nearest).
  const double value = r.convert_to<double>();
  if (!std::isfinite(value)) throw InputError(field, "'" + format_scalar(r) + "' overflows double");
  return value;
}

template <>
Rational parse_number<Rational>(std::string_view text, const std::string& field) {
  return parse_rational(text, field);
}

template <>
Real50 parse_number<Real50>(std::string_view text, const std::string& field) {
  return round_exact<Real50>(parse_rational(text, field), field);
}

template <>
double parse_number<double>(std::string_view text, const std::string& field) {
  const Rational r = parse_rational(text, field);
  const double value = r.convert_to<double>();
  if (!std::isfinite(value))
    throw InputError(field, "'" + std::string(text) + "' overflows double");
  return value;
}

}  // namespace nsh
