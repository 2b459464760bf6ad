// The reproducers of issues 20 and 21 through the command line: each ends with exit 0, 1 or 2
// (never a signal), within seconds, and every exit-2 message names a field or an option
// (docs/limits.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "cli_support.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nsh_cli_test::has, nsh_cli_test::run_nsh, nsh_cli_test::Result, nsh_cli_test::scratch,
    nsh_cli_test::slurp, nsh_cli_test::without_wall_seconds;

const std::string data = std::string(NSH_SOURCE_DIR) + "/core/tests/data/limits/";

std::string nested(std::size_t depth, const std::string& open, const std::string& inner,
                   const std::string& close) {
  std::string out;
  for (std::size_t i = 0; i < depth; ++i) out += open;
  out += inner;
  for (std::size_t i = 0; i < depth; ++i) out += close;
  return out;
}

std::string write(const std::string& name, const std::string& text) {
  const fs::path p = scratch() / name;
  std::ofstream(p) << text;
  return "'" + p.string() + "'";
}

// An exit-2 message names what to change: "nsh: error: [case PATH: ]FIELD: ..." (a
// case-file field, an entry such as K[0][0], an option such as --h, or a file), never a bare
// exception text such as "std::bad_alloc".
void expect_names_a_field(const Result& r, const std::string& field) {
  EXPECT_EQ(r.status, 2) << r.err;
  static const std::regex shape(R"(^nsh: error: [^ :][^:]*: \S.*)");
  EXPECT_TRUE(std::regex_search(r.err, shape)) << r.err;
  // The field follows "nsh: error: " directly or after the command's "case PATH: " context.
  EXPECT_TRUE(has(r.err, "nsh: error: " + field + ": ") || has(r.err, ": " + field + ": "))
      << "expected field " << field << "\n"
      << r.err;
  EXPECT_LT(r.err.size(), 1000u) << r.err;
}

// Issue 20.1: 10^5 levels of nesting used to end in SIGSEGV (the message's recursive dump()).
TEST(Reliability, DeepNestingInACaseFileIsExitTwo) {
  const std::string base = R"("M": [[1]], "q0": [0], "v0": [0])";
  const std::string T_deep =
      write("deep-T.json", "{" + base + R"(, "T": )" + nested(100000, "[", "1", "]") + "}");
  const std::string name_deep =
      write("deep-name.json",
            R"({"name": )" + nested(100000, R"({"a": )", "1", "}") + ", " + base + R"(, "T": 1})");
  for (const auto& file : {T_deep, name_deep}) {
    const Result r = run_nsh("simulate " + file + " --scheme moreau-jean --h 1/10");
    const std::string path = file.substr(1, file.size() - 2);
    expect_names_a_field(r, path);
    EXPECT_TRUE(has(r.err, "nested deeper than 32")) << r.err;
  }
}

// Issue 20.1, `nsh merge`: the shard reader bounds the depth while parsing too.
TEST(Reliability, DeepNestingInAShardFileIsExitTwo) {
  const std::string shard =
      write("deep-shard.json", R"({"format": "nsh-check-shard", "version": 2, "verdicts": )" +
                                   nested(100000, "[", "", "]") + "}");
  const Result r = run_nsh("merge " + shard);
  expect_names_a_field(r, shard.substr(1, shard.size() - 2));
  EXPECT_TRUE(has(r.err, "nested deeper")) << r.err;
  // Within the depth limit, a wrong value is shown in bounded text.
  const std::string wrong = write(
      "wrong-shard.json", R"({"format": "nsh-check-shard", "version": )" +
                              nested(20, "[", "\"" + std::string(5000, 'x') + "\"", "]") + "}");
  const Result w = run_nsh("merge " + wrong);
  EXPECT_EQ(w.status, 2) << w.err;
  EXPECT_TRUE(has(w.err, "version")) << w.err;
  EXPECT_LT(w.err.size(), 400u) << w.err;
}

// Issue 21.3 and 21.4: declared sizes far beyond the stored entries; no bad_alloc, no GBs.
TEST(Reliability, DeclaredSizesAreExitTwoNamingTheField) {
  expect_names_a_field(run_nsh("simulate '" + data + "sparse-rows-1e7.json' --scheme moreau-jean"),
                       "q0");
  expect_names_a_field(run_nsh("simulate '" + data + "sparse-G-1e7.json' --scheme moreau-jean"),
                       "G");
  expect_names_a_field(run_nsh("events '" + data + "sparse-G-1e7.json'"), "G");
  expect_names_a_field(run_nsh("simulate '" + data + "empty-key.json' --scheme moreau-jean"),
                       "\"\"");
}

// Issue 21.1: finite inputs whose products overflow. An initial energy of inf is the input's
// fault (exit 2 naming v0, before row 0 is written); an overflow during the run stops it (exit
// 1 naming the step and the quantity) with only finite rows written.
TEST(Reliability, NoInfOrNanIsWrittenAsAResult) {
  const std::string initial =
      write("v0-1e200.json", R"({"M": [[1]], "q0": [0], "v0": ["1e200"], "T": 1, "h": "1/100"})");
  const Result r = run_nsh("simulate " + initial + " --scheme moreau-jean");
  expect_names_a_field(r, "v0");
  EXPECT_FALSE(has(r.out, "inf")) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << "only the header:\n" << r.out;

  const std::string forced =
      write("F-1e308.json",
            R"({"M": [[1]], "F": ["1e308"], "q0": [0], "v0": ["1e150"], "T": 1, "h": "1/100"})");
  for (const char* scheme : {"moreau-jean", "newmark", "gen-alpha"}) {
    const Result s = run_nsh("simulate " + forced + " --scheme " + scheme);
    EXPECT_EQ(s.status, 1) << scheme << "\n" << s.err;
    EXPECT_TRUE(has(s.err, "step 1 of 100")) << s.err;
    EXPECT_TRUE(has(s.err, "not finite") || has(s.err, "left the finite range")) << s.err;
    EXPECT_FALSE(has(s.out, "inf") || has(s.out, "nan")) << s.out;
    EXPECT_TRUE(has(s.out, "\n0,0,")) << "row 0 is kept:\n" << s.out;
  }

  // Finite energies, but U_T = G_T^T v0 = 1e350 in row 0: no row at all, both reasons named.
  const Result u =
      run_nsh("simulate '" + data + "tangential-velocity-overflow.json' --scheme moreau-jean");
  EXPECT_EQ(u.status, 1) << u.err;
  EXPECT_TRUE(has(u.err, "row of step 0")) << u.err;
  EXPECT_TRUE(has(u.err, "U_T[0] = inf")) << u.err;
  EXPECT_FALSE(has(u.out, "inf") || has(u.out, "nan")) << u.out;
}

// Issue 20.3: a 1e99999 entry, 3e5 digits, and the rational precision on the bars.
TEST(Reliability, NumbersAndExactSizesAreBounded) {
  const Result e =
      run_nsh("simulate '" + data +
              "exponent-99999.json' --scheme moreau-jean --precision rational --h 1/10");
  expect_names_a_field(e, "K[0][0]");
  const std::string digits = write(
      "digits.json", R"({"M": [["1.)" + std::string(300000, '3') + R"("]], "q0": [0], "v0": [0],
                         "T": 1})");
  expect_names_a_field(run_nsh("simulate " + digits + " --scheme moreau-jean --h 1/10"), "M[0][0]");
  for (const char* bar : {"impacting-bar-1000-sparse"}) {
    const Result r =
        run_nsh(std::string("simulate ") + bar + " --scheme moreau-jean --precision rational");
    expect_names_a_field(r, "precision");
    EXPECT_TRUE(has(r.err, "--precision")) << r.err;
  }
}

// Issue 20.3: --h 1e-12 scanned 2e13 points for the analytic first impact before any guard.
TEST(Reliability, ConvergeChecksTheWorkBeforeStarting) {
  const Result r = run_nsh("converge bouncing-ball --scheme moreau-jean --h 1e-12,1e-3 --out " +
                           (scratch() / "conv-tiny").string());
  expect_names_a_field(r, "--h");
  EXPECT_TRUE(has(r.err, "--max-steps")) << r.err;
  // The override is honoured: a bound below the study's largest run is refused the same way.
  const Result low = run_nsh(
      "converge bouncing-ball --scheme moreau-jean --h 1/100 --max-steps 10 "
      "--out " +
      (scratch() / "conv-low").string());
  expect_names_a_field(low, "--h");
}

// Issue 20.2: the closed form followed the file's "name": an edited copy of a built-in case was
// compared with the built-in system. Now the reference follows the model's own data.
TEST(Reliability, AnalyticReferenceFollowsTheModelNotTheName) {
  for (const char* file : {"edited-two-body.json", "edited-bouncing-ball.json"}) {
    const auto run = [&](const std::string& reference, const std::string& dir) {
      const Result r = run_nsh("converge '" + data + file +
                               "' --scheme moreau-jean --h 1/50,1/100 --reference " + reference +
                               " --out " + (scratch() / dir).string());
      EXPECT_EQ(r.status, 0) << file << " " << reference << "\n" << r.err;
      return nlohmann::json::parse(slurp(scratch() / dir / "convergence.json"));
    };
    const auto a = run("auto", std::string("auto-") + file);
    const auto e = run("event-driven", std::string("ed-") + file);
    EXPECT_EQ(a["reference"], "analytic") << file;
    for (const char* m : {"q_final", "v_final", "q_max"})
      for (std::size_t i = 0; i < 2; ++i)
        EXPECT_NEAR(a["errors"][m][i].get<double>(), e["errors"][m][i].get<double>(),
                    1e-9 * (1 + e["errors"][m][i].get<double>()))
            << file << " " << m;
  }
  // Named bouncing-ball, but a spring makes it a model with no closed form here.
  const Result r = run_nsh("converge '" + data +
                           "spring-ball-named-bouncing-ball.json' --scheme moreau-jean --h 1/50 "
                           "--reference analytic --out " +
                           (scratch() / "spring").string());
  expect_names_a_field(r, "reference");
  EXPECT_TRUE(has(r.err, "no analytic reference for this model")) << r.err;
  EXPECT_TRUE(has(r.err, "--reference")) << r.err;
}

// Issue 19.6: a FILE reference on one of the study's grids gives orders of 20 and more.
TEST(Reliability, ConvergeRefusesAReferenceThatIsNotFiner) {
  const fs::path csv = scratch() / "ref-100.csv";
  const Result s = run_nsh("simulate bouncing-ball --scheme event-driven --h 1/100 --T 1 --out '" +
                           csv.string() + "'");
  ASSERT_EQ(s.status, 0) << s.err;
  const Result r = run_nsh(
      "converge bouncing-ball --scheme moreau-jean --h 1/50,1/100 --T 1 "
      "--reference '" +
      csv.string() + "' --out " + (scratch() / "notfiner").string());
  expect_names_a_field(r, "reference");
  EXPECT_TRUE(has(r.err, "not finer")) << r.err;
}

// Issue 19.6: two-point fits and negative orders are flagged; the error scale is shown.
TEST(Reliability, ConvergeFlagsUntrustedOrdersAndShowsTheScale) {
  const Result r = run_nsh("converge free-oscillator --scheme moreau-jean --h 1/20,1/40 --out " +
                           (scratch() / "two-points").string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "error scale")) << r.out;
  EXPECT_TRUE(has(r.out, "untrusted: only 2 points")) << r.out;
  const auto j = nlohmann::json::parse(slurp(scratch() / "two-points" / "convergence.json"));
  EXPECT_GT(j["error_scale"].get<double>(), 0);
  EXPECT_TRUE(j["order_warnings"]["q_max"].is_string());
  EXPECT_EQ(j["relative_errors"]["q_max"].size(), 2u);
}

// The cells of a CSV line; a quoted cell (a scheme spec) holds commas.
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted)
      cells.emplace_back();
    else
      cells.back() += c;
  }
  return cells;
}

std::string without_column(const std::string& csv, const std::string& column) {
  std::istringstream in(csv);
  std::string line, out;
  std::getline(in, line);
  const std::vector<std::string> header = csv_cells(line);
  const auto at = std::find(header.begin(), header.end(), column);
  EXPECT_NE(at, header.end()) << line;
  const std::size_t skip = static_cast<std::size_t>(at - header.begin());
  for (in.seekg(0); std::getline(in, line);) {
    const std::vector<std::string> cells = csv_cells(line);
    for (std::size_t i = 0; i < cells.size(); ++i)
      if (i != skip) out += cells[i] + ",";
    out += "\n";
  }
  return out;
}

// Issue 20, determinism: the same options give the same results. nsh converge measures wall
// time (its work-precision part), so wall_seconds and the plots drawn against it change from
// run to run; the errors, the orders, the convergence plots and the printed summary (its
// timings masked) are the same bytes, in double and in 50 digits, against the analytic and
// the event-driven reference.
TEST(Reliability, ConvergeGivesTheSameResultsTwice) {
  for (const std::string reference : {"analytic", "event-driven"}) {
    std::vector<fs::path> dirs;
    std::vector<std::string> summaries;
    for (int run = 0; run < 2; ++run) {
      dirs.push_back(scratch() / ("twice-" + reference + "-" + std::to_string(run)));
      const Result r = run_nsh(
          "converge bouncing-ball --scheme moreau-jean --scheme gen-alpha --h 1/50,1/100,1/200 "
          "--precision double,50 --reference " +
          reference + " --out '" + dirs.back().string() + "'");
      ASSERT_EQ(r.status, 0) << r.err;
      std::string summary = r.out;
      summary.replace(summary.find(dirs.back().string()), dirs.back().string().size(), "DIR");
      summaries.push_back(std::regex_replace(summary, std::regex(R"(\([0-9.e+-]+ s\))"), "(s)"));
    }
    EXPECT_EQ(summaries[0], summaries[1]);
    EXPECT_EQ(without_column(slurp(dirs[0] / "convergence.csv"), "wall_seconds"),
              without_column(slurp(dirs[1] / "convergence.csv"), "wall_seconds"));
    EXPECT_EQ(without_wall_seconds(nlohmann::json::parse(slurp(dirs[0] / "convergence.json"))),
              without_wall_seconds(nlohmann::json::parse(slurp(dirs[1] / "convergence.json"))));
    int plots = 0;
    for (const auto& entry : fs::directory_iterator(dirs[0])) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("convergence_", 0) != 0 || entry.path().extension() != ".svg") continue;
      EXPECT_EQ(slurp(entry.path()), slurp(dirs[1] / name)) << name;
      ++plots;
    }
    EXPECT_GE(plots, 6) << reference;
  }
}

}  // namespace
