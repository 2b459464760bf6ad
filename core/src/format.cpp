#include <nsh/data_format.hpp>
#include <nsh/format.hpp>

#include <fmt/compile.h>
#include <fmt/format.h>

#include <ios>

namespace nsh {

std::string format_scalar(double x) {
  return fmt::format("{:.17g}", x);
}

std::string format_scalar(const Real50& x) {
  return x.str(std::numeric_limits<Real50>::digits10, std::ios_base::fmtflags(0));
}

std::string format_scalar(const Rational& x) {
  return x.str();
}

void append_scalar(std::string& out, double x) {
  // The longest shortest form is 24 characters ("-2.2250738585072014e-308"), so the unchecked
  // format_to is safe here; format_to_n's bounds checks made it twice as slow (110 against
  // 57 ns a number, measured). The time left is Dragonbox's digit search itself: a hand-written
  // printer of the same digits measured the same.
  char text[32];
  const char* end = fmt::format_to(text, FMT_COMPILE("{}"), x);
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

template std::string format_short(const double&, int);
template std::string format_short(const Real50&, int);
template std::string format_short(const Rational&, int);
template std::string format_vector(const Vector<double>&);
template std::string format_vector(const Vector<Real50>&);
template std::string format_vector(const Vector<Rational>&);

}  // namespace nsh
