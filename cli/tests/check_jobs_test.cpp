// `nsh check --jobs N` (issue 17): the same verdicts, counterexamples, coverage, exit status
// and files as --jobs 1, because every scheme x property pair (or mutant) is an independent
// task run in a process of its own (cli/src/process_pool.hpp), and a pair whose cases can be
// split runs as N shares merged back (merge_shares), or whole where a share fails or a rule only
// a whole run judges might bite.
#include "cli_support.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace {

using namespace nsh_cli_test;

/// The JUnit file without its wall-clock times and timestamp (what two runs may not share).
std::string without_times(const std::string& junit) {
  const std::string no_times =
      std::regex_replace(junit, std::regex("time=\"[0-9.]+\""), "time=\"\"");
  return std::regex_replace(no_times, std::regex("timestamp=\"[-0-9T:]+\""), "timestamp=\"\"");
}

TEST(CheckJobs, TwoJobsGiveTheVerdictsAndFilesOfOne) {
  // A failing pair (moreau-jean beyond its energy claim, --force), an event-driven pair, a
  // not-claimed and a not-applicable row, coverage shares.
  const std::string args =
      "check --scheme moreau-jean:theta=0.56 --scheme gen-alpha:rho=0.8 --scheme event-driven "
      "--property moreau_jean_energy_dissipation --property newton_restitution "
      "--property algorithmic_energy_decay --force --restitution 0.85:0.95 --cases 30 --seed 3 "
      "--stats --quiet";
  const fs::path one = scratch() / "one", two = scratch() / "two";
  fs::create_directories(one);
  fs::create_directories(two);
  const Result sequential = run_nsh(args + " --jobs 1 --junit '" + (one / "junit.xml").string() +
                                    "' --out '" + (one / "shard.json").string() + "'");
  const Result parallel = run_nsh(args + " --jobs 2 --junit '" + (two / "junit.xml").string() +
                                  "' --out '" + (two / "shard.json").string() + "'");
  EXPECT_EQ(sequential.status, 1) << sequential.out << sequential.err;  // the forced claim fails
  EXPECT_EQ(parallel.status, sequential.status);
  EXPECT_EQ(parallel.out, sequential.out);
  EXPECT_NE(sequential.out.find("coverage of the random cases"), std::string::npos);
  EXPECT_EQ(slurp(two / "shard.json"), slurp(one / "shard.json"));
  EXPECT_EQ(without_times(slurp(two / "junit.xml")), without_times(slurp(one / "junit.xml")));
}

TEST(CheckJobs, SharesOfOnePairGiveItsVerdictWhetherItPassesOrFailsItsCoverage) {
  // moreau-jean's newton_restitution over 120 cases: a pass, split into two shares whose counts
  // and coverage add up; with e = 0 only, the coverage minimum of "impact with e > 0" fails,
  // which no share judges: the merge sees it and the pair runs again whole.
  for (const char* range : {"", " --restitution 0"}) {
    const std::string args = std::string(
                                 "check --scheme moreau-jean --property newton_restitution "
                                 "--cases 120 --seed 2 --stats --quiet") +
                             range;
    const Result sequential = run_nsh(args + " --jobs 1");
    const Result parallel = run_nsh(args + " --jobs 2");
    EXPECT_EQ(parallel.status, sequential.status) << range;
    EXPECT_EQ(parallel.out, sequential.out) << range;
    EXPECT_EQ(sequential.status, *range ? 1 : 0) << sequential.out;
    if (*range) EXPECT_NE(sequential.out.find("coverage"), std::string::npos) << sequential.out;
  }
}

TEST(CheckJobs, TheMutantGateIsTheSameInParallel) {
  const Result sequential = run_nsh("check --mutants --quiet --jobs 1");
  const Result parallel = run_nsh("check --mutants --quiet --jobs 2");
  EXPECT_EQ(sequential.status, 0) << sequential.out << sequential.err;
  EXPECT_EQ(parallel.status, 0);
  EXPECT_EQ(parallel.out, sequential.out);
}

TEST(CheckJobs, TheRateIsReportedOnStandardError) {
  // Issue 17: "report cases per second". On stderr, so that standard output stays the same at
  // every --jobs; --quiet leaves it out.
  const std::string args = "check --scheme moreau-jean --property lcp_certificate --cases 20";
  for (const char* jobs : {"1", "2"}) {
    const Result r = run_nsh(args + " --jobs " + jobs);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    const std::regex rate("nsh check: ([0-9]+) cases in [0-9.]+ s, [0-9.]+ cases per second \\(" +
                          std::string(jobs) + " jobs?\\)");
    std::smatch found;
    ASSERT_TRUE(std::regex_search(r.err, found, rate)) << r.err;
    EXPECT_GE(std::stoi(found[1]), 20) << r.err;  // the designed cases come on top
    EXPECT_EQ(r.out.find("cases per second"), std::string::npos);
  }
  const Result quiet = run_nsh(args + " --quiet");
  EXPECT_EQ(quiet.err.find("cases per second"), std::string::npos) << quiet.err;
}

TEST(CheckJobs, BadInputIsTheSameErrorInParallel) {
  const Result sequential = run_nsh("check --scheme moreau-jean --scheme no-such-scheme --jobs 1");
  const Result parallel = run_nsh("check --scheme moreau-jean --scheme no-such-scheme --jobs 2");
  EXPECT_EQ(sequential.status, 2);
  EXPECT_EQ(parallel.status, 2);
  EXPECT_EQ(parallel.err, sequential.err);
  const Result zero = run_nsh("check --scheme moreau-jean --jobs 0");
  EXPECT_EQ(zero.status, 2);
  EXPECT_NE(zero.err.find("--jobs"), std::string::npos) << zero.err;
}

}  // namespace
