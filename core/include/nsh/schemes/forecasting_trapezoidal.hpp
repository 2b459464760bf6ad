#pragma once
// The forecasting trapezoidal rule: the acceleration-level predecessor of the half-explicit
// time-discontinuous Galerkin scheme (docs/half-explicit-tdg.md "The forecasting trapezoidal
// rule"). The seed names it without its equations; this step is a reconstruction: the stages of
// nsh/schemes/half_explicit_tdg.hpp with the non-impulsive contact constraints on acceleration
// level and the impacts by Newton's law on velocity level.
//
// One step from (t_n, q_n, u_n) on the linear model, f(t, q, u) = F(t) - C u - K q:
//
//   A_n = { a : g^a(q_n) <= 0 and G^a^T u_n <= 0 }          (closed, not separating)
//   forecast  a_1 = M^-1 (f_n + G lambda_1),  0 <= G_A^T a_1  _|_  lambda_1 >= 0 on A_n
//             u_1 = u_n + h a_1,  q_{n+1} = q_n + h/2 (u_n + u_1)
//   C_{n+1} = { a : g^a(q_{n+1}) <= 0 };  impact  <=>  some a in C_{n+1} has G^a^T u_1 < 0
//   u* = u_n + h/2 M^-1 (f_n + f(t_{n+1}, q_{n+1}, u_1))
//   impact:         u_{n+1} = u* + M^-1 G Lambda, 0 <= G^T u_{n+1} + e o G^T u* _|_ Lambda >= 0
//                   on C_{n+1}                             (as half-explicit-tdg)
//   non-impulsive:  A_{n+1} = { a in C_{n+1} : G^a^T u_1 <= 0 },
//                   a_2 = M^-1 (f(t_{n+1}, q_{n+1}, u_1) + G lambda_2),
//                   0 <= G_A^T a_2  _|_  lambda_2 >= 0 on A_{n+1},
//                   u_{n+1} = u_n + h/2 (a_1 + a_2)
//
// In impulses (z_1 = h lambda_1, z_2 = h/2 lambda_2) these are half-explicit-tdg's problems with
// the normal rows shifted: G^T (u_1 - u_n) >= 0 and G^T (u_{n+1} - (u_n + u_1)/2) >= 0 in place
// of G^T u_1 >= 0 and G^T u_{n+1} >= 0, so the same prox Newton, fallback and friction solvers
// solve them (HalfExplicitTdg's protected constructor). With friction the tangential rows stay on
// velocity level (Coulomb's law on the end velocity of each stage, as half-explicit-tdg).
//
// What the step records: an impact step as half-explicit-tdg (index_set = C_{n+1}, the impact
// LCP, velocity_newton = G^T u*); a non-impulsive step has no velocity-level impulse LCP:
// index_set is empty, impulse zero, and the whole contact impulse h/2 (lambda_1 + lambda_2) (and
// its tangential part) is forecast_impulse, which momentum_balance adds.
//
// Options, precisions and friction as half-explicit-tdg's (HalfExplicitTdgOptions). On a
// nonlinear model (double and Real50) the constraints are d^2 g/dt^2 = W_N(q)^T a + kappa >= 0,
// kappa = v^T g''(q) v the gap's curvature (NonlinearModel::gap_curvature; a model without it is
// refused): the shifts become -W_N(q_n)^T u_n + h kappa(q_n, u_n) and
// -W_N(q_{n+1})^T (u_n + u_1)/2 + h/2 kappa(q_{n+1}, u_1). A closed contact counts as separating
// only beyond the round-off its G^T u may have gathered since t_0 (HalfExplicitTdg::drift_steps).
#include <nsh/schemes/half_explicit_tdg.hpp>

namespace nsh {

template <class Scalar>
class ForecastingTrapezoidal : public HalfExplicitTdg<Scalar> {
 public:
  /// From a spec "forecasting-trapezoidal[:r=..,tolerance=..,max_iterations=..,fallback=..,
  /// friction=..]". Throws SpecError naming the option for an unknown key or a bad value.
  explicit ForecastingTrapezoidal(const SchemeSpec& spec);

  SchemeInfo info() const override;
};

/// Registers "forecasting-trapezoidal" (double, Real50, Rational).
void register_forecasting_trapezoidal(Registry& registry);

extern template class ForecastingTrapezoidal<double>;
extern template class ForecastingTrapezoidal<Real50>;
extern template class ForecastingTrapezoidal<Rational>;

}  // namespace nsh
