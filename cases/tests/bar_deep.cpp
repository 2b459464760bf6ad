// The bar at N = 10^4 elements (issue 4: "N from 10 to 10^4"), lumped and consistent mass, on the
// sparse model: through its first contact, with contact time and exit velocity closer to the
// continuum values 2 L / c = 2 and +v0 = 1 than at N = 1000, and the error shrinking like 1 / N
// (the finite-element dispersion of the wave front). Label deep: minutes, not run by the CI gate
// (`ctest --preset deep`).
#include <nsh/scalar.hpp>

#include <gtest/gtest.h>

#include <cstdio>

#include "bar_support.hpp"

namespace {

using nsh::cases::BarMass;

TEST(BarDeep, TenThousandElementsApproachTheContinuum) {
  for (BarMass mass : {BarMass::lumped, BarMass::consistent}) {
    const auto coarse = nsh::cases::test::first_contact(1000, mass);
    const auto fine = nsh::cases::test::first_contact(10000, mass);
    const double coarse_time = std::abs(coarse.duration - 2.0);
    const double fine_time = std::abs(fine.duration - 2.0);
    const double coarse_velocity = std::abs(coarse.exit_velocity - 1.0);
    const double fine_velocity = std::abs(fine.exit_velocity - 1.0);
    std::printf(
        "N = 10000 %s: contact %.8f (error %.2e), exit velocity %.8f (error %.2e), "
        "%zu events\n",
        mass == BarMass::lumped ? "lumped" : "consistent", fine.duration, fine_time,
        fine.exit_velocity, fine_velocity, fine.events);
    // Ten times finer: the errors shrink by a factor near 10 (first order in 1 / N).
    EXPECT_GT(coarse_time / fine_time, 4.0);
    EXPECT_LT(coarse_time / fine_time, 25.0);
    EXPECT_GT(coarse_velocity / fine_velocity, 4.0);
    EXPECT_LT(coarse_velocity / fine_velocity, 25.0);
    EXPECT_LT(fine_time, 1e-3);
    EXPECT_LT(fine_velocity, 1e-3);
  }
}

}  // namespace
