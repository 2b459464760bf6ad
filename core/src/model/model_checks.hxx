// The hypotheses of docs/theory.md §1 that do not involve M, C and K, shared by
// LinearModel::validate (linear_model.cpp) and SparseLinearModel::validate (sparse_model.cpp).
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/scalar.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <type_traits>

namespace nsh::detail {

/// x has `size` entries, each finite; ModelError naming the field (or the entry) otherwise.
template <class Scalar>
void require_finite_vector(const std::string& field, const Vector<Scalar>& x, Index size) {
  if (x.size() != size)
    throw ModelError(field, fmt::format("expected {} entries, got {}", size, x.size()));
  for (Index i = 0; i < x.size(); ++i)
    if (!is_finite(x(i)))
      throw ModelError(fmt::format("{}[{}]", field, i),
                       "is " + format_scalar(x(i)) + ", every entry must be finite");
}

/// F (n), F_amplitude (empty or n), omega finite, G (n rows, finite), w and e (m), e in [0, 1].
template <class Scalar>
void require_loads_and_contacts(Index n, const Vector<Scalar>& F, const Vector<Scalar>& F_amplitude,
                                const Scalar& omega, const Matrix<Scalar>& G,
                                const Vector<Scalar>& w, const Vector<Scalar>& e) {
  require_finite_vector<Scalar>("F", F, n);
  if (F_amplitude.size() != 0) require_finite_vector<Scalar>("F_amplitude", F_amplitude, n);
  if (!is_finite(omega))
    throw ModelError("omega", "is " + format_scalar(omega) + ", must be finite");
  if (G.rows() != n)
    throw ModelError(
        "G", fmt::format("expected {} rows (one per degree of freedom), got {}", n, G.rows()));
  for (Index j = 0; j < G.cols(); ++j)
    for (Index i = 0; i < n; ++i)
      if (!is_finite(G(i, j)))
        throw ModelError(fmt::format("G[{}][{}]", i, j),
                         "is " + format_scalar(G(i, j)) + ", every entry must be finite");
  const Index m = G.cols();
  require_finite_vector<Scalar>("w", w, m);
  require_finite_vector<Scalar>("e", e, m);
  for (Index a = 0; a < m; ++a)
    if (e(a) < Scalar(0) || e(a) > Scalar(1))
      throw ModelError(fmt::format("e[{}]", a),
                       "restitution must be in [0, 1], got " + format_scalar(e(a)));
}

/// In double, the matrix W = G^T M^-1 G that every impact solves with (given `solve`, which
/// returns M^-1 G) must be finite: finite M and G whose product overflows (M = 1e-300,
/// G = 1e300) would otherwise surface as "W[0][0] is not finite" from the LCP, naming a matrix
/// the user never wrote. ModelError naming G. Called for double only: Real50's exponent range
/// makes this moot, and Rational cannot overflow.
template <class Scalar, class SolveM>
void require_finite_delassus(const Matrix<Scalar>& G, SolveM&& solve) {
  if constexpr (std::is_same_v<Scalar, double>) {
    if (G.cols() == 0) return;
    const Matrix<double> MinvG = solve(G);
    const Matrix<double> W = G.transpose() * MinvG;
    for (Index a = 0; a < W.rows(); ++a)
      for (Index b = 0; b < W.cols(); ++b)
        if (!std::isfinite(W(a, b)))
          throw ModelError("G", fmt::format("the contact matrix G^T M^-1 G that every impact "
                                            "solves with overflows double (entry [{}][{}] is "
                                            "{}): rescale G or M, or use --precision 50",
                                            a, b, format_scalar(W(a, b))));
  }
}

}  // namespace nsh::detail
