// The least-squares order fit recovers a known slope and reports the misfit of noisy data.
#include <nsh/reports/order_fit.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace nsh::reports {
namespace {

TEST(OrderFit, RecoversAnExactPowerLaw) {
  const std::vector<double> h{0.1, 0.05, 0.025, 0.0125, 0.00625};
  std::vector<double> err;
  for (double x : h) err.push_back(3.0 * std::pow(x, 2.0));
  const OrderFit fit = fit_order(h, err);
  ASSERT_TRUE(fit.defined());
  EXPECT_NEAR(fit.order, 2.0, 1e-12);
  EXPECT_NEAR(fit.intercept, std::log10(3.0), 1e-12);
  EXPECT_NEAR(fit.residual, 0.0, 1e-12);
  EXPECT_EQ(fit.points, 5u);
}

TEST(OrderFit, ResidualIsTheRmsDistanceFromTheLine) {
  // log10 err = log10 h + d_i, d = (+0.1, -0.1, +0.1, -0.1), log10 h = (0, -1, -2, -3):
  // x - x-bar = (1.5, 0.5, -0.5, -1.5), sxx = 5, sum (x - x-bar) d = 0.2, slope = 1 + 0.2/5.
  const std::vector<double> h{1, 0.1, 0.01, 0.001};
  const std::vector<double> d{0.1, -0.1, 0.1, -0.1};
  std::vector<double> err;
  for (std::size_t i = 0; i < h.size(); ++i) err.push_back(h[i] * std::pow(10.0, d[i]));
  const OrderFit fit = fit_order(h, err);
  // The same least squares written out, for the intercept and the residual.
  const double x[4] = {0, -1, -2, -3};
  double xm = -1.5, ym = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < 4; ++i) ym += (x[i] + d[i]) / 4;
  for (int i = 0; i < 4; ++i) {
    sxx += (x[i] - xm) * (x[i] - xm);
    sxy += (x[i] - xm) * (x[i] + d[i] - ym);
  }
  const double slope = sxy / sxx, intercept = ym - slope * xm;
  double ss = 0;
  for (int i = 0; i < 4; ++i) ss += std::pow(x[i] + d[i] - slope * x[i] - intercept, 2);
  EXPECT_NEAR(fit.order, slope, 1e-12);
  EXPECT_NEAR(fit.order, 1.04, 1e-12);  // the alternating noise tilts the line
  EXPECT_NEAR(fit.residual, std::sqrt(ss / 4), 1e-12);
  EXPECT_GT(fit.residual, 0.05);  // a non-asymptotic study shows as a large residual
}

TEST(OrderFit, SkipsZeroAndNonFiniteErrors) {
  const std::vector<double> h{0.1, 0.05, 0.025, 0.0125};
  const std::vector<double> err{1e-1, 0.0, 2.5e-2, std::nan("")};
  const OrderFit fit = fit_order(h, err);
  EXPECT_EQ(fit.points, 2u);
  EXPECT_NEAR(fit.order, 1.0, 1e-12);
}

TEST(OrderFit, UndefinedWithFewerThanTwoPointsOrEqualSteps) {
  EXPECT_FALSE(fit_order({0.1}, {1e-3}).defined());
  EXPECT_FALSE(fit_order({0.1, 0.1}, {1e-3, 2e-3}).defined());
  EXPECT_FALSE(fit_order({0.1, 0.05}, {0.0, 0.0}).defined());
  EXPECT_THROW(fit_order({0.1, 0.05}, {1.0}), std::invalid_argument);
}

}  // namespace
}  // namespace nsh::reports
