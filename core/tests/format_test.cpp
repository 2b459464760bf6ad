// format_scalar prints every scalar at its full precision, so that the printed text reads
// back to the same value; Rational prints the exact fraction.
#include <nsh/scalar.hpp>

#include <nsh/format.hpp>
#include <nsh/number.hpp>
#include <nsh/xml_escape.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace nsh {
namespace {

TEST(Format, RationalIsTheExactFraction) {
  EXPECT_EQ(format_scalar(Rational(1, 3)), "1/3");
  EXPECT_EQ(format_scalar(Rational(-18, 5)), "-18/5");
  EXPECT_EQ(format_scalar(Rational(6, 3)), "2");
  EXPECT_EQ(format_scalar(Rational(0)), "0");
}

TEST(Format, DoubleRoundTrips) {
  EXPECT_EQ(format_scalar(0.1), "0.10000000000000001");
  EXPECT_EQ(format_scalar(2.0), "2");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1, 1);
  std::uniform_int_distribution<int> exponent(-300, 300);
  for (int i = 0; i < 2000; ++i) {
    const double x = std::ldexp(mantissa(rng), exponent(rng));
    EXPECT_EQ(parse_number<double>(format_scalar(x), "x"), x) << format_scalar(x);
    EXPECT_EQ(std::stod(format_scalar(x)), x);
  }
}

TEST(Format, Real50PrintsFiftyDigits) {
  const Real50 third = Real50(1) / Real50(3);
  const std::string text = format_scalar(third);
  EXPECT_EQ(text, "0.33333333333333333333333333333333333333333333333333");
  // Fifty significant digits: the printed value is within half a unit of the 50th digit.
  const Real50 back = parse_number<Real50>(text, "x");
  EXPECT_LT(abs_value<Real50>(back - third) / third, Real50("5e-50"));
  EXPECT_EQ(format_scalar(Real50(2)), "2");
  EXPECT_EQ(format_scalar(Real50(-5) / Real50(4)), "-1.25");
}

TEST(Format, ShortAndVector) {
  EXPECT_EQ(format_short(Rational(1, 3), 3), "0.333");
  EXPECT_EQ(format_short(2.0 / 3.0), "0.666667");
  Vector<Rational> v(3);
  v << Rational(1, 2), Rational(-3), Rational(0);
  EXPECT_EQ(format_vector(v), "[1/2, -3, 0]");
  EXPECT_EQ(format_vector(Vector<double>()), "[]");
}

TEST(Format, NonFiniteDoublesAreVisible) {
  // Messages about bad input print the offending value; it must not look like a number.
  const std::string nan = format_scalar(std::numeric_limits<double>::quiet_NaN());
  EXPECT_NE(nan.find("nan"), std::string::npos) << nan;
  EXPECT_NE(format_scalar(std::numeric_limits<double>::infinity()).find("inf"), std::string::npos);
}

}  // namespace
}  // namespace nsh

TEST(Format, XmlEscapeKeepsUserTextValidXml) {
  EXPECT_EQ(nsh::xml_escape("theta<1 & e>0 \"a\" 'b'"),
            "theta&lt;1 &amp; e&gt;0 &quot;a&quot; &apos;b&apos;");
  // XML 1.0 allows no other control character, not even escaped: a case name with one must
  // not make the JUnit file or the report unreadable.
  EXPECT_EQ(nsh::xml_escape(std::string("a\x01"
                                        "b\tc\nd\x1f",
                                        8)),
            "a b\tc\nd ");
  EXPECT_EQ(nsh::xml_escape("café"), "café");  // UTF-8 bytes pass through
}
