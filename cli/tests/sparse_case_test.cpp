// Sparse case files ("sparse": true) on the command line: nsh events runs the 1000-element bar
// on its sparse model, nsh simulate runs moreau-jean, event-driven and the Newmark family on the
// sparse model and every other scheme on the dense copy, and a bad sparse file exits 2 naming
// the entry.
#include <gtest/gtest.h>

#include "cli_support.hpp"

#include <cmath>
#include <fstream>
#include <string>

namespace {

using nsh_cli_test::has, nsh_cli_test::lines, nsh_cli_test::run_nsh, nsh_cli_test::Result,
    nsh_cli_test::scratch, nsh_cli_test::split;

// The consistent-mass bar at N = 1000 (L = c = v0 = 1): plastic impact of node 0 at t = 0, the
// contact stays closed while the compression wave runs to the free end and back, and opens at
// node 0 shortly before the continuum's 2L/c = 2 (event-driven reference: t = 1.99744).
TEST(SparseCase, EventsOnTheThousandElementBar) {
  const Result r = run_nsh("events impacting-bar-1000-sparse --T 2");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 4u) << r.out;
  EXPECT_EQ(rows[0], "t,kind,contact,U_minus,U_plus,impulse,E_before,E_after");
  const auto impact = split(rows[1]);
  ASSERT_EQ(impact.size(), 8u) << rows[1];
  EXPECT_EQ(impact[0], "0");
  EXPECT_EQ(impact[1], "impact");
  EXPECT_EQ(impact[3], "-1");
  // The plastic impact stops node 0 (U+ = 0) with a positive impulse.
  EXPECT_LT(std::fabs(std::stod(impact[4])), 1e-12) << rows[1];
  EXPECT_GT(std::stod(impact[5]), 0.0) << rows[1];
  EXPECT_EQ(split(rows[2])[1], "contact-closes") << rows[2];
  const auto opens = split(rows[3]);
  ASSERT_EQ(opens.size(), 8u) << rows[3];
  EXPECT_EQ(opens[1], "contact-opens");
  EXPECT_EQ(opens[2], "0");
  EXPECT_NEAR(std::stod(opens[0]), 1.99744, 1e-5) << rows[3];
  // Energy: the plastic impact takes a little, the contact phase none.
  EXPECT_LT(std::stod(opens[6]), std::stod(impact[6]));
  EXPECT_NEAR(std::stod(opens[6]), std::stod(impact[7]), 1e-9);
}

TEST(SparseCase, SimulateRunsMoreauJeanOnTheSparseModel) {
  const Result r =
      run_nsh("simulate impacting-bar-1000-sparse --scheme moreau-jean --h 0.01 --T 0.05");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 7u) << r.err;  // header, t0 and 5 steps
  EXPECT_TRUE(has(rows[0], "q1000")) << rows[0].substr(0, 200);
  EXPECT_EQ(split(rows[6])[0], "5");
}

// A 4-dof chain (tridiagonal M and K, a damper, gravity, one contact with e = 1/2) written
// once sparse and once dense: simulate must give the same CSV from both, whichever path (the
// sparse schemes, or the dense copy) the scheme takes.
std::string chain_file(bool sparse) {
  const auto path = scratch() / (sparse ? "chain-sparse.json" : "chain-dense.json");
  const std::string tail = R"(
    "F": [-0.5, -0.5, -0.5, -0.5], "G": [[1], [0], [0], [0]], "w": [0], "e": "1/2",
    "q0": [0.1, 0.2, 0.3, 0.4], "v0": [0, 0, 0, 0], "T": 2})";
  if (sparse)
    std::ofstream(path) << R"({"name": "chain", "sparse": true,
    "M": {"rows": 4, "cols": 4, "entries": [[0, 0, "2/3"], [1, 1, "2/3"], [2, 2, "2/3"],
      [3, 3, "1/3"], [0, 1, "1/6"], [1, 0, "1/6"], [1, 2, "1/6"], [2, 1, "1/6"], [2, 3, "1/6"],
      [3, 2, "1/6"]]},
    "K": {"rows": 4, "cols": 4, "entries": [[0, 0, 2], [1, 1, 2], [2, 2, 2], [3, 3, 1],
      [0, 1, -1], [1, 0, -1], [1, 2, -1], [2, 1, -1], [2, 3, -1], [3, 2, -1]]},
    "C": {"rows": 4, "cols": 4, "entries": [[3, 3, "1/10"]]},)"
                        << tail;
  else
    std::ofstream(path) << R"({"name": "chain",
    "M": [["2/3", "1/6", 0, 0], ["1/6", "2/3", "1/6", 0], [0, "1/6", "2/3", "1/6"],
          [0, 0, "1/6", "1/3"]],
    "K": [[2, -1, 0, 0], [-1, 2, -1, 0], [0, -1, 2, -1], [0, 0, -1, 1]],
    "C": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, "1/10"]],)"
                        << tail;
  return path.string();
}

TEST(SparseCase, SparseAndDenseFilesSimulateAlike) {
  for (const std::string scheme :
       {"moreau-jean", "moreau-jean:theta=1,activation=position", "event-driven", "newmark", "hht",
        "gen-alpha", "krenk-hogsberg", "half-explicit-tdg"}) {
    const std::string args = " --scheme " + scheme + " --h 0.01";
    const Result sparse = run_nsh("simulate '" + chain_file(true) + "'" + args);
    const Result dense = run_nsh("simulate '" + chain_file(false) + "'" + args);
    ASSERT_EQ(sparse.status, 0) << scheme << ": " << sparse.err;
    ASSERT_EQ(dense.status, 0) << scheme << ": " << dense.err;
    const auto a = lines(sparse.out), b = lines(dense.out);
    ASSERT_EQ(a.size(), 202u) << scheme;  // header, t0 and 200 steps
    ASSERT_EQ(a.size(), b.size()) << scheme;
    EXPECT_EQ(a[0], b[0]);
    double worst = 0;
    bool impacted = false;
    for (std::size_t k = 1; k < a.size(); ++k) {
      const auto x = split(a[k]), y = split(b[k]);
      ASSERT_EQ(x.size(), y.size()) << scheme << " row " << k;
      for (std::size_t j = 0; j < x.size(); ++j)
        worst = std::max(
            worst, std::fabs(std::stod(x[j]) - std::stod(y[j])) / (1 + std::fabs(std::stod(y[j]))));
      impacted = impacted || std::stod(x[10]) != 0;  // P0: the chain reaches the wall
    }
    EXPECT_TRUE(impacted) << scheme;
    EXPECT_LT(worst, 1e-11) << scheme;
  }
}

// A chain of n unit masses and unit springs whose bottom mass starts on its stop moving down:
// above the 4096 dofs of a dense copy.
std::string long_chain_file(int n) {
  const auto path = scratch() / ("chain-" + std::to_string(n) + ".json");
  std::ofstream out(path);
  out << R"({"name": "long-chain", "sparse": true, "M": {"rows": )" << n << R"(, "cols": )" << n
      << R"(, "entries": [)";
  for (int i = 0; i < n; ++i) out << (i ? ", " : "") << "[" << i << ", " << i << ", 1]";
  out << R"(]}, "K": {"rows": )" << n << R"(, "cols": )" << n << R"(, "entries": [)";
  for (int i = 0; i < n; ++i) {
    out << (i ? ", " : "") << "[" << i << ", " << i << ", " << (i + 1 < n ? 2 : 1) << "]";
    if (i + 1 < n)
      out << ", [" << i << ", " << i + 1 << ", -1], [" << i + 1 << ", " << i << ", -1]";
  }
  out << R"(]}, "G": {"rows": )" << n << R"(, "cols": 1, "entries": [[0, 0, 1]]}, "w": [0], "e": 0,
    "q0": [)";
  for (int i = 0; i < n; ++i) out << (i ? ", 0" : "0");
  out << R"(], "v0": [-1)";
  for (int i = 1; i < n; ++i) out << ", 0";
  out << R"(], "T": 1})";
  return path.string();
}

// The Newmark family steps the sparse model itself: a chain of 5000 dofs, whose dense copy is
// refused, runs under every member (moreau-jean did before; the family fell back to the dense
// copy up to 4096 dofs).
TEST(SparseCase, TheNewmarkFamilyStepsAChainAboveTheDenseLimit) {
  const std::string file = long_chain_file(5000);
  const Result refused = run_nsh("simulate '" + file + "' --scheme penalty2 --h 0.01 --T 0.02");
  EXPECT_EQ(refused.status, 2) << refused.out;  // a scheme without a sparse path: the dense copy
  EXPECT_TRUE(has(refused.err, "4096")) << refused.err;
  for (const std::string scheme : {"newmark", "hht", "gen-alpha", "krenk-hogsberg"}) {
    const Result r = run_nsh("simulate '" + file + "' --scheme " + scheme +
                             " --h 0.01 --T 0.05 --columns q0,v0,P0");
    ASSERT_EQ(r.status, 0) << scheme << ": " << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 7u) << scheme;  // header, t0 and 5 steps
    // The plastic impact at t0 stops the bottom mass: P0 > 0 in step 1, v0 = 0 after it.
    const auto first = split(rows[2]);
    EXPECT_GT(std::stod(first.back()), 0) << scheme << ": " << rows[0] << " / " << rows[2];
  }
}

// A 5-dof sparse case file whose M has the entries `m_entries` (JSON text).
std::string bad_file(const std::string& name, const std::string& m_entries,
                     const std::string& sparse = "true") {
  const auto path = scratch() / (name + ".json");
  std::ofstream(path) << R"({"name": ")" << name << R"(", "sparse": )" << sparse << R"(,
    "M": {"rows": 5, "cols": 5, "entries": )"
                      << m_entries << R"(},
    "G": {"rows": 5, "cols": 1, "entries": [[0, 0, 1]]}, "w": [0], "e": 0,
    "q0": [0, 0, 0, 0, 0], "v0": [-1, 0, 0, 0, 0], "T": 1})";
  return path.string();
}

TEST(SparseCase, BadSparseFileExitsTwoNamingTheEntry) {
  const std::string diagonal = "[[0, 0, 1], [1, 1, 1], [2, 2, 1], [3, 3, 1], [4, 4, 1]";
  // A good file first: the mistakes below are the only ones.
  const Result good = run_nsh("events '" + bad_file("good", diagonal + "]") + "'");
  EXPECT_EQ(good.status, 0) << good.err;
  const Result range = run_nsh("events '" + bad_file("range", diagonal + ", [7, 0, 1]]") + "'");
  EXPECT_EQ(range.status, 2) << range.out;
  EXPECT_TRUE(has(range.err, "M.entries[5]")) << range.err;
  EXPECT_TRUE(has(range.err, "i = 7")) << range.err;
  EXPECT_TRUE(has(range.err, "5x5")) << range.err;
  const Result arity = run_nsh("events '" + bad_file("arity", diagonal + ", [1, 2]]") + "'");
  EXPECT_EQ(arity.status, 2);
  EXPECT_TRUE(has(arity.err, "M.entries[5]")) << arity.err;
  const Result value = run_nsh("events '" + bad_file("value", diagonal + ", [1, 2, \"x\"]]") + "'");
  EXPECT_EQ(value.status, 2);
  EXPECT_TRUE(has(value.err, "M.entries[5][2]")) << value.err;
  const Result flag = run_nsh("events '" + bad_file("flag", diagonal + "]", "\"yes\"") + "'");
  EXPECT_EQ(flag.status, 2);
  EXPECT_TRUE(has(flag.err, "sparse")) << flag.err;
  // One triangle of an off-diagonal pair: M is not symmetric.
  const Result asymmetric =
      run_nsh("events '" + bad_file("asym", diagonal + ", [0, 1, 0.5]]") + "'");
  EXPECT_EQ(asymmetric.status, 2);
  EXPECT_TRUE(has(asymmetric.err, "M: must be symmetric")) << asymmetric.err;
  // simulate reads the same file through the dense loader: the same message.
  const Result simulate = run_nsh("simulate '" + bad_file("range2", diagonal + ", [7, 0, 1]]") +
                                  "' --scheme moreau-jean --h 0.1");
  EXPECT_EQ(simulate.status, 2);
  EXPECT_TRUE(has(simulate.err, "M.entries[5]")) << simulate.err;
}

}  // namespace
