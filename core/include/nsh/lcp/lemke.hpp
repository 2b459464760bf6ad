#pragma once
// Lemke's complementary pivoting method with covering vector d = 1 and the lexicographic
// minimum-ratio rule (Lemke, Management Science 11:681-689, 1965; Cottle, Pang, Stone,
// "The Linear Complementarity Problem", section 4.4; docs/theory.md §7).
//
// Tableau for  w - W z - d z0 = b  with columns [I | -W | -d | b]; basis starts at w = b.
//   * b >= 0: z = 0 solves, no pivot.
//   * else z0 enters in the row of argmin b (ties broken lexicographically); then the
//     complement of the variable that just left enters, the leaving row chosen by the
//     lexicographic minimum ratio of (rhs, B^-1) over the positive entries of the entering
//     column, so that no basis repeats under degeneracy and the method is finite.
//   * It stops when z0 leaves (a solution), or on a secondary ray (the entering column has
//     no positive entry): status no_solution. The ray proves the LCP infeasible when W is
//     copositive-plus (e.g. PSD) or a P-matrix (CPS Theorem 4.4.13); for other W it only says
//     that this method found none, and the message says so.
//   * iterations = pivots, counting the first one on z0 (Murty's problem needs 2^m).
// In Rational every pivot and ratio is exact. In floating point the pivot threshold is
// 64 (m + 1) epsilons of the entering column's magnitude, and two lexicographic rows
// (rhs, B^-1 row) / a tie in an entry when they differ by 64 (m + 1) epsilons of the rows'
// magnitude (their largest entry): entries that are zero in exact arithmetic come out of the
// pivots as round-off at that magnitude, and a tie judged relative to the two entries alone
// let that noise pick the row, so that double Lemke left the exact pivot path and cycled on
// the degenerate lcp_tobenna (n = 40; now the same 127 pivots as Rational, docs/lcp-peers.md).

#include <nsh/lcp/lcp.hpp>
#include <nsh/lcp/workspace.hpp>

namespace nsh {

template <class Scalar>
LcpResult<Scalar> solve_lcp_lemke(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                  const LcpOptions<Scalar>& options = {});

/// The same into `result`, with the tableau and the result vectors from `workspace`: no
/// allocation when b.size() <= workspace.capacity() (nsh/lcp/workspace.hpp).
template <class Scalar>
void solve_lcp_lemke(const std::type_identity_t<MatrixView<Scalar>>& W,
                     const std::type_identity_t<VectorView<Scalar>>& b,
                     const LcpOptions<Scalar>& options, LcpWorkspace<Scalar>& workspace,
                     LcpResult<Scalar>& result);

}  // namespace nsh
