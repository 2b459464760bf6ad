#pragma once
// Projection onto a closed Euclidean ball C = {x : |x - c| <= R}, R >= 0:
//   P_C(y) = y if |y - c| <= R, else c + R (y - c) / |y - c|.
// Needs sqrt: double and Real50 only. Certificate: the sup over the ball of (y - p)^T (z - p),
// which is (y - p)^T (c - p) + R |y - p| in closed form.

#include <nsh/projection/projection.hpp>

namespace nsh {

template <class Scalar>
class BallProjection final : public ProjectionProvider<Scalar> {
  static_assert(has_transcendentals_v<Scalar>, "the ball projection needs sqrt");

 public:
  /// Throws ModelError naming "set.center" / "set.radius" on non-finite data or R < 0.
  BallProjection(Vector<Scalar> center, Scalar radius);

  std::string kind() const override { return "ball"; }
  std::string describe() const override;
  Index dimension() const override { return center_.size(); }
  bool convex() const override { return true; }
  Scalar violation(const Vector<Scalar>& x) const override;
  ProjectionResult<Scalar> project(const Vector<Scalar>& y) const override;
  ProjectionCertificate<Scalar> certify(const Vector<Scalar>& y,
                                        const ProjectionResult<Scalar>& candidate) const override;
  std::unique_ptr<ProjectionProvider<Scalar>> clone() const override {
    return std::make_unique<BallProjection>(*this);
  }

 private:
  Vector<Scalar> center_;
  Scalar radius_;
};

// Instantiated once, in the library (core/src); other files only link them.
extern template class BallProjection<double>;
extern template class BallProjection<Real50>;

}  // namespace nsh
