#include <nsh/cases/rod_on_corners.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

#include <cmath>

namespace nsh::cases {
namespace {

/// The rod's and the corners' own parameters, checked before the base's.
template <class Scalar>
const RodOnCornersParameters<Scalar>& checked(const RodOnCornersParameters<Scalar>& p) {
  require_parameter<Scalar>(is_finite(p.half_length) && p.half_length > Scalar(0), "half_length",
                            "must be > 0", p.half_length);
  if (p.corner_x.size() != 2 || p.corner_y.size() != 2)
    throw ModelError("corner_x", "expected 2 corners (corner_x and corner_y of 2 entries)");
  require_parameter<Scalar>(is_finite(p.corner_y(0)) && is_finite(p.corner_y(1)), "corner_y",
                            "must be finite", p.corner_y(0));
  require_parameter<Scalar>(
      is_finite(p.corner_x(0)) && is_finite(p.corner_x(1)) && p.corner_x(0) < p.corner_x(1),
      "corner_x", "must be finite with p_1 < p_2, p_1", p.corner_x(0));
  require_parameter<Scalar>(p.corner_x(1) - p.corner_x(0) < Scalar(2) * p.half_length, "corner_x",
                            "must have p_2 - p_1 < 2 l (both corners under the rod), p_2 - p_1",
                            Scalar(p.corner_x(1) - p.corner_x(0)));
  return p;
}

}  // namespace

template <class Scalar>
RodOnCorners<Scalar>::RodOnCorners(const RodOnCornersParameters<Scalar>& parameters)
    : PlanarRigidBody<Scalar>(
          checked(parameters).mass,
          parameters.mass * parameters.half_length * parameters.half_length / Scalar(3),
          parameters.gravity, parameters.restitution, parameters.friction_coefficient),
      parameters_(parameters) {}

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
  const Scalar co = cos(q(2)), si = sin(q(2));
  W_N.resize(3, 2);
  for (Index i = 0; i < 2; ++i)  // -s_i, s_i the corner's abscissa along the rod (abscissae)
    W_N.col(i) << -si, co,
        -((q(0) - parameters_.corner_x(i)) * co + (q(1) - parameters_.corner_y(i)) * si);
}

template <class Scalar>
void RodOnCorners<Scalar>::do_tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const {
  using std::cos;
  using std::sin;
  const Scalar co = cos(q(2)), si = sin(q(2));
  W_T.resize(3, 2);
  for (Index i = 0; i < 2; ++i)  // g_i, the corner's gap (do_gap)
    W_T.col(i) << co, si,
        -(q(0) - parameters_.corner_x(i)) * si + (q(1) - parameters_.corner_y(i)) * co;
}

template class RodOnCorners<double>;
template class RodOnCorners<Real50>;

}  // namespace nsh::cases
