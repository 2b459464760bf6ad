// `nsh events` on the nonholonomic family (issue 15): the impacts of the exact reference to 50
// digits, and malformed nonholonomic cases exiting 2 with the field named.
#include <nsh/scalar.hpp>

#include <nsh/number.hpp>

#include <gtest/gtest.h>
#include <boost/math/constants/constants.hpp>

#include "cli_support.hpp"

#include <fstream>
#include <string>
#include <vector>

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

namespace {

TEST(NonholonomicSimulate, DlaWritesTheTrajectoryInDoubleAnd50Digits) {
  const Result r = run_nsh("simulate rolling-disk --scheme dla");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 1202u);  // header, row 0 and 1200 steps of 1/100 to T = 12
  EXPECT_EQ(rows[0], "step,t,q0,q1,q2,q3,v0,v1,v2,v3,P0,P1,E,W_ext,W_damp,W_contact");
  int impacts = 0;
  for (std::size_t i = 2; i < rows.size(); ++i) {
    const auto cells = split(rows[i]);
    ASSERT_EQ(cells.size(), 16u) << rows[i];
    if (nsh::parse_number<double>(cells[10], "P0") > 0 ||
        nsh::parse_number<double>(cells[11], "P1") > 0)
      ++impacts;
  }
  EXPECT_EQ(impacts, 6) << "the reference's six impacts";
  const Result fifty = run_nsh("simulate rolling-disk --scheme dla --precision 50 --T 1/2");
  ASSERT_EQ(fifty.status, 0) << fifty.err;
  const auto rows50 = lines(fifty.out);
  ASSERT_EQ(rows50.size(), 52u);
  EXPECT_GE(split(rows50.back())[2].size(), 45u) << rows50.back();
  // The knife edge, and moreau-jean with the constraints as bilateral rows.
  EXPECT_EQ(run_nsh("simulate knife-edge --scheme dla").status, 0);
  const Result mj = run_nsh("simulate rolling-disk --scheme moreau-jean --T 3");
  ASSERT_EQ(mj.status, 0) << mj.err;
  EXPECT_EQ(lines(mj.out).size(), 302u);
}

TEST(NonholonomicSimulate, RefusalsNameTheField) {
  const Result rational = run_nsh("simulate rolling-disk --scheme dla --precision rational");
  EXPECT_EQ(rational.status, 2);
  EXPECT_TRUE(has(rational.err, "--precision")) << rational.err;
  EXPECT_TRUE(has(rational.err, "trigonometric")) << rational.err;
  // dla refuses a linear case, naming itself.
  const Result linear = run_nsh("simulate bouncing-ball --scheme dla --h 0.01");
  EXPECT_EQ(linear.status, 2);
  EXPECT_TRUE(has(linear.err, "dla")) << linear.err;
  // A scheme that does not step nonlinear models refuses the nonholonomic case.
  const Result newmark = run_nsh("simulate rolling-disk --scheme newmark");
  EXPECT_EQ(newmark.status, 2);
  EXPECT_TRUE(has(newmark.err, "newmark")) << newmark.err;
}

TEST(NonholonomicConverge, DlaIsSecondOrderBetweenImpactsMoreauJeanFirst) {
  const std::string out = (scratch() / "converge").string();
  const Result r = run_nsh(
      "converge rolling-disk --scheme dla --scheme moreau-jean --h "
      "0.01,0.005,0.0025,0.00125 --out '" +
      out + "'");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  // "  q_smooth      order  1.998 ..." for dla, then "... order  1.000" for moreau-jean.
  const auto rows = lines(r.out);
  std::vector<double> smooth;
  for (const auto& row : rows)
    if (row.rfind("  q_smooth", 0) == 0)
      smooth.push_back(std::stod(row.substr(row.find("order") + 5)));
  ASSERT_EQ(smooth.size(), 2u) << r.out;
  EXPECT_NEAR(smooth[0], 2.0, 0.1) << r.out;
  EXPECT_NEAR(smooth[1], 1.0, 0.1) << r.out;
  EXPECT_TRUE(has(r.out, "impact_time")) << r.out;
  const Result bad = run_nsh("converge rolling-disk --scheme dla --h 0.01 --reference analytic");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(has(bad.err, "--reference")) << bad.err;
}

}  // namespace

namespace {

// nsh energy on the nonholonomic family: the ledger of dla and moreau-jean through the model's
// nonlinear view, no energy inequality claimed (the constraint impulse has no ledger term), and
// the refusals before any output.
TEST(NonholonomicEnergy, LedgerWithoutAClaim) {
  const std::string out = (scratch() / "nonholonomic-energy").string();
  const Result dla = run_nsh("energy rolling-disk --scheme dla --T 3 --out '" + out + "'");
  ASSERT_EQ(dla.status, 0) << dla.err;
  EXPECT_TRUE(has(dla.out, "is not claimed by dla")) << dla.out;
  std::ifstream csv(out + "/energy.csv");
  ASSERT_TRUE(csv.good());
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("step,t,E,", 0), 0u) << header;
  const Result mj =
      run_nsh("energy knife-edge --scheme moreau-jean:theta=1 --T 3 --out '" + out + "-mj'");
  ASSERT_EQ(mj.status, 0) << mj.err;
  EXPECT_TRUE(has(mj.out, "outside the claim's domain (velocity constraints")) << mj.out;
  const Result rational =
      run_nsh("energy knife-edge --scheme dla --precision rational --out '" + out + "-r'");
  EXPECT_EQ(rational.status, 2) << rational.err;
  EXPECT_TRUE(has(rational.err, "--precision")) << rational.err;
  const Result scheme = run_nsh("energy rolling-disk --scheme newmark --out '" + out + "-n'");
  EXPECT_EQ(scheme.status, 2) << scheme.err;
  EXPECT_TRUE(has(scheme.err, "newmark")) << scheme.err;
}

}  // namespace
