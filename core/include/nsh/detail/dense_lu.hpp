#pragma once
// A small dense LU factorization with partial pivoting that works in every nsh scalar (Eigen's
// LU needs NumTraits that Boost's rational does not provide). Exact in Rational: a pivot there is
// zero only if it is exactly zero. Used by the projection and penalty code, whose systems are
// small (the active constraints of a projection, the dofs of a penalty step).

#include <nsh/scalar.hpp>

#include <utility>
#include <vector>

namespace nsh::detail {

template <class Scalar>
class DenseLu {
 public:
  /// Factor the square matrix a. Returns false (and keeps no factorization) if a pivot is
  /// at most pivot_tolerance in magnitude (zero in Rational): the matrix is singular.
  bool factor(const Matrix<Scalar>& a, const Scalar& pivot_tolerance = Scalar(0)) {
    lu_ = a;
    const Index n = lu_.rows();
    row_.resize(static_cast<std::size_t>(n));
    ok_ = false;
    for (Index k = 0; k < n; ++k) {
      Index p = k;
      Scalar best = abs_value<Scalar>(lu_(k, k));
      for (Index i = k + 1; i < n; ++i) {
        const Scalar v = abs_value<Scalar>(lu_(i, k));
        if (v > best) {
          best = v;
          p = i;
        }
      }
      if (!(best > pivot_tolerance)) return false;
      row_[static_cast<std::size_t>(k)] = p;
      if (p != k) lu_.row(k).swap(lu_.row(p));
      for (Index i = k + 1; i < n; ++i) {
        if (lu_(i, k) == Scalar(0)) continue;
        lu_(i, k) /= lu_(k, k);
        for (Index j = k + 1; j < n; ++j) lu_(i, j) -= lu_(i, k) * lu_(k, j);
      }
    }
    ok_ = true;
    return true;
  }

  bool ok() const { return ok_; }
  Index size() const { return lu_.rows(); }

  /// x = a^{-1} b for the factored a (b may have several columns).
  template <class Derived>
  Matrix<Scalar> solve(const Eigen::MatrixBase<Derived>& b) const {
    const Index n = lu_.rows();
    Matrix<Scalar> x = b;
    for (Index k = 0; k < n; ++k) {
      const Index p = row_[static_cast<std::size_t>(k)];
      if (p != k) x.row(k).swap(x.row(p));
    }
    for (Index c = 0; c < x.cols(); ++c) {
      for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < i; ++j) x(i, c) -= lu_(i, j) * x(j, c);
      for (Index i = n - 1; i >= 0; --i) {
        for (Index j = i + 1; j < n; ++j) x(i, c) -= lu_(i, j) * x(j, c);
        x(i, c) /= lu_(i, i);
      }
    }
    return x;
  }

  Vector<Scalar> solve_vector(const Vector<Scalar>& b) const {
    return Vector<Scalar>(solve(b).col(0));
  }

 private:
  Matrix<Scalar> lu_;
  std::vector<Index> row_;
  bool ok_{false};
};

/// a^T b for vectors, in every scalar.
template <class Scalar>
Scalar dot(const Vector<Scalar>& a, const Vector<Scalar>& b) {
  Scalar s(0);
  for (Index i = 0; i < a.size(); ++i) s += a(i) * b(i);
  return s;
}

/// |a|^2 = a^T a.
template <class Scalar>
Scalar squared_norm(const Vector<Scalar>& a) {
  return dot<Scalar>(a, a);
}

}  // namespace nsh::detail
