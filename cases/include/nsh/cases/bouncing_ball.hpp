#pragma once
// Bouncing ball: one mass m under gravity g above the ground, gap g = q, Newton restitution e.
//
//   first impact   t_1 = (v_0 + V) / g,  V = sqrt(v_0^2 + 2 g q_0)   (impact speed)
//   impact k >= 1  U_k^- = -e^(k-1) V,   t_{k+1} = t_k + 2 e^k V / g
//   apex k >= 0    q0 e^(2k) for v0 = 0  (in general (e^k V)^2 / (2g) after impact k >= 1)
//   accumulation   t_inf = t_1 + 2 e V / (g (1 - e)) = t_1 (1 + e) / (1 - e) for v0 = 0,
//                  after which the ball rests (q = v = 0) for e < 1.

#include <nsh/model/linear_model.hpp>

namespace nsh::cases {

template <class Scalar>
struct BouncingBall {
  Scalar mass{1};
  Scalar gravity{0};   ///< g > 0, the force is -m g
  Scalar height{0};    ///< q0 > 0
  Scalar velocity{0};  ///< v0
  Scalar restitution{0};
  Scalar t0{0};

  /// From a 1-dof model with F = -m g < 0, G = [1], w = [0]; InputError otherwise.
  static BouncingBall from_case(const LinearModel<Scalar>& model, const State<Scalar>& initial);

  Scalar impact_speed() const;                 ///< V
  Scalar impact_time(Index k) const;           ///< t_k, k >= 1
  Scalar impact_velocity(Index k) const;       ///< U_k^- < 0
  Scalar apex_time(Index k) const;             ///< time of the apex after impact k (k = 0: first)
  Scalar apex_height(Index k) const;           ///< height of that apex
  Scalar accumulation_time() const;            ///< t_inf (InputError for e = 1)
  State<Scalar> state(const Scalar& t) const;  ///< right-continuous state at t >= t0
};

}  // namespace nsh::cases
