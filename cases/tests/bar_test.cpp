// The elastic bar impacting a rigid wall (bar.hpp): the generator, and the event-driven
// reference through the first contact for N = 10 and 100 (N = 1000 in bar_slow.cpp).
#include <nsh/scalar.hpp>

#include <nsh/cases/bar.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <cmath>
#include <vector>

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

// N = 1, lumped (two nodes of mass 1/2, spring 1): after the plastic impact at t = 0 node 0 is
// at rest with q = 0, so g'' = 0 and the acceleration LCP is degenerate; the third derivative
// g''' = -2 (node 1 still comes in) keeps the contact closed from t = 0. Node 1 then moves as
// q1 = -sin(w t) / w, w = sqrt(2), the multiplier is lambda = -q1 >= 0 and reaches zero at
// t = pi / sqrt(2) together with g'' (degenerate again); g''' = +2 releases it there, with node 0
// at rest and node 1 at +1. Node 0 then never returns (v0 = (1 - cos 2s) / 2 >= 0).
template <class Scalar>
void check_one_element_bar(const Scalar& tolerance) {
  using std::acos;
  using std::sqrt;
  nsh::cases::BarParameters<Scalar> p;
  const auto c = nsh::cases::make_bar<Scalar>(1, BarMass::lumped, p);
  nsh::EventDrivenFlow<Scalar> flow(c.model, c.initial);
  ASSERT_EQ(flow.closed_set(), std::vector<Index>{0});
  std::vector<nsh::Event<Scalar>> events = flow.initial_events();
  flow.advance_to(c.T, &events);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].kind, nsh::EventKind::impact);
  EXPECT_EQ(events[1].kind, nsh::EventKind::contact_closes);
  EXPECT_EQ(events[1].t, Scalar(0));
  EXPECT_EQ(events[2].kind, nsh::EventKind::contact_opens);
  const Scalar release = acos(Scalar(-1)) / sqrt(Scalar(2));
  EXPECT_LT(nsh::abs_value<Scalar>(Scalar(events[2].t - release)), tolerance)
      << nsh::format_scalar(events[2].t);
  // After the release: v0(s) = (1 - cos 2s) / 2, s = T - pi / sqrt(2).
  using std::cos;
  const Scalar v0 = (Scalar(1) - cos(Scalar(2) * (c.T - release))) / Scalar(2);
  EXPECT_LT(nsh::abs_value<Scalar>(Scalar(flow.state().v(0) - v0)), tolerance)
      << nsh::format_scalar(flow.state().v(0));
}

TEST(Bar, OneElementIsHeldAndReleasedByTheThirdDerivative) {
  check_one_element_bar<double>(1e-12);
  check_one_element_bar<nsh::Real50>(nsh::Real50("1e-35"));
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

// The sparse bar is the dense one entry by entry, and the event-driven flow on it (sparse LDL^T
// of the consistent M, diagonal inverse of the lumped one) agrees in double and Real50: the
// contact times to 1e-11 and the final state to 1e-10 (the double flow's error, not the model's).
TEST(Bar, SparseBarEqualsTheDenseOneAndItsFlowAgreesAcrossPrecisions) {
  for (BarMass mass : {BarMass::lumped, BarMass::consistent}) {
    // N = 70: above the flow's dense threshold (64 dofs), so the sparse path is what runs.
    const auto dense = nsh::cases::make_bar<double>(70, mass);
    const auto sparse = nsh::cases::make_sparse_bar<double>(70, mass);
    EXPECT_EQ(nsh::Matrix<double>(sparse.model.M), dense.model.M);
    EXPECT_EQ(nsh::Matrix<double>(sparse.model.K), dense.model.K);
    EXPECT_EQ(sparse.model.G, dense.model.G);
    EXPECT_EQ(sparse.initial.v, dense.initial.v);
    EXPECT_EQ(sparse.model.M.nonZeros(), mass == BarMass::lumped ? 71 : 211);

    const auto wide = nsh::cases::make_sparse_bar<nsh::Real50>(70, mass);
    nsh::EventDrivenFlow<double> flow(sparse.model, sparse.initial);
    nsh::EventDrivenFlow<nsh::Real50> flow50(wide.model, wide.initial);
    std::vector<nsh::Event<double>> events = flow.initial_events();
    std::vector<nsh::Event<nsh::Real50>> events50 = flow50.initial_events();
    flow.advance_to(2.5, &events);
    flow50.advance_to(nsh::Real50("2.5"), &events50);
    ASSERT_EQ(events.size(), events50.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
      EXPECT_EQ(events[i].kind, events50[i].kind) << i;
      EXPECT_NEAR(events[i].t, static_cast<double>(events50[i].t), 1e-11) << i;
    }
    const nsh::Vector<double> v50 = nsh::scalar_cast<double>(flow50.state().v);
    EXPECT_LT(nsh::max_abs(nsh::Vector<double>(flow.state().v - v50)), 1e-10);
  }
}

}  // namespace
