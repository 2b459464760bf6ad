// The exact reference of the nonholonomic models (nsh/nonholonomic/exact_reference.hpp) in
// Real50: energy constant to 1e-45, impact points on g = 0 to 1e-45, every jump an elastic
// reflection (n^T u reversed), the knife edge's impacts at exactly pi/3 and 5 pi/3, u+ = (-1, 1/2),
// the rolling disk's six impacts before T = 12 (docs/theory.md §5), double agreeing with Real50.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/nonholonomic/exact_reference.hpp>

#include <gtest/gtest.h>
#include <boost/math/constants/constants.hpp>

#include <string>

namespace {

using nsh::Index;
using nsh::Real50;
using nsh::Vector;

template <class Scalar>
nsh::NonholonomicCase<Scalar> load_reference_case(const std::string& name) {
  return nsh::load_nonholonomic_case<Scalar>(
      nsh::read_case_file(std::string(NSH_SOURCE_DIR) + "/cases/data/" + name + ".json"));
}

const Real50 tight("1e-45");

// Every property of an exact reference that does not depend on the model.
void check_reference(const nsh::NonholonomicCase<Real50>& c,
                     const nsh::NonholonomicReference<Real50>& reference) {
  const auto& model = *c.model;
  const Real50 E0 = model.energy(c.initial.q, c.initial.v);
  Real50 previous = c.initial.t;
  for (const auto& impact : reference.impacts) {
    SCOPED_TRACE("impact at t = " + nsh::format_short(impact.t, 12));
    EXPECT_GT(impact.t, previous);
    previous = impact.t;
    EXPECT_LE(nsh::abs_value<Real50>(model.inequality(impact.q)(impact.inequality)), tight);
    EXPECT_LE(impact.residual, tight);
    EXPECT_LE(nsh::abs_value<Real50>(impact.energy_before - E0), tight * E0);
    EXPECT_LE(nsh::abs_value<Real50>(impact.energy_after - E0), tight * E0);
    EXPECT_GT(impact.normal_minus, Real50(0));
    EXPECT_LE(nsh::abs_value<Real50>(impact.normal_plus + impact.normal_minus),
              tight * impact.normal_minus);
    EXPECT_LE(nsh::max_abs(Vector<Real50>(model.one_forms(impact.q) * impact.v_plus)), tight);
  }
  // Between impacts: admissible, on the constraint, energy constant (sampled on a grid).
  const Index samples = 600;
  for (Index k = 0; k <= samples; ++k) {
    const Real50 t = c.initial.t + (reference.T - c.initial.t) * Real50(k) / Real50(samples);
    const auto s = nsh::reference_state<Real50>(model, reference, t);
    EXPECT_LE(s.t, t + tight);
    EXPECT_LE(nsh::abs_value<Real50>(model.energy(s.q, s.v) - E0), tight * E0) << k;
    EXPECT_LE(nsh::max_abs(Vector<Real50>(model.one_forms(s.q) * s.v)), tight) << k;
    EXPECT_LE(model.inequality(s.q).maxCoeff(), tight) << k;
  }
}

TEST(NonholonomicReference, RollingDiskHasSixImpactsBeforeT12) {
  const auto c = load_reference_case<Real50>("rolling-disk");
  const auto reference = nsh::exact_reference<Real50>(*c.model, c.initial, c.T);
  ASSERT_EQ(reference.impacts.size(), 6u);
  check_reference(c, reference);
  // The first impact: the disk, from the centre, rolls on the circle of radius R theta'/phi'
  // = 20/3 about (0, 20/3) until the end g_+ reaches the edge near t = 2.05 (an independent
  // double implementation of the closed form gives 2.0511).
  EXPECT_EQ(reference.impacts[0].inequality, 0);
  EXPECT_NEAR(reference.impacts[0].t.convert_to<double>(), 2.0511, 1e-4);
  // The reflection changes both reduced velocities (n has a phi-component at the edge).
  const auto& first = reference.impacts[0];
  EXPECT_GT(nsh::abs_value<Real50>(first.u_plus(1) - first.u_minus(1)), Real50("1e-3"));
  // double agrees with Real50 to its own precision.
  const auto lean = load_reference_case<double>("rolling-disk");
  const auto lean_reference = nsh::exact_reference<double>(*lean.model, lean.initial, lean.T);
  ASSERT_EQ(lean_reference.impacts.size(), reference.impacts.size());
  for (std::size_t i = 0; i < reference.impacts.size(); ++i) {
    EXPECT_NEAR(lean_reference.impacts[i].t, reference.impacts[i].t.convert_to<double>(), 1e-11);
    EXPECT_EQ(lean_reference.impacts[i].inequality, reference.impacts[i].inequality);
  }
}

TEST(NonholonomicReference, KnifeEdgeFirstImpactIsAtPiOverThree) {
  const auto c = load_reference_case<Real50>("knife-edge");
  const auto reference = nsh::exact_reference<Real50>(*c.model, c.initial, c.T);
  ASSERT_GE(reference.impacts.size(), 2u);
  check_reference(c, reference);
  // From the origin with s = 1, omega = 1/2: x = 2 sin(t/2) reaches the wall x = 1 at t = pi/3.
  const Real50 pi = boost::math::constants::pi<Real50>();
  EXPECT_LE(nsh::abs_value<Real50>(reference.impacts[0].t - pi / 3), tight);
  EXPECT_LE(nsh::abs_value<Real50>(reference.impacts[0].u_plus(0) + 1), tight);
  EXPECT_LE(nsh::abs_value<Real50>(reference.impacts[0].u_plus(1) - Real50(1) / 2), tight);
  // Reversed, it runs on the mirror circle of radius 2 centred on x = 2, whose arc x <= 1 subtends
  // 2 pi/3: at omega = 1/2 that is 4 pi/3 later, the second impact at 5 pi/3.
  EXPECT_LE(nsh::abs_value<Real50>(reference.impacts[1].t - 5 * pi / 3), tight);
  // Every jump reverses the speed and keeps the turning rate.
  for (const auto& impact : reference.impacts) {
    EXPECT_LE(nsh::abs_value<Real50>(impact.u_plus(0) + impact.u_minus(0)), tight);
    EXPECT_LE(nsh::abs_value<Real50>(impact.u_plus(1) - impact.u_minus(1)), tight);
  }
}

TEST(NonholonomicReference, NoImpactWithoutReachingTheBoundary) {
  auto c = load_reference_case<Real50>("rolling-disk");
  // A slow tight circle about the centre: radius R theta'/phi' = 1/2 never reaches the edge.
  c.initial.v(0) = Real50(1) / 2;
  c.initial.v(2) = Real50(1) / 2;
  c.initial.v(3) = Real50(1);
  const auto reference = nsh::exact_reference<Real50>(*c.model, c.initial, c.T);
  EXPECT_TRUE(reference.impacts.empty());
}

}  // namespace
