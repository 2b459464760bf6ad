// The Siconos adapters (docs/siconos.md): ctest Siconos.Adapters, labels fast and siconos.
// (1) siconos:moreau-jean steps exactly nsh's moreau-jean with the index-set rule Siconos
// implements (activation=position), to round-off; (2) the gate finds the energy increase of
// that rule at theta = 1/2, shrunk to <= 2 degrees of freedom and replayable by
// `nsh simulate --scheme siconos:moreau-jean`, and passes at theta = 1, e = 0; (3) frictional
// models are refused naming mu; (4) `--scheme all` leaves the adapters out.
#include <nsh/case_file.hpp>
#include <nsh/error.hpp>
#include <nsh/siconos/schemes.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <sys/wait.h>

namespace {

struct Outcome {
  int status{-1};
  std::string out;
};

Outcome nsh_run(const std::string& args) {
  const std::string command = std::string("'") + NSH_EXE + "' " + args + " 2>&1 </dev/null";
  Outcome run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) run.out += buffer;
  const int raw = pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return run;
}

nsh::LinearCase<double> builtin(const std::string& name) {
  return nsh::load_linear_case<double>(nsh::read_case_file(nsh::locate_case(name)));
}

double trajectory_distance(const std::string& spec_a, const std::string& spec_b,
                           const nsh::LinearCase<double>& c, double h, int steps) {
  auto a = nsh::Registry::builtin().make<double>(spec_a);
  auto b = nsh::Registry::builtin().make<double>(spec_b);
  nsh::State<double> xa = c.initial, xb = c.initial;
  a->initialize(c.model, xa, h);
  b->initialize(c.model, xb, h);
  nsh::StepSummary<double> sa, sb;
  double worst = 0;
  for (int k = 0; k < steps; ++k) {
    a->step(xa, sa);
    b->step(xb, sb);
    const double scale = 1 + xa.q.cwiseAbs().maxCoeff() + xa.v.cwiseAbs().maxCoeff();
    worst = std::max(
        worst, ((xa.q - xb.q).cwiseAbs().maxCoeff() + (xa.v - xb.v).cwiseAbs().maxCoeff()) / scale);
    EXPECT_EQ(sa.index_set, sb.index_set) << "step " << k + 1;
  }
  return worst;
}

class SiconosAdapters : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { nsh::siconos::register_schemes(); }
};

TEST_F(SiconosAdapters, MoreauJeanIsNshsMoreauJeanWithSiconosIndexSet) {
  for (const char* name : {"bouncing-ball", "two-contact-forced", "newton-cradle-3"}) {
    const auto c = builtin(name);
    for (const char* theta : {"1/2", "1"}) {
      const double d = trajectory_distance(
          std::string("siconos:moreau-jean:theta=") + theta,
          std::string("moreau-jean:activation=position,theta=") + theta, c, 1e-3, 1500);
      EXPECT_LT(d, 1e-9) << name << " theta = " << theta;
    }
  }
}

TEST_F(SiconosAdapters, ReplayingFromAGivenStateRestartsSiconosThere) {
  const auto c = builtin("bouncing-ball");
  auto scheme = nsh::Registry::builtin().make<double>("siconos:moreau-jean:theta=1");
  auto reference = nsh::Registry::builtin().make<double>("moreau-jean:activation=position,theta=1");
  nsh::State<double> x = c.initial, y = c.initial;
  scheme->initialize(c.model, x, 1e-2);
  reference->initialize(c.model, y, 1e-2);
  nsh::StepSummary<double> s;
  scheme->step(x, s);
  reference->step(y, s);
  x.v(0) += 0.5;  // a state Siconos did not produce
  y.v(0) += 0.5;
  for (int k = 0; k < 50; ++k) {
    scheme->step(x, s);
    reference->step(y, s);
  }
  EXPECT_LT((x.q - y.q).cwiseAbs().maxCoeff() + (x.v - y.v).cwiseAbs().maxCoeff(), 1e-10);
}

TEST_F(SiconosAdapters, FrictionalModelsAreRefusedNamingMu) {
  auto c = builtin("bouncing-ball");
  c.model.G_T = nsh::Matrix<double>::Ones(c.model.dofs(), c.model.contacts());
  c.model.mu = nsh::Vector<double>::Constant(c.model.contacts(), 0.5);
  auto scheme = nsh::Registry::builtin().make<double>("siconos:moreau-jean");
  nsh::State<double> x = c.initial;
  try {
    scheme->initialize(c.model, x, 1e-2);
    FAIL() << "a frictional model was accepted";
  } catch (const nsh::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("mu"), std::string::npos) << e.what();
  }
}

TEST_F(SiconosAdapters, TheGateFindsTheEnergyIncreaseOfSiconosIndexSetAtThetaOneHalf) {
  const Outcome run = nsh_run(
      "check --scheme siconos:moreau-jean --property moreau_jean_energy_dissipation "
      "--cases 200 --quiet");
  ASSERT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find("FAIL"), std::string::npos) << run.out;
  // The shrunk counterexample is small, and `nsh simulate` replays it on the adapter.
  const std::size_t begin = run.out.find("\n{\n", run.out.find("counterexample case file"));
  const std::size_t end = run.out.find("\n}\n", begin);
  ASSERT_NE(begin, std::string::npos) << run.out;
  ASSERT_NE(end, std::string::npos) << run.out;
  const std::string document = run.out.substr(begin + 1, end - begin + 2);
  const auto c = nsh::load_linear_case<double>(nsh::parse_case_text(document));
  EXPECT_LE(c.model.dofs(), 2) << document;
  const std::string path = std::string(NSH_BINARY_DIR) + "/siconos_counterexample.json";
  std::ofstream(path) << document;
  const Outcome again = nsh_run("simulate '" + path + "' --scheme siconos:moreau-jean --h 1/100");
  EXPECT_EQ(again.status, 0) << again.out;
}

TEST_F(SiconosAdapters, AtThetaOneWithoutRestitutionEnergyHoldsAndImpactWorkDoesNot) {
  const Outcome energy = nsh_run(
      "check --scheme siconos:moreau-jean:theta=1 --restitution 0 "
      "--property moreau_jean_energy_dissipation --property "
      "energy_identity --cases 60 --quiet");
  EXPECT_EQ(energy.status, 0) << energy.out;
  const Outcome impact = nsh_run(
      "check --scheme siconos:moreau-jean:theta=1 --restitution 0 "
      "--property impact_work_nonpositive --cases 60 --quiet");
  EXPECT_EQ(impact.status, 1) << impact.out;
  EXPECT_NE(impact.out.find("penetrated contact separating slowly"), std::string::npos)
      << impact.out;
}

TEST_F(SiconosAdapters, AllLeavesTheAdaptersOut) {
  const Outcome run = nsh_run("check --scheme all --property momentum_balance --cases 2 --quiet");
  EXPECT_EQ(run.out.find("siconos:"), std::string::npos) << run.out;
  const Outcome listed = nsh_run("list schemes");
  EXPECT_NE(listed.out.find("siconos:moreau-jean"), std::string::npos) << listed.out;
}

}  // namespace
