#pragma once
// Nonlinear mechanical models with unilateral contacts and Coulomb friction (the Lagrangian
// family of docs/nonlinear-models.md):
//
//   M(q) q'' = f(t, q, v) + W_N(q) lambda_N + W_T(q) lambda_T,
//   g_N = g(q) >= 0,  W_N(q) = (dg/dq)^T,  U_N = W_N(q)^T v,  U_T = W_T(q)^T v,
//   0 <= g_N  _|_  lambda_N >= 0,  impacts: U_N+ = -e U_N- (Newton),  ||P_T|| <= mu P_N.
//
// Column alpha of W_N (n x m) is the gradient of gap alpha, as G is for the linear family
// (nsh/model/linear_model.hpp); columns alpha d .. alpha d + d - 1 of W_T (n x m d) are the d
// tangent directions of contact alpha (d = 1 in the plane, 2 in space; d = 0 means no friction). U
// < 0 means approaching.
//
// The smooth force splits as f = -grad V(q) - c(q, v) + f_ext(t, q, v), where V is the potential,
// c_i = sum_jk (dM_ij/dq_k - 1/2 dM_jk/dq_i) v_j v_k the gyroscopic (Coriolis and centrifugal)
// force of a configuration-dependent mass matrix, and f_ext the part that does work:
// between impacts dE/dt = v^T f_ext (+ the contact power U^T lambda), with
//
//   E(q, v) = 1/2 v^T M(q) v + V(q).
//
// The model is immutable: every quantity is a function of its arguments. Models implement the
// private do_* functions; callers use the public non-virtual ones, which size-check.
// LinearModelAdapter views a LinearModel as one of these without copying it; the linear schemes
// keep reading LinearModel itself (constant matrices, factorized once).

#include <nsh/model/linear_model.hpp>
#include <nsh/scalar.hpp>

#include <functional>
#include <string>

namespace nsh {

template <class Scalar>
class NonlinearModel {
 public:
  virtual ~NonlinearModel() = default;

  /// Case name, for messages and reports.
  virtual std::string name() const = 0;
  /// n, the number of generalized coordinates.
  virtual Index dofs() const = 0;
  /// m, the number of unilateral contacts.
  virtual Index contacts() const = 0;
  /// d, the tangent directions per contact: 0 (frictionless), 1 (planar) or 2 (spatial).
  virtual Index tangent_directions() const { return 0; }
  /// True when M does not depend on q (then c = 0 and a scheme may factorize M once).
  virtual bool constant_mass() const { return false; }
  /// r, the number of nonholonomic velocity constraints A(q) v = 0 (docs/nonholonomic.md); 0
  /// (the default) for the holonomic models of the lagrangian and linear families. With r > 0,
  /// f is the smooth force without the constraint forces A(q)^T lambda, which the scheme adds.
  virtual Index velocity_constraints() const { return 0; }

  /// Newton restitution coefficient per contact (m entries, each in [0, 1]).
  virtual const Vector<Scalar>& restitution() const = 0;
  /// Coulomb friction coefficient per contact (m entries >= 0), or empty when d = 0.
  virtual const Vector<Scalar>& friction_coefficient() const;

  /// M(q), n x n, symmetric positive definite.
  void mass(const Vector<Scalar>& q, Matrix<Scalar>& M) const;
  Matrix<Scalar> mass(const Vector<Scalar>& q) const;
  /// f(t, q, v), n: every smooth generalized force, gyroscopic terms included.
  void force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
             Vector<Scalar>& f) const;
  Vector<Scalar> force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v) const;
  /// f_ext(t, q, v), n: the part of f that does work (f + grad V + c).
  void external_force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                      Vector<Scalar>& f_ext) const;
  Vector<Scalar> external_force(const Scalar& t, const Vector<Scalar>& q,
                                const Vector<Scalar>& v) const;
  /// V(q).
  Scalar potential(const Vector<Scalar>& q) const;
  /// g(q), m: the normal gaps (>= 0 admissible).
  void gap(const Vector<Scalar>& q, Vector<Scalar>& g) const;
  Vector<Scalar> gap(const Vector<Scalar>& q) const;
  /// W_N(q), n x m: column alpha = gradient of gap alpha.
  void normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const;
  Matrix<Scalar> normal_jacobian(const Vector<Scalar>& q) const;
  /// W_T(q), n x m d (n x 0 without friction).
  void tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const;
  Matrix<Scalar> tangent_jacobian(const Vector<Scalar>& q) const;
  /// A(q), r x n: row a is the one-form mu^a (0 x n when r = 0).
  void one_forms(const Vector<Scalar>& q, Matrix<Scalar>& A) const;
  Matrix<Scalar> one_forms(const Vector<Scalar>& q) const;
  /// X(q), n x (n - r): a basis of ker A(q) (the identity when r = 0).
  void distribution(const Vector<Scalar>& q, Matrix<Scalar>& X) const;
  Matrix<Scalar> distribution(const Vector<Scalar>& q) const;

  /// E = 1/2 v^T M(q) v + V(q).
  Scalar energy(const Vector<Scalar>& q, const Vector<Scalar>& v) const;
  /// U_N = W_N(q)^T v (negative: approaching).
  Vector<Scalar> normal_velocity(const Vector<Scalar>& q, const Vector<Scalar>& v) const;
  /// U_T = W_T(q)^T v.
  Vector<Scalar> tangent_velocity(const Vector<Scalar>& q, const Vector<Scalar>& v) const;

  /// The Jacobians of the smooth force, K = -df/dq and C = -df/dv at (t, q, v), n x n each,
  /// when the model knows them: returns true. False means the model does not provide them and
  /// the caller differentiates f numerically (force_jacobians_by_differences). An implicit
  /// scheme linearises f with them (Moreau–Jean's iteration matrix M + h theta C + h^2 theta^2 K).
  bool force_jacobians(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                       Matrix<Scalar>& K, Matrix<Scalar>& C) const;

  /// The gap's curvature along v, kappa_a = v^T (d^2 g_a/dq^2) v = (d/dt W_N(q(t)))^T v at
  /// q' = v, m entries, when the model knows it: returns true. It is the term an
  /// acceleration-level contact law needs besides W_N^T a (d^2 g/dt^2 = W_N^T a + kappa); false
  /// means the model does not provide it and a scheme that needs it refuses the model.
  bool gap_curvature(const Vector<Scalar>& q, const Vector<Scalar>& v, Vector<Scalar>& kappa) const;

  /// Check the model at the initial state: n > 0; q and v of size n; M(q) n x n, finite,
  /// symmetric and positive definite (no square root: exact in Rational); f, f_ext, V, g, W_N,
  /// W_T finite and of their sizes; e in [0, 1] and mu >= 0 per contact. Throws ModelError naming
  /// the field ("M", "W_N[2][1]", "e[0]", "q0", ...) and the value.
  void validate(const State<Scalar>& initial) const;

 private:
  virtual void do_mass(const Vector<Scalar>& q, Matrix<Scalar>& M) const = 0;
  virtual void do_force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                        Vector<Scalar>& f) const = 0;
  virtual void do_external_force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                                 Vector<Scalar>& f_ext) const = 0;
  virtual Scalar do_potential(const Vector<Scalar>& q) const = 0;
  virtual void do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const = 0;
  virtual void do_normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const = 0;
  /// Default: no friction, W_T = n x 0.
  virtual void do_tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const;
  /// Defaults: r = 0, A = 0 x n, X = the identity.
  virtual void do_one_forms(const Vector<Scalar>& q, Matrix<Scalar>& A) const;
  virtual void do_distribution(const Vector<Scalar>& q, Matrix<Scalar>& X) const;
  /// Default: not provided (false).
  virtual bool do_gap_curvature(const Vector<Scalar>& q, const Vector<Scalar>& v,
                                Vector<Scalar>& kappa) const;
  /// Default: not provided (false).
  virtual bool do_force_jacobians(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                                  Matrix<Scalar>& K, Matrix<Scalar>& C) const;
};

/// True when the model has Coulomb friction that changes a step: d > 0 and some mu > 0 (the
/// rule of LinearModel::has_friction()).
template <class Scalar>
bool has_friction(const NonlinearModel<Scalar>& model);

/// The buffers of force_jacobians_by_differences, so that a scheme differentiates without
/// allocating once they are sized.
template <class Scalar>
struct ForceDifferenceWorkspace {
  Vector<Scalar> point, plus, minus;
};

/// K = -df/dq and C = -df/dv at (t, q, v) by central differences of step
/// cbrt(eps) max(1, |x_i|) (error O(eps^(2/3)) relative: about 1e-11 in double, 1e-33 in
/// Real50), the divisor being the difference of the two shifted arguments as rounded. 4 n force
/// evaluations. For models that do not provide their Jacobians; not for Rational (no cube root).
template <class Scalar>
void force_jacobians_by_differences(const NonlinearModel<Scalar>& model, const Scalar& t,
                                    const Vector<Scalar>& q, const Vector<Scalar>& v,
                                    Matrix<Scalar>& K, Matrix<Scalar>& C,
                                    ForceDifferenceWorkspace<Scalar>& work);

/// A LinearModel seen as a nonlinear model, by reference (the LinearModel must outlive it):
/// M(q) = M, f = F(t) - C v - K q, f_ext = F(t) - C v, V = 1/2 q^T K q, g = G^T q + w, W_N = G,
/// W_T = G_T and mu = the model's mu (empty when d = 0), and the exact force Jacobians K and C.
/// Its energy is LinearModel::energy. Harmonic forces in Rational throw as LinearModel::force
/// does.
template <class Scalar>
class LinearModelAdapter final : public NonlinearModel<Scalar> {
 public:
  explicit LinearModelAdapter(const LinearModel<Scalar>& model) : model_(model) {}

  const LinearModel<Scalar>& linear_model() const { return model_; }
  std::string name() const override { return model_.name; }
  Index dofs() const override { return model_.dofs(); }
  Index contacts() const override { return model_.contacts(); }
  Index tangent_directions() const override { return model_.tangent_directions(); }
  bool constant_mass() const override { return true; }
  const Vector<Scalar>& restitution() const override { return model_.e; }
  const Vector<Scalar>& friction_coefficient() const override;

 private:
  void do_mass(const Vector<Scalar>& q, Matrix<Scalar>& M) const override;
  void do_force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                Vector<Scalar>& f) const override;
  void do_external_force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                         Vector<Scalar>& f_ext) const override;
  Scalar do_potential(const Vector<Scalar>& q) const override;
  void do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const override;
  void do_normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const override;
  void do_tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const override;
  /// A constant G: zero.
  bool do_gap_curvature(const Vector<Scalar>& q, const Vector<Scalar>& v,
                        Vector<Scalar>& kappa) const override;
  bool do_force_jacobians(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                          Matrix<Scalar>& K, Matrix<Scalar>& C) const override;

  const LinearModel<Scalar>& model_;
};

/// Central differences of a vector function of q: column k of the result is the gradient of
/// component k, (phi(q + s e_i) - phi(q - s e_i)) / (2 s) in row i, so that for phi = g it
/// approximates W_N with an error O(s^2). For checking a model's Jacobians (tests, new models).
template <class Scalar>
Matrix<Scalar> central_difference_gradients(
    const std::function<Vector<Scalar>(const Vector<Scalar>&)>& phi, const Vector<Scalar>& q,
    const Scalar& step);

/// How far a model's force is from its split f = f_ext - grad V - c at (t, q, v): the largest
/// entry of f - f_ext + grad V + c, with grad V and dM/dq by central differences of `step`
/// (c_i = sum_jk (dM_ij/dq_k - 1/2 dM_jk/dq_i) v_j v_k). O(step^2) for a consistent model, and
/// exactly 0 in Rational when V and M are quadratic in q. A wrong sign in the gyroscopic force
/// or a force missing from V shows up as an O(1) residual. For checking new models (tests).
template <class Scalar>
Scalar force_split_residual(const NonlinearModel<Scalar>& model, const Scalar& t,
                            const Vector<Scalar>& q, const Vector<Scalar>& v, const Scalar& step);

}  // namespace nsh
