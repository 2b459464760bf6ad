// The rod across two corners converges to a Moreau–Jean Real50 run at small h (its reference:
// no closed form, and the event-driven scheme extends only the linear family).
#include <nsh/scalar.hpp>

#include <nsh/cases/rod_on_corners.hpp>
#include <nsh/driver.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace {

using nsh::Real50;
using nsh::State;
using nsh::Vector;
using nsh::cases::RodOnCorners;
using nsh::cases::RodOnCornersParameters;

template <class Scalar>
RodOnCornersParameters<Scalar> parameters() {
  RodOnCornersParameters<Scalar> p;
  p.mass = Scalar(1);
  p.half_length = Scalar(1);
  p.gravity = Scalar(981) / 100;
  p.restitution = Scalar(0);
  p.friction_coefficient = Scalar(1) / 2;
  p.corner_x = Vector<Scalar>(2);
  p.corner_x << Scalar(-1) / 2, Scalar(1) / 2;
  p.corner_y = Vector<Scalar>(2);
  p.corner_y << Scalar(0), Scalar(1) / 5;
  return p;
}

template <class Scalar>
State<Scalar> initial() {
  State<Scalar> s;
  s.t = Scalar(0);
  s.q = Vector<Scalar>(3);
  s.q << Scalar(1) / 10, Scalar(1) / 2, Scalar(0);
  s.v = Vector<Scalar>(3);
  s.v << Scalar(1) / 2, Scalar(0), Scalar(1) / 2;
  return s;
}

TEST(RodOnCornersConvergence, PositionAtTConvergesToTheReal50ReferenceAtOrderOne) {
  const char* spec = "moreau-jean:theta=1,activation=position";
  const RodOnCorners<Real50> r(parameters<Real50>());
  const RodOnCorners<double> d(parameters<double>());
  auto sr = nsh::Registry::builtin().make<Real50>(spec);
  const auto ref = nsh::record<Real50>(*sr, r, initial<Real50>(), Real50(1) / 25600, Real50(1) / 2);
  const Vector<double> q_ref = nsh::scalar_cast<double>(ref.states.back().q);
  std::vector<double> errors;
  const std::vector<int> steps = {50, 100, 200, 400, 800};
  for (int n : steps) {
    auto sd = nsh::Registry::builtin().make<double>(spec);
    const auto t = nsh::record<double>(*sd, d, initial<double>(), 0.5 / n, 0.5);
    errors.push_back((t.states.back().q - q_ref).cwiseAbs().maxCoeff());
    std::printf("h = %g: |q(T) - q_ref| = %.3e\n", 0.5 / n, errors.back());
  }
  // Least-squares slope of log error against log h: single halvings jitter (an impact's place
  // inside its step changes with h), the fit over a factor 16 does not.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < errors.size(); ++i) {
    const double x = std::log(0.5 / steps[i]), y = std::log(errors[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double n = static_cast<double>(errors.size());
  const double order = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  std::printf("fitted order %.2f\n", order);
  EXPECT_GT(order, 0.8);
  EXPECT_LT(order, 1.6);
  EXPECT_LT(errors.back(), errors.front() / 8);
}

}  // namespace
