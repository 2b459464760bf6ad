#pragma once
// Second-order penalty (spring-dashpot, Kelvin-Voigt) contact on the linear model of
// docs/theory.md §1: the Signorini condition is replaced by the force law
//
//   lambda_alpha = kappa max(0, -g_alpha) + c max(0, -U_alpha) [g_alpha < 0],
//   M q'' + C v + K q = F(t) + G lambda,
//
// a spring of stiffness kappa that acts only in penetration and a dashpot c that acts only in
// compression (so lambda >= 0). Its stored energy is V(g) = 1/2 kappa sum_alpha min(0, g_alpha)^2
// (phi(g) = 1/2 kappa min(0, g)^2 is convex with phi' = -kappa max(0, -g)). See e.g. Wriggers,
// Computational Contact Mechanics (2006), ch. 2; Hunt & Crossley (1975) for the damped law.
//
// explicit (symplectic Euler, velocity first):
//   lambda_k from (g_k, U_k),  M (v_{k+1} - v_k) = h (F(t_k) - C v_k - K q_k + G lambda_k),
//   q_{k+1} = q_k + h v_{k+1}.
//   Ledger: W_ext = h v_{k+1}^T F(t_k), W_damp = -h v_{k+1}^T C v_k, W_contact = h U_{k+1}^T
//   lambda_k, numerical_dissipation D = 1/2 |[v]|_M^2 - 1/2 |[q]|_K^2 (indefinite).
// implicit (backward Euler, with the dashpot switch lagged to [g_k < 0]):
//   M (v_{k+1} - v_k) = h (F(t_{k+1}) - C v_{k+1} - K q_{k+1} + G lambda_{k+1}),  q_{k+1} = q_k + h
//   v_{k+1}, lambda_{k+1} = kappa max(0, -g_{k+1}) + c max(0, -U_{k+1}) [g_k < 0]. The switch is
//   lagged because with [g_{k+1} < 0] the step map jumps at g_{k+1} = 0 and the step may have no
//   solution; lagged, the map v -> (M + hC + h^2 K) v - h G lambda(v) is continuous, piecewise
//   linear and strongly monotone, so the step has exactly one solution, found by an active-set
//   iteration on the pieces (then by enumeration), exact in Rational. Ledger: W_ext = h v_{k+1}^T
//   F(t_{k+1}), W_damp = -h |v_{k+1}|_C^2 <= 0, W_contact = h U_{k+1}^T lambda_{k+1}, D = 1/2
//   |[v]|_M^2 + 1/2 |[q]|_K^2 >= 0.
// Both satisfy E_{k+1} - E_k = W_ext + W_damp + W_contact - D exactly, and the spring split
//   W_contact = (V_k - V_{k+1}) + W_dashpot - D_spring,
//   W_dashpot = h U_{k+1}^T lambda^dashpot,  D_spring = (V_k - V_{k+1}) - [g]^T lambda^spring,
// where [g] = h U_{k+1}. D_spring is a Bregman divergence of the convex phi: for implicit
// D_spring = phi(g_k) - phi(g_{k+1}) - phi'(g_{k+1}) (g_k - g_{k+1}) >= 0; for explicit
// D_spring = -(phi(g_{k+1}) - phi(g_k) - phi'(g_k) (g_{k+1} - g_k)) <= 0 (the spring gains energy),
// and W_dashpot = -h sum c [g_k < 0] max(0, -U_{k+1})^2 <= 0 for implicit. Hence, implicit with
// F = 0: E + V never increases, and sum_alpha min(0, g_alpha)^2 <= 2 (E_0 + V_0)/kappa
// (the penetration bound).
// Spec: "penalty2:kappa=K,damping=C,method=explicit|implicit" (kappa > 0, damping >= 0).

#include <nsh/registry.hpp>
#include <nsh/scheme_options.hpp>
#include <nsh/schemes/scheme.hpp>

namespace nsh {

/// The options of Penalty2, declared once (nsh/scheme_options.hpp); kappa and damping are
/// numbers in Scalar and keep the text they were written with in the canonical spec.
template <class Scalar>
struct Penalty2Options {
  Scalar kappa{0}, damping{0};
  TimeStepping method{};  ///< explicit: symplectic Euler, implicit: backward Euler

  template <class V>
  void visit(V& v) {
    v("kappa", kappa, "1e4", "contact stiffness, > 0", as_written(above(0, "kappa > 0")));
    v("damping", damping, "0", "contact dashpot c (compression only), >= 0",
      as_written(at_least(0, "damping >= 0")));
    v("method", method, "implicit", "explicit = symplectic Euler, implicit = backward Euler",
      one_of(TimeStepping::explicit_method, TimeStepping::implicit_method));
  }
};

template <class Scalar>
class Penalty2 final : public Scheme<Scalar> {
 public:
  explicit Penalty2(const SchemeSpec& spec);
  SchemeInfo info() const override;

  const Scalar& kappa() const { return options_.kappa; }
  const Scalar& damping() const { return options_.damping; }
  bool implicit() const { return options_.method == TimeStepping::implicit_method; }
  /// V(g) = 1/2 kappa sum_alpha min(0, g_alpha)^2.
  Scalar stored_energy(const Vector<Scalar>& gap) const;

 private:
  SchemeSpec spec_;  // as written, for the canonical text of kappa and damping
  Penalty2Options<Scalar> options_;
  const LinearModel<Scalar>* model_{nullptr};
  Scalar h_{0};

  using Scheme<Scalar>::do_initialize;
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override;
};

void register_penalty2(Registry& registry);

// Instantiated once, in the library (core/src); other files only link them.
extern template class Penalty2<double>;
extern template class Penalty2<Real50>;
extern template class Penalty2<Rational>;

}  // namespace nsh
