#pragma once
// The LDL^T factorization of a sparse symmetric matrix with a solve that does not allocate, for
// the schemes that step a SparseLinearModel (SparseMoreauJean, the Newmark family's sparse
// storage): Eigen's SimplicialLDLT::solve permutes in place through a temporary, so the solve
// is done here by hand into preallocated vectors.

#include <nsh/error.hpp>
#include <nsh/model/sparse_model.hpp>

#include <Eigen/SparseCholesky>

namespace nsh::detail {

template <class Scalar>
class SparseLdlt {
 public:
  /// Factorizes the symmetric A (AMD ordering). Returns the index of the first pivot of D that
  /// is not > 0, or -1 when every pivot is positive (A positive definite to the factorization);
  /// -2 when Eigen reports the factorization failed.
  Index compute(const SparseMatrix<Scalar>& A) {
    ldlt_.compute(A);
    if (ldlt_.info() != Eigen::Success) return -2;
    // solve() sweeps L's compressed arrays and reads D from pivots_: vectorD() returns a copy.
    if (!ldlt_.matrixL().nestedExpression().isCompressed())
      throw StepError("sparse LDL^T: the factor is not in compressed storage");
    pivots_ = ldlt_.vectorD();
    permuted_.setZero(A.rows());
    for (Index i = 0; i < pivots_.size(); ++i)
      if (!(pivots_(i) > Scalar(0))) return i;
    return -1;
  }

  /// x = A^-1 b, without allocating (x and b distinct, of the factorized size).
  void solve(const Vector<Scalar>& b, Vector<Scalar>& x) {
    // What SimplicialLDLT::_solve_impl does, with the two permutations out of place.
    if (ldlt_.permutationP().size() > 0)
      permuted_.noalias() = ldlt_.permutationP() * b;
    else
      permuted_ = b;
    // L y = P b, then L^T x = D^-1 y with the division folded into the backward sweep: the
    // operations of Eigen's sparse triangular solves (TriangularSolver.h: the zero test, the
    // order of the updates) on the compressed arrays, so the same bits, without its iterator
    // overhead on a recurrence that is latency-bound (a tridiagonal L at 10^3 dofs). Each sweep
    // also keeps the entry its next step reads first in a register (y_{i+1} after column i's
    // update, x_{i+1}): reading it back from memory put a store-to-load forwarding on the
    // recurrence's critical path, about a third of a solve on the bar.
    const SparseMatrix<Scalar>& factor = ldlt_.matrixL().nestedExpression();
    const int* start = factor.outerIndexPtr();
    const int* row = factor.innerIndexPtr();
    const Scalar* value = factor.valuePtr();
    const Scalar* pivot = pivots_.data();
    Scalar* y = permuted_.data();
    const Index n = permuted_.size();
    Scalar carried(0);
    bool carrying = false;  // carried holds y[i]'s final value
    for (Index i = 0; i < n; ++i) {
      const Scalar y_i = carrying ? carried : y[i];
      carrying = false;
      if (y_i == Scalar(0)) continue;
      for (int p = start[i]; p < start[i + 1]; ++p)
        if (row[p] > i) {
          const Scalar updated = y[row[p]] - y_i * value[p];
          y[row[p]] = updated;
          if (row[p] == i + 1) {  // no later column updates y[i + 1]
            carried = updated;
            carrying = true;
          }
        }
    }
    Scalar x_next(0);  // x_{i+1}, in y[i + 1] too
    for (Index i = n - 1; i >= 0; --i) {
      Scalar x_i = y[i] / pivot[i];  // y[i] is final here: only the sweep's step i writes it
      for (int p = start[i]; p < start[i + 1]; ++p)
        if (row[p] > i) x_i -= value[p] * (row[p] == i + 1 ? x_next : y[row[p]]);
      y[i] = x_i;
      x_next = x_i;
    }
    if (ldlt_.permutationPinv().size() > 0)
      x.noalias() = ldlt_.permutationPinv() * permuted_;
    else
      x = permuted_;
  }

  /// A^-1 B for a dense B (set-up only: it allocates).
  Matrix<Scalar> solve(const Matrix<Scalar>& B) const { return ldlt_.solve(B); }

  /// D of A = P^T L D L^T P.
  const Vector<Scalar>& pivots() const { return pivots_; }

 private:
  Eigen::SimplicialLDLT<SparseMatrix<Scalar>, Eigen::Lower, Eigen::AMDOrdering<int>> ldlt_;
  Vector<Scalar> pivots_;    // ldlt_'s D
  Vector<Scalar> permuted_;  // the solve's workspace
};

}  // namespace nsh::detail
