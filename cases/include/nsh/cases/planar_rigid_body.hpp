#pragma once
// What the catalogue's planar rigid bodies under gravity share (the falling rod, the rocking
// block, the rod on two corners): q = (x, y, phi), the centre's position and the body's angle;
// two contacts with one tangent direction each (d = 1), the same e and mu at both.
//
//   M = diag(m, m, I),   f = (0, -m g, 0),   K = C = 0,   V = m g y,   f_ext = 0.
//
// A body supplies only its inertia, its name and its contact geometry (gaps, W_N, W_T); it
// validates its own geometric parameters before this base validates m, I, g, e and mu.

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/model/nonlinear_model.hpp>

#include <string>

namespace nsh::cases {

/// Throws ModelError naming `field` ("<field>: <rule>, got <value>") unless `ok`.
template <class Scalar>
void require_parameter(bool ok, const char* field, const char* rule, const Scalar& value) {
  if (!ok) throw ModelError(field, std::string(rule) + ", got " + format_scalar(value));
}

template <class Scalar>
class PlanarRigidBody : public NonlinearModel<Scalar> {
 public:
  /// Checks m > 0, I > 0, g >= 0, e in [0, 1], mu >= 0: ModelError naming "mass", "inertia",
  /// "gravity", "restitution" or "friction_coefficient" otherwise.
  PlanarRigidBody(const Scalar& mass, const Scalar& inertia, const Scalar& gravity,
                  const Scalar& restitution, const Scalar& friction_coefficient);

  /// The moment of inertia about the centre.
  const Scalar& inertia() const { return inertia_; }

  Index dofs() const final { return 3; }
  Index contacts() const final { return 2; }
  Index tangent_directions() const final { return 1; }
  bool constant_mass() const final { return true; }
  const Vector<Scalar>& restitution() const final { return restitution_; }
  const Vector<Scalar>& friction_coefficient() const final { return friction_; }

 private:
  void do_mass(const Vector<Scalar>& q, Matrix<Scalar>& M) const final;
  void do_force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                Vector<Scalar>& f) const final;
  /// K = C = 0: gravity is constant.
  bool do_force_jacobians(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                          Matrix<Scalar>& K, Matrix<Scalar>& C) const final;
  void do_external_force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                         Vector<Scalar>& f_ext) const final;
  Scalar do_potential(const Vector<Scalar>& q) const final;

  Scalar mass_;
  Scalar inertia_;
  Scalar gravity_;
  Vector<Scalar> restitution_;
  Vector<Scalar> friction_;
};

extern template class PlanarRigidBody<double>;
extern template class PlanarRigidBody<Real50>;

}  // namespace nsh::cases
