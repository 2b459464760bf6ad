// A measure whose every error is zero or at round-off has no order: fit_order with round-off
// bounds says "exact at every h" instead of fitting a slope through noise, and the convergence
// study of catching-up on the sweeping interval at steps dividing 1 shows it (x_sup is exact
// there: the kink at t = 1 falls on a node), while steps that do not divide 1 keep order 1.
#include <nsh/reports/convergence.hpp>
#include <nsh/reports/order_fit.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace nsh::reports {
namespace {

const std::vector<double> kH{0.1, 0.05, 0.025};

TEST(ExactOrder, ZeroErrorsAreExactAtEveryH) {
  const OrderFit fit = fit_order(kH, {0, 0, 0}, {1e-15, 1e-15, 1e-15});
  EXPECT_FALSE(fit.defined());
  EXPECT_TRUE(std::isnan(fit.order));
  EXPECT_EQ(fit.reason, "exact at every h");
}

TEST(ExactOrder, RoundOffNoiseGivesNoSlope) {
  // The noise of the issue: without bounds the fit reports a meaningless negative order.
  const std::vector<double> noise{1.1e-16, 2.2e-16, 4.4e-16};
  EXPECT_TRUE(fit_order(kH, noise).defined());
  const OrderFit fit = fit_order(kH, noise, {1e-14, 1e-14, 1e-14});
  EXPECT_FALSE(fit.defined());
  EXPECT_EQ(fit.reason, "errors at round-off at every h");
}

TEST(ExactOrder, OneErrorAboveItsBoundKeepsTheFit) {
  const OrderFit fit = fit_order(kH, {1e-3, 2.5e-4, 1e-16}, {1e-14, 1e-14, 1e-14});
  EXPECT_TRUE(fit.defined());
  EXPECT_TRUE(fit.reason.empty());
}

TEST(ExactOrder, FailedRunsAreLeftOutAndAllFailedIsNotExact) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(fit_order(kH, {0, nan, 0}, {1e-15, nan, 1e-15}).reason, "exact at every h");
  EXPECT_TRUE(fit_order(kH, {nan, nan, nan}, {nan, nan, nan}).reason.empty());
}

TEST(ExactOrder, RoundoffBoundScalesWithStepsEpsilonAndSolution) {
  const double eps = std::numeric_limits<double>::epsilon();
  EXPECT_EQ(roundoff_bound(eps, 9, 0.5), 64 * 10 * eps);  // scale below 1 counts as 1
  EXPECT_EQ(roundoff_bound(eps, 9, 4), 64 * 10 * eps * 4);
  EXPECT_EQ(roundoff_bound(0, 9, 4), 0);  // exact arithmetic: only an exact zero is exact
}

TEST(ExactOrder, CatchingUpAtStepsDividingOneIsExactNotANoisySlope) {
  ConvergenceOptions options;
  options.case_name = "sweeping-interval";
  options.schemes = {"catching-up"};
  options.h = {"1/10", "1/20", "1/40"};
  const auto studies = run_convergence(options);
  ASSERT_EQ(studies.size(), 1u);
  const ConvergenceStudy& s = studies.front();
  ASSERT_EQ(s.roundoff.size(), 3u);
  for (const auto& m : {"x_final", "x_sup"}) {
    const OrderFit& fit = s.fits.at(m);
    EXPECT_FALSE(fit.defined()) << m;
    EXPECT_FALSE(fit.reason.empty()) << m;
    for (std::size_t i = 0; i < 3; ++i) EXPECT_LE(s.errors.at(m)[i], s.roundoff[i]) << m;
  }
  const auto json = nlohmann::json::parse(convergence_json(studies));
  EXPECT_TRUE(json.at("orders").at("x_sup").is_null());
  EXPECT_TRUE(json.at("order_reasons").at("x_sup").is_string());
  EXPECT_EQ(json.at("roundoff").size(), 3u);
}

TEST(ExactOrder, CatchingUpOffTheKinkKeepsOrderOne) {
  ConvergenceOptions options;
  options.case_name = "sweeping-interval";
  options.schemes = {"catching-up"};
  options.h = {"2/7", "2/15", "2/31"};
  const auto studies = run_convergence(options);
  const OrderFit& fit = studies.front().fits.at("x_sup");
  ASSERT_TRUE(fit.defined());
  EXPECT_TRUE(fit.reason.empty());
  EXPECT_NEAR(fit.order, 1.0, 0.05);
  const auto json = nlohmann::json::parse(convergence_json(studies));
  EXPECT_TRUE(json.at("order_reasons").at("x_sup").is_null());
}

}  // namespace
}  // namespace nsh::reports
