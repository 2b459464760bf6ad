// The energy ledger: its running sums close the scheme's balance, the dissipation claim holds
// where THEORY 2.4 says it does and is reported broken where it does not.
#include <nsh/registry.hpp>
#include <nsh/reports/energy.hpp>
#include <nsh/reports/xml_check.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace nsh::reports {
namespace {

bool registered(const std::string& name) {
  return Registry::builtin().contains(name);
}

TEST(Energy, LedgerClosesAndMoreauJeanHalfKeepsItsClaim) {
  if (!registered("moreau-jean")) GTEST_SKIP();
  for (const char* case_name : {"free-oscillator", "bouncing-ball"}) {
    const EnergyReport r = energy_report(case_name, "moreau-jean:theta=1/2", "1/100");
    ASSERT_GT(r.rows.size(), 100u);
    EXPECT_TRUE(r.failure.empty());
    EXPECT_TRUE(r.broken_steps.empty())
        << case_name << ": first broken step " << r.broken_steps.front();
    ASSERT_TRUE(r.tightest_step.has_value());
    const EnergyRow& last = r.rows.back();
    const double balance =
        (last.E - r.rows.front().E) -
        (last.sum_W_ext + last.sum_W_damp + last.sum_W_contact - last.sum_dissipation);
    EXPECT_NEAR(balance, last.sum_defect, 1e-12);
    EXPECT_LT(std::abs(last.sum_defect), 1e-10) << case_name;
  }
}

TEST(Energy, ThetaBelowOneHalfBreaksTheClaim) {
  if (!registered("moreau-jean")) GTEST_SKIP();
  // THEORY 2.4: theta < 1/2 gains energy even without contact.
  const EnergyReport r = energy_report("free-oscillator", "moreau-jean:theta=0.45", "1/100");
  EXPECT_FALSE(r.broken_steps.empty());
  EXPECT_GT(r.rows.back().E, r.rows.front().E);
  const std::string csv = energy_csv(r);
  EXPECT_NE(csv.find(",broken\n"), std::string::npos);
  const SvgPlot plot = energy_plot(r);
  EXPECT_TRUE(plot.has_data());
  const std::string svg = plot.render();
  EXPECT_FALSE(xml_wellformedness_error(svg));
  EXPECT_NE(svg.find("broken ("), std::string::npos);
}

TEST(Energy, AlgorithmicEnergyIsTheClaimOfTheNewmarkFamily) {
  if (!registered("gen-alpha")) GTEST_SKIP();
  // The free oscillator (K SPD, C = 0) has the algorithmic energy of THEORY 3.2.
  const EnergyReport r = energy_report("free-oscillator", "gen-alpha", "1/100");
  EXPECT_TRUE(r.algorithmic_energy);
  EXPECT_TRUE(std::isfinite(r.rows.front().E_alg));
  EXPECT_TRUE(std::isfinite(r.rows.back().E_alg));
  EXPECT_TRUE(r.broken_steps.empty());
  EXPECT_LE(r.rows.back().E_alg, r.rows.front().E_alg);
  // The bouncing ball (K = 0) has none: the claim falls back to the dissipation inequality.
  const EnergyReport b = energy_report("bouncing-ball", "gen-alpha", "1/100");
  EXPECT_FALSE(b.algorithmic_energy);
  EXPECT_NE(b.claim.find("dissipation"), std::string::npos);
}

}  // namespace
}  // namespace nsh::reports
