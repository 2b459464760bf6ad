#include <nsh/cases/rocking_block.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

#include <cmath>

namespace nsh::cases {
namespace {

/// The block's own parameters, checked before the base's (so that b = 0 names half_width).
template <class Scalar>
const RockingBlockParameters<Scalar>& checked(const RockingBlockParameters<Scalar>& p) {
  require_parameter<Scalar>(is_finite(p.half_width) && p.half_width > Scalar(0), "half_width",
                            "must be > 0", p.half_width);
  require_parameter<Scalar>(is_finite(p.half_height) && p.half_height > Scalar(0), "half_height",
                            "must be > 0", p.half_height);
  return p;
}

}  // namespace

template <class Scalar>
RockingBlock<Scalar>::RockingBlock(const RockingBlockParameters<Scalar>& parameters)
    : PlanarRigidBody<Scalar>(checked(parameters).mass,
                              parameters.mass *
                                  (parameters.half_width * parameters.half_width +
                                   parameters.half_height * parameters.half_height) /
                                  Scalar(3),
                              parameters.gravity, parameters.restitution,
                              parameters.friction_coefficient),
      parameters_(parameters) {}

template <class Scalar>
Scalar RockingBlock<Scalar>::housner_ratio() const {
  const auto& p = parameters_;
  const Scalar b2 = p.half_width * p.half_width;
  const Scalar sin2 = b2 / (b2 + p.half_height * p.half_height);
  return Scalar(1) - Scalar(3) * sin2 / Scalar(2);
}

template <class Scalar>
Scalar RockingBlock<Scalar>::landing_angular_speed(const Scalar& phi0) const {
  using std::abs;
  using std::atan2;
  using std::cos;
  using std::sqrt;
  const auto& p = parameters_;
  const Scalar R = sqrt(p.half_width * p.half_width + p.half_height * p.half_height);
  const Scalar alpha = atan2(p.half_width, p.half_height);
  const Scalar drop = p.mass * p.gravity * R * (cos(alpha - abs(phi0)) - cos(alpha));
  const Scalar I_O = Scalar(4) * p.mass * R * R / Scalar(3);
  return sqrt(Scalar(2) * drop / I_O);
}

template <class Scalar>
Vector<Scalar> RockingBlock<Scalar>::resting_on_corner(const Scalar& phi) const {
  using std::abs;
  using std::cos;
  using std::sin;
  const auto& p = parameters_;
  Vector<Scalar> q(3);
  q << Scalar(0), p.half_width * abs(sin(phi)) + p.half_height * cos(phi), phi;
  return q;
}

template <class Scalar>
Matrix<Scalar> RockingBlock<Scalar>::corner_positions(const Vector<Scalar>& q) const {
  using std::cos;
  using std::sin;
  const auto& p = parameters_;
  const Scalar co = cos(q(2)), si = sin(q(2));
  const Scalar bc = p.half_width * co, bs = p.half_width * si;
  const Scalar cc = p.half_height * co, cs = p.half_height * si;
  Matrix<Scalar> corners(2, 2);
  corners << q(0) - bc + cs, q(0) + bc + cs, q(1) - bs - cc, q(1) + bs - cc;
  return corners;
}

template <class Scalar>
void RockingBlock<Scalar>::do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const {
  using std::cos;
  using std::sin;
  const auto& p = parameters_;
  const Scalar bs = p.half_width * sin(q(2)), cc = p.half_height * cos(q(2));
  g.resize(2);
  g << q(1) - bs - cc, q(1) + bs - cc;  // the corners' heights (corner_positions' row 2)
}

template <class Scalar>
void RockingBlock<Scalar>::do_normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const {
  using std::cos;
  using std::sin;
  const auto& p = parameters_;
  const Scalar bc = p.half_width * cos(q(2)), cs = p.half_height * sin(q(2));
  W_N.resize(3, 2);
  W_N << Scalar(0), Scalar(0), Scalar(1), Scalar(1), -bc + cs, bc + cs;
}

template <class Scalar>
void RockingBlock<Scalar>::do_tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const {
  using std::cos;
  using std::sin;
  const auto& p = parameters_;
  const Scalar bs = p.half_width * sin(q(2)), cc = p.half_height * cos(q(2));
  W_T.resize(3, 2);
  W_T << Scalar(1), Scalar(1), Scalar(0), Scalar(0), bs + cc, -bs + cc;
}

template <class Scalar>
RockingBlockCase<Scalar> rocking_block_case() {
  RockingBlockParameters<Scalar> p;
  p.mass = Scalar(1);
  p.half_width = Scalar(1) / 5;
  p.half_height = Scalar(1) / 2;
  p.gravity = Scalar(981) / 100;
  p.restitution = Scalar(0);
  p.friction_coefficient = Scalar(1);
  RockingBlock<Scalar> block(p);
  State<Scalar> initial;
  initial.t = Scalar(0);
  initial.q = block.resting_on_corner(Scalar(1) / 5);
  initial.v = Vector<Scalar>::Zero(3);
  return RockingBlockCase<Scalar>{block, initial, Scalar(1), Scalar(1) / 1000};
}

template class RockingBlock<double>;
template class RockingBlock<Real50>;
template RockingBlockCase<double> rocking_block_case<double>();
template RockingBlockCase<Real50> rocking_block_case<Real50>();

}  // namespace nsh::cases
