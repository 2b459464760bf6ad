#pragma once
// Test helpers shared by core/tests/friction_test.cpp and core/tests/siconos_friction_compare.cpp:
// building friction problems and drawing random ones with small-integer data.

#include <nsh/scalar.hpp>

#include <nsh/friction/problem.hpp>

#include <initializer_list>
#include <random>

namespace nsh {

template <class Scalar>
FrictionProblem<Scalar> problem_of(Index d, const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                   const Vector<Scalar>& mu) {
  FrictionProblem<Scalar> p;
  p.tangent_dimension = d;
  p.W = W;
  p.b = b;
  p.friction_coefficient = mu;
  return p;
}

template <class Scalar>
Vector<Scalar> vec(std::initializer_list<Scalar> values) {
  Vector<Scalar> v(static_cast<Index>(values.size()));
  Index i = 0;
  for (const Scalar& x : values) v(i++) = x;
  return v;
}

inline Rational q(long p, long r = 1) {
  return Rational(p) / Rational(r);
}

/// A random contact problem with small-integer data (exact in every scalar): W = A A^T with A
/// n x k integer entries in -3..3 and k = n or n - 1 (then W is singular, only PSD) plus
/// `shift` I, b with entries in -6..6 (normal entries mostly negative: approaching), mu in
/// {0, 1/10, ..., mu_tenths / 10}.
inline FrictionProblem<Rational> random_problem(std::mt19937& rng, Index m, Index d, int mu_tenths,
                                                int shift, bool allow_singular) {
  const Index n = m * (1 + d);
  std::uniform_int_distribution<int> entry(-3, 3), rhs(-6, 6), normal(-6, 2), mu(0, mu_tenths),
      coin(0, 1);
  const Index k = allow_singular && coin(rng) == 1 && n > 1 ? n - 1 : n;
  Matrix<Rational> A(n, k);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < k; ++j) A(i, j) = Rational(entry(rng));
  Matrix<Rational> W = A * A.transpose();
  for (Index i = 0; i < n; ++i) W(i, i) += Rational(shift);
  // A zero diagonal leaves the iterative methods' r undefined; keep every diagonal positive.
  for (Index i = 0; i < n; ++i)
    if (W(i, i) == Rational(0)) W(i, i) = Rational(1);
  Vector<Rational> b(n), coefficient(m);
  for (Index a = 0; a < m; ++a) {
    b(a * (1 + d)) = Rational(normal(rng));
    for (Index t = 1; t <= d; ++t) b(a * (1 + d) + t) = Rational(rhs(rng));
    coefficient(a) = q(mu(rng), 10);
  }
  return problem_of<Rational>(d, W, b, coefficient);
}

template <class To>
FrictionProblem<To> cast_problem(const FrictionProblem<Rational>& p) {
  return problem_of<To>(p.tangent_dimension, scalar_cast<To>(p.W), scalar_cast<To>(p.b),
                        scalar_cast<To>(p.friction_coefficient));
}

}  // namespace nsh
