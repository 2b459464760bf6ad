#include <nsh/scalar.hpp>

#include <nsh/cases/bouncing_ball.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

#include <cmath>

namespace nsh::cases {

template <class Scalar>
BouncingBall<Scalar> BouncingBall<Scalar>::from_case(const LinearModel<Scalar>& model,
                                                     const State<Scalar>& initial) {
  if (model.dofs() != 1 || model.contacts() != 1)
    throw InputError(model.name, "bouncing ball: expected 1 degree of freedom and 1 contact");
  if (max_abs(model.K) != Scalar(0) || max_abs(model.C) != Scalar(0) || model.has_harmonic_force())
    throw InputError(model.name, "bouncing ball: expected K = C = 0 and a constant force");
  if (model.G(0, 0) != Scalar(1) || model.w(0) != Scalar(0))
    throw InputError(model.name, "bouncing ball: expected the gap g = q (G = [1], w = [0])");
  BouncingBall b;
  b.mass = model.M(0, 0);
  b.gravity = -model.F(0) / b.mass;
  if (!(b.gravity > Scalar(0)))
    throw InputError("F",
                     "bouncing ball: the force must point down, got " + format_scalar(model.F(0)));
  b.height = initial.q(0);
  b.velocity = initial.v(0);
  b.restitution = model.e(0);
  b.t0 = initial.t;
  if (!(b.height > Scalar(0)))
    throw InputError("q0", "bouncing ball: the ball must start above the ground");
  return b;
}

template <class Scalar>
Scalar BouncingBall<Scalar>::impact_speed() const {
  using std::sqrt;
  return sqrt(velocity * velocity + Scalar(2) * gravity * height);
}

template <class Scalar>
Scalar BouncingBall<Scalar>::impact_time(Index k) const {
  if (k < 1) throw InputError("k", "impacts are numbered from 1");
  const Scalar V = impact_speed();
  Scalar t = t0 + (velocity + V) / gravity;
  Scalar u = V;
  for (Index j = 1; j < k; ++j) {
    u *= restitution;
    t += Scalar(2) * u / gravity;
  }
  return t;
}

template <class Scalar>
Scalar BouncingBall<Scalar>::impact_velocity(Index k) const {
  if (k < 1) throw InputError("k", "impacts are numbered from 1");
  Scalar u = impact_speed();
  for (Index j = 1; j < k; ++j) u *= restitution;
  return -u;
}

template <class Scalar>
Scalar BouncingBall<Scalar>::apex_time(Index k) const {
  if (k == 0) return t0 + velocity / gravity;  // may be before t0 if v0 < 0
  return impact_time(k) + restitution * (-impact_velocity(k)) / gravity;
}

template <class Scalar>
Scalar BouncingBall<Scalar>::apex_height(Index k) const {
  if (k == 0) return height + velocity * velocity / (Scalar(2) * gravity);
  const Scalar u = restitution * (-impact_velocity(k));
  return u * u / (Scalar(2) * gravity);
}

template <class Scalar>
Scalar BouncingBall<Scalar>::accumulation_time() const {
  if (!(restitution < Scalar(1))) throw InputError("e", "bouncing ball: no accumulation for e = 1");
  const Scalar V = impact_speed();
  return t0 + (velocity + V) / gravity +
         Scalar(2) * restitution * V / (gravity * (Scalar(1) - restitution));
}

template <class Scalar>
State<Scalar> BouncingBall<Scalar>::state(const Scalar& t) const {
  State<Scalar> s;
  s.t = t;
  s.q = Vector<Scalar>(1);
  s.v = Vector<Scalar>(1);
  const Scalar V = impact_speed();
  Scalar tk = t0 + (velocity + V) / gravity;
  if (t < tk) {
    const Scalar dt = t - t0;
    s.q(0) = height + velocity * dt - gravity * dt * dt / Scalar(2);
    s.v(0) = velocity - gravity * dt;
    return s;
  }
  const bool accumulates = restitution < Scalar(1);
  const Scalar t_inf = accumulates ? accumulation_time() : Scalar(0);
  if (accumulates && !(t < t_inf)) {
    s.q(0) = Scalar(0);
    s.v(0) = Scalar(0);
    return s;
  }
  Scalar u = restitution * V;  // post-impact speed of the current flight
  for (Index k = 0; k < 10000000; ++k) {
    const Scalar flight = Scalar(2) * u / gravity;
    if (t < tk + flight || flight == Scalar(0)) {
      const Scalar dt = t - tk;
      s.q(0) = u * dt - gravity * dt * dt / Scalar(2);
      s.v(0) = u - gravity * dt;
      return s;
    }
    tk += flight;
    u *= restitution;
  }
  s.q(0) = Scalar(0);
  s.v(0) = Scalar(0);
  return s;
}

template struct BouncingBall<double>;
template struct BouncingBall<Real50>;

}  // namespace nsh::cases
