// The report's seed-002 section (nsh/reports/seed002.hpp): the three schemes on the same
// examples, read back from the section's HTML and Markdown: orders, the penetration sentence
// with its number, the claims' verdicts, and forecasting-trapezoidal on the lagrangian
// rods.
#include <nsh/properties/check.hpp>
#include <nsh/reports/lagrangian_family.hpp>
#include <nsh/reports/seed002.hpp>
#include <nsh/reports/xml_check.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace nsh::reports {
namespace {

bool seed002_has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::vector<Seed002Case>& seed002_computed() {
  static const std::vector<Seed002Case> cases = default_seed002_cases();
  return cases;
}

TEST(Seed002Report, RunsTheThreeSchemesOnTheSameExamples) {
  const auto& cases = seed002_computed();
  ASSERT_EQ(cases.size(), 6u);
  EXPECT_EQ(cases[0].case_name, "bouncing-ball");
  EXPECT_EQ(cases[1].case_name, "sliding-block");
  for (std::size_t i = 0; i < 2; ++i) {
    const Seed002Case& c = cases[i];
    ASSERT_TRUE(c.failure.empty()) << c.failure;
    ASSERT_EQ(c.studies.size(), 3u) << c.case_name;
    EXPECT_EQ(c.runs.size(), 3u * 4u);
    for (const auto& r : c.runs) {
      EXPECT_TRUE(r.failure.empty()) << c.case_name << " " << r.scheme << ": " << r.failure;
      EXPECT_GT(r.steps, 0);
      EXPECT_GE(r.cpu_per_step, 0.0);
    }
  }
  // Impacts make every scheme first order on the ball (q_max); the slide is second order.
  for (const auto& s : cases[0].studies) {
    const OrderFit& fit = s.fits.at("q_max");
    EXPECT_GT(fit.order, 0.7) << s.scheme;
    EXPECT_LT(fit.order, 1.6) << s.scheme;
  }
  for (const auto& s : cases[1].studies)
    EXPECT_NEAR(s.fits.at("q_final").order, 2.0, 0.3) << s.scheme;
  // The Coulomb oscillators' smooth slides (one contact, and two simultaneous on the bar): order
  // 2 for every scheme against the stick-slip closed form, on a line (no untrusted fit).
  for (std::size_t i = 4; i < 6; ++i) {
    const Seed002Case& c = cases[i];
    ASSERT_TRUE(c.failure.empty()) << c.failure;
    ASSERT_EQ(c.studies.size(), 3u) << c.case_name;
    for (const auto& s : c.studies) {
      EXPECT_NEAR(s.fits.at("q_max").order, 2.0, 0.1) << c.case_name << " " << s.scheme;
      EXPECT_LT(s.fits.at("q_max").residual, 0.05) << c.case_name << " " << s.scheme;
    }
    for (const auto& r : c.runs) EXPECT_TRUE(r.failure.empty()) << r.scheme << ": " << r.failure;
  }
  // The plotted h keeps the energy per step.
  for (const auto& r : cases[0].runs) {
    if (r.h == cases[0].plot_h) {
      EXPECT_EQ(r.energy.size(), static_cast<std::size_t>(r.steps));
    }
  }
}

TEST(Seed002Report, PenetrationAtPositionLevelIsAFractionOfHTimesTheImpactSpeed) {
  // docs/theory.md §4: about 0.86 h |U-| on the bouncing ball.
  const double ratio = seed002_penetration_ratio(seed002_computed(), "half-explicit-tdg");
  EXPECT_GT(ratio, 0.5);
  EXPECT_LT(ratio, 1.05);
  EXPECT_NEAR(seed002_penetration_ratio(seed002_computed(), "forecasting-trapezoidal"), ratio, 0.1);
}

TEST(Seed002Report, TheSectionReadsBackWithNumbersAndVerdicts) {
  properties::Verdict pass;
  pass.scheme = "half-explicit-tdg:fallback=lemke,max_iterations=50,r=delassus,tolerance=0";
  pass.property = "momentum_balance";
  pass.outcome = properties::Outcome::pass;
  properties::Verdict fail = pass;
  fail.scheme = "forecasting-trapezoidal:fallback=lemke,max_iterations=50,r=delassus,tolerance=0";
  fail.property = "newton_restitution";
  fail.outcome = properties::Outcome::fail;
  const std::string html = seed002_html(seed002_computed(), {pass, fail});
  const std::string md = seed002_markdown(seed002_computed(), {pass, fail});
  EXPECT_EQ(xml_wellformedness_error("<div>" + html + "</div>"), std::nullopt);
  for (const std::string* text : {&html, &md}) {
    EXPECT_TRUE(seed002_has(*text, "Seed 002")) << *text;
    EXPECT_TRUE(seed002_has(*text, "false at position level")) << *text;
    EXPECT_TRUE(seed002_has(*text, "1 passed, 0 failed")) << *text;
    EXPECT_TRUE(seed002_has(*text, "0 passed, 1 failed: newton_restitution")) << *text;
    for (const char* scheme : {"half-explicit-tdg", "moreau-jean", "forecasting-trapezoidal"})
      EXPECT_TRUE(seed002_has(*text, scheme)) << scheme;
  }
  // The sentence carries the measured ratio to two decimals.
  const double ratio = seed002_penetration_ratio(seed002_computed(), "half-explicit-tdg");
  char number[32];
  std::snprintf(number, sizeof number, "%.2f h|U-|", ratio);
  EXPECT_TRUE(seed002_has(md, number)) << md;
  // Plots: the convergence, penetration and energy SVGs of each case that ran.
  std::size_t svgs = 0;
  for (std::size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1))
    ++svgs;
  EXPECT_GE(svgs, 6u);
}

// The rods are lagrangian models: forecasting-trapezoidal steps them with the gaps' curvature
// (acceleration level on a nonlinear model), so all three schemes run them.
TEST(Seed002Report, TheRodsRunUnderAllThreeSchemes) {
  if (!lagrangian_family_available()) GTEST_SKIP() << "built without the formula module";
  for (std::size_t i = 2; i < 4; ++i) {
    const Seed002Case& c = seed002_computed()[i];
    ASSERT_TRUE(c.failure.empty()) << c.case_name << ": " << c.failure;
    EXPECT_EQ(c.studies.size(), 3u) << c.case_name;
    for (const auto& r : c.runs) EXPECT_TRUE(r.failure.empty()) << r.scheme << ": " << r.failure;
  }
}

}  // namespace
}  // namespace nsh::reports
