#include <nsh/data_format.hpp>
#include <nsh/format.hpp>

#include <fmt/compile.h>
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <ios>

namespace nsh {

std::string entry_name(const std::string& field, Index i, Index j) {
  return field + "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}

std::string trim_blanks(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

std::string format_scalar(double x) {
  return fmt::format("{:.17g}", x);
}

std::string format_scalar(const Real50& x) {
  return x.str(std::numeric_limits<Real50>::digits10, std::ios_base::fmtflags(0));
}

std::string format_scalar(const Rational& x) {
  return x.str();
}

namespace {

#if FMT_VERSION >= 90000 && FMT_VERSION < 100000
constexpr char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/// The 4 digits of v < 10^4, leading zeros included. (Inlined by force: -O1, the dev and ci
/// builds, left these small functions as calls, a tenth of a CSV row's time.)
[[gnu::always_inline]] inline void write4(char* out, std::uint32_t v) {
  std::memcpy(out, digit_pairs + 2 * (v / 100), 2);
  std::memcpy(out + 2, digit_pairs + 2 * (v % 100), 2);
}

/// The 8 digits of v < 10^8, leading zeros included.
[[gnu::always_inline]] inline void write8(char* out, std::uint32_t v) {
  write4(out, v / 10000);
  write4(out + 4, v % 10000);
}

/// The number of decimal digits of 0 < v < 10^17.
[[gnu::always_inline]] inline int digit_count(std::uint64_t v) {
  static constexpr std::uint64_t powers[] = {1,
                                             10,
                                             100,
                                             1000,
                                             10000,
                                             100000,
                                             1000000,
                                             10000000,
                                             100000000,
                                             1000000000,
                                             10000000000,
                                             100000000000,
                                             1000000000000,
                                             10000000000000,
                                             100000000000000,
                                             1000000000000000,
                                             10000000000000000,
                                             100000000000000000};
  // floor(log10(2^bits)) through 1233 / 4096 ~ log10(2), then one correction.
  const int guess = ((64 - std::countl_zero(v)) * 1233) >> 12;
  return guess + (v >= powers[guess]);
}

/// fmt's "{}" text of x (the shortest decimal that reads back to x, fixed notation for decimal
/// exponents in [-4, 16), else d.ddde+XX), written at `out`, which has room for 48 bytes;
/// returns the end (write_scalar below). The digits are fmt's own (its Dragonbox search,
/// dragonbox::to_decimal, which libfmt 9 exports); only the layout is written here, with fixed-size
/// copies instead of fmt's general padded writer: 25 % less time a number (38 against 50 ns,
/// measured), the same text (output_test.cpp compares the two on random doubles). Other fmt
/// versions use format_to.
char* write_shortest(char* out, double x) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  if (bits >> 63) *out++ = '-';
  const std::uint64_t magnitude = bits & ~(std::uint64_t(1) << 63);
  constexpr std::uint64_t exponent_mask = std::uint64_t(0x7ff) << 52;
  if ((magnitude & exponent_mask) == exponent_mask) {
    std::memcpy(out, (magnitude & ~exponent_mask) ? "nan" : "inf", 3);
    return out + 3;
  }
  if (magnitude == 0) {
    *out = '0';
    return out + 1;
  }
  const auto decimal = fmt::detail::dragonbox::to_decimal(std::bit_cast<double>(magnitude));
  const std::uint64_t significand = decimal.significand;  // < 10^17
  // The 17 places with leading zeros; the significant ones start at `first`. Room for 16 more
  // bytes, read (never used) by the fixed-size copies below.
  char digits[48];
  const std::uint64_t high = significand / 100000000;
  digits[0] = static_cast<char>('0' + high / 100000000);
  write8(digits + 1, static_cast<std::uint32_t>(high % 100000000));
  write8(digits + 9, static_cast<std::uint32_t>(significand % 100000000));
  const int n = digit_count(significand);
  const char* first = digits + 17 - n;
  const int output_exp = decimal.exponent + n - 1;
  if (output_exp < -4 || output_exp >= 16) {  // d[.ddd]e+XX
    out[0] = first[0];
    out[1] = '.';
    std::memcpy(out + 2, first + 1, 16);
    out += n > 1 ? n + 1 : 1;
    *out++ = 'e';
    int e = output_exp;
    *out++ = e < 0 ? '-' : '+';
    if (e < 0) e = -e;
    if (e >= 100) {
      *out++ = static_cast<char>('0' + e / 100);
      e %= 100;
    }
    std::memcpy(out, digit_pairs + 2 * e, 2);
    return out + 2;
  }
  if (decimal.exponent >= 0) {  // ddd000
    std::memcpy(out, first, 17);
    out += n;
    std::memset(out, '0', 16);
    return out + decimal.exponent;
  }
  const int integral = n + decimal.exponent;
  if (integral > 0) {  // dd.ddd
    std::memcpy(out, first, 16);
    out += integral;
    *out++ = '.';
    std::memcpy(out, first + integral, 16);
    return out + (n - integral);
  }
  out[0] = '0';  // 0.000ddd
  out[1] = '.';
  std::memset(out + 2, '0', 4);
  out += 2 - integral;
  std::memcpy(out, first, 17);
  return out + n;
}
#else
char* write_shortest(char* out, double x) {
  return fmt::format_to(out, FMT_COMPILE("{}"), x);
}
#endif

}  // namespace

char* write_scalar(char* out, double x) {
  return write_shortest(out, x);
}

void append_scalar(std::string& out, double x) {
  // No std::string per number: the longest text is 24 characters (-2.2250738585072014e-308),
  // written into a stack buffer (fmt's format_to_n, with its bounds checks, took 110 ns a
  // number against format_to's 50; the previous writer's format("{:.17g}") and concatenation
  // 160-260 ns); write_shortest takes about 38 ns, 15 of them fmt's digit search.
  char text[48];
  const char* end = write_shortest(text, x);
  out.append(text, static_cast<std::size_t>(end - text));
}

void append_scalar(std::string& out, const Real50& x) {
  out += format_scalar(x);
}

void append_scalar(std::string& out, const Rational& x) {
  out += format_scalar(x);
}

template <class Scalar>
std::string format_short(const Scalar& x, int digits) {
  return fmt::format("{:.{}g}", scalar_cast<double>(x), digits);
}

template <class Scalar>
std::string format_vector(const Vector<Scalar>& x) {
  std::string out = "[";
  for (Index i = 0; i < x.size(); ++i) {
    if (i) out += ", ";
    out += format_scalar(x(i));
  }
  return out + "]";
}

#define NSH_INSTANTIATE(Scalar)                          \
  template std::string format_short(const Scalar&, int); \
  template std::string format_vector(const Vector<Scalar>&);
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh
