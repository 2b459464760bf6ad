#include <nsh/cases/rod.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

#include <cmath>

namespace nsh::cases {
namespace {

template <class Scalar>
void require(bool ok, const char* field, const char* rule, const Scalar& value) {
  if (!ok) throw ModelError(field, std::string(rule) + ", got " + format_scalar(value));
}

}  // namespace

template <class Scalar>
PlanarRod<Scalar>::PlanarRod(const RodParameters<Scalar>& parameters) : parameters_(parameters) {
  const auto& p = parameters_;
  require<Scalar>(is_finite(p.mass) && p.mass > Scalar(0), "mass", "must be > 0", p.mass);
  require<Scalar>(is_finite(p.half_length) && p.half_length > Scalar(0), "half_length",
                  "must be > 0", p.half_length);
  require<Scalar>(is_finite(p.gravity) && p.gravity >= Scalar(0), "gravity", "must be >= 0",
                  p.gravity);
  require<Scalar>(
      is_finite(p.restitution) && p.restitution >= Scalar(0) && p.restitution <= Scalar(1),
      "restitution", "must be in [0, 1]", p.restitution);
  require<Scalar>(is_finite(p.friction_coefficient) && p.friction_coefficient >= Scalar(0),
                  "friction_coefficient", "must be >= 0", p.friction_coefficient);
  restitution_ = Vector<Scalar>::Constant(2, p.restitution);
  friction_ = Vector<Scalar>::Constant(2, p.friction_coefficient);
}

template <class Scalar>
Scalar PlanarRod<Scalar>::inertia() const {
  const auto& p = parameters_;
  return p.mass * p.half_length * p.half_length / Scalar(3);
}

template <class Scalar>
Matrix<Scalar> PlanarRod<Scalar>::end_positions(const Vector<Scalar>& q) const {
  using std::cos;
  using std::sin;
  const Scalar l = parameters_.half_length;
  const Scalar c = cos(q(2)), s = sin(q(2));
  Matrix<Scalar> ends(2, 2);
  ends << q(0) - l * c, q(0) + l * c, q(1) - l * s, q(1) + l * s;
  return ends;
}

template <class Scalar>
void PlanarRod<Scalar>::do_mass(const Vector<Scalar>&, Matrix<Scalar>& M) const {
  M.setZero(3, 3);
  M(0, 0) = M(1, 1) = parameters_.mass;
  M(2, 2) = inertia();
}

template <class Scalar>
void PlanarRod<Scalar>::do_force(const Scalar&, const Vector<Scalar>&, const Vector<Scalar>&,
                                 Vector<Scalar>& f) const {
  f.setZero(3);
  f(1) = -parameters_.mass * parameters_.gravity;
}

template <class Scalar>
bool PlanarRod<Scalar>::do_force_jacobians(const Scalar&, const Vector<Scalar>&,
                                           const Vector<Scalar>&, Matrix<Scalar>& K,
                                           Matrix<Scalar>& C) const {
  K.setZero(3, 3);  // gravity is constant
  C.setZero(3, 3);
  return true;
}

template <class Scalar>
void PlanarRod<Scalar>::do_external_force(const Scalar&, const Vector<Scalar>&,
                                          const Vector<Scalar>&, Vector<Scalar>& f_ext) const {
  f_ext.setZero(3);
}

template <class Scalar>
Scalar PlanarRod<Scalar>::do_potential(const Vector<Scalar>& q) const {
  return parameters_.mass * parameters_.gravity * q(1);
}

template <class Scalar>
void PlanarRod<Scalar>::do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const {
  using std::sin;
  const Scalar ls = parameters_.half_length * sin(q(2));
  g.resize(2);
  g << q(1) - ls, q(1) + ls;
}

template <class Scalar>
void PlanarRod<Scalar>::do_normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const {
  using std::cos;
  const Scalar lc = parameters_.half_length * cos(q(2));
  W_N.resize(3, 2);
  W_N << Scalar(0), Scalar(0), Scalar(1), Scalar(1), -lc, lc;
}

template <class Scalar>
void PlanarRod<Scalar>::do_tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const {
  using std::sin;
  const Scalar ls = parameters_.half_length * sin(q(2));
  W_T.resize(3, 2);
  W_T << Scalar(1), Scalar(1), Scalar(0), Scalar(0), ls, -ls;
}

template <class Scalar>
RodCase<Scalar> falling_rod_case() {
  RodParameters<Scalar> p;
  p.mass = Scalar(1);
  p.half_length = Scalar(1) / 2;
  p.gravity = Scalar(981) / 100;
  p.restitution = Scalar(1) / 2;
  p.friction_coefficient = Scalar(3) / 10;
  State<Scalar> initial;
  initial.t = Scalar(0);
  initial.q = Vector<Scalar>(3);
  initial.q << Scalar(0), Scalar(1), Scalar(1) / 2;
  initial.v = Vector<Scalar>(3);
  initial.v << Scalar(1), Scalar(0), Scalar(0);
  return RodCase<Scalar>{PlanarRod<Scalar>(p), initial, Scalar(3) / 2, Scalar(1) / 1000};
}

template class PlanarRod<double>;
template class PlanarRod<Real50>;
template RodCase<double> falling_rod_case<double>();
template RodCase<Real50> falling_rod_case<Real50>();

}  // namespace nsh::cases
