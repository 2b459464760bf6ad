#pragma once
// Prox / augmented-Lagrangian semismooth Newton for LCP(W, b) (Alart, Curnier, CMAME
// 92:353-375, 1991; Schindler et al., CMAME 290:250-276, 2015, as in MBSim's HETS2;
// docs/theory.md §7):
//
//   F(z) = z - max(0, z - r o (W z + b)) = 0,   r_i = prox_scale / W_ii  (MBSim: 1 / W_ii),
//   rows with z_i - r_i w_i > 0 (the active set) have Jacobian row r_i W_i and F_i = r_i w_i,
//   the others e_i^T and F_i = z_i: the full Newton step solves W_AA z_A = -b_A, z_rest = 0,
//   i.e. it is a primal-dual active-set method. Globalised by an Armijo search on |F|^2 / 2
//   with the gradient J^T F as fallback. Starts at z = 0; stops on the natural map (the
//   certificate); iterations = Newton steps. W_ii <= 0 leaves r undefined: status singular.
// F is piecewise linear, but the method iterates, so it is instantiated for double and Real50.

#include <nsh/lcp/lcp.hpp>

namespace nsh {

template <class Scalar>
LcpResult<Scalar> solve_lcp_prox_newton(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                        const LcpOptions<Scalar>& options = {});

}  // namespace nsh
