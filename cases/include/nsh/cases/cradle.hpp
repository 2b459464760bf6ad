#pragma once
// Newton's cradle: a chain of N equal balls (mass 1) on a line, ball 1 approaching ball 2 at
// speed v, balls 2..N touching at rest, e = 1, contact alpha between balls alpha and alpha+1
// (gap q_{alpha+1} - q_alpha + w_alpha, U < 0 approaching).
//
// What the velocity-level impact LCP predicts (one simultaneous impact on every contact,
// W = tridiag(-1, 2, -1), 0 <= U+ + e U- _|_ P >= 0): all N-1 contacts are active,
//   P_alpha = 2 v (N - alpha) / N,
//   v_1+ = -(N - 2) v / N,   v_j+ = 2 v / N  for j = 2..N
// (N = 3: (-1/3, 2/3, 2/3) v; N = 5: (-3/5, 2/5, 2/5, 2/5, 2/5) v). Momentum and kinetic
// energy are conserved (uniform e = 1), but the textbook behaviour - ball 1 stops and only
// ball N leaves with v, (0, ..., 0, v) - is NOT what a simultaneous impact law gives: it is the
// limit of a sequence of binary impacts (or of stiff springs), a wave the rigid LCP cannot
// resolve. Both are exact rationals here; the tests check the LCP prediction.

#include <nsh/scalar.hpp>

namespace nsh::cases {

/// Post-impact velocities predicted by the simultaneous impact LCP (N >= 2).
Vector<Rational> cradle_lcp_velocities(Index balls, const Rational& v);
/// The textbook sequence-of-binary-impacts outcome (0, ..., 0, v).
Vector<Rational> cradle_textbook_velocities(Index balls, const Rational& v);
/// The LCP impulses P_alpha = 2 v (N - alpha) / N, alpha = 1..N-1 (stored 0-based).
Vector<Rational> cradle_lcp_impulses(Index balls, const Rational& v);

}  // namespace nsh::cases
