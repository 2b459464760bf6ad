// `nsh events` (one line per event of the event-driven reference), `nsh list cases` (one line
// of exact facts per case) and `nsh simulate` on every case file with every scheme of its family.
#include <nsh/scalar.hpp>

#include <nsh/cases/catalogue.hpp>
#include <nsh/cases/friction.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/number.hpp>

#include <gtest/gtest.h>

#include "cli_support.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using nsh_cli_test::has, nsh_cli_test::lines, nsh_cli_test::run_nsh, nsh_cli_test::Result,
    nsh_cli_test::scratch, nsh_cli_test::slurp, nsh_cli_test::split;

const char* header = "t,kind,contact,U_minus,U_plus,impulse,E_before,E_after";

// Bouncing ball (q0 = 1, g = 9.81, e = 1/2): t1 = sqrt(2/g), U1- = -sqrt(2 g), the k-th impact
// at t1 (1 + 2 e + ... + 2 e^(k-1)), accumulation at t1 (1 + e)/(1 - e) = 3 t1.
TEST(Events, BouncingBallOneLinePerEventWithItsFields) {
  const Result r = run_nsh("events bouncing-ball --T 1");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_GE(rows.size(), 3u);
  EXPECT_EQ(rows[0], header);
  const double g = 9.81, t1 = std::sqrt(2 / g), U1 = -std::sqrt(2 * g);
  const auto first = split(rows[1]);
  ASSERT_EQ(first.size(), 8u) << rows[1];
  EXPECT_NEAR(std::stod(first[0]), t1, 1e-12);
  EXPECT_EQ(first[1], "impact");
  EXPECT_EQ(first[2], "0");
  EXPECT_NEAR(std::stod(first[3]), U1, 1e-12);
  EXPECT_NEAR(std::stod(first[4]), -U1 / 2, 1e-12);       // U+ = -e U-
  EXPECT_NEAR(std::stod(first[5]), -3 * U1 / 2, 1e-12);   // P = m (U+ - U-)
  EXPECT_NEAR(std::stod(first[6]), 0.5 * U1 * U1, 1e-9);  // E- = 1/2 m U-^2 (q = 0, K = 0)
  EXPECT_NEAR(std::stod(first[7]), 0.125 * U1 * U1, 1e-9);
  const auto second = split(rows[2]);
  EXPECT_NEAR(std::stod(second[0]), 2 * t1, 1e-12);
  // Every event of [0, 1] (the accumulation point 3 t1 = 1.355 is later): impacts only.
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto cells = split(rows[i]);
    ASSERT_EQ(cells.size(), 8u) << rows[i];
    EXPECT_EQ(cells[1], "impact") << rows[i];
    EXPECT_LE(std::stod(cells[0]), 1.0);
  }
}

TEST(Events, BouncingBallReachesItsAccumulationTimeAndRests) {
  const Result r = run_nsh("events bouncing-ball");  // the case's T = 3
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = lines(r.out);
  const double t_acc = 3 * std::sqrt(2 / 9.81);
  bool accumulation = false, closes = false;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto cells = split(rows[i]);
    ASSERT_EQ(cells.size(), 8u) << rows[i];
    if (cells[1] == "accumulation") {
      accumulation = true;
      EXPECT_NEAR(std::stod(cells[0]), t_acc, 1e-9) << rows[i];
    }
    if (cells[1] == "contact-closes") closes = true;
    if (accumulation) EXPECT_NE(cells[1], "impact") << "an impact after the accumulation";
  }
  EXPECT_TRUE(accumulation) << r.out;
  EXPECT_TRUE(closes) << r.out;
  EXPECT_LT(rows.size(), 200u);  // a finite list, not a loop through the accumulation
}

TEST(Events, Precision50PrintsFiftyDigitsAndAgreesWithDouble) {
  const Result d = run_nsh("events bouncing-ball --T 1");
  const Result r = run_nsh("events bouncing-ball --T 1 --precision 50");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rd = lines(d.out), rr = lines(r.out);
  ASSERT_EQ(rd.size(), rr.size());
  const auto cells = split(rr[1]);
  // The impact time sqrt(2/9.81) printed at 50 significant digits.
  std::string digits;
  for (char c : cells[0])
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
  EXPECT_GE(digits.size(), 45u) << cells[0];
  const nsh::Real50 t1 = nsh::parse_number<nsh::Real50>(cells[0], "t");
  const nsh::Real50 exact = sqrt(nsh::Real50(2) / nsh::parse_number<nsh::Real50>("9.81", "g"));
  EXPECT_LT(nsh::scalar_cast<double>(abs(t1 - exact) / exact), 1e-35) << cells[0];
  for (std::size_t i = 1; i < rd.size(); ++i)
    EXPECT_NEAR(std::stod(split(rd[i])[0]), std::stod(split(rr[i])[0]), 1e-12);
}

TEST(Events, TShortensTheList) {
  const Result short_run = run_nsh("events bouncing-ball --T 0.5");
  ASSERT_EQ(short_run.status, 0) << short_run.err;
  EXPECT_EQ(lines(short_run.out).size(), 2u) << short_run.out;  // header + the first impact
  const Result none = run_nsh("events bouncing-ball --T 0.1");
  ASSERT_EQ(none.status, 0) << none.err;
  EXPECT_EQ(lines(none.out).size(), 1u) << none.out;  // header only
}

TEST(Events, BadInputIsStatusTwoAndNamesTheField) {
  const Result neg = run_nsh("events bouncing-ball --T -1");
  EXPECT_EQ(neg.status, 2);
  EXPECT_TRUE(has(neg.err, "T")) << neg.err;
  const Result garbage = run_nsh("events bouncing-ball --T abc");
  EXPECT_EQ(garbage.status, 2);
  EXPECT_TRUE(has(garbage.err, "T")) << garbage.err;
  const Result precision = run_nsh("events bouncing-ball --precision 7");
  EXPECT_EQ(precision.status, 2);
  EXPECT_TRUE(has(precision.err, "precision")) << precision.err;
  const Result unknown = run_nsh("events no-such-case");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_TRUE(has(unknown.err, "no-such-case")) << unknown.err;
  const Result family = run_nsh("events sweeping-interval");
  EXPECT_EQ(family.status, 2);
  EXPECT_TRUE(has(family.err, "family")) << family.err;
  const fs::path bad = scratch() / "bad-e.json";
  std::ofstream(bad) << R"({"name": "bad-e", "M": [[1]], "F": [-1], "G": [[1]], "w": [0],
    "e": "3/2", "q0": [1], "v0": [0], "T": 1})";
  const Result restitution = run_nsh("events '" + bad.string() + "'");
  EXPECT_EQ(restitution.status, 2);
  EXPECT_TRUE(has(restitution.err, "e[0]")) << restitution.err;
  EXPECT_TRUE(has(restitution.err, "1.5")) << restitution.err;
}

// Issue 13, done-when: `nsh simulate sliding-block --scheme moreau-jean:theta=1 --precision
// rational` reproduces the exact discrete stop v_{k+1} = max(v_k - mu g h, 0) (docs/case-files.md,
// "The exact discrete stop"), row by row, as exact fractions.
TEST(Simulate, SlidingBlockIsTheExactDiscreteStopInRational) {
  const Result r =
      run_nsh("simulate sliding-block --scheme moreau-jean:theta=1 --precision rational");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 52u) << r.out;  // header, t0, 50 steps of h = 1/100
  ASSERT_EQ(rows[0], "step,t,q0,q1,v0,v1,P0,PT0,UT0,E,W_ext,W_damp,W_contact");
  using nsh::Rational;
  const Rational h(1, 100), v0(2), mu_g_h = Rational(1, 2) * Rational(981, 100) * h;
  const nsh::cases::DiscreteSlidingStop<Rational> stop{v0, mu_g_h};
  EXPECT_EQ(stop.last_sliding_step(), 40);
  for (std::size_t k = 0; k + 1 < rows.size(); ++k) {
    const auto cells = split(rows[k + 1]);
    const nsh::Index step = static_cast<nsh::Index>(k);
    ASSERT_EQ(cells.size(), 13u) << rows[k + 1];
    EXPECT_EQ(cells[2], nsh::format_scalar(stop.displacement(step, h))) << rows[k + 1];
    EXPECT_EQ(cells[4], nsh::format_scalar(stop.velocity(step))) << rows[k + 1];
    EXPECT_EQ(cells[3], "0");
    EXPECT_EQ(cells[5], "0");
    if (k > 0) {
      // The friction impulse of the step is the momentum it removed (m = 1).
      EXPECT_EQ(cells[7],
                nsh::format_scalar(Rational(stop.velocity(step) - stop.velocity(step - 1))))
          << rows[k + 1];
    }
  }
  EXPECT_EQ(split(rows[41])[4], "19/500");  // v_40 = 2 - 40 mu g h > 0: still sliding
  EXPECT_EQ(split(rows[42])[4], "0");       // the stop at step 41, t = 41/100
  EXPECT_EQ(split(rows[42])[1], "41/100");
}

// The event-driven reference is frictionless: on a frictional case it is refused naming mu,
// never run as the frictionless system.
TEST(Events, FrictionalCasesAreRefusedNamingMu) {
  const Result events = run_nsh("events sliding-block");
  EXPECT_EQ(events.status, 2);
  EXPECT_TRUE(has(events.err, "mu")) << events.err;
  EXPECT_TRUE(has(events.err, "frictionless")) << events.err;
  const Result converge = run_nsh(
      "converge sliding-block --scheme moreau-jean --h 1/100,1/200 "
      "--reference event-driven --out '" +
      (scratch() / "conv").string() + "'");
  EXPECT_EQ(converge.status, 2);
  EXPECT_TRUE(has(converge.err, "mu")) << converge.err;
}

// nsh list cases: every case with one line of what is known exactly (the catalogue's summary).
TEST(ListCases, EveryCaseFileWithItsExactFacts) {
  const Result r = run_nsh("list cases");
  ASSERT_EQ(r.status, 0) << r.err;
  std::set<std::string> files;
  for (const auto& entry : fs::directory_iterator(std::string(NSH_SOURCE_DIR) + "/cases/data"))
    if (entry.path().extension() == ".json") files.insert(entry.path().stem().string());
  ASSERT_FALSE(files.empty());
  for (const auto& name : files) {
    const auto* c = nsh::cases::find_case(name);
    ASSERT_NE(c, nullptr) << name;
    EXPECT_TRUE(has(r.out, name + "\n    " + c->summary + "\n")) << name << "\n" << r.out;
  }
  // The lines state facts, not only names.
  EXPECT_TRUE(has(r.out, "accumulation time")) << r.out;
  EXPECT_TRUE(has(r.out, "2L/c")) << r.out;
  EXPECT_TRUE(has(r.out, "J = 18/5")) << r.out;
}

// Issue 4, done-when: every case file loads with `nsh simulate` for every scheme that supports
// its family (a few steps each; the linear schemes on the linear files).
TEST(Simulate, EveryLinearCaseFileWithEveryLinearScheme) {
  const Result list = run_nsh("list schemes");
  ASSERT_EQ(list.status, 0) << list.err;
  std::vector<std::string> schemes;
  for (const auto& line : lines(list.out)) {
    // The first-order and the nonholonomic schemes (dla) do not step linear models.
    if (line.empty() || line[0] == ' ' || has(line, "[first-order]") || has(line, "[nonholonomic]"))
      continue;
    schemes.push_back(line.substr(0, line.find(' ')));
  }
  ASSERT_GE(schemes.size(), 7u) << list.out;
  int runs = 0, refusals = 0;
  for (const auto& c : nsh::cases::catalogue()) {
    if (c.family != "linear") continue;
    // The sparse finite-element files (1001 dofs) would make each run a dense factorization:
    // sparse_case_test.cpp runs one scheme and nsh events on them.
    if (nsh::read_case_file(std::string(NSH_SOURCE_DIR) + "/cases/data/" + c.file)
            .root.value("sparse", false))
      continue;
    const bool frictional =
        nsh::load_linear_case<double>(
            nsh::read_case_file(std::string(NSH_SOURCE_DIR) + "/cases/data/" + c.file))
            .model.has_friction();
    for (const auto& scheme : schemes) {
      const std::string file = std::string(NSH_SOURCE_DIR) + "/cases/data/" + c.file;
      // Three steps of h = 1/1000 from t0 = 0 (each case file starts at 0).
      const Result r =
          run_nsh("simulate '" + file + "' --scheme " + scheme + " --h 1/1000 --T 3/1000");
      ++runs;
      // A frictional case: Moreau-Jean, half-explicit-tdg and forecasting-trapezoidal step it;
      // a scheme without friction refuses it, naming mu, rather than stepping it as the
      // frictionless system.
      if (frictional && scheme != "moreau-jean" && scheme != "half-explicit-tdg" &&
          scheme != "forecasting-trapezoidal") {
        ++refusals;
        EXPECT_EQ(r.status, 2) << scheme << " on " << c.name << ": " << r.out;
        EXPECT_TRUE(has(r.err, "mu")) << scheme << " on " << c.name << ": " << r.err;
        continue;
      }
      // Siconos' EventDriven (LsodarOSI) fails the first step of the impacting bar (a 101-dof
      // bar touching the wall at t0; a 1-dof ball that does so steps) in its own check of the
      // acceleration LCP, EventDriven::updateIndexSetsWithDoubleCondition; NewMarkAlphaOSI
      // fails the cases with a multi-dof impact at t0 (the bars, two-body) in
      // EventDriven::LocalizeFirstEvent, which re-detects the contact closed at t0 + TOL_ED
      // until its bisection gives up. A step error naming the scheme, the step and Siconos'
      // function, exit 1 (docs/siconos.md).
      if (scheme == "siconos:event-driven" && c.name.rfind("impacting-bar", 0) == 0) {
        EXPECT_EQ(r.status, 1) << c.name << ": " << r.err;
        EXPECT_TRUE(has(r.err, "step 1 of 3")) << r.err;
        EXPECT_TRUE(has(r.err, "updateIndexSetsWithDoubleCondition")) << r.err;
        continue;
      }
      if (scheme == "siconos:newmark-alpha" &&
          (c.name.rfind("impacting-bar", 0) == 0 || c.name == "two-body")) {
        EXPECT_EQ(r.status, 1) << c.name << ": " << r.err;
        EXPECT_TRUE(has(r.err, "step 1 of 3")) << r.err;
        EXPECT_TRUE(has(r.err, "EventDriven::LocalizeFirstEvent")) << r.err;
        continue;
      }
      EXPECT_EQ(r.status, 0) << scheme << " on " << c.name << ": " << r.err;
      const auto rows = lines(r.out);
      EXPECT_EQ(rows.size(), 5u) << scheme << " on " << c.name;  // header + t0 + 3 steps
    }
  }
  EXPECT_GE(runs, 7 * 13);
  EXPECT_GE(refusals, 6 * 6);  // six frictional files, six schemes without friction
}

}  // namespace

namespace {

// The first-order case files (families sweeping and penalty-line) with both first-order
// schemes, exactly in Rational: catching-up on sweeping-interval is x_k = max(1 - k h, 0)
// (seed 004), and a second-order scheme on a first-order case exits 2 naming --scheme.
TEST(Simulate, EveryFirstOrderCaseFileWithEveryFirstOrderScheme) {
  int runs = 0;
  for (const auto& c : nsh::cases::catalogue()) {
    // Lagrangian files are nonlinear second-order models (formula/), nonholonomic files the
    // DLA's (core/tests/discrete_lagrange_dalembert_test.cpp); no registered scheme steps them.
    if (c.family == "linear" || c.family == "lagrangian" || c.family == "nonholonomic") continue;
    for (const char* scheme : {"catching-up", "penalty:kappa=1000,method=implicit",
                               "penalty:kappa=1000,method=explicit"}) {
      const std::string file = std::string(NSH_SOURCE_DIR) + "/cases/data/" + c.file;
      const Result r = run_nsh("simulate '" + file + "' --scheme " + scheme +
                               " --h 1/1000 --T 3/1000 --precision rational");
      ++runs;
      EXPECT_EQ(r.status, 0) << scheme << " on " << c.name << ": " << r.err;
      EXPECT_EQ(lines(r.out).size(), 5u) << scheme << " on " << c.name << ": " << r.out;
      EXPECT_TRUE(has(lines(r.out)[0], "step,t,x0")) << r.out;
    }
    const Result wrong = run_nsh("simulate " + c.name + " --scheme moreau-jean --h 1/10");
    EXPECT_EQ(wrong.status, 2) << c.name;
    EXPECT_TRUE(has(wrong.err, "scheme")) << wrong.err;
  }
  EXPECT_GE(runs, 3 * 3);
  const Result exact = run_nsh(
      "simulate sweeping-interval --scheme catching-up --h 3/10 --T 3/2 "
      "--precision rational");
  ASSERT_EQ(exact.status, 0) << exact.err;
  const auto rows = lines(exact.out);
  ASSERT_EQ(rows.size(), 7u) << exact.out;
  EXPECT_EQ(rows[4], "3,9/10,1/10,0") << exact.out;
  // Projected onto C: the reaction is (x_{k+1} - x_k)/h - f = (0 - 1/10)/(3/10) + 1 = 2/3, then 1.
  EXPECT_EQ(rows[5], "4,6/5,0,2/3") << exact.out;
  EXPECT_EQ(rows[6], "5,3/2,0,1") << exact.out;
}

}  // namespace
