#pragma once
// Models and measures shared by the tests of half-explicit-tdg and of the forecasting
// trapezoidal rule (half_explicit_tdg_test.cpp, forecasting_trapezoidal_test.cpp).
#include <nsh/model/linear_model.hpp>
#include <nsh/number.hpp>

#include <cmath>
#include <vector>

namespace nsh::hets_test {

/// A ball of unit mass over the ground: g = q, gravity F = -gravity, restitution e.
template <class S>
inline LinearModel<S> hets_ball(const S& gravity, const S& e) {
  LinearModel<S> model;
  model.name = "ball";
  model.M = Matrix<S>::Identity(1, 1);
  model.F = Vector<S>::Constant(1, -gravity);
  model.G = Matrix<S>::Identity(1, 1);
  model.e = Vector<S>::Constant(1, e);
  fill_defaults(model);
  model.validate();
  return model;
}

/// q = (x, y), M = [[2, 1], [1, 2]], a spring on x, gravity on y, contact y >= 0: with y at
/// rest, x = x0 cos(t / sqrt 2) and the contact force 10 + x'' varies with time.
template <class S>
inline LinearModel<S> coupled_resting() {
  LinearModel<S> model;
  model.name = "coupled-resting";
  model.M = Matrix<S>(2, 2);
  model.M << 2, 1, 1, 2;
  model.K = Matrix<S>::Zero(2, 2);
  model.K(0, 0) = 1;
  model.F = Vector<S>(2);
  model.F << 0, -10;
  model.G = Matrix<S>(2, 1);
  model.G << 0, 1;
  model.e = Vector<S>::Zero(1);
  fill_defaults(model);
  model.validate();
  return model;
}

/// Least-squares slope of log(error) against log(h).
inline double order_of(const std::vector<double>& hs, const std::vector<double>& errors) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(hs.size());
  for (std::size_t i = 0; i < hs.size(); ++i) {
    const double x = std::log(hs[i]), y = std::log(errors[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/// The bouncing ball q0 = 1, u0 = 0, gravity 10, e = 1/2, exactly: impacts at t_i with
/// speeds halving.
inline double ball_position(double t) {
  const double g = 10, e = 0.5;
  double t0 = 0, q0 = 1, v0 = 0;
  for (int i = 0; i < 60; ++i) {
    // Next impact: q0 + v0 s - g s^2 / 2 = 0.
    const double s = (v0 + std::sqrt(v0 * v0 + 2 * g * q0)) / g;
    if (t <= t0 + s) {
      const double d = t - t0;
      return q0 + v0 * d - g * d * d / 2;
    }
    const double v_minus = v0 - g * s;
    t0 += s;
    q0 = 0;
    v0 = -e * v_minus;
  }
  return 0;
}

}  // namespace nsh::hets_test
