#pragma once
// Preallocated storage for solving the one-step LCP on a hot path (a time step), so that a
// solve of size k <= capacity allocates nothing (docs/theory.md §7).
//
// A scheme owns one workspace, reserves it for its m contacts once, and solves the LCP of its
// active block in place:
//
//   solve_lcp(method, W_block, b_head, options, workspace, summary.lcp)
//
// W and b are views (MatrixView / VectorView), so the top-left k x k block of an m x m buffer
// binds without a copy. The result's z and w must have size k (a StepSummary is checked for
// it), and an Eigen vector cannot change size without a new allocation; so the workspace keeps
// one vector of every size 1..capacity for z and for w and swaps them in and out of the result
// (m (m + 1) scalars each, the order of Lemke's m x (2m + 2) tableau).
//
// Allocation-free: Lemke and PGS (their scratch is the tableau and basis below; PGS needs
// none). Enumeration, FB and prox run through the allocating solve_lcp and their result is
// moved into the caller's. Beyond capacity every method falls back to allocating. Failure
// messages are std::strings and may allocate; a step that gets one throws anyway.
// The result and its certificate are the same as solve_lcp's for the same method.

#include <nsh/lcp/lcp.hpp>

#include <vector>

namespace nsh {

template <class Scalar>
class LcpWorkspace {
 public:
  LcpWorkspace() = default;
  explicit LcpWorkspace(Index capacity) { reserve(capacity); }

  /// Preallocate for problems of up to `capacity` unknowns (a no-op if already that large).
  void reserve(Index capacity);
  Index capacity() const { return capacity_; }

  /// Give result.z and result.w size m (from the pools when m <= capacity, contents
  /// unspecified), handing their previous storage back to the pools.
  void size_result(LcpResult<Scalar>& result, Index m);

  // Lemke's scratch, sized by reserve: the tableau (rows 0..k-1, columns 0..2k+1 used) and the
  // basic variable of each row.
  Matrix<Scalar> tableau;
  std::vector<Index> basis;

 private:
  void lend(Vector<Scalar>& v, std::vector<Vector<Scalar>>& pool, Index m) const;

  Index capacity_{0};
  // pool[s] holds a vector of size s while it is not lent out, an empty one while it is.
  std::vector<Vector<Scalar>> z_pool_, w_pool_;
};

/// solve_lcp with the workspace, into `result` (whose storage is reused). W square with b of
/// matching size (InputError if not), as for solve_lcp.
template <class Scalar>
void solve_lcp(LcpMethod method, const std::type_identity_t<MatrixView<Scalar>>& W,
               const std::type_identity_t<VectorView<Scalar>>& b, const LcpOptions<Scalar>& options,
               LcpWorkspace<Scalar>& workspace, LcpResult<Scalar>& result);

// Instantiated once, in the library (core/src); other files only link them.
extern template class LcpWorkspace<double>;
extern template class LcpWorkspace<Real50>;
extern template class LcpWorkspace<Rational>;

}  // namespace nsh
