#pragma once
// Projection onto a half-space C = {x : a^T x <= beta}, a != 0:
//   P_C(y) = y - max(0, a^T y - beta) / (a^T a) a.
// Exact in every scalar. Certificate: with r = y - p, the VI residual over the boundary foot
// point p + (beta - a^T p)/(a^T a) a, and the recession residual over the directions -a and
// +-t_j, t_j = a_k e_j - a_j e_k (j != k, a_k the largest entry of a): these span the
// recession cone, so the residuals vanish iff r = mu a with mu >= 0 and mu (beta - a^T p) = 0.

#include <nsh/projection/projection.hpp>

namespace nsh {

template <class Scalar>
class HalfSpaceProjection final : public ProjectionProvider<Scalar> {
 public:
  /// Throws ModelError naming "set.a" if a is zero or not finite, "set.b" if beta is not finite.
  HalfSpaceProjection(Vector<Scalar> a, Scalar beta);

  std::string kind() const override { return "half-space"; }
  std::string describe() const override;
  Index dimension() const override { return a_.size(); }
  bool convex() const override { return true; }
  Scalar violation(const Vector<Scalar>& x) const override;
  ProjectionResult<Scalar> project(const Vector<Scalar>& y) const override;
  ProjectionCertificate<Scalar> certify(const Vector<Scalar>& y,
                                        const ProjectionResult<Scalar>& candidate) const override;
  std::optional<LinearInequalities<Scalar>> inequalities() const override;
  std::unique_ptr<ProjectionProvider<Scalar>> clone() const override {
    return std::make_unique<HalfSpaceProjection>(*this);
  }

  const Vector<Scalar>& normal() const { return a_; }
  const Scalar& offset() const { return beta_; }

 private:
  Vector<Scalar> a_;
  Scalar beta_;
};

// Instantiated once, in the library (core/src); other files only link them.
extern template class HalfSpaceProjection<double>;
extern template class HalfSpaceProjection<Real50>;
extern template class HalfSpaceProjection<Rational>;

}  // namespace nsh
