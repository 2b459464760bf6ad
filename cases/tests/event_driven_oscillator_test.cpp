// The event-driven reference without contact is the exact flow: free and forced/damped
// oscillators against their closed forms (oscillator.hpp), and the oscillator against a stop
// against its closed-form impact sequence.
#include <nsh/scalar.hpp>

#include <nsh/cases/oscillator.hpp>
#include <nsh/driver.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using nsh::Real50;
using nsh::cases::test::load;
using nsh::cases::test::relative_error;

template <class Scalar>
void check_oscillator(const std::string& name, const Scalar& h, const Scalar& tol) {
  const auto c = load<Scalar>(name);
  const auto exact = nsh::cases::Oscillator<Scalar>::from_case(c.model, c.initial);
  auto scheme = nsh::Registry::builtin().make<Scalar>("event-driven");
  const auto traj = nsh::record<Scalar>(*scheme, c.model, c.initial, h, c.T);
  Scalar worst(0), identity(0);
  for (const auto& s : traj.states) {
    const auto e = exact.state(s.t);
    worst = std::max(worst, nsh::abs_value<Scalar>(s.q(0) - e.q(0)));
    worst = std::max(worst, nsh::abs_value<Scalar>(s.v(0) - e.v(0)));
  }
  for (const auto& s : traj.steps)
    identity = std::max(identity, nsh::abs_value<Scalar>(s.energy_identity_defect()));
  EXPECT_LE(worst, tol) << name;
  EXPECT_LE(identity, tol) << name;
  EXPECT_TRUE(nsh::compute_events<Scalar>(c.model, c.initial, c.T).empty());
}

TEST(EventDrivenOscillator, FreeReal50MatchesClosedFormToE40) {
  check_oscillator<Real50>("free-oscillator", Real50(1) / 10, Real50("1e-40"));
}

TEST(EventDrivenOscillator, ForcedDampedReal50MatchesClosedFormToE40) {
  check_oscillator<Real50>("forced-oscillator", Real50(1) / 10, Real50("1e-40"));
}

TEST(EventDrivenOscillator, FreeAndForcedDouble) {
  check_oscillator<double>("free-oscillator", 0.01, 1e-12);
  check_oscillator<double>("forced-oscillator", 0.01, 1e-12);
}

TEST(EventDrivenOscillator, WorkTermsOfTheForcedOscillatorAreNonTrivial) {
  // The balance above would hold trivially if W_ext and W_damp were zero.
  const auto c = load<Real50>("forced-oscillator");
  auto scheme = nsh::Registry::builtin().make<Real50>("event-driven");
  const auto traj = nsh::record<Real50>(*scheme, c.model, c.initial, Real50(1), c.T);
  Real50 ext(0), damp(0);
  for (const auto& s : traj.steps) {
    ext += nsh::abs_value<Real50>(s.W_ext);
    damp += s.W_damp;
  }
  EXPECT_GT(ext, Real50("0.1"));
  EXPECT_LT(damp, Real50(0));
}

template <class Scalar>
void check_stop(const Scalar& tol) {
  const auto c = load<Scalar>("oscillator-stop");
  const auto exact = nsh::cases::OscillatorStop<Scalar>::from_case(c.model, c.initial);
  const auto events = nsh::compute_events<Scalar>(c.model, c.initial, c.T);
  std::vector<nsh::Event<Scalar>> impacts;
  for (const auto& ev : events)
    if (ev.kind == nsh::EventKind::impact) impacts.push_back(ev);
  ASSERT_GE(impacts.size(), 3u);
  for (std::size_t k = 0; k < impacts.size(); ++k) {
    const auto K = static_cast<nsh::Index>(k + 1);
    EXPECT_LE(relative_error(impacts[k].t, exact.impact_time(K)), tol) << "impact " << K;
    EXPECT_LE(relative_error(impacts[k].U_minus, exact.impact_velocity(K)), tol) << K;
  }
  // Every impact the closed form predicts before T is found, and no other.
  EXPECT_GT(exact.impact_time(static_cast<nsh::Index>(impacts.size() + 1)), c.T);
}

TEST(EventDrivenOscillatorStop, Real50ImpactSequenceToE35) {
  check_stop<Real50>(Real50("1e-35"));
}
TEST(EventDrivenOscillatorStop, DoubleImpactSequence) {
  check_stop<double>(1e-11);
}

}  // namespace
