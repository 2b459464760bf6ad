#pragma once
// A rigid rod falling on a floor in the plane: the catalogue's first nonlinear model
// (nsh/model/nonlinear_model.hpp).
//
// Rod of mass m and length 2l, uniform, moment of inertia I = m l^2 / 3 about its centre;
// q = (x, y, phi): the centre's position and the angle from the horizontal (counter-clockwise).
// Its ends ("corners") are at (x -+ l cos phi, y -+ l sin phi); the floor is the line y = 0.
//
//   M = diag(m, m, I),   f = (0, -m g, 0),   V = m g y,   f_ext = 0,   E = 1/2 v^T M v + m g y,
//   gaps        g_1 = y - l sin phi,              g_2 = y + l sin phi,
//   W_N columns (0, 1, -l cos phi),                (0, 1, l cos phi),
//   W_T columns (1, 0, l sin phi),                 (1, 0, -l sin phi)   (d = 1: the ends' x),
//
// so U_N = W_N^T v is each end's vertical velocity and U_T = W_T^T v its horizontal one. M is
// constant but W_N and W_T turn with the rod: the simplest model where Moreau-Jean must evaluate
// the Jacobians at its prediction. No closed form once it touches (issue 13: a Real50 reference).
// Trigonometric: double and Real50 only.

#include <nsh/cases/planar_rigid_body.hpp>
#include <nsh/model/linear_model.hpp>

#include <optional>

namespace nsh::cases {

template <class Scalar>
struct RodParameters {
  Scalar mass{1};                  ///< m > 0
  Scalar half_length{1};           ///< l > 0 (the rod is 2l long)
  Scalar gravity{0};               ///< g >= 0, downwards
  Scalar restitution{0};           ///< e in [0, 1], both ends
  Scalar friction_coefficient{0};  ///< mu >= 0, both ends
};

template <class Scalar>
class PlanarRod final : public PlanarRigidBody<Scalar> {
 public:
  /// Checks m > 0, l > 0, g >= 0, e in [0, 1], mu >= 0: ModelError naming the parameter
  /// ("mass", "half_length", ...) otherwise.
  explicit PlanarRod(const RodParameters<Scalar>& parameters);

  const RodParameters<Scalar>& parameters() const { return parameters_; }
  /// The ends' positions, columns (x -+ l cos phi, y -+ l sin phi): end 1 is at -l.
  Matrix<Scalar> end_positions(const Vector<Scalar>& q) const;

  std::string name() const override { return "falling-rod"; }

 private:
  void do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const override;
  void do_normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const override;
  void do_tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const override;

  RodParameters<Scalar> parameters_;
};

/// The catalogue's falling rod (cases/data/falling-rod.json gives the same case by formulas):
/// m = 1, l = 1/2, g = 981/100, e = 1/2, mu = 3/10; released at x = 0, y = 1, phi = 1/2 rad with
/// v = (1, 0, 0), so that its lower end (end 1) lands first, then the rod slides and rotates;
/// T = 3/2, h = 1/1000.
template <class Scalar>
struct RodCase {
  PlanarRod<Scalar> model;
  State<Scalar> initial;
  Scalar T;
  std::optional<Scalar> h;
};

template <class Scalar>
RodCase<Scalar> falling_rod_case();

}  // namespace nsh::cases
