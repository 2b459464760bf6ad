#pragma once
// Projection onto a polyhedron C = {x : A x <= b} (A m x n) by a dual active-set method for the
// QP  min 1/2 |x - y|^2  s.t.  A x <= b  (Goldfarb & Idnani, Math. Programming 27:1-33, 1983,
// with Hessian I). Starting from the unconstrained minimizer x = y and an empty active set W,
// each iteration picks the most violated constraint p (s_p = a_p^T x - b_p > 0, scaled by
// |a_p|_inf), and moves along
//   z = (I - N (N^T N)^{-1} N^T) a_p,   r = (N^T N)^{-1} N^T a_p   (N = active normals),
//   x <- x - t z,   lambda_W <- lambda_W - t r,   lambda_p <- lambda_p + t,
// with t = min(s_p / z^T z, min_{r_j > 0} lambda_j / r_j). The full step adds p to W; the
// partial step drops the blocking constraint. z = 0 with no r_j > 0 proves C empty.
// Every quantity is a rational function of the data: exact in Rational.
//
// Certificate (KKT, recomputed from p and lambda): stationarity |p - y + A^T lambda|_inf,
// primal feasibility max(0, max(A p - b)), dual feasibility max(0, -min lambda) and
// complementarity max |lambda_i (b - A p)_i|, all zero for the exact projection.

#include <nsh/projection/projection.hpp>

namespace nsh {

template <class Scalar>
class PolyhedronProjection final : public ProjectionProvider<Scalar> {
 public:
  /// Throws ModelError naming "set.A" / "set.b" on sizes, non-finite entries or a zero row.
  PolyhedronProjection(Matrix<Scalar> A, Vector<Scalar> b);

  std::string kind() const override { return "polyhedron"; }
  std::string describe() const override;
  Index dimension() const override { return A_.cols(); }
  bool convex() const override { return true; }
  Scalar violation(const Vector<Scalar>& x) const override;
  ProjectionResult<Scalar> project(const Vector<Scalar>& y) const override;
  ProjectionCertificate<Scalar> certify(const Vector<Scalar>& y,
                                        const ProjectionResult<Scalar>& candidate) const override;
  std::optional<LinearInequalities<Scalar>> inequalities() const override {
    return LinearInequalities<Scalar>{A_, b_};
  }
  std::unique_ptr<ProjectionProvider<Scalar>> clone() const override {
    return std::make_unique<PolyhedronProjection>(*this);
  }

  /// Iteration cap of the active-set method (default 20 (m + n) + 100).
  void set_max_iterations(Index n) { max_iterations_ = n; }

 private:
  Scalar scale() const;
  Matrix<Scalar> A_;
  Vector<Scalar> b_;
  Index max_iterations_{0};
};

// Instantiated once, in the library (core/src); other files only link them.
extern template class PolyhedronProjection<double>;
extern template class PolyhedronProjection<Real50>;
extern template class PolyhedronProjection<Rational>;

}  // namespace nsh
