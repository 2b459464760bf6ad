#pragma once
// Closed forms of the frictional catalogue cases (docs/theory.md §9.2, docs/case-files.md,
// "Frictional cases"), recognised from a model's data, never from its name:
//
// PersistentContact: one contact with d = 1 that is closed at t0 (g = 0, U_N = 0) and pressed
// by constant forces (K = C = 0, no harmonic force), so that it stays closed: the motion is a
// sequence of phases of constant acceleration, each one of
//   slide  (U_T != 0, s = sign U_T):  P_T-rate lambda_T = -s mu lambda_N, with lambda_N from
//          U_N' = 0: lambda_N = -f_N / (W_NN - s mu W_NT);
//   stick  (U_T = 0): U_N' = U_T' = 0, W lambda = -f, accepted iff |lambda_T| <= mu lambda_N;
//   start  (U_T = 0, stick refused): slide in the direction s whose acceleration agrees with s;
// with W = B^T M^-1 B and f = B^T M^-1 F the free local accelerations, B = [G, G_T]. A slide
// whose tangential acceleration opposes s ends when U_T reaches 0 (the sliding block's
// t* = v0/(mu g), the rolling ball's t_r = 2 v0/(7 mu g)); the next phase is decided there.
// Every phase is a quadratic in t with rational coefficients: exact in Rational.
//
// frictional_impact: the Newton-Coulomb impact of docs/friction.md at one instant (the
// impulse problem with W = B_I^T M^-1 B_I, b_N = U_N- + e min(U_N-, 0), b_T = U_T-), solved
// by nsh's certified friction solvers (Lemke for d = 1, exact in Rational); the ballistic
// closed form of analytic.hpp uses it at the impacts of a frictional model (the oblique
// impact of a disk).
//
// The textbook facts the tests check these against (sliding block, incline, rolling sphere and
// cylinder, the disk's oblique impact) are written out in the tests from the files' parameters,
// independently of this code.

#include <nsh/model/linear_model.hpp>

#include <optional>
#include <vector>

namespace nsh::cases {

template <class Scalar>
class PersistentContact {
 public:
  enum class Mode { slide_positive, slide_negative, stick };

  struct Phase {
    Scalar start;               ///< phase start time
    std::optional<Scalar> end;  ///< end time (none: the phase lasts for ever)
    Mode mode{Mode::stick};
    State<Scalar> initial;        ///< state at `start`
    Vector<Scalar> acceleration;  ///< v' during the phase
    Scalar normal_force{0};       ///< lambda_N (> 0: the contact stays closed)
    Scalar tangential_force{0};   ///< lambda_T
  };

  /// The phases of `model` from `initial`. InputError naming the field whose hypothesis fails:
  /// "G" (not one contact, or not closed at t0), "G_T" (d != 1), "K"/"C"/"F_amplitude"
  /// (not constant forces), "F" (the contact is not pressed: lambda_N <= 0 in some phase).
  static PersistentContact from_case(const LinearModel<Scalar>& model,
                                     const State<Scalar>& initial);

  /// The state at t >= t0 (right-continuous; the velocity is continuous here).
  State<Scalar> state(const Scalar& t) const;
  const std::vector<Phase>& phases() const { return phases_; }
  /// The first time U_T reaches 0 from a slide (the stop or the onset of rolling), if any.
  std::optional<Scalar> stick_time() const;

 private:
  std::vector<Phase> phases_;
};

template <class Scalar>
struct FrictionalImpact {
  Vector<Scalar> v_plus;   ///< post-impact velocity
  Vector<Scalar> impulse;  ///< local impulse of the contacts in `index_set`, contact-major [N, T..]
  std::vector<Index> index_set;
};

/// The frictional impact of `model` at velocity `v_minus` on the contacts `index_set`
/// (approaching or not, as solve_impact). StepError if the friction solver does not certify.
template <class Scalar>
FrictionalImpact<Scalar> frictional_impact(const LinearModel<Scalar>& model,
                                           const Vector<Scalar>& v_minus,
                                           const std::vector<Index>& index_set);

/// Moreau-Jean theta = 1, e = 0 on a block sliding on the ground (docs/case-files.md, "The exact
/// discrete stop"): v_{k+1} = max(v_k - mu g h, 0) from v_0 = v0 > 0, q_{k+1} = q_k + h v_{k+1}.
/// The speed after k steps and the position, in closed form:
///   v_k = max(v0 - k mu g h, 0),
///   x_k = x0 + h (j v0 - mu g h j (j + 1) / 2),  j = min(k, K),  K = floor(v0 / (mu g h)),
/// K the last step with v_K = v0 - K mu g h >= 0 (v_{K+1} = 0: the discrete stop at step
/// K + 1 when v0 / (mu g h) is not an integer, at K when it is).
template <class Scalar>
struct DiscreteSlidingStop {
  Scalar v0, deceleration_step;     ///< v0 and mu g h
  Index last_sliding_step() const;  ///< K
  Scalar velocity(Index k) const;
  Scalar displacement(Index k, const Scalar& h) const;  ///< x_k - x0
};

}  // namespace nsh::cases
