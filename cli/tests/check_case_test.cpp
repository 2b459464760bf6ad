// `nsh check --case FILE` re-judges the counterexamples `nsh check --mutants` prints (issue 12:
// a shrunk counterexample, saved and perhaps edited by hand, must fail again when judged on its
// own, and pass under the healthy scheme it pretends to be).
#include "cli_support.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace nsh_cli_test;

/// One rejection as `nsh check --mutants` prints it: the case file and its re-judge command.
struct PrintedCounterexample {
  std::string case_file;
  std::string scheme;
  std::string property;
};

/// The blocks "counterexample case file (...):\n{...}\n" followed, before the next block, by
/// "re-judge: ... --scheme 'SPEC' --property NAME".
std::vector<PrintedCounterexample> counterexamples(const std::string& out) {
  std::vector<PrintedCounterexample> found;
  const std::vector<std::string> text = lines(out);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i].rfind("counterexample case file", 0) != 0) continue;
    PrintedCounterexample c;
    std::size_t j = i + 1;
    for (; j < text.size(); ++j) {
      c.case_file += text[j] + "\n";
      if (text[j] == "}") break;
    }
    for (std::size_t k = j + 1; k < text.size() && text[k].rfind("counterexample case", 0) != 0;
         ++k) {
      const std::string& line = text[k];
      if (line.rfind("re-judge:", 0) != 0) continue;
      const auto scheme_at = line.find("--scheme '");
      const auto scheme_end = line.find('\'', scheme_at + 10);
      const auto property_at = line.find("--property ");
      if (scheme_at == std::string::npos || scheme_end == std::string::npos ||
          property_at == std::string::npos)
        break;
      c.scheme = line.substr(scheme_at + 10, scheme_end - scheme_at - 10);
      c.property = line.substr(property_at + 11);
      found.push_back(c);
      break;
    }
    i = j;
  }
  return found;
}

TEST(CheckCase, ReJudgesEveryCounterexampleThatCheckMutantsPrints) {
  const Result mutants = run_nsh("check --mutants --quiet");
  ASSERT_EQ(mutants.status, 0) << mutants.out << mutants.err;
  const std::vector<PrintedCounterexample> printed = counterexamples(mutants.out);
  // Every linear-family mutant prints at least one replayable counterexample.
  ASSERT_GE(printed.size(), 10u) << mutants.out;
  int index = 0;
  for (const auto& c : printed) {
    const fs::path file = scratch() / ("counterexample-" + std::to_string(index++) + ".json");
    std::ofstream(file) << c.case_file;
    const Result judged = run_nsh("check --case '" + file.string() + "' --scheme '" + c.scheme +
                                  "' --property " + c.property);
    EXPECT_EQ(judged.status, 1) << c.scheme << " / " << c.property << "\n"
                                << judged.out << judged.err << c.case_file;
    EXPECT_NE(judged.out.find(c.property), std::string::npos) << judged.out;
    EXPECT_NE(judged.out.find("FAIL"), std::string::npos) << judged.out;
  }
}

TEST(CheckCase, TheHealthySchemePassesTheMutantsCounterexample) {
  // The counterexample of mj-wrong-sign's restitution is a ball resting under gravity: the
  // mutant breaks Newton's law on it, moreau-jean keeps it (the case file is not the failure).
  const Result mutant =
      run_nsh("check --scheme mutant:mj-wrong-sign --property newton_restitution");
  ASSERT_EQ(mutant.status, 1) << mutant.out << mutant.err;
  std::string case_file;
  bool inside = false;
  for (const auto& line : lines(mutant.out)) {
    if (line.rfind("counterexample case file", 0) == 0) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    case_file += line + "\n";
    if (line == "}") break;
  }
  ASSERT_FALSE(case_file.empty()) << mutant.out;
  const fs::path file = scratch() / "wrong-sign.json";
  std::ofstream(file) << case_file;
  const Result again = run_nsh("check --case '" + file.string() +
                               "' --scheme mutant:mj-wrong-sign --property newton_restitution");
  EXPECT_EQ(again.status, 1) << again.out << again.err;
  const Result healthy = run_nsh("check --case '" + file.string() +
                                 "' --scheme moreau-jean --property newton_restitution");
  EXPECT_EQ(healthy.status, 0) << healthy.out << healthy.err;
  EXPECT_NE(healthy.out.find("newton_restitution               pass"), std::string::npos)
      << healthy.out;
}

}  // namespace
