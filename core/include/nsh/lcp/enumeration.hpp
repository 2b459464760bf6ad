#pragma once
// Enumeration of complementary index sets: the reference LCP solver for small m
// (docs/theory.md §7; Cottle, Pang, Stone, "The Linear Complementarity Problem", 1992/2009,
// section 1.4 on complementary cones).
//
// For each index set A of {0..m-1} (2^m of them, by increasing bit mask):
//     W_AA z_A = -b_A,   z_i = 0 (i not in A),   w = W z + b,
// accepted if z >= 0 and w >= 0 within the certificate tolerance (exactly in Rational). A
// singular W_AA is not skipped: if the system is consistent, its particular solution with the
// free unknowns at zero is tried (so a continuum of solutions shows up as one representative).
// "no_solution" therefore means no index set gives a solution; that proves the LCP unsolvable
// whenever every solvable LCP with this W has a basic solution (e.g. W nondegenerate, or P).
// The number of index sets tried is capped by options.max_iterations (status max_iterations).

#include <nsh/lcp/lcp.hpp>

#include <vector>

namespace nsh {

/// The first accepted index set (by increasing bit mask), certified. iterations = sets tried.
template <class Scalar>
LcpResult<Scalar> solve_lcp_enumeration(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                        const LcpOptions<Scalar>& options = {});

/// Every distinct basic solution found over all 2^m index sets (at most max_iterations sets
/// tried; throws InputError("m", ...) if 2^m exceeds it, since the list would be incomplete).
template <class Scalar>
std::vector<Vector<Scalar>> enumerate_lcp_solutions(const Matrix<Scalar>& W,
                                                    const Vector<Scalar>& b,
                                                    const LcpOptions<Scalar>& options = {});

}  // namespace nsh
