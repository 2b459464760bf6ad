// `--external CMD` (docs/external-protocol.md): the reference client passes the gate, its wrong
// variant fails with a counterexample that replays, converge measures its order, and broken
// clients give an error naming the step and the field, within the deadline. Skipped where
// python3 is missing.
#include "cli_support.hpp"

#include <gtest/gtest.h>

#include <regex>

using namespace nsh_cli_test;

namespace {

bool have_python() {
  return std::system("python3 -c 'import fractions' >/dev/null 2>&1") == 0;
}

std::string client(const std::string& arguments = "") {
  return "'python3 " + std::string(NSH_SOURCE_DIR) + "/examples/external_scheme/moreau_jean.py" +
         arguments + "'";
}

std::string bad_client(const std::string& mode) {
  return "'python3 " + std::string(NSH_SOURCE_DIR) + "/examples/external_scheme/bad/client.py " +
         mode + "'";
}

#define REQUIRE_PYTHON() \
  if (!have_python()) GTEST_SKIP() << "python3 is not installed: the external clients cannot run"

}  // namespace

TEST(External, ReferenceClientPassesTheGate) {
  REQUIRE_PYTHON();
  const Result r = run_nsh("check --external " + client() + " --cases 30 --quiet");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "energy_identity")) << r.out;
  EXPECT_TRUE(has(r.out, "0 failed")) << r.out;
}

TEST(External, WrongVariantFailsWithACounterexampleThatReplays) {
  REQUIRE_PYTHON();
  const Result r = run_nsh("check --external " + client(" --wrong-restitution") +
                           " --property newton_restitution --cases 30 --quiet");
  ASSERT_EQ(r.status, 1) << r.out << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("replay: (nsh simulate FILE [^\\n]*)\\):")))
      << r.out;
  const std::string replay = m[1];
  EXPECT_TRUE(has(replay, "--external 'python3")) << replay;
  const auto open = r.out.find("\n{", m.position(0));
  const auto close = r.out.find("\n}", open);
  ASSERT_NE(open, std::string::npos);
  const fs::path file = scratch() / "counterexample.json";
  std::ofstream(file) << r.out.substr(open + 1, close - open + 1) << "\n";
  std::string command = replay.substr(std::string("nsh ").size());
  command.replace(command.find("FILE"), 4, "'" + file.string() + "'");
  const Result replayed = run_nsh(command);
  EXPECT_EQ(replayed.status, 0) << command << "\n" << replayed.err;
  EXPECT_GE(lines(replayed.out).size(), 2u) << replayed.out;
  // The same file under the property on the wrong client: the violation is there again.
  const Result judged = run_nsh("check --case '" + file.string() + "' --external " +
                                client(" --wrong-restitution") + " --property newton_restitution");
  EXPECT_EQ(judged.status, 1) << judged.out << judged.err;
  EXPECT_TRUE(has(judged.out, "FAIL")) << judged.out;
}

TEST(External, ConvergeGivesTheOrder) {
  REQUIRE_PYTHON();
  const Result r = run_nsh("converge free-oscillator --external " + client() +
                           " --h 1/50,1/100,1/200 --out '" + (scratch() / "conv").string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("q_final +order +([0-9.]+)"))) << r.out;
  EXPECT_NEAR(std::stod(m[1]), 2.0, 0.1) << r.out;
}

TEST(External, BrokenClientsNameTheStepAndTheField) {
  REQUIRE_PYTHON();
  const std::vector<std::pair<std::string, std::string>> cases{
      {"crash", "exited with status 3"},
      {"hang", "did not answer within 2 s"},
      {"garbage", "malformed reply"},
      {"dimension", "reply field q: expected 1 entries, got 2"},
      {"nan", "reply field v[0]"}};
  for (const auto& [mode, what] : cases) {
    // Only the hanging client meets the deadline; the others get a generous one, so that a
    // loaded CI machine starting Python slowly does not fail them at the handshake.
    const std::string timeout = mode == "hang" ? "2" : "30";
    const Result r = run_nsh("simulate bouncing-ball --external " + bad_client(mode) +
                             " --external-timeout " + timeout + " --h 1/100 --T 1/20");
    EXPECT_EQ(r.status, 1) << mode << ": " << r.err;
    EXPECT_TRUE(has(r.err, "step 2 (t = 0.01)")) << mode << ": " << r.err;
    EXPECT_TRUE(has(r.err, what)) << mode << ": " << r.err;
  }
  // nsh check reports the violation instead of a verdict (exit 2), after one deadline.
  const Result r =
      run_nsh("check --external " + bad_client("hang") + " --external-timeout 2 --cases 5 --quiet");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err, "did not answer within 2 s")) << r.err;
}

// {"error": ...} is an honest refusal, not a protocol violation: at the handshake it refuses the
// options (exit 2), at initialize the run and at a step the step (exit 1), each with the
// client's words and where it happened; nsh check counts refused cases and, when every case was
// refused, fails rather than passing a verdict that checked nothing.
TEST(External, HonestRefusalsKeepTheClientsWords) {
  REQUIRE_PYTHON();
  const Result options = run_nsh("simulate bouncing-ball --external " +
                                 bad_client("refuse-options") + " --h 1/100 --T 1/20");
  EXPECT_EQ(options.status, 2) << options.err;
  EXPECT_TRUE(has(options.err, "theta must be in [0, 1]")) << options.err;
  const Result initialize = run_nsh("simulate bouncing-ball --external " +
                                    bad_client("refuse-initialize") + " --h 1/100 --T 1/20");
  EXPECT_EQ(initialize.status, 1) << initialize.err;
  EXPECT_TRUE(has(initialize.err, "this client steps one degree of freedom only"))
      << initialize.err;
  const Result step = run_nsh("simulate bouncing-ball --external " + bad_client("refuse-step") +
                              " --h 1/100 --T 1/20");
  EXPECT_EQ(step.status, 1) << step.err;
  EXPECT_TRUE(has(step.err, "step 1 (t = 0)")) << step.err;
  EXPECT_TRUE(has(step.err, "the Newton iteration did not converge")) << step.err;
  const Result check =
      run_nsh("check --external " + bad_client("refuse-step") + " --cases 5 --quiet");
  EXPECT_EQ(check.status, 1) << check.out << check.err;
  EXPECT_TRUE(has(check.out, "the scheme refused every case")) << check.out;
}

// `nsh list claims --external CMD` shows the claims nsh check will hold the client to: those of
// its claims_as spec for the reference client, nothing beyond the black-box set for a client
// that claims nothing.
TEST(External, ListClaimsShowsWhatTheClientIsHeldTo) {
  REQUIRE_PYTHON();
  const Result reference = run_nsh("list claims --external " + client());
  EXPECT_EQ(reference.status, 0) << reference.err;
  EXPECT_TRUE(std::regex_search(reference.out, std::regex(R"(newton_restitution\s+claimed)")))
      << reference.out;
  const Result black_box = run_nsh("list claims --external " + bad_client("crash"));
  EXPECT_EQ(black_box.status, 0) << black_box.err;
  EXPECT_TRUE(std::regex_search(black_box.out, std::regex(R"(penetration_bound\s+claimed)")))
      << black_box.out;
  EXPECT_TRUE(std::regex_search(black_box.out, std::regex(R"(energy_identity\s+not claimed)")))
      << black_box.out;
  // claims_as without the fields its claims read is a protocol violation of the handshake
  // (exit 1, like every fault of the client's), naming both fields.
  const Result unfilled = run_nsh("list claims --external " + bad_client("claims-without-ledger"));
  EXPECT_EQ(unfilled.status, 1) << unfilled.err;
  EXPECT_TRUE(has(unfilled.err, "field 'claims_as'")) << unfilled.err;
  EXPECT_TRUE(has(unfilled.err, "'fills' lacks velocity_newton")) << unfilled.err;
  const Result misplaced = run_nsh("list schemes --external " + client());
  EXPECT_EQ(misplaced.status, 2) << misplaced.err;
  EXPECT_TRUE(has(misplaced.err, "--external")) << misplaced.err;
}

// An event-driven client says so at the handshake ("resolves_every_impact": true), and its
// checks leave out the designed cases of more than a thousand impacts in a step, as nsh's own
// event-driven reference does; any other value than a boolean is a protocol violation.
TEST(External, AnEventDrivenClientIsSparedThePerpetualMicroBounces) {
  REQUIRE_PYTHON();
  const auto cases = [](const std::string& mode) {
    const Result r = run_nsh("check --external " + bad_client(mode) +
                             " --property penetration_bound --cases 1 --quiet");
    EXPECT_EQ(r.status, 0) << mode << ": " << r.out << r.err;
    std::smatch m;
    EXPECT_TRUE(std::regex_search(r.out, m, std::regex(R"(penetration_bound\s+pass\s+(\d+))")))
        << mode << ": " << r.out;
    return m.empty() ? 0 : std::stoi(m[1].str());
  };
  const int time_stepping = cases("still");
  const int event_driven = cases("event-driven");
  EXPECT_GT(event_driven, 1);
  EXPECT_LT(event_driven, time_stepping);
  const Result text = run_nsh("list claims --external " + bad_client("event-driven-text"));
  EXPECT_EQ(text.status, 1) << text.err;
  EXPECT_TRUE(has(text.err, "field 'resolves_every_impact': expected true or false")) << text.err;
}

TEST(External, BadCombinationsAreUsageErrors) {
  const Result r = run_nsh("check --external 'true' --scheme moreau-jean");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "--scheme")) << r.err;
  const Result mutants = run_nsh("check --external 'true' --mutants");
  EXPECT_EQ(mutants.status, 2);
  // A program that is not a client at all (exits at once): an error naming the handshake.
  const Result silent = run_nsh("simulate bouncing-ball --external 'true' --h 1/100");
  EXPECT_NE(silent.status, 0);
  EXPECT_TRUE(has(silent.err, "handshake")) << silent.err;
}
