#pragma once
// Projected Gauss-Seidel (Cryer, SIAM J. Control 9:385-392, 1971; docs/theory.md §7):
//
//   for i = 0..m-1:   z_i <- max(0, z_i - (b_i + W_i z) / W_ii)     (one sweep, z updated in place)
//
// from z = 0, until the natural map ||min(z, W z + b)||_inf is within the certificate tolerance.
// Converges for W symmetric positive definite (and symmetric PSD when a solution exists); a
// non-positive diagonal entry makes the sweep undefined: status singular.
// iterations = sweeps. Instantiated for double and Real50 (it converges only in the limit).

#include <nsh/lcp/lcp.hpp>
#include <nsh/lcp/workspace.hpp>

namespace nsh {

template <class Scalar>
LcpResult<Scalar> solve_lcp_pgs(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                const LcpOptions<Scalar>& options = {});

/// The same into `result`, with its vectors from `workspace`: no allocation when
/// b.size() <= workspace.capacity() (nsh/lcp/workspace.hpp).
template <class Scalar>
void solve_lcp_pgs(const std::type_identity_t<MatrixView<Scalar>>& W,
                   const std::type_identity_t<VectorView<Scalar>>& b,
                   const LcpOptions<Scalar>& options, LcpWorkspace<Scalar>& workspace,
                   LcpResult<Scalar>& result);

}  // namespace nsh
