#pragma once
// The Coulomb (stick-slip) oscillator in closed form (Den Hartog 1931): a body on a spring
// sliding on rough supports whose normal contacts stay closed, recognised from a model's data.
//
// Hypotheses (each refused by InputError naming its field): C = 0 and no harmonic force; one
// sliding coordinate x = q_j with K = k e_j e_j^T (k > 0) and M e_j = m e_j (M decoupled on
// x); every contact has d = 1 and slides along x only (G_T column a = c_a e_j, c_a != 0, so
// U_T^a = c_a x'); no normal involves x (G(j, a) = 0); every contact closed at t0 (g = 0,
// U_N = 0). Then the normal problem does not see x at all: with W_NN = G^T M^-1 G (invertible)
// the normal forces are the constants lambda_N = -W_NN^-1 G^T M^-1 F (each > 0: the contacts
// stay closed), the other coordinates move with the constant acceleration
// M^-1 (F + G lambda_N) (zero for a body resting on as many supports as it has normal freedoms),
// and the largest friction force along x is Phi = sum_a |c_a| mu_a lambda_N^a. Along x:
//
//   m x'' + k x = F_x - s Phi          while sliding with s = sign x' (friction opposes x'),
//   x' = 0 and |F_x - k x| <= Phi      sticks for ever,
//   x' = 0 and |F_x - k x| >  Phi      slides in the direction s = sign(F_x - k x).
//
// A slide is harmonic about the shifted centre c_s = (F_x - s Phi) / k with w = sqrt(k/m):
//   x = c_s + a cos(w tau) + b sin(w tau),  a = x_s - c_s,  b = v_s / w,  tau = t - t_s,
// and, with (s a, s b) = R (cos theta, sin theta), theta in (0, pi] (pi from rest), it stops
// after tau = theta / w at x = c_s + s R. There F_x - k x = s (Phi - k R), so it sticks iff
// R <= 2 Phi / k and otherwise reverses from rest with amplitude R - 2 Phi / k for exactly
// half a period pi / w: the amplitude falls by 2 Phi / k per half cycle (finitely many slides).
// The stop times need atan2 and the slides sin and cos: double and Real50 only.

#include <nsh/model/linear_model.hpp>

#include <optional>
#include <vector>

namespace nsh::cases {

template <class Scalar>
class CoulombOscillator {
 public:
  enum class Mode { slide_positive, slide_negative, stick };

  struct Phase {
    Scalar start;               ///< phase start time
    std::optional<Scalar> end;  ///< the stop (none: sticks for ever)
    Mode mode{Mode::stick};
    Scalar position{0};  ///< x at `start`
    Scalar velocity{0};  ///< x' at `start`
    Scalar centre{0};    ///< c_s of a slide, x of a stick
  };

  /// The closed form of `model` from `initial`; InputError naming the field of the first
  /// hypothesis that fails (above).
  static CoulombOscillator from_case(const LinearModel<Scalar>& model,
                                     const State<Scalar>& initial);

  /// The state at t >= t0 (q and v continuous).
  State<Scalar> state(const Scalar& t) const;
  const std::vector<Phase>& phases() const { return phases_; }
  /// The sliding coordinate j.
  Index coordinate() const { return coordinate_; }
  Scalar mass() const { return mass_; }
  Scalar stiffness() const { return stiffness_; }
  Scalar omega() const { return omega_; }
  /// F_x: the constant force along x.
  Scalar tangential_force() const { return force_; }
  /// Phi = sum_a |c_a| mu_a lambda_N^a: the friction force along x while sliding.
  Scalar friction_force() const { return friction_force_; }
  /// lambda_N, one per contact (constant).
  const Vector<Scalar>& normal_forces() const { return normal_forces_; }

 private:
  std::vector<Phase> phases_;
  State<Scalar> initial_;
  Vector<Scalar> other_acceleration_;  // M^-1 (F + G lambda_N), zero in entry j
  Index coordinate_{0};
  Scalar mass_{1}, stiffness_{1}, omega_{1}, force_{0}, friction_force_{0};
  Vector<Scalar> normal_forces_;
};

}  // namespace nsh::cases
