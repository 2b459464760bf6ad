// The bar with N = 1000 elements through its first contact, and the approach of the contact
// time and exit velocity to the continuum values 2 L / c and +v0 as N = 10, 100, 1000 (like
// N^(-2/3)).
#include <nsh/scalar.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "bar_support.hpp"

namespace {

using nsh::Index;
using nsh::cases::BarMass;

TEST(BarSlow, ContactTimeAndExitVelocityConvergeWithN) {
  for (BarMass mass : {BarMass::lumped, BarMass::consistent}) {
    double previous_time_error = 1e300, previous_velocity_error = 1e300;
    const std::vector<Index> sizes{10, 100, 1000};
    for (Index N : sizes) {
      const auto r = nsh::cases::test::first_contact(N, mass);
      const double te = std::abs(r.duration - 2.0), ve = std::abs(r.exit_velocity - 1.0);
      std::printf(
          "N = %ld %s: contact %.8f (error %.2e), exit velocity %.8f (error %.2e), "
          "%zu events\n",
          long(N), mass == BarMass::lumped ? "lumped" : "consistent", r.duration, te,
          r.exit_velocity, ve, r.events);
      EXPECT_LT(te, previous_time_error) << N;
      EXPECT_LT(ve, previous_velocity_error) << N;
      // Between N = 100 and 1000 the errors fall like N^(-2/3) (the dispersive spreading of the
      // wave front; see bar_deep.cpp): observed exponent 0.66.
      if (N == 1000) {
        EXPECT_NEAR(std::log10(previous_time_error / te), 2.0 / 3.0, 0.12) << "contact time";
        EXPECT_NEAR(std::log10(previous_velocity_error / ve), 2.0 / 3.0, 0.12) << "velocity";
      }
      previous_time_error = te;
      previous_velocity_error = ve;
    }
    // The finest mesh is within 2 percent of the continuum (N = 1000: 0.3 percent).
    EXPECT_LT(previous_time_error, 0.02);
    EXPECT_LT(previous_velocity_error, 0.02);
  }
}

}  // namespace
