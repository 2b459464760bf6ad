// The check engine's bound on shrinking (check_engine.hpp, kMaxShrinkEvaluations): a failure
// whose shrinking would take more evaluations stops at the cap with the smallest failing case
// found so far, says so, and gives the same counterexample for the same seed; a short shrink is
// not cut. And its count of refused cases by reason (refusal_reason, `nsh check --stats`).
#include <nsh/error.hpp>
#include <nsh/properties/check_engine.hpp>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace nsh::properties {
namespace {

using Case = std::vector<int>;

// Broken by every list of at least `length` numbers above 10^6 (rapidcheck's first, smallest
// cases are 10^6 each: they pass). Drawn with 80 numbers (`long`),
// a shrink walks each of the 80 down to 10^6 + 1, about 30 evaluations a number; drawn with a
// length of rapidcheck's choosing, it removes numbers down to `length` and shrinks those.
struct Search {
  int length;
  bool long_lists;
  int evaluations = 0;
  int evaluations_at_first_failure = -1;

  SearchResult<Case> run() {
    CaseSearch<Case> search;
    search.id = "check_engine_test";
    const auto number = rc::gen::inRange(1000000, 1000000000);
    search.draw = [this, number] {
      return long_lists ? *rc::gen::container<Case>(80, number)
                        : *rc::gen::suchThat(rc::gen::container<Case>(number),
                                             [](const Case& c) { return !c.empty(); });
    };
    search.evaluate = [this](const Case& c) {
      ++evaluations;
      CaseOutcome out;
      out.evaluated = true;
      const bool broken = static_cast<int>(c.size()) >= length &&
                          std::all_of(c.begin(), c.end(), [](int x) { return x > 1000000; });
      out.judgement.holds = !broken;
      if (broken && evaluations_at_first_failure < 0) evaluations_at_first_failure = evaluations;
      return out;
    };
    CheckOptions options;
    options.cases = 5;
    options.seed = 3;
    return search_cases(search, options);
  }
};

TEST(CheckEngine, ALongShrinkStopsAtTheCapWithAFailingCaseAndSaysSo) {
  Search long_one{50, true};
  const SearchResult<Case> found = long_one.run();
  ASSERT_EQ(found.end, SearchEnd::random_failure);
  ASSERT_TRUE(found.failing);
  EXPECT_TRUE(found.shrink_cut);
  EXPECT_EQ(long_one.evaluations - long_one.evaluations_at_first_failure, kMaxShrinkEvaluations);
  EXPECT_GE(found.failing->size(), 50u);  // still a counterexample
  EXPECT_NE(random_failure_note(found).find("shrinking stopped after 1000 evaluations"),
            std::string::npos);
  // The same seed, the same counterexample: the cap is a count, not a time.
  Search again{50, true};
  EXPECT_EQ(*again.run().failing, *found.failing);
}

TEST(CheckEngine, AShortShrinkIsNotCut) {
  Search short_one{1, false};
  const SearchResult<Case> found = short_one.run();
  ASSERT_EQ(found.end, SearchEnd::random_failure);
  EXPECT_FALSE(found.shrink_cut);
  EXPECT_EQ(*found.failing, Case{1000001});  // shrunk to the minimal counterexample
  EXPECT_EQ(random_failure_note(found), "random search found a counterexample (shrunk)");
}

// A share that saw a class share 0 did not: the sum lists it where the whole run does (found
// by comparing `nsh report --jobs 2` with --jobs 1: "impact with e > 0" moved to the end).
TEST(AddCoverage, KeepsTheWholeRunsOrder) {
  std::vector<std::pair<std::string, int>> sum{{"evaluated", 3}, {"impact", 2}};
  add_coverage(sum, {{"evaluated", 4}, {"impact", 1}, {"impact with e > 0", 3}});
  add_coverage(sum, {{"evaluated", 1}, {"frictional impact", 1}});
  const std::vector<std::pair<std::string, int>> whole{
      {"evaluated", 8}, {"frictional impact", 1}, {"impact", 3}, {"impact with e > 0", 3}};
  EXPECT_EQ(sum, whole);
}

// A check that evaluated nothing is never a pass, whether no case was counted or every counted
// case was refused (the event provider counts its refused cases and lists them as "refused").
TEST(WholeRunFailure, EveryCaseRefusedIsNoPass) {
  EXPECT_NE(whole_run_failure("newton_restitution", 0, {}), "");
  EXPECT_NE(whole_run_failure("newton_restitution", 7, {{"refused", 7}}), "");
  EXPECT_EQ(whole_run_failure("newton_restitution", 7, {{"refused", 6}}), "");
  EXPECT_EQ(whole_run_failure("newton_restitution", 7, {}), "");
  // A coverage minimum, judged from 50 evaluated random cases on.
  EXPECT_NE(whole_run_failure("newton_restitution", 60, {{"evaluated", 60}}), "");
  EXPECT_EQ(whole_run_failure("newton_restitution", 49, {{"evaluated", 49}}), "");
  EXPECT_EQ(
      whole_run_failure("newton_restitution", 60, {{"evaluated", 60}, {"impact with e > 0", 30}}),
      "");
}

// The event-level minimums ("evaluated runs", the event-driven reference) apply to event-level
// coverage only, and the step-level ones to step-level coverage only: signorini_complementarity
// needs simultaneous impacts among steps, not among event-driven runs.
TEST(WholeRunFailure, EachLevelHasItsOwnMinimums) {
  EXPECT_NE(whole_run_failure("newton_restitution", 60, {{"evaluated runs", 60}}), "");
  EXPECT_EQ(whole_run_failure("newton_restitution", 60,
                              {{"evaluated runs", 60}, {"impact with e > 0", 9}}),
            "");
  const std::vector<std::pair<std::string, int>> impacts{{"impact", 30}};
  auto step = impacts, runs = impacts;
  step.insert(step.begin(), {"evaluated", 60});
  runs.insert(runs.begin(), {"evaluated runs", 60});
  EXPECT_NE(whole_run_failure("signorini_complementarity", 60, step).find("simultaneous"),
            std::string::npos);
  EXPECT_EQ(whole_run_failure("signorini_complementarity", 60, runs), "");
  EXPECT_NE(whole_run_failure("energy_conservation", 60, {{"evaluated runs", 60}, {"impact", 3}}),
            "");
}

// `nsh check --stats` counts refusals by cause: the message with its numbers written #.
TEST(RefusalReason, NumbersAreWrittenHashAndWordsKeepTheirDigits) {
  EXPECT_EQ(refusal_reason("q0 (gap[1]): event-driven needs an admissible initial state, but "
                           "gap -0.001 < 0"),
            "q0 (gap[#]): event-driven needs an admissible initial state, but gap -# < #");
  EXPECT_EQ(refusal_reason("the Real50 reference run is budgeted at 4096 flow segments"),
            "the Real50 reference run is budgeted at # flow segments");
  EXPECT_EQ(refusal_reason("h = 1/64, rho = 2.5e+07, t = 3.25E-3, 10^7"),
            "h = #, rho = #, t = #, #^#");
  EXPECT_EQ(refusal_reason("ends in a dot 2. or e 2e"), "ends in a dot #. or e #e");
  const std::string long_message(300, 'x');
  EXPECT_EQ(refusal_reason(long_message), std::string(160, 'x') + "...");
}

TEST(RefusalReason, AtMostEightReasonsAndTheRestTogether) {
  std::map<std::string, int> refusals;
  for (const char* word : {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}) {
    count_refusal(refusals, std::string("cause ") + word + " at t = 0.5");
    count_refusal(refusals, std::string("cause ") + word + " at t = 0.75");
  }
  EXPECT_EQ(refusals.size(), 9u);
  EXPECT_EQ(refusals["cause a at t = #"], 2);
  EXPECT_EQ(refusals["cause h at t = #"], 2);
  EXPECT_EQ(refusals["other reasons"], 4);  // i and j, twice each
}

TEST(CheckEngine, RefusedCasesAreCountedByReason) {
  CaseSearch<int> search;
  search.id = "check_engine_test/refusals";
  search.designed = {-1};
  search.draw = [] { return *rc::gen::inRange(0, 1000); };
  search.evaluate = [](const int& c) {
    return refusing([&](CaseOutcome& out) {
      if (c % 3 == 0) throw StepError("step " + std::to_string(c) + " refused: too stiff");
      if (c < 0) throw InputError("h", "value " + std::to_string(-c) + " is too large");
      out.judgement.holds = true;
    });
  };
  CheckOptions options;
  options.cases = 60;
  options.seed = 5;
  const SearchResult<int> found = search_cases(search, options);
  ASSERT_EQ(found.end, SearchEnd::passed);
  EXPECT_EQ(found.refusals.at("h: value # is too large"), 1);  // the designed case
  const int stiff = found.refusals.at("step # refused: too stiff");
  EXPECT_GT(stiff, 5);
  EXPECT_EQ(found.random_judged + stiff, 60);
}

}  // namespace
}  // namespace nsh::properties
