#include <nsh/scalar.hpp>

#include <nsh/cases/penalty_ball.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

#include <boost/math/constants/constants.hpp>

#include <cmath>

namespace nsh::cases {

template <class Scalar>
PenaltyBall<Scalar> PenaltyBall<Scalar>::from_case(const LinearModel<Scalar>& model,
                                                   const State<Scalar>& initial,
                                                   const Scalar& kappa) {
  if (model.dofs() != 1 || model.contacts() != 1)
    throw InputError(model.name, "penalty ball: expected 1 degree of freedom and 1 contact");
  if (max_abs(model.K) != Scalar(0) || max_abs(model.C) != Scalar(0) || model.has_harmonic_force())
    throw InputError(model.name, "penalty ball: expected K = C = 0 and a constant force");
  if (model.G(0, 0) != Scalar(1) || model.w(0) != Scalar(0))
    throw InputError(model.name, "penalty ball: expected the gap g = q (G = [1], w = [0])");
  if (!(kappa > Scalar(0)))
    throw InputError("kappa",
                     "penalty ball: the stiffness must be > 0, got " + format_scalar(kappa));
  PenaltyBall b;
  b.mass = model.M(0, 0);
  b.gravity = -model.F(0) / b.mass;
  if (!(b.gravity > Scalar(0)))
    throw InputError("F",
                     "penalty ball: the force must point down, got " + format_scalar(model.F(0)));
  b.height = initial.q(0);
  b.velocity = initial.v(0);
  b.kappa = kappa;
  b.t0 = initial.t;
  if (!(b.height > Scalar(0)))
    throw InputError("q0", "penalty ball: the ball must start above the ground");
  return b;
}

template <class Scalar>
Scalar PenaltyBall<Scalar>::impact_speed() const {
  using std::sqrt;
  return sqrt(velocity * velocity + Scalar(2) * gravity * height);
}

template <class Scalar>
Scalar PenaltyBall<Scalar>::impact_time() const {
  return t0 + (velocity + impact_speed()) / gravity;
}

template <class Scalar>
Scalar PenaltyBall<Scalar>::omega() const {
  using std::sqrt;
  return sqrt(kappa / mass);
}

template <class Scalar>
Scalar PenaltyBall<Scalar>::contact_duration() const {
  using std::atan;
  const Scalar w = omega();
  return (boost::math::constants::pi<Scalar>() + Scalar(2) * atan(gravity / (w * impact_speed()))) /
         w;
}

template <class Scalar>
Scalar PenaltyBall<Scalar>::undamped_spring_duration() const {
  return boost::math::constants::pi<Scalar>() / omega();
}

template <class Scalar>
Scalar PenaltyBall<Scalar>::exit_velocity() const {
  return impact_speed();
}

template <class Scalar>
Scalar PenaltyBall<Scalar>::max_penetration() const {
  using std::sqrt;
  const Scalar delta = mass * gravity / kappa;
  const Scalar swing = impact_speed() / omega();
  return delta + sqrt(delta * delta + swing * swing);
}

template struct PenaltyBall<double>;
template struct PenaltyBall<Real50>;

}  // namespace nsh::cases
