// parse_number: exact decimals and fractions, correct rounding, and every malformed input
// rejected with a message that names the field.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>

#include <gtest/gtest.h>

#include <string>

namespace nsh {
namespace {

TEST(Number, DecimalsAndFractionsAreExactInRational) {
  EXPECT_EQ(parse_number<Rational>("0.1", "x"), Rational(1, 10));
  EXPECT_EQ(parse_number<Rational>("1/10", "x"), Rational(1, 10));
  EXPECT_EQ(parse_number<Rational>("-2.5e-3", "x"), Rational(-1, 400));
  EXPECT_EQ(parse_number<Rational>("1E3", "x"), Rational(1000));
  EXPECT_EQ(parse_number<Rational>("+7", "x"), Rational(7));
  EXPECT_EQ(parse_number<Rational>(".5", "x"), Rational(1, 2));
  EXPECT_EQ(parse_number<Rational>("5.", "x"), Rational(5));
  EXPECT_EQ(parse_number<Rational>(" 1/3 ", "x"), Rational(1, 3));
  EXPECT_EQ(parse_number<Rational>("0.5/1.5", "x"), Rational(1, 3));
  EXPECT_EQ(parse_number<Rational>("-6/4", "x"), Rational(-3, 2));
  EXPECT_EQ(parse_number<Rational>("1e-30", "x"),
            Rational(1, boost::multiprecision::pow(boost::multiprecision::cpp_int(10), 30)));
}

TEST(Number, DoubleIsCorrectlyRounded) {
  EXPECT_EQ(parse_number<double>("0.1", "x"), 0.1);
  EXPECT_EQ(parse_number<double>("1/3", "x"), 1.0 / 3.0);
  EXPECT_EQ(parse_number<double>("-9.81", "x"), -9.81);
  EXPECT_EQ(parse_number<double>("1e-300", "x"), 1e-300);
  EXPECT_EQ(parse_number<double>("0.30000000000000004", "x"), 0.1 + 0.2);
}

TEST(Number, Real50HasFiftyDigits) {
  const Real50 third = parse_number<Real50>("1/3", "x");
  EXPECT_EQ(third, Real50(1) / Real50(3));
  EXPECT_EQ(format_scalar(third).substr(0, 52),
            "0.33333333333333333333333333333333333333333333333333");
  EXPECT_EQ(parse_number<Real50>("0.1", "x"), Real50(1) / Real50(10));
  EXPECT_NE(parse_number<Real50>("0.1", "x"), Real50(0.1));  // not via double
}

TEST(Number, MalformedTextNamesTheField) {
  for (const char* bad : {"",      "   ",  "abc", "nan", "NaN",   "inf", "-inf",    "Infinity",
                          "1/0",   "0/0",  "1e",  "1e+", "1.2.3", "--1", "1/",      "/2",
                          "1/2/3", "0x10", "1,5", "e5",  ".",     "1 2", "1e100001"}) {
    for (int kind = 0; kind < 3; ++kind) {
      try {
        if (kind == 0) parse_number<double>(bad, "M[1][0]");
        if (kind == 1) parse_number<Real50>(bad, "M[1][0]");
        if (kind == 2) parse_number<Rational>(bad, "M[1][0]");
        ADD_FAILURE() << "accepted '" << bad << "'";
      } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "M[1][0]") << bad;
        EXPECT_EQ(std::string(e.what()).rfind("M[1][0]: ", 0), 0u) << e.what();
      }
    }
  }
}

TEST(Number, MessageQuotesTheValue) {
  try {
    parse_number<Rational>("abc", "h");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'abc'"), std::string::npos) << e.what();
  }
  try {
    parse_number<Rational>("1/0", "theta");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("division by zero"), std::string::npos) << e.what();
  }
}

TEST(Number, DoubleOverflowIsAnError) {
  try {
    parse_number<double>("1e400", "T");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "T");
    EXPECT_NE(std::string(e.what()).find("overflows"), std::string::npos) << e.what();
  }
  // Rational and Real50 have the range for it.
  EXPECT_NO_THROW(parse_number<Rational>("1e400", "T"));
}

}  // namespace
}  // namespace nsh
