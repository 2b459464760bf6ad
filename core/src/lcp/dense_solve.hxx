#pragma once
// Private to the LCP solvers: a dense linear solve that works in every scalar (Eigen's LU needs
// sqrt-free NumTraits that Boost's rational does not give it) on preallocated storage, and that
// tells a singular-but-consistent system from an inconsistent one.

#include <nsh/scalar.hpp>

#include <utility>
#include <vector>

namespace nsh::detail {

template <class Scalar>
struct DenseSolveWorkspace {
  Matrix<Scalar> a;           ///< the system, overwritten by its elimination
  Vector<Scalar> r;           ///< the right-hand side, overwritten
  Vector<Scalar> x;           ///< the solution
  std::vector<Index> column;  ///< column permutation of complete pivoting

  void resize(Index m) {
    a.resize(m, m);
    r.resize(m);
    x.resize(m);
    column.resize(static_cast<std::size_t>(m));
  }
};

enum class DenseSolveOutcome { unique, singular_consistent, inconsistent };

/// Solve a(0:n, 0:n) x = r(0:n) by Gaussian elimination with complete pivoting. A pivot of
/// magnitude <= pivot_tolerance counts as zero (exactly zero in Rational); the equations left
/// then must hold within residual_tolerance, and the free unknowns are set to zero, giving the
/// particular solution supported on the pivot columns.
template <class Scalar>
DenseSolveOutcome solve_complete_pivoting(DenseSolveWorkspace<Scalar>& ws, Index n,
                                          const Scalar& pivot_tolerance,
                                          const Scalar& residual_tolerance) {
  auto& a = ws.a;
  auto& r = ws.r;
  for (Index k = 0; k < n; ++k) ws.column[static_cast<std::size_t>(k)] = k;
  Index rank = n;
  for (Index k = 0; k < n; ++k) {
    Index p = k, q = k;
    Scalar best(0);
    for (Index j = k; j < n; ++j)
      for (Index i = k; i < n; ++i) {
        const Scalar v = abs_value<Scalar>(a(i, j));
        if (v > best) {
          best = v;
          p = i;
          q = j;
        }
      }
    if (best <= pivot_tolerance) {
      rank = k;
      break;
    }
    if (p != k) {
      for (Index j = 0; j < n; ++j) std::swap(a(k, j), a(p, j));
      std::swap(r(k), r(p));
    }
    if (q != k) {
      for (Index i = 0; i < n; ++i) std::swap(a(i, k), a(i, q));
      std::swap(ws.column[static_cast<std::size_t>(k)], ws.column[static_cast<std::size_t>(q)]);
    }
    for (Index i = k + 1; i < n; ++i) {
      if (a(i, k) == Scalar(0)) continue;
      const Scalar f = a(i, k) / a(k, k);
      for (Index j = k + 1; j < n; ++j) a(i, j) -= f * a(k, j);
      a(i, k) = Scalar(0);
      r(i) -= f * r(k);
    }
  }
  for (Index i = rank; i < n; ++i)
    if (abs_value<Scalar>(r(i)) > residual_tolerance) return DenseSolveOutcome::inconsistent;
  // Back substitution on the pivot block; r(k) becomes the k-th permuted unknown.
  for (Index k = rank; k < n; ++k) r(k) = Scalar(0);
  for (Index k = rank - 1; k >= 0; --k) {
    Scalar s = r(k);
    for (Index j = k + 1; j < rank; ++j) s -= a(k, j) * r(j);
    r(k) = s / a(k, k);
  }
  for (Index k = 0; k < n; ++k) ws.x(ws.column[static_cast<std::size_t>(k)]) = r(k);
  return rank == n ? DenseSolveOutcome::unique : DenseSolveOutcome::singular_consistent;
}

}  // namespace nsh::detail
