#pragma once
// Projection onto a box (an interval in one dimension) C = {x : l_i <= x_i <= u_i}, bounds
// possibly infinite: P_C(y)_i = min(u_i, max(l_i, y_i)) (seed 004: P_[0,1](y) = min(1, max(0, y))).
// Exact in every scalar. Certificate: the sup of (y - p)^T (z - p) over the box, which separates
// into sum_i max over z_i in [l_i, u_i] of (y - p)_i (z_i - p_i), and for an infinite bound the
// recession direction +-e_i.

#include <nsh/projection/projection.hpp>

namespace nsh {

template <class Scalar>
class BoxProjection final : public ProjectionProvider<Scalar> {
 public:
  /// One optional bound per coordinate (std::nullopt: infinite). Throws ModelError naming
  /// "set.lower[i]" / "set.upper[i]" on a size mismatch, a non-finite bound or l_i > u_i.
  BoxProjection(std::vector<std::optional<Scalar>> lower, std::vector<std::optional<Scalar>> upper);
  /// [lo, hi] in one dimension.
  static BoxProjection interval(const Scalar& lo, const Scalar& hi);
  /// [lo, +inf) in one dimension.
  static BoxProjection half_line(const Scalar& lo);
  /// The box [lo, hi] with finite bounds.
  static BoxProjection box(const Vector<Scalar>& lo, const Vector<Scalar>& hi);

  std::string kind() const override { return "box"; }
  std::string describe() const override;
  Index dimension() const override { return static_cast<Index>(lower_.size()); }
  bool convex() const override { return true; }
  Scalar violation(const Vector<Scalar>& x) const override;
  ProjectionResult<Scalar> project(const Vector<Scalar>& y) const override;
  ProjectionCertificate<Scalar> certify(const Vector<Scalar>& y,
                                        const ProjectionResult<Scalar>& candidate) const override;
  std::optional<LinearInequalities<Scalar>> inequalities() const override;
  std::unique_ptr<ProjectionProvider<Scalar>> clone() const override {
    return std::make_unique<BoxProjection>(*this);
  }

  const std::vector<std::optional<Scalar>>& lower() const { return lower_; }
  const std::vector<std::optional<Scalar>>& upper() const { return upper_; }

 private:
  Scalar scale() const;
  std::vector<std::optional<Scalar>> lower_;
  std::vector<std::optional<Scalar>> upper_;
};

// Instantiated once, in the library (core/src); other files only link them.
extern template class BoxProjection<double>;
extern template class BoxProjection<Real50>;
extern template class BoxProjection<Rational>;

}  // namespace nsh
