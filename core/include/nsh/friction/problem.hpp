#pragma once
// The one-step Coulomb friction problem in local (contact) coordinates (docs/friction.md).
//
// m contacts, each with one normal and d tangent directions (d = 1 in the plane, d = 2 in
// space); n = m (1 + d) local unknowns. Given the local Delassus matrix W = G^T M^-1 G
// (n x n, symmetric positive semidefinite), the free local velocity b and one friction
// coefficient mu_a >= 0 per contact, find the local impulse P with local velocity
//
//   U = W P + b
//
// such that, at every contact a (normal N, tangential T):
//   normal       0 <= U_N  _|_  P_N >= 0
//   cone         ||P_T|| <= mu_a P_N
//   stick        ||P_T|| <  mu_a P_N  =>  U_T = 0
//   slide        ||P_T|| =  mu_a P_N  =>  P_T = -mu_a P_N U_T / ||U_T||  (where U_T != 0),
//                i.e. P_T maximises the dissipation: P_T^T U_T = -mu_a P_N ||U_T||.
//
// Restitution. The schemes apply Newton's law on the normal velocity, U_N+ + e U_N- >= 0. That
// shift is folded into b's normal entries: b_N = (G_N^T v_free) + e U_N-, so that the normal
// row of U is the Newton-shifted velocity U_N+ + e U_N- (the complementarity variable) while the
// tangential rows are the true post-step velocity U_T+. The impulse P is the same either way.
//
// Ordering: contact-major, [N, T1] (d = 1) or [N, T1, T2] (d = 2) for each contact in turn, so
// that contact a owns rows a (1 + d) .. a (1 + d) + d. This is the order of Siconos Numerics'
// FrictionContactProblem (fc2d: [N, T]; fc3d: [N, T1, T2]; velocity u = M r + q) and of the
// fclib "local" format (u = W r + q): our (W, b, P, mu) are their (M or W, q, r, mu) entry for
// entry, with no permutation and no sign change. It also keeps each contact's (1 + d) block
// contiguous, which is what the per-contact cone projections and block Gauss-Seidel act on.

#include <nsh/scalar.hpp>

namespace nsh {

template <class Scalar>
struct FrictionProblem {
  /// d: tangent directions per contact, 1 (planar) or 2 (spatial).
  Index tangent_dimension{1};
  /// Local Delassus matrix, m (1 + d) square, symmetric positive semidefinite, contact-major.
  Matrix<Scalar> W;
  /// Free local velocity: U = W P + b; normal entries already shifted by e U_N- (see above).
  Vector<Scalar> b;
  /// mu, one per contact, >= 0.
  Vector<Scalar> friction_coefficient;

  /// 1 + d: the size of one contact's block.
  Index block_size() const { return 1 + tangent_dimension; }
  /// m: the number of contacts.
  Index contacts() const { return friction_coefficient.size(); }
  /// Row of contact a's normal component.
  Index normal_index(Index a) const { return a * block_size(); }
  /// Row of contact a's k-th tangent component (k = 0 .. d - 1).
  Index tangent_index(Index a, Index k) const { return a * block_size() + 1 + k; }

  /// Throws InputError naming the field and the value: tangent_dimension not 1 or 2; W not
  /// square, not of size m (1 + d), not finite, not symmetric, or not positive semidefinite
  /// (both to 64 (n + 1) epsilons of max |W|, the latter by symmetric elimination with
  /// diagonal pivoting; exact in Rational); b of the wrong size or not finite; friction_coefficient
  /// negative or not finite.
  void validate() const;
};

/// U = W P + b.
template <class Scalar>
Vector<Scalar> local_velocity(const FrictionProblem<Scalar>& problem, const Vector<Scalar>& P);

}  // namespace nsh
