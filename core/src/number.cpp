#include <nsh/error.hpp>
#include <nsh/number.hpp>

#include <cctype>

namespace nsh {
namespace {

using boost::multiprecision::cpp_int;

// Parses [+-]digits[.digits][(e|E)[+-]digits] exactly; returns false on anything else.
bool parse_decimal(std::string_view s, Rational& out) {
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  cpp_int mantissa = 0;
  long long exponent10 = 0;
  bool digits = false;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    mantissa = mantissa * 10 + (s[i++] - '0');
    digits = true;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      mantissa = mantissa * 10 + (s[i++] - '0');
      --exponent10;
      digits = true;
    }
  }
  if (!digits) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool negative_exponent = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative_exponent = s[i++] == '-';
    long long e = 0;
    bool exponent_digits = false;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      e = e * 10 + (s[i++] - '0');
      exponent_digits = true;
      if (e > 100000) return false;  // beyond anything a model needs; refuse rather than hang
    }
    if (!exponent_digits) return false;
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
    if (!parse_decimal(s, value))
      throw InputError(field, "expected a number such as 0.1, -2.5e-3 or 1/3, got " + shown);
    return value;
  }
  Rational numerator, denominator;
  if (!parse_decimal(trim(s.substr(0, slash)), numerator) ||
      !parse_decimal(trim(s.substr(slash + 1)), denominator))
    throw InputError(field, "expected a fraction p/q of two numbers, got " + shown);
  if (denominator == 0) throw InputError(field, "division by zero in " + shown);
  return numerator / denominator;
}

template <>
Rational parse_number<Rational>(std::string_view text, const std::string& field) {
  return parse_rational(text, field);
}

template <>
Real50 parse_number<Real50>(std::string_view text, const std::string& field) {
  const Rational r = parse_rational(text, field);
  // numerator / denominator in 50 digits: one rounding for integers and decimals whose
  // denominator is exact, at most one more for general fractions (both below 1e-50 relative).
  return Real50(numerator(r)) / Real50(denominator(r));
}

template <>
double parse_number<double>(std::string_view text, const std::string& field) {
  const Rational r = parse_rational(text, field);
  // Correct rounding of the exact value (cpp_rational's conversion rounds to nearest).
  const double value = r.convert_to<double>();
  if (!std::isfinite(value))
    throw InputError(field, "'" + std::string(text) + "' overflows double");
  return value;
}

}  // namespace nsh
