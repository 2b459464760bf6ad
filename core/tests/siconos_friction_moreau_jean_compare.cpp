// Side by side with Siconos 4.4 (docs/friction.md, docs/theory.md §9.1, issue 13 item 3):
// nsh's Moreau–Jean with Coulomb friction (theta = 1, activation=position: Siconos' index set
// g_k + h/2 U_k <= 0) against Siconos' MoreauJeanOSI + FrictionContact(2) (2-D Lemke,
// NewtonImpactFrictionNSL) on two nsh case files, read by both sides
// (core/tests/siconos/moreau_jean_friction_reference.py reads the case-file format):
//   cases/data/sliding-block.json         one contact, the block slides to rest;
//   core/tests/siconos/sliding-box.json   two contacts with coupled normal and tangential
//                                         directions (W_NT != 0), unequal normal impulses.
// q, v, the normal impulses and the tangential impulses of every step must agree to 1e-10
// relative to each column's magnitude. Where both corners of the box stick, the split of the
// tangential impulse between them is not unique (equal tangent columns, W singular): there the
// sum is compared, and each contact's only while it slides.
//
// Needs Debian's python3-siconos under /usr/bin/python3 (or NSH_SICONOS_PYTHON); skipped with
// a message otherwise. Registered in core/CMakeLists.txt as the ctest test
// "Siconos.MoreauJeanFriction" with the labels fast and siconos.
#include <nsh/cases/friction.hpp>
#include <nsh/driver.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

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

const std::string friction_reference_script =
    std::string(NSH_SOURCE_DIR) + "/core/tests/siconos/moreau_jean_friction_reference.py";

std::vector<std::vector<double>> siconos_rows(const std::string& case_file,
                                              const std::string& tag) {
  const std::string out = std::string(NSH_BINARY_DIR) + "/siconos_friction_" + tag + ".csv";
  const std::string command = test::siconos_python() + " '" + friction_reference_script + "' '" +
                              case_file + "' --out '" + out + "' --theta 1 > /dev/null 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::vector<std::vector<double>> rows;
  std::ifstream csv(out);
  EXPECT_TRUE(csv.good()) << "no trajectory in " << out;
  std::string line;
  std::getline(csv, line);  // header
  while (std::getline(csv, line)) {
    std::vector<double> row;
    std::stringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

// Compares nsh with Siconos on the case; returns the number of steps in which some contact slid
// (the comparison's power) and the number with a positive normal impulse.
std::pair<int, int> compare_friction_run(const std::string& case_file, const std::string& tag) {
  const LinearCase<double> c = load_linear_case<double>(read_case_file(case_file));
  const Index n = c.model.dofs(), m = c.model.contacts();
  EXPECT_EQ(c.model.tangent_directions(), 1);
  const auto rows = siconos_rows(case_file, tag);
  const std::size_t columns = static_cast<std::size_t>(2 + 2 * n + 2 * m);
  EXPECT_FALSE(rows.empty());
  for (const auto& row : rows) EXPECT_EQ(row.size(), columns) << "malformed Siconos CSV row";
  if (rows.empty() || rows.front().size() != columns) return {0, 0};

  auto scheme = Registry::builtin().make<double>("moreau-jean:activation=position,theta=1");
  const Trajectory<double> run = record<double>(*scheme, c.model, c.initial, *c.h, c.T);
  EXPECT_EQ(run.states.size(), rows.size()) << "step counts differ";
  if (run.states.size() != rows.size()) return {0, 0};

  std::vector<double> scale(columns, 0.0);
  for (const auto& row : rows)
    for (std::size_t k = 0; k < columns; ++k) scale[k] = std::max(scale[k], std::abs(row[k]));
  // A column that stays zero (the block's height) is judged at its group's magnitude (q, v,
  // the impulses): round-off of the weight's cancellation is 1e-17 there, not 0.
  const std::size_t nq = static_cast<std::size_t>(n), nm = static_cast<std::size_t>(m);
  double q_scale = 0, v_scale = 0, impulse_scale = 0;
  for (std::size_t i = 0; i < nq; ++i) {
    q_scale = std::max(q_scale, scale[2 + i]);
    v_scale = std::max(v_scale, scale[2 + nq + i]);
  }
  for (std::size_t a = 0; a < 2 * nm; ++a)
    impulse_scale = std::max(impulse_scale, scale[2 + 2 * nq + a]);
  for (std::size_t i = 0; i < nq; ++i) {
    scale[2 + i] = std::max(scale[2 + i], q_scale);
    scale[2 + nq + i] = std::max(scale[2 + nq + i], v_scale);
  }
  for (std::size_t a = 0; a < 2 * nm; ++a)
    scale[2 + 2 * nq + a] = std::max(scale[2 + 2 * nq + a], impulse_scale);
  const auto close = [&](double ours, double theirs, double magnitude) {
    return std::abs(ours - theirs) <= 1e-10 * std::max(magnitude, 1e-300);
  };
  int sliding_steps = 0, pressed_steps = 0;
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const auto& row = rows[k];
    const State<double>& s = run.states[k];
    const StepSummary<double>& summary = run.steps[k - 1];
    for (Index i = 0; i < n; ++i) {
      const std::size_t qc = 2 + static_cast<std::size_t>(i), vc = qc + static_cast<std::size_t>(n);
      EXPECT_TRUE(close(s.q(i), row[qc], scale[qc]))
          << tag << " step " << k << " q" << i << ": nsh " << s.q(i) << ", Siconos " << row[qc];
      EXPECT_TRUE(close(s.v(i), row[vc], scale[vc]))
          << tag << " step " << k << " v" << i << ": nsh " << s.v(i) << ", Siconos " << row[vc];
    }
    EXPECT_EQ(summary.tangential_impulse.size(), m) << tag << " step " << k;
    if (summary.tangential_impulse.size() != m) return {0, 0};
    double ours_sum = 0, theirs_sum = 0, sum_scale = 0;
    bool slid = false, pressed = false;
    for (Index a = 0; a < m; ++a) {
      const std::size_t pc = 2 + 2 * static_cast<std::size_t>(n) + static_cast<std::size_t>(a);
      const std::size_t tc = pc + static_cast<std::size_t>(m);
      const double P = summary.impulse.size() ? summary.impulse(a) : 0.0;
      EXPECT_TRUE(close(P, row[pc], scale[pc]))
          << tag << " step " << k << " P" << a << ": nsh " << P << ", Siconos " << row[pc];
      pressed = pressed || row[pc] > 0;
      const double PT = summary.tangential_impulse(a);
      ours_sum += PT;
      theirs_sum += row[tc];
      sum_scale = std::max(sum_scale, scale[tc]);
      // Sliding: on the cone's edge, P_T = -mu P_N sign(U_T+) (unique).
      const bool sliding = std::abs(c.model.tangential_velocity(s.v)(a)) > 1e-9;
      if (sliding) {
        slid = true;
        EXPECT_TRUE(close(PT, row[tc], scale[tc]))
            << tag << " step " << k << " PT" << a << ": nsh " << PT << ", Siconos " << row[tc];
      }
    }
    EXPECT_TRUE(close(ours_sum, theirs_sum, sum_scale))
        << tag << " step " << k << " sum of PT: nsh " << ours_sum << ", Siconos " << theirs_sum;
    sliding_steps += slid ? 1 : 0;
    pressed_steps += pressed ? 1 : 0;
  }
  std::printf("%s: %zu steps, %d sliding, %d with a positive normal impulse\n", tag.c_str(),
              rows.size() - 1, sliding_steps, pressed_steps);
  return {sliding_steps, pressed_steps};
}

// Siconos against the closed form of the discrete stop (docs/case-files.md, "The exact
// discrete stop"), independently of nsh's scheme: v_k = max(v0 - k mu g h, 0) and
// x_k = h (j v0 - mu g h j (j + 1)/2), j = min(k, K).
TEST(SiconosFriction, SlidingBlockIsTheExactDiscreteStop) {
  NSH_REQUIRE_SICONOS();
  const std::string file = std::string(NSH_SOURCE_DIR) + "/cases/data/sliding-block.json";
  const LinearCase<Rational> c = load_linear_case<Rational>(read_case_file(file));
  const Rational g = -c.model.F(1) / c.model.M(1, 1);
  const cases::DiscreteSlidingStop<Rational> stop{c.initial.v(0), c.model.mu(0) * g * *c.h};
  const auto rows = siconos_rows(file, "sliding-block-stop");
  ASSERT_EQ(rows.size(), 51u);
  int stopped = -1;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Index step = static_cast<Index>(k);
    const double v = scalar_cast<double>(stop.velocity(step));
    const double x = scalar_cast<double>(stop.displacement(step, *c.h));
    EXPECT_NEAR(rows[k][4], v, 1e-13) << "step " << k;  // v0 column (q0, q1, v0, ...)
    EXPECT_NEAR(rows[k][2], x, 1e-13) << "step " << k;
    if (stopped < 0 && std::abs(rows[k][4]) < 1e-12) stopped = static_cast<int>(k);
  }
  EXPECT_EQ(stopped, stop.last_sliding_step() + 1);  // step 41: t = 0.41 > t* = 0.4077
}

TEST(SiconosFriction, SlidingBlockAgreesWithMoreauJeanOSIAndFrictionContact) {
  NSH_REQUIRE_SICONOS();
  const auto [sliding, pressed] = compare_friction_run(
      std::string(NSH_SOURCE_DIR) + "/cases/data/sliding-block.json", "sliding-block");
  EXPECT_GE(sliding, 40);  // slides until the stop at step 41, then sticks
  EXPECT_GE(pressed, 50);
}

TEST(SiconosFriction, TwoContactBoxAgreesWithMoreauJeanOSIAndFrictionContact) {
  NSH_REQUIRE_SICONOS();
  const auto [sliding, pressed] = compare_friction_run(
      std::string(NSH_SOURCE_DIR) + "/core/tests/siconos/sliding-box.json", "sliding-box");
  EXPECT_GE(sliding, 19);
  EXPECT_GE(pressed, 30);
}

}  // namespace
}  // namespace nsh
