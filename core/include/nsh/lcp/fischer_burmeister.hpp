#pragma once
// Fischer-Burmeister semismooth Newton for LCP(W, b) (Fischer, Optimization 24:269-284, 1992;
// De Luca, Facchinei, Kanzow, Math. Programming 75:407-439, 1996; docs/theory.md §7):
//
//   Phi_i(z) = sqrt(z_i^2 + w_i^2) - z_i - w_i,   w = W z + b   (Phi = 0 iff z solves the LCP)
//   J = D_a + D_b W,   D_a = diag(z_i / |(z_i, w_i)| - 1),   D_b = diag(w_i / |(z_i, w_i)| - 1),
//   and at (z_i, w_i) = (0, 0) both diagonal entries 1/sqrt(2) - 1 (an element of the
//   generalised Jacobian), Newton step J d = -Phi with an Armijo search on |Phi|^2 / 2 and the
//   gradient J^T Phi as fallback direction. Starts at z = 0; locally quadratic. Stops on the
//   natural map (the certificate), iterations = Newton steps. double and Real50 only (sqrt).

#include <nsh/lcp/lcp.hpp>

namespace nsh {

template <class Scalar>
LcpResult<Scalar> solve_lcp_fischer_burmeister(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                               const LcpOptions<Scalar>& options = {});

}  // namespace nsh
