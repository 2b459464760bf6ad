// Side by side with Siconos 4.4 (docs/theory.md §2.1, [V]): nsh's Moreau–Jean with
// activation=position against Siconos' MoreauJeanOSI (theta = 1/2, NewtonImpactNSL, LCP by
// Lemke, default index set g_k + h/2 U_k <= 0) on the two models that
// core/tests/siconos/moreau_jean_reference.py defines: a bouncing ball and a 2-dof system with
// two contacts, damping, springs and a constant force. The models are read from the script
// (`--show`), so both sides integrate the same numbers; the trajectories (q, v and the
// impulses P of every step) must agree to 1e-10 relative to each column's magnitude.
//
// Needs Debian's python3-siconos under /usr/bin/python3 (or the interpreter named by
// NSH_SICONOS_PYTHON); skipped with a message otherwise.
// Registered in core/CMakeLists.txt as the ctest test "Siconos.MoreauJean" with the labels
// fast and siconos (ctest -L siconos, ctest -R Siconos).
#include <nsh/driver.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/moreau_jean.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "siconos_python.hpp"

namespace nsh {
namespace {

const std::string mj_reference_script =
    std::string(NSH_SOURCE_DIR) + "/core/tests/siconos/moreau_jean_reference.py";

/// Standard output of a shell command; fails the test on a nonzero exit status.
std::string run(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) {
    ADD_FAILURE() << "cannot run: " << command;
    return out;
  }
  char buffer[4096];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, got);
  const int status = pclose(pipe);
  EXPECT_EQ(status, 0) << "command failed: " << command << "\n" << out;
  return out;
}

Matrix<double> matrix(const nlohmann::json& j) {
  Matrix<double> A(static_cast<Index>(j.size()), static_cast<Index>(j.at(0).size()));
  for (Index i = 0; i < A.rows(); ++i)
    for (Index k = 0; k < A.cols(); ++k) A(i, k) = j.at(i).at(k).get<double>();
  return A;
}

Vector<double> vector(const nlohmann::json& j) {
  Vector<double> x(static_cast<Index>(j.size()));
  for (Index i = 0; i < x.size(); ++i) x(i) = j.at(i).get<double>();
  return x;
}

struct Reference {
  LinearModel<double> model;
  State<double> initial;
  double h{0}, T{0}, theta{0};
  std::vector<std::vector<double>> rows;  // step, t, q.., v.., P..
};

Reference load(const std::string& name) {
  Reference ref;
  const nlohmann::json j = nlohmann::json::parse(
      run(test::siconos_python() + " " + mj_reference_script + " " + name + " --show"));
  ref.model.name = name;
  ref.model.M = matrix(j.at("M"));
  ref.model.K = matrix(j.at("K"));
  ref.model.C = matrix(j.at("C"));
  ref.model.F = vector(j.at("F"));
  ref.model.G = matrix(j.at("G"));
  ref.model.w = vector(j.at("w"));
  ref.model.e = vector(j.at("e"));
  fill_defaults(ref.model);
  ref.model.validate();
  ref.initial = State<double>{0.0, vector(j.at("q0")), vector(j.at("v0"))};
  ref.h = j.at("h").get<double>();
  ref.T = j.at("T").get<double>();
  ref.theta = j.at("theta").get<double>();

  // The trajectory goes to a file: Siconos may print progress on standard output.
  const std::string out = std::string(NSH_BINARY_DIR) + "/siconos_" + name + ".csv";
  run(test::siconos_python() + " " + mj_reference_script + " " + name + " --out " + out);
  std::ifstream csv(out);
  EXPECT_TRUE(csv.good()) << "no trajectory in " << out;
  std::string line;
  std::getline(csv, line);  // header
  while (std::getline(csv, line)) {
    std::vector<double> row;
    std::stringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) row.push_back(std::stod(cell));
    ref.rows.push_back(row);
  }
  return ref;
}

/// Runs nsh with `activation` on the model and returns the largest column-relative difference
/// to Siconos; with `expect_agreement` every entry must agree to 1e-10.
double compare(const std::string& name, int min_impact_steps, const std::string& activation,
               bool expect_agreement) {
  const Reference ref = load(name);
  const Index n = ref.model.dofs(), m = ref.model.contacts();
  const std::size_t expected_columns = static_cast<std::size_t>(2 + 2 * n + m);
  EXPECT_FALSE(ref.rows.empty());
  if (ref.rows.empty()) return INFINITY;
  for (const auto& row : ref.rows) {
    EXPECT_EQ(row.size(), expected_columns) << "malformed Siconos CSV row";
    if (row.size() != expected_columns) return INFINITY;
  }

  // Siconos' theta written as the shortest decimal that round-trips: read exactly here too.
  std::ostringstream theta;
  theta.precision(17);
  theta << ref.theta;
  auto scheme = Registry::builtin().make<double>("moreau-jean:activation=" + activation +
                                                 ",theta=" + theta.str());
  const Trajectory<double> run = record<double>(*scheme, ref.model, ref.initial, ref.h, ref.T);
  EXPECT_EQ(run.states.size(), ref.rows.size()) << "step counts differ";
  if (run.states.size() != ref.rows.size()) return INFINITY;

  // Scale of each column over the Siconos run, so that "relative" means relative to the size
  // a quantity reaches (velocities pass through zero; a resting impulse is tiny).
  const std::size_t columns = ref.rows.front().size();
  std::vector<double> scale(columns, 0.0);
  for (const auto& row : ref.rows)
    for (std::size_t c = 0; c < columns; ++c) scale[c] = std::max(scale[c], std::abs(row[c]));

  int impact_steps = 0;
  double worst = 0;
  for (std::size_t k = 0; k < ref.rows.size(); ++k) {
    const auto& row = ref.rows[k];
    const State<double>& s = run.states[k];
    std::vector<double> ours{static_cast<double>(k), s.t};
    for (Index i = 0; i < n; ++i) ours.push_back(s.q(i));
    for (Index i = 0; i < n; ++i) ours.push_back(s.v(i));
    for (Index a = 0; a < m; ++a) ours.push_back(k == 0 ? 0.0 : run.steps[k - 1].impulse(a));
    bool impact = false;
    for (std::size_t c = 1; c < columns; ++c) {
      const double tolerance = 1e-10 * std::max(scale[c], 1e-300);
      const double error = std::abs(ours[c] - row[c]);
      worst = std::max(worst, error / std::max(scale[c], 1e-300));
      if (expect_agreement && error > tolerance) {
        ADD_FAILURE() << name << ": step " << k << ", column " << c << ": nsh " << ours[c]
                      << ", Siconos " << row[c] << ", difference " << error << " > " << tolerance;
        return worst;  // the first divergence says it all; the rest follows from it
      }
      if (c >= 2 + 2 * static_cast<std::size_t>(n) && row[c] > 0) impact = true;
    }
    if (impact) ++impact_steps;
  }
  // The comparison has power only if contacts were active in many steps.
  EXPECT_GE(impact_steps, min_impact_steps);
  std::printf(
      "%s, activation=%s: %zu steps, %d with a positive impulse, worst relative "
      "difference %.3g\n",
      name.c_str(), activation.c_str(), ref.rows.size() - 1, impact_steps, worst);
  return worst;
}

TEST(Siconos, BouncingBallAgreesWithMoreauJeanOSI) {
  NSH_REQUIRE_SICONOS();
  compare("bouncing-ball", 4, "position", true);
}

TEST(Siconos, TwoDofTwoContactsAgreesWithMoreauJeanOSI) {
  NSH_REQUIRE_SICONOS();
  compare("two-dof", 50, "position", true);
}

TEST(Siconos, ComparisonSeesTheIndexSetRule) {
  // Power of the comparison: the energy-safe rule (U_k <= 0 as well) is a different scheme on
  // the two-dof model (its contacts rebound while still penetrated), and the test must see it.
  NSH_REQUIRE_SICONOS();
  EXPECT_GT(compare("two-dof", 50, "position-velocity", false), 1e-6);
}

}  // namespace
}  // namespace nsh
