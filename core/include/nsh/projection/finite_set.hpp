#pragma once
// Projection onto a finite (hence closed, nonconvex) set C = {z_1, ..., z_N}: the nearest-point
// set argmin_i |y - z_i|^2, computed exactly in Rational. Several nearest points are reported
// as a tie (status `tie`, every one in `nearest`), never hidden: seed 004's C = {-1, 1} at
// y = 0 gives {-1, 1}. Certificate: nearest point, max_i |y - p|^2 - |y - z_i|^2 <= 0. The
// variational-inequality residual is reported too, and is positive in general (C is not convex).

#include <nsh/projection/projection.hpp>

namespace nsh {

template <class Scalar>
class FiniteSetProjection final : public ProjectionProvider<Scalar> {
 public:
  /// Throws ModelError naming "set.points" (empty, ragged, non-finite).
  explicit FiniteSetProjection(std::vector<Vector<Scalar>> points);

  std::string kind() const override { return "finite"; }
  std::string describe() const override;
  Index dimension() const override { return points_.front().size(); }
  bool convex() const override { return points_.size() == 1; }
  Scalar violation(const Vector<Scalar>& x) const override;
  ProjectionResult<Scalar> project(const Vector<Scalar>& y) const override;
  ProjectionCertificate<Scalar> certify(const Vector<Scalar>& y,
                                        const ProjectionResult<Scalar>& candidate) const override;
  std::unique_ptr<ProjectionProvider<Scalar>> clone() const override {
    return std::make_unique<FiniteSetProjection>(*this);
  }

  /// Every nearest point of y (the whole set argmin), in the order of the points.
  std::vector<Vector<Scalar>> nearest_points(const Vector<Scalar>& y) const {
    return project(y).nearest;
  }
  const std::vector<Vector<Scalar>>& points() const { return points_; }

 private:
  Scalar scale() const;
  std::vector<Vector<Scalar>> points_;
};

// Instantiated once, in the library (core/src); other files only link them.
extern template class FiniteSetProjection<double>;
extern template class FiniteSetProjection<Real50>;
extern template class FiniteSetProjection<Rational>;

}  // namespace nsh
