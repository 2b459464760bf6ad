#include <nsh/cases/planar_rigid_body.hpp>

namespace nsh::cases {

template <class Scalar>
PlanarRigidBody<Scalar>::PlanarRigidBody(const Scalar& mass, const Scalar& inertia,
                                         const Scalar& gravity, const Scalar& restitution,
                                         const Scalar& friction_coefficient)
    : mass_(mass), inertia_(inertia), gravity_(gravity) {
  require_parameter<Scalar>(is_finite(mass) && mass > Scalar(0), "mass", "must be > 0", mass);
  // A body checks its geometry before calling this constructor, so that I = 0 from a zero
  // length names the length; this check is the last line of defence (underflow, say).
  require_parameter<Scalar>(is_finite(inertia) && inertia > Scalar(0), "inertia", "must be > 0",
                            inertia);
  require_parameter<Scalar>(is_finite(gravity) && gravity >= Scalar(0), "gravity", "must be >= 0",
                            gravity);
  require_parameter<Scalar>(
      is_finite(restitution) && restitution >= Scalar(0) && restitution <= Scalar(1), "restitution",
      "must be in [0, 1]", restitution);
  require_parameter<Scalar>(is_finite(friction_coefficient) && friction_coefficient >= Scalar(0),
                            "friction_coefficient", "must be >= 0", friction_coefficient);
  restitution_ = Vector<Scalar>::Constant(2, restitution);
  friction_ = Vector<Scalar>::Constant(2, friction_coefficient);
}

template <class Scalar>
void PlanarRigidBody<Scalar>::do_mass(const Vector<Scalar>&, Matrix<Scalar>& M) const {
  M.setZero(3, 3);
  M(0, 0) = M(1, 1) = mass_;
  M(2, 2) = inertia_;
}

template <class Scalar>
void PlanarRigidBody<Scalar>::do_force(const Scalar&, const Vector<Scalar>&, const Vector<Scalar>&,
                                       Vector<Scalar>& f) const {
  f.setZero(3);
  f(1) = -mass_ * gravity_;
}

template <class Scalar>
bool PlanarRigidBody<Scalar>::do_force_jacobians(const Scalar&, const Vector<Scalar>&,
                                                 const Vector<Scalar>&, Matrix<Scalar>& K,
                                                 Matrix<Scalar>& C) const {
  K.setZero(3, 3);
  C.setZero(3, 3);
  return true;
}

template <class Scalar>
void PlanarRigidBody<Scalar>::do_external_force(const Scalar&, const Vector<Scalar>&,
                                                const Vector<Scalar>&,
                                                Vector<Scalar>& f_ext) const {
  f_ext.setZero(3);
}

template <class Scalar>
Scalar PlanarRigidBody<Scalar>::do_potential(const Vector<Scalar>& q) const {
  return mass_ * gravity_ * q(1);
}

template class PlanarRigidBody<double>;
template class PlanarRigidBody<Real50>;

}  // namespace nsh::cases
