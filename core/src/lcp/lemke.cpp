// Lexicographic Lemke (see nsh/lcp/lemke.hpp).

#include <nsh/lcp/lemke.hpp>

#include <string>
#include <vector>

namespace nsh {

namespace {

/// -1, 0, +1 for a < b, a ~ b, a > b. A tie is judged at `scale`, the magnitude of the two
/// lexicographic rows being compared, not at |a| and |b|: an entry that is zero in exact
/// arithmetic comes out of the pivots as round-off of the row's size (1e-15 next to entries of
/// 1e2 on lcp_tobenna), and judging it relative to itself would let that noise break the tie
/// that the next column must break. Exact in Rational (tolerance zero).
template <class Scalar>
int compare(const Scalar& a, const Scalar& b, const Scalar& scale, const Scalar& operations) {
  Scalar size = scale;
  if (abs_value(a) > size) size = abs_value(a);
  if (abs_value(b) > size) size = abs_value(b);
  const Scalar tie = tolerance<Scalar>(size, operations);
  const Scalar d = a - b;
  if (d > tie) return 1;
  if (d < -tie) return -1;
  return 0;
}

/// Lemke on T (at least m x (2m + 2)) and basis (at least m), into result.z and result.w,
/// which have size m.
template <class Scalar>
void lemke(const MatrixView<Scalar>& W, const VectorView<Scalar>& b,
           const LcpOptions<Scalar>& options, Matrix<Scalar>& T, std::vector<Index>& basis,
           LcpResult<Scalar>& result) {
  result.method = LcpMethod::lemke;
  result.iterations = 0;
  const Index m = b.size();
  result.z.setZero();

  auto finish = [&](LcpStatus status, std::string message) {
    certify_result<Scalar>(W, b, options, status, std::move(message),
                           "Lemke's basis failed the certificate (round-off in the pivots)",
                           result);
  };

  bool feasible = true;
  Index start = 0;
  for (Index i = 0; i < m; ++i) {
    if (b(i) < Scalar(0)) feasible = false;
    // Lexicographic rule for the first pivot: among the rows of min b, the last one keeps
    // every other row's (rhs, B^-1) lexicographically positive after the pivot.
    if (b(i) <= b(start)) start = i;
  }
  if (feasible) return finish(LcpStatus::solved, "");

  // Variables: w_0..w_{m-1} = 0..m-1, z_0..z_{m-1} = m..2m-1, z0 = 2m; column 2m+1 = rhs.
  const Index z0 = 2 * m;
  const Index rhs = 2 * m + 1;
  T.topLeftCorner(m, 2 * m + 2).setZero();
  for (Index i = 0; i < m; ++i) {
    T(i, i) = Scalar(1);
    for (Index j = 0; j < m; ++j) T(i, m + j) = -W(i, j);
    T(i, z0) = Scalar(-1);
    T(i, rhs) = b(i);
  }
  for (Index i = 0; i < m; ++i) basis[static_cast<std::size_t>(i)] = i;

  auto pivot = [&](Index row, Index col) {
    const Scalar p = T(row, col);
    for (Index j = 0; j <= rhs; ++j) T(row, j) /= p;
    T(row, col) = Scalar(1);
    for (Index i = 0; i < m; ++i) {
      if (i == row || T(i, col) == Scalar(0)) continue;
      const Scalar f = T(i, col);
      for (Index j = 0; j <= rhs; ++j) T(i, j) -= f * T(row, j);
      T(i, col) = Scalar(0);
    }
    const Index left = basis[static_cast<std::size_t>(row)];
    basis[static_cast<std::size_t>(row)] = col;
    ++result.iterations;
    return left;
  };

  // Round-off of an m-row elimination, for the positive-pivot threshold and the ratio ties.
  const Scalar operations = Scalar(64 * (m + 1));
  // The magnitude of row i's lexicographic vector (rhs, B^-1 row) / a_i.
  auto row_scale = [&](Index i, Index entering) {
    Scalar s = abs_value<Scalar>(T(i, rhs));
    for (Index j = 0; j < m; ++j)
      if (abs_value<Scalar>(T(i, j)) > s) s = abs_value<Scalar>(T(i, j));
    return Scalar(s / T(i, entering));
  };

  Index leaving = pivot(start, z0);
  while (true) {
    if (result.iterations >= options.max_iterations)
      return finish(LcpStatus::max_iterations,
                    "Lemke stopped after " + std::to_string(result.iterations) + " pivots");
    const Index entering = leaving < m ? leaving + m : leaving - m;  // the complement

    // Lexicographic minimum ratio over rows with a positive entry in the entering column.
    Scalar column_scale(0);
    for (Index i = 0; i < m; ++i)
      if (abs_value<Scalar>(T(i, entering)) > column_scale)
        column_scale = abs_value<Scalar>(T(i, entering));
    const Scalar positive = tolerance<Scalar>(column_scale, operations);
    Index row = -1;
    Scalar best_scale(0);
    for (Index i = 0; i < m; ++i) {
      if (!(T(i, entering) > positive)) continue;
      const Scalar scale_i = row_scale(i, entering);
      if (row < 0) {
        row = i;
        best_scale = scale_i;
        continue;
      }
      // Compare (rhs, B^-1 row) / a for i against the current best, entry by entry; the
      // columns of B^-1 are those of the w variables (the initial identity).
      const Scalar scale = scale_i > best_scale ? scale_i : best_scale;
      int order = compare<Scalar>(T(i, rhs) / T(i, entering), T(row, rhs) / T(row, entering), scale,
                                  operations);
      for (Index j = 0; order == 0 && j < m; ++j)
        order = compare<Scalar>(T(i, j) / T(i, entering), T(row, j) / T(row, entering), scale,
                                operations);
      if (order < 0) {
        row = i;
        best_scale = scale_i;
      }
    }
    if (row < 0) {
      // Leave z at zero: the almost-complementary point on the ray is no solution.
      return finish(LcpStatus::no_solution,
                    "Lemke ended on a secondary ray after " + std::to_string(result.iterations) +
                        " pivots (proves no solution when W is copositive-plus or a P-matrix)");
    }
    // Prefer z0 to leave on a tie: that ends the method with a solution at once.
    {
      const Scalar ratio = T(row, rhs) / T(row, entering);
      for (Index i = 0; i < m; ++i) {
        if (basis[static_cast<std::size_t>(i)] != z0 || i == row || !(T(i, entering) > positive))
          continue;
        const Scalar scale_i = row_scale(i, entering);
        const Scalar scale = scale_i > best_scale ? scale_i : best_scale;
        if (compare<Scalar>(T(i, rhs) / T(i, entering), ratio, scale, operations) == 0) row = i;
      }
    }
    leaving = pivot(row, entering);
    if (leaving == z0) break;
  }
  for (Index i = 0; i < m; ++i) {
    const Index v = basis[static_cast<std::size_t>(i)];
    if (v >= m && v < 2 * m) result.z(v - m) = T(i, rhs);
  }
  finish(LcpStatus::solved, "");
}

}  // namespace

template <class Scalar>
LcpResult<Scalar> solve_lcp_lemke(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                  const LcpOptions<Scalar>& options) {
  const Index m = b.size();
  Matrix<Scalar> T(m, 2 * m + 2);
  std::vector<Index> basis(static_cast<std::size_t>(m));
  LcpResult<Scalar> result;
  result.z.resize(m);
  result.w.resize(m);
  lemke<Scalar>(W, b, options, T, basis, result);
  return result;
}

template <class Scalar>
void solve_lcp_lemke(const std::type_identity_t<MatrixView<Scalar>>& W,
                     const std::type_identity_t<VectorView<Scalar>>& b,
                     const LcpOptions<Scalar>& options, LcpWorkspace<Scalar>& workspace,
                     LcpResult<Scalar>& result) {
  const Index m = b.size();
  workspace.size_result(result, m);
  // Beyond the reserved capacity the scratch grows (allocates), as solve_lcp would.
  if (workspace.tableau.rows() < m || workspace.tableau.cols() < 2 * m + 2)
    workspace.tableau.resize(m, 2 * m + 2);
  if (workspace.basis.size() < static_cast<std::size_t>(m))
    workspace.basis.resize(static_cast<std::size_t>(m));
  lemke<Scalar>(W, b, options, workspace.tableau, workspace.basis, result);
}

#define NSH_INSTANTIATE_LEMKE(Scalar)                                                         \
  template LcpResult<Scalar> solve_lcp_lemke(const Matrix<Scalar>&, const Vector<Scalar>&,    \
                                             const LcpOptions<Scalar>&);                      \
  template void solve_lcp_lemke<Scalar>(const MatrixView<Scalar>&, const VectorView<Scalar>&, \
                                        const LcpOptions<Scalar>&, LcpWorkspace<Scalar>&,     \
                                        LcpResult<Scalar>&);

NSH_INSTANTIATE_LEMKE(double)
NSH_INSTANTIATE_LEMKE(Real50)
NSH_INSTANTIATE_LEMKE(Rational)

}  // namespace nsh
