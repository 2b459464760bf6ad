// `nsh events` on the nonholonomic family (issue 15): the impacts of the exact reference to 50
// digits, and malformed nonholonomic cases exiting 2 with the field named.
#include <nsh/scalar.hpp>

#include <nsh/number.hpp>

#include <gtest/gtest.h>
#include <boost/math/constants/constants.hpp>

#include "cli_support.hpp"

#include <fstream>
#include <string>

namespace {

using nsh::Real50;
using nsh_cli_test::has, nsh_cli_test::lines, nsh_cli_test::run_nsh, nsh_cli_test::Result,
    nsh_cli_test::scratch, nsh_cli_test::split;

TEST(NonholonomicEvents, RollingDiskImpactsTo50Digits) {
  const Result r = run_nsh("events rolling-disk --precision 50");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 7u) << r.out;  // header + 6 impacts before T = 12
  EXPECT_EQ(rows[0],
            "t,kind,inequality,theta_rate_minus,phi_rate_minus,theta_rate_plus,phi_rate_plus,"
            "normal_minus,normal_plus,E_before,E_after");
  Real50 previous(0);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto cells = split(rows[i]);
    ASSERT_EQ(cells.size(), 11u) << rows[i];
    EXPECT_EQ(cells[1], "impact");
    EXPECT_TRUE(cells[2] == "g_+" || cells[2] == "g_-") << rows[i];
    const Real50 t = nsh::parse_number<Real50>(cells[0], "t");
    EXPECT_GT(t, previous);
    previous = t;
    EXPECT_GE(cells[0].size(), 45u) << "not printed to 50 digits: " << cells[0];
    // Energy kept, normal velocity reversed.
    const Real50 before = nsh::parse_number<Real50>(cells[9], "E");
    const Real50 after = nsh::parse_number<Real50>(cells[10], "E");
    EXPECT_LE(nsh::abs_value<Real50>(after - before), Real50("1e-45"));
    const Real50 n_minus = nsh::parse_number<Real50>(cells[7], "n");
    const Real50 n_plus = nsh::parse_number<Real50>(cells[8], "n");
    EXPECT_GT(n_minus, Real50(0));
    EXPECT_LE(nsh::abs_value<Real50>(n_plus + n_minus), Real50("1e-45"));
  }
  EXPECT_NEAR(nsh::parse_number<double>(split(rows[1])[0], "t"), 2.0511, 1e-4);
  // double lists the same impacts.
  const Result lean = run_nsh("events rolling-disk");
  ASSERT_EQ(lean.status, 0) << lean.err;
  EXPECT_EQ(lines(lean.out).size(), rows.size());
  // --T cuts the list.
  const Result shorter = run_nsh("events rolling-disk --T 3");
  ASSERT_EQ(shorter.status, 0) << shorter.err;
  EXPECT_EQ(lines(shorter.out).size(), 3u) << shorter.out;
}

TEST(NonholonomicEvents, KnifeEdgeFirstImpactIsPiOverThree) {
  const Result r = run_nsh("events knife-edge --precision 50");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_GE(rows.size(), 2u) << r.out;
  EXPECT_TRUE(has(rows[0], "speed_minus,turning_rate_minus,speed_plus,turning_rate_plus"));
  const Real50 t = nsh::parse_number<Real50>(split(rows[1])[0], "t");
  EXPECT_LE(nsh::abs_value<Real50>(t - boost::math::constants::pi<Real50>() / 3), Real50("1e-45"));
}

std::string write_case(const std::string& name, const std::string& text) {
  const auto path = scratch() / (name + ".json");
  std::ofstream(path) << text;
  return path.string();
}

// Issue 15, done-when: a malformed nonholonomic case exits 2 naming the field.
TEST(NonholonomicEvents, MalformedCasesExit2NamingTheField) {
  const std::string head =
      R"({"name": "bad", "family": "nonholonomic", "model": "rolling-disk", "T": 1, )";
  const std::string seed = R"("parameters": {"m": 1, "R": 1, "I": "1/2", "J": "1/4", "a": 5}, )";
  struct Bad {
    std::string text, field, value;
  };
  const Bad cases[] = {
      {head + seed + R"("q0": [0, 0, 0, 0], "v0": [1, 0, 2, 0.3]})", "v0: ", "|A(q0) v0| = 1"},
      {head + seed + R"("q0": [4.5, 0, 0, 0], "v0": [0, 0, 0, 0]})", "q0: ", "5.25"},
      {head + R"("parameters": {"m": 1, "R": 1, "I": 0, "J": "1/4", "a": 5}, )" +
           R"("q0": [0, 0, 0, 0], "v0": [0, 0, 0, 0]})",
       "parameters.I: ", "got 0"},
  };
  for (const auto& bad : cases) {
    const Result r = run_nsh("events '" + write_case("bad", bad.text) + "'");
    EXPECT_EQ(r.status, 2) << bad.text << "\n" << r.err;
    EXPECT_TRUE(has(r.err, bad.field)) << r.err;
    EXPECT_TRUE(has(r.err, bad.value)) << r.err;
  }
}

}  // namespace
