#pragma once
// Bouncing ball on an undamped penalty spring (the second-order penalty, penalty2 with
// damping = 0, nsh/schemes/penalty2.hpp): mass m under gravity g, gap g = q, contact force
// kappa max(0, -q). Free flight is the ball of bouncing_ball.hpp; in contact
//
//   m q'' = -m g - kappa q,   q(0) = 0, q'(0) = -V,   V = sqrt(v0^2 + 2 g q0),
//   q(tau) = -delta (1 - cos(omega tau)) - (V/omega) sin(omega tau),
//   omega = sqrt(kappa/m),  delta = m g / kappa (the static sag),
//
// so the ball leaves the spring after the contact duration
//   T_c = (pi + 2 atan(g/(omega V))) / omega   ->  pi / sqrt(kappa/m) as g/(omega V) -> 0,
// with the exit velocity +V (the spring stores and returns the energy), after a deepest
// penetration d = delta + sqrt(delta^2 + (V/omega)^2) (the root of 1/2 kappa d^2 - m g d =
// 1/2 m V^2). An implicit (backward Euler) penalty step dissipates: E + V - F q never
// increases (penalty2.hpp's ledger), so its penetration stays below d.

#include <nsh/model/linear_model.hpp>

namespace nsh::cases {

template <class Scalar>
struct PenaltyBall {
  Scalar mass{1};
  Scalar gravity{0};   ///< g > 0, the force is -m g
  Scalar height{0};    ///< q0 > 0
  Scalar velocity{0};  ///< v0
  Scalar kappa{0};     ///< spring stiffness > 0
  Scalar t0{0};

  /// From a 1-dof model with K = C = 0, F = -m g < 0, G = [1], w = [0] and the stiffness;
  /// InputError naming the field otherwise.
  static PenaltyBall from_case(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                               const Scalar& kappa);

  Scalar impact_speed() const;              ///< V
  Scalar impact_time() const;               ///< first touch of q = 0
  Scalar omega() const;                     ///< sqrt(kappa/m)
  Scalar contact_duration() const;          ///< T_c
  Scalar undamped_spring_duration() const;  ///< pi / sqrt(kappa/m), the g -> 0 limit of T_c
  Scalar exit_velocity() const;             ///< +V
  Scalar max_penetration() const;           ///< d > 0 (the gap reaches -d)
};

}  // namespace nsh::cases
