#include <nsh/cases/rod_on_corners.hpp>
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
RodOnCorners<Scalar>::RodOnCorners(const RodOnCornersParameters<Scalar>& parameters)
    : parameters_(parameters) {
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
  if (p.corner_x.size() != 2 || p.corner_y.size() != 2)
    throw ModelError("corner_x", "expected 2 corners (corner_x and corner_y of 2 entries)");
  require<Scalar>(is_finite(p.corner_y(0)) && is_finite(p.corner_y(1)), "corner_y",
                  "must be finite", p.corner_y(0));
  require<Scalar>(
      is_finite(p.corner_x(0)) && is_finite(p.corner_x(1)) && p.corner_x(0) < p.corner_x(1),
      "corner_x", "must be finite with p_1 < p_2, p_1", p.corner_x(0));
  require<Scalar>(p.corner_x(1) - p.corner_x(0) < Scalar(2) * p.half_length, "corner_x",
                  "must have p_2 - p_1 < 2 l (both corners under the rod), p_2 - p_1",
                  Scalar(p.corner_x(1) - p.corner_x(0)));
  restitution_ = Vector<Scalar>::Constant(2, p.restitution);
  friction_ = Vector<Scalar>::Constant(2, p.friction_coefficient);
}

template <class Scalar>
Scalar RodOnCorners<Scalar>::inertia() const {
  const auto& p = parameters_;
  return p.mass * p.half_length * p.half_length / Scalar(3);
}

template <class Scalar>
Vector<Scalar> RodOnCorners<Scalar>::abscissae(const Vector<Scalar>& q) const {
  using std::cos;
  using std::sin;
  const Scalar co = cos(q(2)), si = sin(q(2));
  Vector<Scalar> s(2);
  for (Index i = 0; i < 2; ++i)
    s(i) = (q(0) - parameters_.corner_x(i)) * co + (q(1) - parameters_.corner_y(i)) * si;
  return s;
}

template <class Scalar>
void RodOnCorners<Scalar>::do_mass(const Vector<Scalar>&, Matrix<Scalar>& M) const {
  M.setZero(3, 3);
  M(0, 0) = M(1, 1) = parameters_.mass;
  M(2, 2) = inertia();
}

template <class Scalar>
void RodOnCorners<Scalar>::do_force(const Scalar&, const Vector<Scalar>&, const Vector<Scalar>&,
                                    Vector<Scalar>& f) const {
  f.setZero(3);
  f(1) = -parameters_.mass * parameters_.gravity;
}

template <class Scalar>
bool RodOnCorners<Scalar>::do_force_jacobians(const Scalar&, const Vector<Scalar>&,
                                              const Vector<Scalar>&, Matrix<Scalar>& K,
                                              Matrix<Scalar>& C) const {
  K.setZero(3, 3);  // gravity is constant
  C.setZero(3, 3);
  return true;
}

template <class Scalar>
void RodOnCorners<Scalar>::do_external_force(const Scalar&, const Vector<Scalar>&,
                                             const Vector<Scalar>&, Vector<Scalar>& f_ext) const {
  f_ext.setZero(3);
}

template <class Scalar>
Scalar RodOnCorners<Scalar>::do_potential(const Vector<Scalar>& q) const {
  return parameters_.mass * parameters_.gravity * q(1);
}

template <class Scalar>
void RodOnCorners<Scalar>::do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const {
  using std::cos;
  using std::sin;
  const Scalar co = cos(q(2)), si = sin(q(2));
  g.resize(2);
  for (Index i = 0; i < 2; ++i)
    g(i) = -(q(0) - parameters_.corner_x(i)) * si + (q(1) - parameters_.corner_y(i)) * co;
}

template <class Scalar>
void RodOnCorners<Scalar>::do_normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const {
  using std::cos;
  using std::sin;
  const Vector<Scalar> s = abscissae(q);
  W_N.resize(3, 2);
  for (Index i = 0; i < 2; ++i) W_N.col(i) << -sin(q(2)), cos(q(2)), -s(i);
}

template <class Scalar>
void RodOnCorners<Scalar>::do_tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const {
  using std::cos;
  using std::sin;
  Vector<Scalar> g;
  do_gap(q, g);
  W_T.resize(3, 2);
  for (Index i = 0; i < 2; ++i) W_T.col(i) << cos(q(2)), sin(q(2)), g(i);
}

template class RodOnCorners<double>;
template class RodOnCorners<Real50>;

}  // namespace nsh::cases
