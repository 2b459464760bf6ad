#include <nsh/detail/dense_lu.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/projection/finite_set.hpp>

#include <fmt/format.h>

namespace nsh {

template <class Scalar>
FiniteSetProjection<Scalar>::FiniteSetProjection(std::vector<Vector<Scalar>> points)
    : points_(std::move(points)) {
  if (points_.empty()) throw ModelError("set.points", "a finite set needs at least one point");
  const Index n = points_.front().size();
  if (n == 0) throw ModelError("set.points[0]", "a point needs one coordinate or more");
  for (std::size_t k = 0; k < points_.size(); ++k) {
    if (points_[k].size() != n)
      throw ModelError(
          fmt::format("set.points[{}]", k),
          fmt::format("has {} coordinates, set.points[0] has {}", points_[k].size(), n));
    for (Index i = 0; i < n; ++i)
      if (!is_finite(points_[k](i)))
        throw ModelError(fmt::format("set.points[{}][{}]", k, i),
                         "is " + format_scalar(points_[k](i)) + ", must be finite");
  }
}

template <class Scalar>
std::string FiniteSetProjection<Scalar>::describe() const {
  std::string out = "finite set {";
  for (std::size_t k = 0; k < points_.size(); ++k)
    out += (k ? ", " : "") +
           (dimension() == 1 ? format_scalar(points_[k](0)) : format_vector(points_[k]));
  return out + "}";
}

template <class Scalar>
Scalar FiniteSetProjection<Scalar>::scale() const {
  Scalar s(0);
  for (const auto& z : points_)
    if (max_abs(z) > s) s = max_abs(z);
  return s;
}

template <class Scalar>
Scalar FiniteSetProjection<Scalar>::violation(const Vector<Scalar>& x) const {
  Scalar best = max_abs(Vector<Scalar>(x - points_.front()));
  for (const auto& z : points_) {
    const Scalar d = max_abs(Vector<Scalar>(x - z));
    if (d < best) best = d;
  }
  return best;
}

template <class Scalar>
ProjectionResult<Scalar> FiniteSetProjection<Scalar>::project(const Vector<Scalar>& y) const {
  check_projection_input(y, dimension(), describe());
  std::vector<Scalar> d;
  d.reserve(points_.size());
  Scalar best = squared_distance(y, points_.front());
  for (const auto& z : points_) {
    d.push_back(squared_distance(y, z));
    if (d.back() < best) best = d.back();
  }
  const Scalar tol = projection_tolerance(y, y, scale());
  ProjectionResult<Scalar> result;
  for (std::size_t k = 0; k < points_.size(); ++k)
    if (d[k] - best <= tol) result.nearest.push_back(points_[k]);
  result.point = result.nearest.front();
  result.distance_squared = squared_distance(y, result.point);
  result.certificate = certify(y, result);
  if (!result.certificate.accepted) {
    result.status = ProjectionStatus::uncertified;
    result.message =
        "nearest-point certificate fails: residual " + format_scalar(result.certificate.residual);
  } else if (result.nearest.size() > 1) {
    result.status = ProjectionStatus::tie;
    std::string list;
    for (std::size_t k = 0; k < result.nearest.size(); ++k)
      list += (k ? ", " : "") + (dimension() == 1 ? format_scalar(result.nearest[k](0))
                                                  : format_vector(result.nearest[k]));
    result.message = fmt::format(
        "the projection of {} onto {} is not unique: {} nearest points "
        "{{{}}} at squared distance {}",
        dimension() == 1 ? format_scalar(y(0)) : format_vector(y), describe(),
        result.nearest.size(), list, format_scalar(result.distance_squared));
  } else {
    result.status = ProjectionStatus::unique;
  }
  return result;
}

template <class Scalar>
ProjectionCertificate<Scalar> FiniteSetProjection<Scalar>::certify(
    const Vector<Scalar>& y, const ProjectionResult<Scalar>& candidate) const {
  const Vector<Scalar>& p = candidate.point;
  check_projection_input(p, dimension(), describe());
  ProjectionCertificate<Scalar> c;
  c.kind = CertificateKind::nearest_point;
  c.feasibility = violation(p);
  const Scalar dp = squared_distance(y, p);
  const Vector<Scalar> r = y - p;
  bool first = true;
  for (const auto& z : points_) {
    const Scalar nearest = dp - squared_distance(y, z);
    const Scalar vi = detail::dot<Scalar>(r, Vector<Scalar>(z - p));
    if (first || nearest > c.nearest_residual) c.nearest_residual = nearest;
    if (first || vi > c.vi_residual) c.vi_residual = vi;
    first = false;
  }
  c.residual = c.feasibility > c.nearest_residual ? c.feasibility : c.nearest_residual;
  c.tolerance = projection_tolerance(y, p, scale());
  c.accepted = c.residual <= c.tolerance;
  return c;
}

#define NSH_INSTANTIATE(Scalar) template class FiniteSetProjection<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh
