// The energy ledger: its running sums close the scheme's balance; the energy inequality holds
// where docs/theory.md §2.4 says it does; a broken step counts as a failure only where the
// scheme claims the inequality and the case is inside the claim's domain; the CSV is streamed.
#include <nsh/error.hpp>
#include <nsh/properties/mutants.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/energy.hpp>
#include <nsh/reports/xml_check.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace nsh::reports {
namespace {

bool scheme_registered(const std::string& name) {
  return Registry::builtin().contains(name);
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Energy, LedgerClosesAndMoreauJeanHalfKeepsItsClaim) {
  if (!scheme_registered("moreau-jean")) GTEST_SKIP();
  for (const char* case_name : {"free-oscillator", "bouncing-ball"}) {
    const EnergyReport r = energy_report(case_name, "moreau-jean:theta=1/2", "1/100");
    ASSERT_GT(r.steps, 100);
    EXPECT_TRUE(r.failure.empty());
    EXPECT_EQ(r.broken_count, 0) << case_name << ": " << r.first_broken_detail;
    EXPECT_EQ(r.status, ClaimStatus::claimed) << case_name << ": " << r.outside_reason;
    EXPECT_FALSE(r.fails());
    ASSERT_TRUE(r.tightest_step.has_value());
    const EnergyRow& last = r.last;
    EXPECT_EQ(last.step, r.steps);
    const double balance = (last.E - r.initial.E) - (last.sum_W_ext + last.sum_W_damp +
                                                     last.sum_W_contact - last.sum_dissipation);
    EXPECT_NEAR(balance, last.sum_defect, 1e-12);
    EXPECT_LT(std::abs(last.sum_defect), 1e-10) << case_name;
  }
}

TEST(Energy, ThetaOneOnTheBallIsOutsideTheDomainNotAFailure) {
  if (!scheme_registered("moreau-jean")) GTEST_SKIP();
  // theta = 1 claims the inequality only for e <= 1/theta - 1 = 0; the ball has e = 1/2.
  // (Moreau-Jean at theta = 1 dissipates anyway; what matters is that a broken step here would
  // not be reported as a failure, and that the status says why.)
  const EnergyReport r = energy_report("bouncing-ball", "moreau-jean:theta=1", "");
  EXPECT_EQ(r.status, ClaimStatus::outside_domain);
  EXPECT_NE(r.outside_reason.find("e[0]"), std::string::npos) << r.outside_reason;
  EXPECT_FALSE(r.fails());
  EXPECT_NE(r.verdict_text().find("outside the claim's domain"), std::string::npos);
  EXPECT_GT(r.h, 0);  // the case file's h was taken
}

TEST(Energy, ThetaBelowOneHalfBreaksTheInequalityButIsNotClaimed) {
  if (!scheme_registered("moreau-jean")) GTEST_SKIP();
  // docs/theory.md §2.4: theta < 1/2 gains energy even without contact; nothing claims it.
  const EnergyReport r = energy_report("free-oscillator", "moreau-jean:theta=0.45", "1/100");
  EXPECT_GT(r.broken_count, 0);
  EXPECT_EQ(r.status, ClaimStatus::not_claimed);
  EXPECT_FALSE(r.fails());
  EXPECT_GT(r.last.E, r.initial.E);
  const SvgPlot plot = energy_plot(r);
  EXPECT_TRUE(plot.has_data());
  const std::string svg = plot.render();
  EXPECT_FALSE(xml_wellformedness_error(svg));
  EXPECT_NE(svg.find("broken ("), std::string::npos);
}

TEST(Energy, AClaimBrokenInsideItsDomainFails) {
  properties::register_builtin_mutants();
  // The mutant claims theta = 1/2 (domain e <= 1) and steps past 1/(1 + e).
  const EnergyReport r = energy_report("bouncing-ball", "mutant:mj-theta-past", "1/100");
  EXPECT_EQ(r.status, ClaimStatus::claimed);
  EXPECT_GT(r.broken_count, 0);
  EXPECT_TRUE(r.fails());
  EXPECT_NE(r.verdict_text().find("FAILS"), std::string::npos);
}

TEST(Energy, StreamsTheCsvAndKeepsFewSamples) {
  if (!scheme_registered("moreau-jean")) GTEST_SKIP();
  EnergyOptions o;
  o.case_name = "bouncing-ball";
  o.spec = "moreau-jean:theta=1/2";
  o.h = "1/2000";
  o.plot_points = 50;
  o.csv_path = ::testing::TempDir() + "nsh_energy_stream.csv";
  const EnergyReport r = energy_report(o);
  const std::string csv = read_all(o.csv_path);
  std::remove(o.csv_path.c_str());
  std::size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  EXPECT_EQ(lines, static_cast<std::size_t>(r.steps) + 2);  // header, row 0, one per step
  EXPECT_EQ(csv.rfind(energy_csv_header(), 0), 0u);
  // Memory does not follow the step count: about plot_points samples.
  EXPECT_LE(r.samples.size(), o.plot_points + 3);
  EXPECT_LE(r.slack_samples.size(), o.plot_points + 2);
  EXPECT_EQ(r.samples.back().step, r.steps);
}

TEST(Energy, ExactInRational) {
  if (!scheme_registered("moreau-jean")) GTEST_SKIP();
  EnergyOptions o;
  o.case_name = "bouncing-ball";
  o.spec = "moreau-jean:theta=1/2";
  o.h = "1/50";
  o.T = "1/2";
  o.precision = "rational";
  o.csv_path = ::testing::TempDir() + "nsh_energy_rational.csv";
  const EnergyReport r = energy_report(o);
  const std::string csv = read_all(o.csv_path);
  std::remove(o.csv_path.c_str());
  EXPECT_EQ(r.precision, "rational");
  EXPECT_EQ(r.h_text, "1/50");
  EXPECT_EQ(r.broken_count, 0);
  EXPECT_EQ(r.max_abs_identity_defect, 0);  // exact arithmetic: the ledger closes exactly
  EXPECT_NE(csv.find("/"), std::string::npos) << "exact fractions in the CSV";
  EXPECT_THROW(
      {
        EnergyOptions bad = o;
        bad.precision = "quad";
        (void)energy_report(bad);
      },
      InputError);
}

TEST(Energy, AlgorithmicEnergyIsTheClaimOfTheNewmarkFamily) {
  if (!scheme_registered("gen-alpha")) GTEST_SKIP();
  // The free oscillator (K SPD, C = 0) has the algorithmic energy of docs/theory.md §3.2.
  const EnergyReport r = energy_report("free-oscillator", "gen-alpha", "1/100");
  EXPECT_TRUE(r.algorithmic_energy);
  EXPECT_EQ(r.property, "algorithmic_energy_decay");
  EXPECT_TRUE(std::isfinite(r.initial.E_alg));
  EXPECT_TRUE(std::isfinite(r.last.E_alg));
  EXPECT_EQ(r.broken_count, 0);
  EXPECT_LE(r.last.E_alg, r.initial.E_alg);
  // The bouncing ball (K = 0) has none: the ledger falls back to the dissipation inequality,
  // which the Newmark family does not claim.
  const EnergyReport b = energy_report("bouncing-ball", "gen-alpha", "1/100");
  EXPECT_FALSE(b.algorithmic_energy);
  EXPECT_NE(b.claim.find("dissipation"), std::string::npos);
  EXPECT_EQ(b.status, ClaimStatus::not_claimed);
}

}  // namespace
}  // namespace nsh::reports
