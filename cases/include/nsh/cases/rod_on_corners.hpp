#pragma once
// A rigid rod falling across two fixed corner points (two steps of a table) in the plane: the
// contact is rod-edge-on-corner, so each gap is the signed distance of a corner from the rod's
// line and is nonlinear in phi through both the normal and the lever arm (issue 13).
//
// Rod of mass m, length 2l, I = m l^2 / 3; q = (x, y, phi) the centre and the angle. Corner i at
// P_i = (p_i, r_i) lies under the rod (the model holds while |s_i| <= l):
//
//   g_i = -(x - p_i) sin phi + (y - r_i) cos phi        (distance of the line above P_i)
//   s_i =  (x - p_i) cos phi + (y - r_i) sin phi        (the centre's abscissa along the rod from
//                                                        P_i: the tangential coordinate)
//   W_N column (-sin phi, cos phi, -s_i),   W_T column (cos phi, sin phi, g_i)   (d = 1),
//   M = diag(m, m, I),   f = (0, -m g, 0),   V = m g y.
//
// No closed form: the reference is a Moreau–Jean Real50 run at small h (the event-driven scheme
// extends only the linear family). Trigonometric: double and Real50 only.

#include <nsh/cases/planar_rigid_body.hpp>
#include <nsh/model/linear_model.hpp>

namespace nsh::cases {

template <class Scalar>
struct RodOnCornersParameters {
  Scalar mass{1};                  ///< m > 0
  Scalar half_length{1};           ///< l > 0
  Scalar gravity{0};               ///< g >= 0
  Scalar restitution{0};           ///< e in [0, 1], both corners
  Scalar friction_coefficient{0};  ///< mu >= 0, both corners
  Vector<Scalar> corner_x;         ///< (p_1, p_2), p_1 < p_2
  Vector<Scalar> corner_y;         ///< (r_1, r_2)
};

template <class Scalar>
class RodOnCorners final : public PlanarRigidBody<Scalar> {
 public:
  /// Checks m > 0, l > 0, g >= 0, e in [0, 1], mu >= 0, two finite corners with p_1 < p_2 and
  /// p_2 - p_1 < 2 l (both can lie under the rod): ModelError naming the parameter otherwise.
  explicit RodOnCorners(const RodOnCornersParameters<Scalar>& parameters);

  const RodOnCornersParameters<Scalar>& parameters() const { return parameters_; }
  /// (s_1, s_2): where each corner's foot lies along the rod, from the centre (minus sign).
  Vector<Scalar> abscissae(const Vector<Scalar>& q) const;

  std::string name() const override { return "rod-on-corners"; }

 private:
  void do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const override;
  void do_normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const override;
  void do_tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const override;

  RodOnCornersParameters<Scalar> parameters_;
};

}  // namespace nsh::cases
