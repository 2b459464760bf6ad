#pragma once
// The linear model of nsh/model/linear_model.hpp with sparse M, C and K, for the finite-element
// models whose dense matrices do not fit (the impacting bar at N = 10^4 elements: three dense 10^4
// x 10^4 matrices are 2.4 GB in double; the tridiagonal ones are 0.7 MB).
//
//   M q'' + C v + K q = F(t) + G lambda,    g = G^T q + w,    U = G^T v.
//
// G stays dense (n x m): the models this is for have few contacts (m << n), and every contact
// quantity (W = G^T M^-1 G, the impact LCP) is dense in m anyway.
//
// Which algorithms take it: the event-driven reference (EventDrivenFlow, compute_events) runs on
// it directly; to_dense() gives the LinearModel every other scheme reads, for models small enough.

#include <nsh/model/linear_model.hpp>
#include <nsh/scalar.hpp>

#include <Eigen/SparseCore>

#include <string>
#include <vector>

namespace nsh {

template <class Scalar>
using SparseMatrix = Eigen::SparseMatrix<Scalar>;

/// Largest |entry| of a sparse matrix (0 when it stores none).
template <class Scalar>
Scalar max_abs(const SparseMatrix<Scalar>& A) {
  Scalar best(0);
  for (Index j = 0; j < A.outerSize(); ++j)
    for (typename SparseMatrix<Scalar>::InnerIterator it(A, j); it; ++it)
      if (abs_value<Scalar>(it.value()) > best) best = abs_value<Scalar>(it.value());
  return best;
}

/// The entries of a dense matrix that are not exactly zero, as a sparse matrix (exact in every
/// scalar, Rational included).
template <class Scalar>
SparseMatrix<Scalar> sparse_of(const Matrix<Scalar>& A) {
  std::vector<Eigen::Triplet<Scalar>> triplets;
  for (Index j = 0; j < A.cols(); ++j)
    for (Index i = 0; i < A.rows(); ++i)
      if (A(i, j) != Scalar(0)) triplets.emplace_back(i, j, A(i, j));
  SparseMatrix<Scalar> S(A.rows(), A.cols());
  S.setFromTriplets(triplets.begin(), triplets.end());
  return S;
}

/// True when A equals its transpose entry by entry. Eigen computes A^T x of a column-major A
/// row by row (a gather: no scattered writes, 1.35x faster than A x on the bar's tridiagonal K at
/// n = 10^3), adding each row's terms in the order of their column, which is the order in which
/// the column-by-column A x adds them: for such an A the two are equal to the bit.
template <class Scalar>
bool exactly_symmetric(const SparseMatrix<Scalar>& A) {
  if (A.rows() != A.cols()) return false;
  const SparseMatrix<Scalar> difference = A - SparseMatrix<Scalar>(A.transpose());
  for (Index j = 0; j < difference.outerSize(); ++j)
    for (typename SparseMatrix<Scalar>::InnerIterator it(difference, j); it; ++it)
      if (it.value() != Scalar(0)) return false;
  return true;
}

template <class Scalar>
struct SparseLinearModel {
  std::string name;
  SparseMatrix<Scalar> M;      ///< n x n, symmetric positive definite
  SparseMatrix<Scalar> C;      ///< n x n, symmetric positive semidefinite
  SparseMatrix<Scalar> K;      ///< n x n, symmetric positive semidefinite
  Vector<Scalar> F;            ///< n
  Vector<Scalar> F_amplitude;  ///< empty or n: F(t) = F + F_amplitude sin(omega t)
  Scalar omega{0};
  Matrix<Scalar> G;  ///< n x m
  Vector<Scalar> w;  ///< m
  Vector<Scalar> e;  ///< m, each in [0, 1]

  Index dofs() const { return M.rows(); }
  Index contacts() const { return G.cols(); }
  bool has_harmonic_force() const;
  Vector<Scalar> gap(const Vector<Scalar>& q) const { return G.transpose() * q + w; }
  Vector<Scalar> local_velocity(const Vector<Scalar>& v) const { return G.transpose() * v; }
  /// 1/2 v^T M v + 1/2 q^T K q.
  Scalar energy(const Vector<Scalar>& q, const Vector<Scalar>& v) const;

  /// The hypotheses of docs/theory.md §1, as LinearModel::validate() checks them, with sparse
  /// tests: shapes, finite stored entries, symmetry entry by entry, M positive definite (every
  /// pivot of a sparse LDL^T above tolerance), C and K positive semidefinite (the sparse LDL^T of
  /// A + tau I has only positive pivots, tau = 16 (n + 1) eps |A|: by Sylvester's law of inertia
  /// then lambda_min(A) > -tau), e in [0, 1]. Throws ModelError naming the field and the value.
  void validate() const;
};

/// Sizes the optional fields (C, K, F, w, e) to zeros of the right shape when empty.
template <class Scalar>
void fill_defaults(SparseLinearModel<Scalar>& model);

/// The dense model's nonzero pattern as a sparse model (exact: the same values). The sparse
/// family is frictionless: a model with has_friction() is refused (ModelError naming mu).
template <class Scalar>
SparseLinearModel<Scalar> to_sparse(const LinearModel<Scalar>& model);

/// The dense model, for the schemes that read dense matrices. Throws InputError naming "M" when
/// n exceeds `max_dofs` (the dense copy would not be a reasonable thing to build by accident).
template <class Scalar>
LinearModel<Scalar> to_dense(const SparseLinearModel<Scalar>& model, Index max_dofs = 4096);

/// The same model in another scalar type.
template <class To, class From>
SparseLinearModel<To> sparse_model_cast(const SparseLinearModel<From>& model);

}  // namespace nsh
