#pragma once
// The linear mechanical model with unilateral contacts of docs/theory.md §1 (seed 001):
//
//   M q'' + C v + K q = F(t) + G lambda,    g = G^T q + w,    U = G^T v,
//   0 <= g  _|_  lambda >= 0,               impacts: U+ = -e U-  (Newton).
//
// Column alpha of G is the gradient of gap alpha; U < 0 means contact alpha is approaching.
// The model is immutable once validated; schemes keep their own workspace.

#include <nsh/scalar.hpp>

#include <string>

namespace nsh {

template <class Scalar>
struct LinearModel {
  std::string name;  ///< case name, for messages and reports
  Matrix<Scalar> M;  ///< mass, n x n, symmetric positive definite (in kg or scaled units)
  Matrix<Scalar> C;  ///< damping, n x n, symmetric positive semidefinite
  Matrix<Scalar> K;  ///< stiffness, n x n, symmetric positive semidefinite
  Vector<Scalar> F;  ///< constant part of the external force, n
  /// Harmonic part: F(t) = F + F_amplitude sin(omega t). Empty (size 0) or all-zero means none.
  Vector<Scalar> F_amplitude;
  Scalar omega{0};   ///< angular frequency of the harmonic force, rad per unit time
  Matrix<Scalar> G;  ///< n x m, column alpha = gradient of gap alpha
  Vector<Scalar> w;  ///< m, gap offset: g = G^T q + w
  Vector<Scalar> e;  ///< m, Newton restitution coefficient per contact, each in [0, 1]
  /// Coulomb friction (docs/friction.md, docs/theory.md §9): n x m d, columns alpha d ..
  /// alpha d + d - 1 are the d tangent directions of contact alpha (d = 1 in the plane, 2 in
  /// space), so that U_T = G_T^T v. No columns (d = 0) means frictionless.
  Matrix<Scalar> G_T;
  /// m, Coulomb friction coefficient per contact, each >= 0 (may be empty when d = 0).
  Vector<Scalar> mu;

  Index dofs() const { return M.rows(); }
  Index contacts() const { return G.cols(); }
  /// d, the tangent directions per contact: G_T.cols() / m (0 frictionless or m = 0).
  Index tangent_directions() const { return contacts() == 0 ? 0 : G_T.cols() / contacts(); }
  /// True when d > 0 and some mu^alpha > 0: only then does friction change a step (mu = 0 or
  /// no G_T must give today's frictionless results bit for bit).
  bool has_friction() const;

  /// True if the force has a nonzero harmonic part (then Rational cannot evaluate it).
  bool has_harmonic_force() const;
  /// F(t). Throws InputError for Rational when the force is harmonic.
  Vector<Scalar> force(const Scalar& t) const;
  /// g = G^T q + w.
  Vector<Scalar> gap(const Vector<Scalar>& q) const { return G.transpose() * q + w; }
  /// U = G^T v (negative: approaching).
  Vector<Scalar> local_velocity(const Vector<Scalar>& v) const { return G.transpose() * v; }
  /// U_T = G_T^T v, m d entries (contact-major: contact alpha's d components are contiguous).
  Vector<Scalar> tangential_velocity(const Vector<Scalar>& v) const { return G_T.transpose() * v; }
  /// E = 1/2 v^T M v + 1/2 q^T K q (kinetic plus elastic; the external potential is not in E).
  Scalar energy(const Vector<Scalar>& q, const Vector<Scalar>& v) const;
  /// The largest restitution coefficient (0 with no contacts).
  Scalar max_restitution() const;

  /// Check every hypothesis of docs/theory.md §1: dimensions consistent, all entries finite,
  /// M symmetric positive definite, C and K symmetric positive semidefinite, e in [0, 1],
  /// omega finite, G_T none or n x m d with d in {1, 2} and finite, mu empty (d = 0) or of
  /// size m, finite and >= 0.
  /// Throws ModelError naming the field, the entry and the value.
  void validate() const;
};

/// Sizes every optional field (C, K, F, F_amplitude, w, e, G_T as n x 0, mu) to zeros of the right
/// shape if it is empty, so that a model can be built from M and G alone.
template <class Scalar>
void fill_defaults(LinearModel<Scalar>& model);

/// The same model in another scalar type (exact from double or Rational into wider types).
template <class To, class From>
LinearModel<To> model_cast(const LinearModel<From>& model);

/// The mechanical state at time t: positions q and velocities v (v of bounded variation:
/// after an impact step v is the post-impact velocity).
template <class Scalar>
struct State {
  Scalar t{0};
  Vector<Scalar> q;
  Vector<Scalar> v;
};

template <class To, class From>
State<To> state_cast(const State<From>& s) {
  return State<To>{scalar_cast<To>(s.t), scalar_cast<To>(s.q), scalar_cast<To>(s.v)};
}

/// Symmetric-definiteness test without square roots (exact in Rational): LDL^T with symmetric
/// pivoting. Returns the index of the first pivot that breaks the test, or -1 if none.
/// `strict` asks for positive definite, otherwise semidefinite; `tol` is the pivot tolerance.
template <class Scalar>
Index first_indefinite_pivot(const Matrix<Scalar>& A, bool strict, const Scalar& tol);

}  // namespace nsh
