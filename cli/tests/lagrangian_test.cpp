// `nsh simulate` on the lagrangian family (docs/nonlinear-models.md): the falling rod under
// moreau-jean in double and 50 digits (same columns as the linear table, the two precisions
// agree), a case file given by path, and the refusals with exit status 2 naming the field:
// a malformed formula, an unknown symbol, a mass matrix that is not positive definite at q0,
// --precision rational on trigonometric formulas, and a scheme that does not step nonlinear
// models; a case of rational formulas in exact arithmetic, and the bound on its numbers' growth.
#include "cli_support.hpp"
#include "lagrangian_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using namespace nsh_cli_test;

#if NSH_WITH_FORMULA

TEST(CliLagrangian, FallingRodDoubleAndFiftyDigitsAgree) {
  const std::string common = "simulate falling-rod --scheme moreau-jean --T 0.6";
  const Result d = run_nsh(common + " --precision double");
  ASSERT_EQ(d.status, 0) << d.err;
  const Result r = run_nsh(common + " --precision 50");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows_d = lines(d.out), rows_r = lines(r.out);
  ASSERT_EQ(rows_d.size(), 602u);  // header, row 0, 600 steps
  ASSERT_EQ(rows_r.size(), rows_d.size());
  // The linear table's columns, with the friction groups (m = 2, d = 1).
  EXPECT_EQ(rows_d[0], "step,t,q0,q1,q2,v0,v1,v2,P0,P1,PT0,PT1,UT0,UT1,E,W_ext,W_damp,W_contact");
  EXPECT_EQ(rows_r[0], rows_d[0]);
  // The rod lands (t ~ 0.39): some row has a positive impulse; the two precisions agree.
  bool landed = false;
  double worst = 0;
  for (std::size_t i = 1; i < rows_d.size(); ++i) {
    const auto a = split(rows_d[i]), b = split(rows_r[i]);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t j = 2; j < a.size(); ++j) {
      const double x = std::stod(a[j]), y = std::stod(b[j]);
      worst = std::max(worst, std::abs(x - y) / std::max(1.0, std::abs(y)));
    }
    if (std::stod(a[8]) > 0 || std::stod(a[9]) > 0) landed = true;
  }
  EXPECT_TRUE(landed);
  EXPECT_LT(worst, 1e-9);
  // Row 0: E = m g y0 + 1/2 m vx0^2 = 9.81 + 0.5.
  EXPECT_NEAR(std::stod(split(rows_d[1])[14]), 10.31, 1e-12);
}

TEST(CliLagrangian, CaseFileByPath) {
  const fs::path path = rod_variant("rod-frictionless", "mu", "0");
  const Result run =
      run_nsh("simulate '" + path.string() + "' --scheme moreau-jean:theta=1/2 --T 0.05 --h 0.01");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(lines(run.out).size(), 7u);
}

TEST(CliLagrangian, MalformedFormulaIsStatusTwoNamingTheField) {
  const Result run =
      run_nsh("simulate '" + rod_variant("rod-malformed", "gaps", "[\"y - * l\", \"y\"]").string() +
              "' --scheme moreau-jean");
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_TRUE(has(run.err, "gaps[0]")) << run.err;
  EXPECT_TRUE(has(run.err, "malformed")) << run.err;
  EXPECT_TRUE(run.out.empty());
}

TEST(CliLagrangian, UnknownSymbolIsStatusTwoNamingTheField) {
  const Result run =
      run_nsh("simulate '" + rod_variant("rod-unknown", "potential", "\"m*g*z\"").string() +
              "' --scheme moreau-jean");
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_TRUE(has(run.err, "potential")) << run.err;
  EXPECT_TRUE(has(run.err, "unknown symbol 'z'")) << run.err;
}

TEST(CliLagrangian, MassNotPositiveDefiniteAtQ0IsStatusTwoNamingTheField) {
  // M[2][2] = m l^2 sin(phi) / 3 vanishes at phi = 0: the file's q0 has phi = 0.
  const fs::path path = rod_variant("rod-singular-mass", "M",
                                    "[[\"m\", 0, 0], [0, \"m\", 0], [0, 0, \"m*l^2*sin(phi)/3\"]]");
  std::string text = slurp(path);
  text.replace(text.find("\"q0\": [0, 1, \"1/2\"]"), 19, "\"q0\": [0, 1, 0]");
  std::ofstream(path) << text;
  const Result run = run_nsh("simulate '" + path.string() + "' --scheme moreau-jean");
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_TRUE(has(run.err, "M: must be positive definite")) << run.err;
  EXPECT_TRUE(has(run.err, "q0")) << run.err;
}

TEST(CliLagrangian, RationalOnTrigonometricFormulasIsStatusTwoNamingTheField) {
  const Result run = run_nsh("simulate falling-rod --scheme moreau-jean --precision rational");
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_TRUE(has(run.err, "gaps[0]")) << run.err;
  EXPECT_TRUE(has(run.err, "sin")) << run.err;
  EXPECT_TRUE(has(run.err, "--precision rational")) << run.err;
  EXPECT_TRUE(run.out.empty()) << run.out;  // refused before the header
}

// The double nearest (to ~1e-15) a CSV rational "p/q" or integer, whose parts may have far more
// digits than std::stod reads: the leading 17 digits of each, scaled by their lengths.
double exact_fraction_value(const std::string& text) {
  const auto leading = [](const std::string& digits, int& exponent) {
    const bool negative = !digits.empty() && digits[0] == '-';
    const std::string magnitude = digits.substr(negative ? 1 : 0);
    const std::size_t kept = std::min<std::size_t>(magnitude.size(), 17);
    exponent = static_cast<int>(magnitude.size() - kept);
    const double value = std::stod(magnitude.substr(0, kept));
    return negative ? -value : value;
  };
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::stod(text);
  int e_numerator = 0, e_denominator = 0;
  const double numerator = leading(text.substr(0, slash), e_numerator);
  const double denominator = leading(text.substr(slash + 1), e_denominator);
  return numerator / denominator * std::pow(10.0, e_numerator - e_denominator);
}

TEST(CliLagrangian, RationalFormulasRunExactlyAndAgreeWithDouble) {
  const std::string common =
      "simulate particle-on-parabola --scheme moreau-jean:theta=1 --h 1/20 --T 1";
  const Result exact = run_nsh(common + " --precision rational");
  ASSERT_EQ(exact.status, 0) << exact.err;
  const Result real = run_nsh(common + " --precision double");
  ASSERT_EQ(real.status, 0) << real.err;
  const auto rows_exact = lines(exact.out), rows_real = lines(real.out);
  ASSERT_EQ(rows_exact.size(), 22u);  // header, row 0, 20 steps
  ASSERT_EQ(rows_real.size(), rows_exact.size());
  EXPECT_EQ(rows_exact[0], "step,t,q0,q1,v0,v1,P0,PT0,UT0,E,W_ext,W_damp,W_contact");
  // The landing at step 12 carries an impulse written as an exact fraction.
  const auto landing = split(rows_exact[13]);
  EXPECT_EQ(landing[1], "3/5");
  EXPECT_TRUE(has(landing[6], "/")) << rows_exact[13];
  double worst = 0;
  for (std::size_t i = 1; i < rows_exact.size(); ++i) {
    const auto a = split(rows_exact[i]), b = split(rows_real[i]);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t j = 2; j < a.size(); ++j) {
      const double x = exact_fraction_value(a[j]);
      const double y = std::stod(b[j]);
      worst = std::max(worst, std::abs(x - y) / std::max(1.0, std::abs(y)));
    }
  }
  EXPECT_LT(worst, 1e-9);
}

TEST(CliLagrangian, ALongExactRunStopsSayingHowFarItGot) {
  const Result run = run_nsh(
      "simulate particle-on-parabola --scheme moreau-jean:theta=1 --h 1/20 --T 2 "
      "--precision rational");
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_TRUE(has(run.err, "precision")) << run.err;
  EXPECT_TRUE(has(run.err, "stopped at step")) << run.err;
  EXPECT_TRUE(has(run.err, "--precision 50")) << run.err;
}

TEST(CliLagrangian, SchemeThatDoesNotStepNonlinearModelsIsStatusTwoNamingIt) {
  const Result run = run_nsh("simulate falling-rod --scheme newmark");
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_TRUE(has(run.err, "--scheme")) << run.err;
  EXPECT_TRUE(has(run.err, "newmark")) << run.err;
  EXPECT_TRUE(has(run.err, "nonlinear")) << run.err;
}

#else

TEST(CliLagrangian, WithoutTheFormulaModuleTheFamilyIsRefused) {
  const Result run = run_nsh("simulate falling-rod --scheme moreau-jean");
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_TRUE(has(run.err, "GiNaC")) << run.err;
}

#endif

}  // namespace
