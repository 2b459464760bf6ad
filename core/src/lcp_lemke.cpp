// Lexicographic Lemke (see nsh/lcp/lemke.hpp).

#include <nsh/lcp/lemke.hpp>

#include <string>
#include <vector>

namespace nsh {

namespace {

/// -1, 0, +1 for a < b, a ~ b, a > b, with ties judged relatively (exactly in Rational).
template <class Scalar>
int compare(const Scalar& a, const Scalar& b) {
  Scalar size = abs_value(a) > abs_value(b) ? abs_value(a) : abs_value(b);
  const Scalar tie = tolerance<Scalar>(size, Scalar(16));
  const Scalar d = a - b;
  if (d > tie) return 1;
  if (d < -tie) return -1;
  return 0;
}

}  // namespace

template <class Scalar>
LcpResult<Scalar> solve_lcp_lemke(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                  const LcpOptions<Scalar>& options) {
  LcpResult<Scalar> result;
  result.method = LcpMethod::lemke;
  const Index m = b.size();
  result.z = Vector<Scalar>::Zero(m);

  auto finish = [&](LcpStatus status, std::string message) {
    result.w = b;
    result.w.noalias() += W * result.z;
    result.certificate = certify(W, b, result.z, options);
    if (status == LcpStatus::solved && !result.certificate.accepted) {
      status = LcpStatus::uncertified;
      message = "Lemke's basis failed the certificate (round-off in the pivots)";
    }
    result.status = status;
    result.message = std::move(message);
    return result;
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
  Matrix<Scalar> T = Matrix<Scalar>::Zero(m, 2 * m + 2);
  for (Index i = 0; i < m; ++i) {
    T(i, i) = Scalar(1);
    for (Index j = 0; j < m; ++j) T(i, m + j) = -W(i, j);
    T(i, z0) = Scalar(-1);
    T(i, rhs) = b(i);
  }
  std::vector<Index> basis(static_cast<std::size_t>(m));
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
    const Scalar positive = tolerance<Scalar>(column_scale, Scalar(64 * (m + 1)));
    Index row = -1;
    for (Index i = 0; i < m; ++i) {
      if (!(T(i, entering) > positive)) continue;
      if (row < 0) {
        row = i;
        continue;
      }
      // Compare (rhs, B^-1 row) / a for i against the current best, entry by entry; the
      // columns of B^-1 are those of the w variables (the initial identity).
      int order = compare<Scalar>(T(i, rhs) / T(i, entering), T(row, rhs) / T(row, entering));
      for (Index j = 0; order == 0 && j < m; ++j)
        order = compare<Scalar>(T(i, j) / T(i, entering), T(row, j) / T(row, entering));
      if (order < 0) row = i;
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
      for (Index i = 0; i < m; ++i)
        if (basis[static_cast<std::size_t>(i)] == z0 && i != row && T(i, entering) > positive &&
            compare<Scalar>(T(i, rhs) / T(i, entering), ratio) == 0)
          row = i;
    }
    leaving = pivot(row, entering);
    if (leaving == z0) break;
  }
  for (Index i = 0; i < m; ++i) {
    const Index v = basis[static_cast<std::size_t>(i)];
    if (v >= m && v < 2 * m) result.z(v - m) = T(i, rhs);
  }
  return finish(LcpStatus::solved, "");
}

template LcpResult<double> solve_lcp_lemke(const Matrix<double>&, const Vector<double>&,
                                           const LcpOptions<double>&);
template LcpResult<Real50> solve_lcp_lemke(const Matrix<Real50>&, const Vector<Real50>&,
                                           const LcpOptions<Real50>&);
template LcpResult<Rational> solve_lcp_lemke(const Matrix<Rational>&, const Vector<Rational>&,
                                             const LcpOptions<Rational>&);

}  // namespace nsh
