#pragma once
// Nonholonomic mechanical systems with inequality constraints (seed 003, docs/theory.md §5,
// docs/nonholonomic.md):
//
//   L(q, v) = 1/2 v^T M(q) v - V(q),
//   A(q) v = 0                   r linear velocity constraints, row a = the one-form mu^a(q),
//   g(q) <= 0                    p inequality constraints (the admissible set C),
//   M(q) v' = -grad V - c(q, v) + A(q)^T lambda   (Lagrange-d'Alembert) while g < 0,
//   at g_j(q) = 0: p+ - p- in span{dg_j} + span{mu^a}, v+ in D_q, E+ = E-   (elastic jump).
//
// D_q = ker A(q) is the constraint distribution; distribution(q) returns a basis X (n x (n-r),
// A X = 0) whose coefficients u (v = X u) are the reduced velocities, for the seed's disk
// u = (theta', phi').
//
// Sign convention. The seed (and this interface) writes the admissible set as g <= 0; nsh's
// contact gaps elsewhere (nsh/model/linear_model.hpp, nsh/model/nonlinear_model.hpp) are g_N >= 0
// with W_N = dg_N/dq. They map by g_N = -g, W_N = -inequality_gradient: gap() and normal_jacobian()
// below return exactly that, so a scheme written for NonlinearModel reads the same contacts.
//
// The model is immutable: every quantity is a function of its arguments. Models implement the
// private do_* functions; callers use the public non-virtual ones, which check sizes.
// Trigonometric models: double and Real50 (Rational has no sin and cos).

#include <nsh/model/linear_model.hpp>
#include <nsh/scalar.hpp>

#include <string>

namespace nsh {

template <class Scalar>
class NonholonomicModel {
 public:
  virtual ~NonholonomicModel() = default;

  /// Model name ("rolling-disk"), for messages.
  virtual std::string name() const = 0;
  /// n, the number of generalized coordinates.
  virtual Index dofs() const = 0;
  /// r, the number of velocity constraints (one-forms); 0 <= r < n.
  virtual Index velocity_constraints() const = 0;
  /// p, the number of inequality constraints g_j(q) <= 0.
  virtual Index inequalities() const = 0;
  /// True when M does not depend on q.
  virtual bool constant_mass() const { return false; }
  /// Name of coordinate i ("x", "theta"), for output headers.
  virtual std::string coordinate_name(Index i) const = 0;
  /// Name of inequality j ("g_+"), for messages; default "g[j]".
  virtual std::string inequality_name(Index j) const;
  /// Name of reduced velocity i ("theta_rate"), for output headers; default "u[i]".
  virtual std::string reduced_velocity_name(Index i) const;

  /// M(q), n x n, symmetric positive definite.
  Matrix<Scalar> mass(const Vector<Scalar>& q) const;
  /// V(q) and its gradient (n).
  Scalar potential(const Vector<Scalar>& q) const;
  Vector<Scalar> potential_gradient(const Vector<Scalar>& q) const;
  /// A(q), r x n: row a is the one-form mu^a at q; admissible velocities satisfy A(q) v = 0.
  Matrix<Scalar> one_forms(const Vector<Scalar>& q) const;
  /// X(q), n x (n - r): a basis of D_q = ker A(q) (the columns are the seed's X_1, X_2, ...).
  Matrix<Scalar> distribution(const Vector<Scalar>& q) const;
  /// g(q), p entries: g_j <= 0 admissible, g_j = 0 on the boundary.
  Vector<Scalar> inequality(const Vector<Scalar>& q) const;
  /// n x p: column j is the gradient of g_j (outward normal of the admissible set).
  Matrix<Scalar> inequality_gradient(const Vector<Scalar>& q) const;

  /// nsh's contact convention: g_N = -g (>= 0 admissible).
  Vector<Scalar> gap(const Vector<Scalar>& q) const { return -inequality(q); }
  /// nsh's contact convention: W_N = -inequality_gradient (column j = gradient of g_N,j).
  Matrix<Scalar> normal_jacobian(const Vector<Scalar>& q) const { return -inequality_gradient(q); }

  /// E = 1/2 v^T M(q) v + V(q).
  Scalar energy(const Vector<Scalar>& q, const Vector<Scalar>& v) const;
  /// G_r = X^T M X, the metric of the reduced velocities ((n-r) x (n-r)).
  Matrix<Scalar> reduced_metric(const Vector<Scalar>& q) const;
  /// The reduced velocity u of v: the M-orthogonal projection of v onto D_q in the basis X,
  /// u = G_r^{-1} X^T M v (v = X u exactly when v is in D_q).
  Vector<Scalar> reduced_velocity(const Vector<Scalar>& q, const Vector<Scalar>& v) const;

  /// True when exact_flow has a closed form (the exact reference, nonholonomic_reference.hpp).
  virtual bool has_exact_flow() const { return false; }
  /// The solution of the smooth Lagrange-d'Alembert equations (no inequality active) from
  /// (q, v), v in D_q, after a time tau >= 0. Default: throws ModelError (no closed form).
  State<Scalar> exact_flow(const State<Scalar>& start, const Scalar& tau) const;

  /// Check the model at the initial state: sizes; M finite, symmetric, positive definite; A, X,
  /// g, grad g finite with A X = 0 to round-off; q0 admissible (g_j(q0) <= 0: ModelError "q0"
  /// naming g_j and its value); v0 satisfies the constraints (|A(q0) v0| to round-off:
  /// ModelError "v0" naming the residual). Throws ModelError naming the field and the value.
  void validate(const State<Scalar>& initial) const;

 private:
  virtual Matrix<Scalar> do_mass(const Vector<Scalar>& q) const = 0;
  virtual Scalar do_potential(const Vector<Scalar>& q) const = 0;
  virtual Vector<Scalar> do_potential_gradient(const Vector<Scalar>& q) const = 0;
  virtual Matrix<Scalar> do_one_forms(const Vector<Scalar>& q) const = 0;
  virtual Matrix<Scalar> do_distribution(const Vector<Scalar>& q) const = 0;
  virtual Vector<Scalar> do_inequality(const Vector<Scalar>& q) const = 0;
  virtual Matrix<Scalar> do_inequality_gradient(const Vector<Scalar>& q) const = 0;
  virtual State<Scalar> do_exact_flow(const State<Scalar>& start, const Scalar& tau) const;
};

/// The elastic jump of the continuous system at a boundary point of g_j (docs/theory.md §5):
/// in reduced velocities u, with G_r = X^T M X and n = X^T grad g_j,
///   u+ = u- - 2 (n^T u-) / (n^T G_r^{-1} n) G_r^{-1} n,      v+ = X u+,
/// so that E+ = E-, n^T u+ = -n^T u-, and v+ - v- = M^{-1}(lambda grad g_j + A^T beta).
template <class Scalar>
struct Reflection {
  Vector<Scalar> u_minus, u_plus;  ///< reduced velocities before and after
  Vector<Scalar> v_plus;           ///< X u+
  Scalar normal_minus{0};          ///< n^T u- (> 0: leaving C)
  Scalar normal_plus{0};           ///< n^T u+ (= -n^T u-)
};

template <class Scalar>
Reflection<Scalar> continuous_reflection(const NonholonomicModel<Scalar>& model,
                                         const Vector<Scalar>& q, const Vector<Scalar>& v_minus,
                                         Index inequality);

/// sin(z)/z, accurate near z = 0 (the closed-form flows divide by a turning rate that may be 0).
template <class Scalar>
Scalar sinc(const Scalar& z);

}  // namespace nsh
