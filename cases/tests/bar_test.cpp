// The elastic bar impacting a rigid wall (bar.hpp): the generator, and the event-driven
// reference through the first contact for N = 10 and 100 (N = 1000 in bar_slow.cpp).
#include <nsh/scalar.hpp>

#include <nsh/cases/bar.hpp>
#include <nsh/error.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <gtest/gtest.h>

#include "bar_support.hpp"
#include "test_support.hpp"

namespace {

using nsh::Index;
using nsh::Rational;
using nsh::cases::BarMass;

TEST(Bar, GeneratorIsExactAndMatchesTheCaseFile) {
  const auto file = nsh::cases::test::load<Rational>("impacting-bar");
  const auto made = nsh::cases::make_bar<Rational>(100, BarMass::lumped);
  EXPECT_EQ(file.model.M, made.model.M);
  EXPECT_EQ(file.model.K, made.model.K);
  EXPECT_EQ(file.model.G, made.model.G);
  EXPECT_EQ(file.initial.v, made.initial.v);
  const auto consistent = nsh::cases::test::load<Rational>("impacting-bar-consistent");
  const auto made_c = nsh::cases::make_bar<Rational>(100, BarMass::consistent);
  EXPECT_EQ(consistent.model.M, made_c.model.M);
  // Total mass rho A L = 1 for both mass matrices; K annihilates the rigid motion.
  const nsh::Vector<Rational> ones = nsh::Vector<Rational>::Ones(101);
  EXPECT_EQ(ones.dot(made.model.M * ones), Rational(1));
  EXPECT_EQ(ones.dot(made_c.model.M * ones), Rational(1));
  EXPECT_EQ(nsh::max_abs(made.model.K * ones), Rational(0));
  EXPECT_THROW(nsh::cases::make_bar<double>(0, BarMass::lumped), nsh::InputError);
}

TEST(Bar, ContinuumFacts) {
  nsh::cases::BarParameters<double> p;
  p.youngs_modulus = 4;  // c = 2
  EXPECT_DOUBLE_EQ(nsh::cases::bar_wave_speed(p), 2.0);
  EXPECT_DOUBLE_EQ(nsh::cases::bar_contact_duration(p), 1.0);
  EXPECT_DOUBLE_EQ(nsh::cases::bar_exit_velocity(p), 1.0);
}

TEST(Bar, FirstContactApproachesTheContinuumAsNGrows) {
  for (BarMass mass : {BarMass::lumped, BarMass::consistent}) {
    double previous_time_error = 1e300, previous_velocity_error = 1e300;
    for (Index N : {Index(10), Index(100)}) {
      const auto r = nsh::cases::test::first_contact(N, mass);
      const double te = std::abs(r.duration - 2.0), ve = std::abs(r.exit_velocity - 1.0);
      std::printf("N = %ld %s: contact %.6f, exit velocity %.6f, %zu events\n", long(N),
                  mass == BarMass::lumped ? "lumped" : "consistent", r.duration, r.exit_velocity,
                  r.events);
      EXPECT_LT(te, previous_time_error) << N;
      EXPECT_LT(ve, previous_velocity_error) << N;
      previous_time_error = te;
      previous_velocity_error = ve;
    }
  }
}

}  // namespace
