#include <nsh/detail/dense_lu.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/projection/ball.hpp>

#include <fmt/format.h>

#include <cmath>

namespace nsh {

template <class Scalar>
BallProjection<Scalar>::BallProjection(Vector<Scalar> center, Scalar radius)
    : center_(std::move(center)), radius_(std::move(radius)) {
  if (center_.size() == 0) throw ModelError("set.center", "a ball needs one coordinate or more");
  for (Index i = 0; i < center_.size(); ++i)
    if (!is_finite(center_(i)))
      throw ModelError(fmt::format("set.center[{}]", i),
                       "is " + format_scalar(center_(i)) + ", must be finite");
  if (!is_finite(radius_) || radius_ < Scalar(0))
    throw ModelError("set.radius", "is " + format_scalar(radius_) + ", must be finite and >= 0");
}

template <class Scalar>
std::string BallProjection<Scalar>::describe() const {
  return "ball {x : |x - " + format_vector(center_) + "| <= " + format_scalar(radius_) + "}";
}

template <class Scalar>
Scalar BallProjection<Scalar>::violation(const Vector<Scalar>& x) const {
  using std::sqrt;
  const Scalar d = sqrt(squared_distance(x, center_));
  return d > radius_ ? Scalar(d - radius_) : Scalar(0);
}

template <class Scalar>
ProjectionResult<Scalar> BallProjection<Scalar>::project(const Vector<Scalar>& y) const {
  using std::sqrt;
  check_projection_input(y, dimension(), describe());
  ProjectionResult<Scalar> result;
  const Scalar d = sqrt(squared_distance(y, center_));
  result.point = y;
  if (d > radius_) result.point = center_ + (radius_ / d) * (y - center_);
  result.distance_squared = squared_distance(y, result.point);
  result.certificate = certify(y, result);
  finish_convex_result(result, describe());
  return result;
}

template <class Scalar>
ProjectionCertificate<Scalar> BallProjection<Scalar>::certify(
    const Vector<Scalar>& y, const ProjectionResult<Scalar>& candidate) const {
  using std::sqrt;
  const Vector<Scalar>& p = candidate.point;
  check_projection_input(p, dimension(), describe());
  ProjectionCertificate<Scalar> c;
  c.kind = CertificateKind::variational_inequality;
  c.feasibility = violation(p);
  const Vector<Scalar> r = y - p;
  // sup over |z - c| <= R of r^T (z - p) = r^T (c - p) + R |r|.
  const Scalar vi = detail::dot<Scalar>(r, Vector<Scalar>(center_ - p)) +
                    radius_ * sqrt(detail::squared_norm<Scalar>(r));
  c.vi_residual = vi > Scalar(0) ? vi : Scalar(0);
  c.residual = c.feasibility > c.vi_residual ? c.feasibility : c.vi_residual;
  c.tolerance = projection_tolerance(y, p, Scalar(max_abs(center_) + radius_));
  c.accepted = c.residual <= c.tolerance;
  return c;
}

template class BallProjection<double>;
template class BallProjection<Real50>;

}  // namespace nsh
