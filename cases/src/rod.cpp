#include <nsh/cases/rod.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

#include <cmath>

namespace nsh::cases {
namespace {

/// The rod's own parameter, checked before the base's (so that l = 0 names half_length, not
/// the inertia it makes zero).
template <class Scalar>
const RodParameters<Scalar>& checked(const RodParameters<Scalar>& p) {
  require_parameter<Scalar>(is_finite(p.half_length) && p.half_length > Scalar(0), "half_length",
                            "must be > 0", p.half_length);
  return p;
}

}  // namespace

template <class Scalar>
PlanarRod<Scalar>::PlanarRod(const RodParameters<Scalar>& parameters)
    : PlanarRigidBody<Scalar>(
          checked(parameters).mass,
          parameters.mass * parameters.half_length * parameters.half_length / Scalar(3),
          parameters.gravity, parameters.restitution, parameters.friction_coefficient),
      parameters_(parameters) {}

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
