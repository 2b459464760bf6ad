#pragma once
// One-degree-of-freedom linear oscillator without contact, closed form:
//
//   m q'' + c q' + k q = F0 + Fa sin(Omega t),   q(t0) = q0, q'(t0) = v0,  k > 0, c^2 < 4 m k.
//
//   particular  q_p = F0/k + A sin(Omega t) + B cos(Omega t),
//               D = (k - m Omega^2)^2 + (c Omega)^2,  A = Fa (k - m Omega^2) / D,  B = -Fa c Omega
//               / D
//   homogeneous q_h = exp(-gamma s)(C1 cos(w_d s) + C2 sin(w_d s)),  s = t - t0,
//               gamma = c / (2m),  w_d = sqrt(k/m - gamma^2),
//               C1 = q0 - q_p(t0),  C2 = (v0 - q_p'(t0) + gamma C1) / w_d.
// The free oscillator is c = F0 = Fa = 0: q = q0 cos(w s) + (v0/w) sin(w s).

#include <nsh/model/linear_model.hpp>

namespace nsh::cases {

template <class Scalar>
struct Oscillator {
  Scalar mass{1}, damping{0}, stiffness{1}, force{0}, amplitude{0}, omega{0};
  Scalar q0{0}, v0{0}, t0{0};

  /// From a 1-dof model without contacts (InputError otherwise, or if over/critically damped,
  /// or undamped at resonance).
  static Oscillator from_case(const LinearModel<Scalar>& model, const State<Scalar>& initial);
  State<Scalar> state(const Scalar& t) const;
};

/// Linear oscillator m q'' + k q = 0 against a stop g = q + d >= 0 (0 < d < amplitude), Newton
/// restitution e, closed-form impact sequence (w = sqrt(k/m), A the free amplitude):
///   t_1 solves q(t_1) = -d on the first descent,  U_1^- = -w sqrt(A^2 - d^2),
///   U_k^- = -e^(k-1) |U_1^-|,  t_{k+1} = t_k + 2 acos(-d / A_k) / w,
///   A_k = sqrt(d^2 + (e^k |U_1^-| / w)^2)   (the flights approach 2 pi / w: no accumulation).
template <class Scalar>
struct OscillatorStop {
  Scalar mass{1}, stiffness{1}, stop{0}, restitution{0}, q0{0}, v0{0}, t0{0};
  static OscillatorStop from_case(const LinearModel<Scalar>& model, const State<Scalar>& initial);
  Scalar impact_time(Index k) const;      ///< k >= 1
  Scalar impact_velocity(Index k) const;  ///< U_k^- < 0
};

}  // namespace nsh::cases
