#pragma once
// A rigid rectangular block rocking on a floor in the plane (Housner 1963), a nonlinear model
// (nsh/model/nonlinear_model.hpp) with a closed form for its impact: issue 13, docs/theory.md 9.2.
//
// Block of mass m, half-width b, half-height c, uniform: I = m (b^2 + c^2) / 3 about its centre,
// slenderness tan alpha = b / c, R = sqrt(b^2 + c^2) from the centre to a corner. q = (x, y, phi):
// the centre's position and the angle (counter-clockwise). Its bottom corners, body coordinates
// (-+b, -c), are at (x -+ b cos phi + c sin phi, y -+ b sin phi - c cos phi); the floor is y = 0.
//
//   M = diag(m, m, I),   f = (0, -m g, 0),   V = m g y,   f_ext = 0,
//   gaps        g_1 = y - b sin phi - c cos phi,        g_2 = y + b sin phi - c cos phi,
//   W_N columns (0, 1, -b cos phi + c sin phi),        (0, 1, b cos phi + c sin phi),
//   W_T columns (1, 0, b sin phi + c cos phi),         (1, 0, -b sin phi + c cos phi)  (d = 1),
//
// so U_N and U_T are each bottom corner's vertical and horizontal velocity.
//
// Closed form (Housner): rocking about one corner, the block lands on the other at phi = 0; with
// e = 0 on the landing corner and no slip there, angular momentum about it is conserved through
// the impact and phi'+ = r phi'-, r = 1 - (3/2) sin^2 alpha (for I = m R^2 / 3), while the old
// pivot lifts off (r > 0 needs sin^2 alpha < 2/3). housner_ratio() gives r and
// landing_angular_speed() the |phi'-| after rocking from rest. Trigonometric: double and Real50
// only.

#include <nsh/cases/planar_rigid_body.hpp>
#include <nsh/model/linear_model.hpp>

#include <optional>

namespace nsh::cases {

template <class Scalar>
struct RockingBlockParameters {
  Scalar mass{1};                  ///< m > 0
  Scalar half_width{1};            ///< b > 0
  Scalar half_height{1};           ///< c > 0
  Scalar gravity{0};               ///< g >= 0, downwards
  Scalar restitution{0};           ///< e in [0, 1], both corners
  Scalar friction_coefficient{0};  ///< mu >= 0, both corners
};

template <class Scalar>
class RockingBlock final : public PlanarRigidBody<Scalar> {
 public:
  /// Checks m > 0, b > 0, c > 0, g >= 0, e in [0, 1], mu >= 0: ModelError naming the parameter
  /// ("mass", "half_width", "half_height", ...) otherwise.
  explicit RockingBlock(const RockingBlockParameters<Scalar>& parameters);

  const RockingBlockParameters<Scalar>& parameters() const { return parameters_; }
  /// The bottom corners' positions, columns (x -+ b cos phi + c sin phi, y -+ b sin phi - c cos
  /// phi): corner 1 is the one at body abscissa -b.
  Matrix<Scalar> corner_positions(const Vector<Scalar>& q) const;
  /// Housner's coefficient r = 1 - (3/2) sin^2 alpha, sin^2 alpha = b^2 / (b^2 + c^2).
  Scalar housner_ratio() const;
  /// |phi'| at phi = 0 after rocking from rest at phi0 (0 < |phi0| < alpha) about one corner:
  /// 1/2 I_O phi'^2 = m g R (cos(alpha - |phi0|) - cos alpha), I_O = I + m R^2 = 4 m R^2 / 3.
  Scalar landing_angular_speed(const Scalar& phi0) const;
  /// q with the corner below (corner 1 for phi > 0, corner 2 for phi < 0) on the floor at x = 0.
  Vector<Scalar> resting_on_corner(const Scalar& phi) const;

  std::string name() const override { return "rocking-block"; }

 private:
  void do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const override;
  void do_normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const override;
  void do_tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const override;

  RockingBlockParameters<Scalar> parameters_;
};

/// The catalogue's rocking block (cases/data/rocking-block.json gives the same case by
/// formulas): m = 1, b = 1/5, c = 1/2 (sin^2 alpha = 4/29, r = 1 - 6/29 = 23/29), g = 981/100,
/// e = 0, mu = 1; released from rest on corner 1 at phi0 = 1/5 rad (< alpha = 0.3805), it rocks
/// back and lands on corner 2, then rocks on it; T = 1, h = 1/1000.
template <class Scalar>
struct RockingBlockCase {
  RockingBlock<Scalar> model;
  State<Scalar> initial;
  Scalar T;
  std::optional<Scalar> h;
};

template <class Scalar>
RockingBlockCase<Scalar> rocking_block_case();

}  // namespace nsh::cases
