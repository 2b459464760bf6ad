#pragma once
// Seed 003's vertical disk rolling without slipping inside a circular table (docs/theory.md §5,
// docs/nonholonomic.md).
//
// q = (x, y, theta, phi): contact point, rolling angle, heading. Disk of mass m, radius R,
// moment of inertia I about its axle and J about the vertical; table of radius a about the
// origin.
//
//   L = 1/2 m (x'^2 + y'^2) + 1/2 I theta'^2 + 1/2 J phi'^2,   M = diag(m, m, I, J),  V = 0,
//   mu^1 = dx - R cos(phi) dtheta,   mu^2 = dy - R sin(phi) dtheta            (r = 2),
//   X_1 = d_theta + R cos(phi) d_x + R sin(phi) d_y,   X_2 = d_phi,   u = (theta', phi'),
//   g_+- = (x +- R cos phi)^2 + (y +- R sin phi)^2 - a^2 <= 0                  (p = 2):
//
// both ends of the disk's horizontal diameter stay over the table; index 0 is g_+, 1 is g_-.
//
// Exact flow (no inequality active): theta' = Omega and phi' = omega constant,
//   phi(t) = phi0 + omega t,  theta(t) = theta0 + Omega t,
//   x(t) = x0 + R Omega t cos(phi0 + omega t/2) sinc(omega t/2),
//   y(t) = y0 + R Omega t sin(phi0 + omega t/2) sinc(omega t/2),
// circles of radius R |Omega/omega| (lines when omega = 0). Energy 1/2 (m R^2 + I) Omega^2 +
// 1/2 J omega^2.

#include <nsh/nonholonomic/nonholonomic_model.hpp>

namespace nsh {

template <class Scalar>
struct RollingDiskParameters {
  Scalar mass{1};              ///< m > 0
  Scalar radius{1};            ///< R > 0
  Scalar axle_inertia{1};      ///< I > 0 (about the axle)
  Scalar vertical_inertia{1};  ///< J > 0 (about the vertical)
  Scalar table_radius{5};      ///< a > R
};

template <class Scalar>
class RollingDisk final : public NonholonomicModel<Scalar> {
  static_assert(has_transcendentals_v<Scalar>,
                "RollingDisk is trigonometric: double and Real50 only");

 public:
  /// Checks m, R, I, J > 0 and a > R: ModelError naming "m", "R", "I", "J" or "a" and the value.
  explicit RollingDisk(const RollingDiskParameters<Scalar>& parameters);

  const RollingDiskParameters<Scalar>& parameters() const { return parameters_; }
  /// The admissible velocity of reduced velocity u = (theta', phi') at q.
  Vector<Scalar> velocity(const Vector<Scalar>& q, const Scalar& theta_rate,
                          const Scalar& phi_rate) const;

  std::string name() const override { return "rolling-disk"; }
  Index dofs() const override { return 4; }
  Index velocity_constraints() const override { return 2; }
  Index inequalities() const override { return 2; }
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

  RollingDiskParameters<Scalar> parameters_;
};

}  // namespace nsh
