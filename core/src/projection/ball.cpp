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
  finish_convex_projection(*this, y, result);
  return result;
}

template <class Scalar>
ProjectionCertificate<Scalar> BallProjection<Scalar>::certify(
    const Vector<Scalar>& y, const ProjectionResult<Scalar>& candidate) const {
  using std::sqrt;
  const Vector<Scalar>& p = candidate.point;
  check_projection_input(p, dimension(), describe());
  const Vector<Scalar> r = y - p;
  // sup over |z - c| <= R of r^T (z - p) = r^T (c - p) + R |r|.
  const Scalar vi = detail::dot<Scalar>(r, Vector<Scalar>(center_ - p)) +
                    radius_ * sqrt(detail::squared_norm<Scalar>(r));
  // A ball is bounded: no recession directions.
  return vi_certificate<Scalar>(*this, y, p, vi > Scalar(0) ? vi : Scalar(0), Scalar(0),
                                Scalar(max_abs(center_) + radius_));
}

template class BallProjection<double>;
template class BallProjection<Real50>;

}  // namespace nsh
