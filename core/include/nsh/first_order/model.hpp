#pragma once
// The first-order sweeping process (Moreau; docs/theory.md §6 items 4-5, seed 004):
//
//   x'(t) in f(t, x) - N_C(x),   x(0) = x0 in C,   f(t, x) = A x + b + t c  (affine),
//
// with C closed and convex, given by a projection provider, and N_C(x) the normal cone
// {n : n^T (z - x) <= 0 for all z in C}. When C is polyhedral, {x : A_C x <= b_C}, it also has
// the gap form g(x) = b_C - A_C x >= 0 (gradient -A_C^T) that the penalty regularization
//   x' = f(t, x) + kappa sum_i max(0, -g_i(x)) grad g_i
// uses (seed 004's penalty line: C = [0, inf), f = -1, y' = -1 + kappa max(0, -y)).

#include <nsh/projection/projection.hpp>

#include <memory>
#include <string>

namespace nsh {

template <class Scalar>
struct SweepingProcess {
  std::string name;
  Matrix<Scalar> A;  ///< n x n, the linear part of f
  Vector<Scalar> b;  ///< n, the constant part of f
  Vector<Scalar> c;  ///< n, the part of f linear in t; empty means zero
  std::shared_ptr<const ProjectionProvider<Scalar>> set;  ///< C

  Index dimension() const { return b.size(); }
  /// f(t, x) = A x + b + t c.
  Vector<Scalar> drift(const Scalar& t, const Vector<Scalar>& x) const;
  /// Sizes consistent, entries finite, a set of the same dimension. Throws ModelError naming
  /// "A", "b", "c" or "set".
  void validate() const;
};

/// The state of a first-order model: time and position.
template <class Scalar>
struct FirstOrderState {
  Scalar t{0};
  Vector<Scalar> x;
};

}  // namespace nsh
