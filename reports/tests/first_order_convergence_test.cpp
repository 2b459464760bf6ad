// `nsh converge sweeping-interval --scheme catching-up` (issue 6): order 1 from the
// least-squares fit, and the sup errors equal docs/theory.md §6 item 5's s (h - s) / h.
#include <nsh/error.hpp>
#include <nsh/io/sweeping_case.hpp>
#include <nsh/number.hpp>
#include <nsh/reports/convergence.hpp>
#include <nsh/scalar.hpp>

#include <gtest/gtest.h>

namespace nsh::reports {
namespace {

TEST(FirstOrderConvergence, CatchingUpIsOrderOneOnTheSweepingInterval) {
  ConvergenceOptions options;
  options.case_name = "sweeping-interval";
  options.schemes = {"catching-up"};
  // h = 2/(2N + 1): 1/h is never an integer, so the kink falls mid-cell and s(h - s)/h = h/4.
  options.h = {"2/7", "2/15", "2/31", "2/63", "2/127"};
  // In Real50 the rounding of x_{k+1} = x_k - h stays far below the 1e-15 relative check.
  options.precisions = {"50"};
  const auto studies = run_convergence(options);
  ASSERT_EQ(studies.size(), 1u);
  const ConvergenceStudy& study = studies.front();
  ASSERT_EQ(study.errors.at("x_sup").size(), options.h.size());
  for (std::size_t i = 0; i < options.h.size(); ++i) {
    const double h = parse_number<double>(options.h[i], "h");
    const double exact = sweeping_interval_sup_error<double>(h);
    EXPECT_NEAR(study.errors.at("x_sup")[i], exact, 1e-15 * exact);
    EXPECT_LT(study.errors.at("x_final")[i], 1e-40);  // x_N = max(1 - N h, 0) = 0 = x(T)
  }
  EXPECT_NEAR(study.fits.at("x_sup").order, 1.0, 0.01);
  EXPECT_LT(study.fits.at("x_sup").residual, 1e-6);
}

TEST(FirstOrderConvergence, OtherFirstOrderCasesHaveNoReferenceYet) {
  ConvergenceOptions options;
  options.case_name = "sweeping-polygon";
  options.schemes = {"catching-up"};
  options.h = {"1/10", "1/20"};
  try {
    run_convergence(options);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "CASE");
  }
}

}  // namespace
}  // namespace nsh::reports
