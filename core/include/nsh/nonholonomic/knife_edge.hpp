#pragma once
// A knife edge (a skate) on a horizontal plane in front of a wall: the second nonholonomic model,
// simpler than the rolling disk, so that nothing in the interface is written for one example
// (docs/nonholonomic.md).
//
// q = (x, y, phi): the blade's contact point and its heading; mass m, moment of inertia J about
// the vertical through the contact point; the wall is the line x = a, the admissible half-plane
// x <= a.
//
//   L = 1/2 m (x'^2 + y'^2) + 1/2 J phi'^2,   M = diag(m, m, J),   V = 0,
//   mu = -sin(phi) dx + cos(phi) dy   (no sideways slip; r = 1),
//   X_1 = cos(phi) d_x + sin(phi) d_y,   X_2 = d_phi,   u = (s, omega) (speed along the blade,
//   turning rate),
//   g = x - a <= 0   (p = 1).
//
// Exact flow: s and omega constant, phi = phi0 + omega t,
//   x = x0 + s t cos(phi0 + omega t/2) sinc(omega t/2),  y = y0 + s t sin(phi0 + omega t/2)
//   sinc(omega t/2),
// a circle of radius |s/omega|. At the wall n = X^T grad g = (cos phi, 0), so the elastic jump is
// u+ = (-s, omega): the skate reverses along its blade, the turning rate is unchanged (exactly,
// whenever cos phi != 0).

#include <nsh/nonholonomic/nonholonomic_model.hpp>

namespace nsh {

template <class Scalar>
struct KnifeEdgeParameters {
  Scalar mass{1};     ///< m > 0
  Scalar inertia{1};  ///< J > 0
  Scalar wall{1};     ///< a: the wall is x = a
};

template <class Scalar>
class KnifeEdge final : public NonholonomicModel<Scalar> {
  static_assert(has_transcendentals_v<Scalar>,
                "KnifeEdge is trigonometric: double and Real50 only");

 public:
  /// Checks m, J > 0 and a finite: ModelError naming "m", "J" or "a" and the value.
  explicit KnifeEdge(const KnifeEdgeParameters<Scalar>& parameters);

  const KnifeEdgeParameters<Scalar>& parameters() const { return parameters_; }
  /// The admissible velocity of reduced velocity u = (s, omega) at q.
  Vector<Scalar> velocity(const Vector<Scalar>& q, const Scalar& speed,
                          const Scalar& turning_rate) const;

  std::string name() const override { return "knife-edge"; }
  Index dofs() const override { return 3; }
  Index velocity_constraints() const override { return 1; }
  Index inequalities() const override { return 1; }
  bool constant_mass() const override { return true; }
  std::string coordinate_name(Index i) const override;
  std::string inequality_name(Index j) const override;
  std::string reduced_velocity_name(Index i) const override;
  bool has_exact_flow() const override { return true; }

 private:
  Matrix<Scalar> do_mass(const Vector<Scalar>& q) const override;
  Scalar do_potential(const Vector<Scalar>& q) const override;
  Vector<Scalar> do_potential_gradient(const Vector<Scalar>& q) const override;
  Matrix<Scalar> do_one_forms(const Vector<Scalar>& q) const override;
  Matrix<Scalar> do_distribution(const Vector<Scalar>& q) const override;
  Vector<Scalar> do_inequality(const Vector<Scalar>& q) const override;
  Matrix<Scalar> do_inequality_gradient(const Vector<Scalar>& q) const override;
  State<Scalar> do_exact_flow(const State<Scalar>& start, const Scalar& tau) const override;

  KnifeEdgeParameters<Scalar> parameters_;
};

}  // namespace nsh
