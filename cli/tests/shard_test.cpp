// `nsh check --shard I/N --out FILE` and `nsh merge`: the union of the shards checks exactly the
// cases of the unsharded run with the same seed and cases (counts add up, a failure found
// unsharded is found, with the same counterexample, in exactly one shard), the merged table is
// the unsharded one, and bad shards or shard sets exit 2 naming the option or the field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "cli_support.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using nsh_cli_test::has, nsh_cli_test::lines, nsh_cli_test::run_nsh, nsh_cli_test::Result,
    nsh_cli_test::scratch, nsh_cli_test::slurp, nsh_cli_test::split;

std::string path(const std::string& name) {
  return "'" + (scratch() / name).string() + "'";
}

json load(const std::string& name) {
  return json::parse(slurp(scratch() / name));
}

// A mutant whose energy identity breaks on a random case (not a designed one), a scheme that
// passes, a sweep-provider scheme, an event-driven one, and observed_order (deterministic: run
// whole in every shard).
const std::string kRun =
    "check --scheme mutant:mj-dropped-damping --scheme moreau-jean --scheme catching-up "
    "--scheme event-driven --property energy_identity --property observed_order "
    "--property catching_up_error_bound --property impact_work_nonpositive --cases 20 --seed 3";
constexpr int kShards = 3;

// Runs the unsharded check and the three shards once for every test below.
class Shards : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Result whole = run_nsh(kRun + " --out " + path("whole.json"));
    whole_status = whole.status;
    whole_out = whole.out;
    for (int i = 0; i < kShards; ++i)
      shard_status.push_back(run_nsh(kRun + " --shard " + std::to_string(i) + "/" +
                                     std::to_string(kShards) + " --out " +
                                     path("shard" + std::to_string(i) + ".json"))
                                 .status);
  }
  static inline int whole_status = -1;
  static inline std::string whole_out;
  static inline std::vector<int> shard_status;
};

TEST_F(Shards, EveryShardWritesAShardFile) {
  EXPECT_EQ(whole_status, 1);  // the mutant fails
  for (int i = 0; i < kShards; ++i) {
    const json j = load("shard" + std::to_string(i) + ".json");
    EXPECT_EQ(j.at("format"), "nsh-check-shard");
    EXPECT_EQ(j.at("shard"), i);
    EXPECT_EQ(j.at("shards"), kShards);
    EXPECT_EQ(j.at("seed"), 3);
    EXPECT_EQ(j.at("cases"), 20);
    EXPECT_EQ(j.at("verdicts").size(), load("whole.json").at("verdicts").size());
  }
  const json w = load("whole.json");
  EXPECT_EQ(w.at("shard"), 0);
  EXPECT_EQ(w.at("shards"), 1);
}

TEST_F(Shards, PassingCaseCountsAddUpToTheUnshardedRun) {
  const json w = load("whole.json");
  int checked = 0;
  for (std::size_t r = 0; r < w.at("verdicts").size(); ++r) {
    const json& v = w.at("verdicts")[r];
    if (v.at("outcome") != "pass") continue;
    int sum = 0;
    for (int i = 0; i < kShards; ++i) {
      const json s = load("shard" + std::to_string(i) + ".json").at("verdicts")[r];
      EXPECT_EQ(s.at("outcome"), "pass") << v.at("scheme") << " / " << v.at("property");
      sum += s.at("cases_run").get<int>();
    }
    if (v.at("whole").get<bool>())
      EXPECT_EQ(sum, kShards * v.at("cases_run").get<int>()) << v.at("property");
    else
      EXPECT_EQ(sum, v.at("cases_run").get<int>()) << v.at("scheme") << " / " << v.at("property");
    ++checked;
  }
  EXPECT_GE(checked, 5);  // moreau-jean energy identity, catching-up bound, observed orders,
                          // the event-driven impact work (split between the shards)
}

TEST_F(Shards, TheUnshardedFailureIsFoundInExactlyOneShard) {
  const json w = load("whole.json").at("verdicts")[0];
  ASSERT_EQ(w.at("outcome"), "fail");
  ASSERT_TRUE(has(w.at("note").get<std::string>(), "random search"));
  const long failing = w.at("failing_case").get<long>();
  int found = 0;
  for (int i = 0; i < kShards; ++i) {
    const json s = load("shard" + std::to_string(i) + ".json").at("verdicts")[0];
    if (s.at("failing_case").is_null() || s.at("failing_case").get<long>() != failing) continue;
    ++found;
    EXPECT_EQ(failing % kShards, i);
    const json& x = s.at("counterexample");
    EXPECT_EQ(x.at("values"), w.at("counterexample").at("values"));
    EXPECT_EQ(x.at("case_file"), w.at("counterexample").at("case_file"));
    EXPECT_EQ(x.at("reproduce"), w.at("counterexample").at("reproduce"));
    EXPECT_TRUE(has(x.at("command").get<std::string>(),
                    " --shard " + std::to_string(i) + "/" + std::to_string(kShards)));
  }
  EXPECT_EQ(found, 1);
  // Any other shard's failure comes later in the unsharded case order.
  for (int i = 0; i < kShards; ++i) {
    const json s = load("shard" + std::to_string(i) + ".json").at("verdicts")[0];
    if (!s.at("failing_case").is_null()) EXPECT_GE(s.at("failing_case").get<long>(), failing);
  }
}

TEST_F(Shards, MergePrintsTheUnshardedVerdictsAndTheCounterexample) {
  const Result merged = run_nsh("merge " + path("shard2.json") + " " + path("shard0.json") + " " +
                                path("shard1.json") + " --junit " + path("merged.xml"));
  EXPECT_EQ(merged.status, 1) << merged.err;
  const json w = load("whole.json");
  for (const auto& v : w.at("verdicts")) {
    // The row of every verdict: scheme, property, outcome; the passing counts are the sums.
    std::string row = v.at("scheme").get<std::string>();
    EXPECT_TRUE(has(merged.out, row)) << row;
    if (v.at("outcome") == "pass")
      EXPECT_TRUE(has(merged.out, " " + std::to_string(v.at("cases_run").get<int>()) + "  "));
  }
  const std::string case_file = w.at("verdicts")[0].at("counterexample").at("case_file");
  EXPECT_TRUE(has(merged.out, "--- FAIL mutant:mj-dropped-damping"));
  EXPECT_TRUE(has(merged.out, case_file.substr(0, case_file.find('\n'))));
  EXPECT_TRUE(has(merged.out, "replay: nsh simulate FILE --scheme"));
  EXPECT_TRUE(has(merged.out, "1 failed"));
  EXPECT_TRUE(has(slurp(scratch() / "merged.xml"), "failures=\"1\""));
  // The merged failure is the unsharded one: the same reproduce string.
  EXPECT_TRUE(has(merged.out, w.at("verdicts")[0].at("counterexample").at("reproduce")));
  // Every row of the unsharded table that is not a failure is printed by the merge as is (a
  // failure's count is what the shards ran, docs/decisions.md "Shards").
  const std::string table = whole_out.substr(0, whole_out.find("\n--- FAIL"));
  int rows = 0;
  for (const std::string& line : lines(table)) {
    if (line.empty() || has(line, "  fail  ")) continue;
    EXPECT_TRUE(has(merged.out, line + "\n")) << line << "\n" << merged.out;
    ++rows;
  }
  EXPECT_GE(rows, 5);  // the header and the passing rows
}

TEST_F(Shards, AShardFileOfTheFirstVersionIsRefusedNamingTheVersion) {
  // Version 1 wrote outcomes as display text ("n/a") and the replay hint as simulate_hint: its
  // verdicts are not the one form of verdict_io.hpp, and merge says so rather than misread them.
  json old = load("shard0.json");
  old["version"] = 1;
  std::ofstream(scratch() / "old.json") << old.dump(2);
  const Result r = run_nsh("merge " + path("old.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "version: number 1 is not supported (expected 2")) << r.err;
}

TEST_F(Shards, MergeOfPassingShardsExitsZero) {
  const std::string run = "check --scheme moreau-jean --property energy_identity --cases 6";
  ASSERT_EQ(run_nsh(run + " --shard 0/2 --out " + path("p0.json")).status, 0);
  ASSERT_EQ(run_nsh(run + " --shard 1/2 --out " + path("p1.json")).status, 0);
  const Result merged = run_nsh("merge " + path("p0.json") + " " + path("p1.json"));
  EXPECT_EQ(merged.status, 0) << merged.out << merged.err;
  EXPECT_TRUE(has(merged.out, "0 failed"));
}

TEST_F(Shards, MergeJudgesTheCoverageNoShardCouldJudgeAlone) {
  // e = 0 only: "impact with e > 0" misses newton_restitution's minimum. A shard holds part of
  // the cases and does not judge coverage; the merge does, and prints the unsharded verdict.
  const std::string run =
      "check --scheme moreau-jean --property newton_restitution --cases 120 --seed 2 "
      "--restitution 0 --quiet";
  const Result whole = run_nsh(run);
  ASSERT_EQ(whole.status, 1) << whole.out << whole.err;
  ASSERT_EQ(run_nsh(run + " --shard 0/2 --out " + path("e0.json")).status, 0);
  ASSERT_EQ(run_nsh(run + " --shard 1/2 --out " + path("e1.json")).status, 0);
  const Result merged = run_nsh("merge " + path("e0.json") + " " + path("e1.json"));
  EXPECT_EQ(merged.status, 1) << merged.out << merged.err;
  EXPECT_TRUE(has(merged.out, "coverage: ")) << merged.out;
  EXPECT_EQ(merged.out, whole.out);
}

TEST_F(Shards, MergeRejectsMissingDuplicateAndForeignShards) {
  const Result missing = run_nsh("merge " + path("shard0.json") + " " + path("shard2.json"));
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(has(missing.err, "shard 1/3 is missing")) << missing.err;

  const Result twice = run_nsh("merge " + path("shard0.json") + " " + path("shard1.json") + " " +
                               path("shard1.json") + " " + path("shard2.json"));
  EXPECT_EQ(twice.status, 2);
  EXPECT_TRUE(has(twice.err, "shard: shard 1/3 given twice")) << twice.err;

  // Shards of the same split but another seed, case count or scheme list.
  for (const auto& [field, change] : std::vector<std::pair<std::string, std::string>>{
           {"seed", "--seed 4"}, {"cases", "--cases 21"}, {"schemes", "--scheme moreau-jean"}}) {
    std::string run = kRun;
    if (field == "seed") run.replace(run.find("--seed 3"), 8, change);
    if (field == "cases") run.replace(run.find("--cases 20"), 10, change);
    if (field == "schemes")
      run = "check " + change +
            " --property energy_identity --property observed_order --property "
            "catching_up_error_bound --cases 20 --seed 3";
    run_nsh(run + " --shard 1/3 --out " + path("other.json"));
    const Result r = run_nsh("merge " + path("shard0.json") + " " + path("other.json") + " " +
                             path("shard2.json"));
    EXPECT_EQ(r.status, 2) << field;
    EXPECT_TRUE(has(r.err, "error: " + field + ": the shards come from different runs")) << r.err;
  }

  // Different splits: shards 0/3 and 1/2.
  run_nsh("check --scheme moreau-jean --property energy_identity --cases 4 --shard 1/2 --out " +
          path("half.json"));
  const Result split = run_nsh("merge " + path("shard0.json") + " " + path("half.json"));
  EXPECT_EQ(split.status, 2);
  EXPECT_TRUE(has(split.err, "shards:")) << split.err;

  const fs::path junk = scratch() / "junk.json";
  std::ofstream(junk) << "{\"format\": \"something else\"}";
  const Result bad = run_nsh("merge '" + junk.string() + "'");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(has(bad.err, "format")) << bad.err;
  EXPECT_EQ(run_nsh("merge " + path("no-such-file.json")).status, 2);
}

TEST(ShardOption, BadValuesExitTwoNamingTheOption) {
  for (const std::string value : {"0/0", "3/2", "x", "1/-2", "1/", "1/2/3"}) {
    const Result r = run_nsh(
        "check --scheme moreau-jean --property energy_identity --cases 2 --shard '" + value + "'");
    EXPECT_EQ(r.status, 2) << value;
    EXPECT_TRUE(has(r.err, "--shard")) << value << ": " << r.err;
  }
  const Result mutants = run_nsh("check --mutants --shard 0/2");
  EXPECT_EQ(mutants.status, 2);
  EXPECT_TRUE(has(mutants.err, "--shard")) << mutants.err;
}

TEST(ShardOption, HelpDocumentsShardOutAndMerge) {
  const Result check = run_nsh("check --help");
  EXPECT_TRUE(has(check.out, "--shard")) << check.out;
  EXPECT_TRUE(has(check.out, "--out"));
  const Result merge = run_nsh("merge --help");
  EXPECT_EQ(merge.status, 0);
  EXPECT_TRUE(has(merge.out, "shard"));
}

}  // namespace
