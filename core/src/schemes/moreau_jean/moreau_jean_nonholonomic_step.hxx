// The impulse of one Moreau–Jean step on a nonlinear model with velocity constraints
// A(q) v = 0 (r > 0, the nonholonomic family; docs/nonholonomic.md "Moreau–Jean with velocity
// constraints"): the constraints enter the one-step problem as bilateral (equality) rows,
//
//   M^ (v_{k+1} - v_free) = W_N(q*) P_N + A(q_{k+1})^T mu,     A(q_{k+1}) v_{k+1} = 0,
//   0 <= U_{k+1} + e U_k  _|_  P_N >= 0 on the index set,  q_{k+1} = q_k + h v_{k+theta},
//
// with M^ the iteration matrix of the nonlinear step. mu is eliminated exactly: with
// S = A M^-1 A^T, v = Pi (v_free + M^-1 W_N P_N) where Pi = I - M^-1 A^T S^-1 A is the
// M^-orthogonal projection onto ker A, so the unilateral part is the usual impulse LCP with
// v_free -> Pi v_free and M^-1 W_N -> Pi M^-1 W_N (its Delassus W_N^T Pi M^-1 W_N is symmetric
// positive semidefinite). The constraint is imposed at the new node q_{k+1}, so that every
// state the scheme produces is admissible (A(q_k) v_k = 0 to the fixed point's tolerance): q_{k+1}
// depends on v_{k+1}, and a fixed-point iteration on q_{k+1} (a contraction of factor O(h^2) for
// smooth A) solves both, started from q_k + h v_k. It allocates (r x n blocks per step): the
// nonholonomic path is not under the allocation bar of the frictionless holonomic one.
#pragma once

#include <nsh/detail/moreau_jean_nonlinear_workspace.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/impulse_step.hpp>
#include <nsh/model/nonlinear_model.hpp>

#include <fmt/format.h>

namespace nsh::detail {

/// Sets w.base.v_next (in ker A(q_{k+1})) and records the impulse LCP in `summary`. Needs
/// w.base.v_free, w.base.active, w.base.velocity_k, w.normal_jacobian and w.minv_g (m > 0).
template <class Scalar>
void moreau_jean_bilateral_impulse(const char* scheme, LcpMethod lcp_method,
                                   const LcpOptions<Scalar>& lcp_options, const Scalar& theta,
                                   const Scalar& h, const NonlinearModel<Scalar>& model,
                                   MoreauJeanNonlinearWorkspace<Scalar>& w,
                                   const State<Scalar>& state, StepSummary<Scalar>& summary) {
  MoreauJeanWorkspace<Scalar>& work = w.base;
  const Index n = model.dofs(), m = model.contacts();
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& v = state.v;
  Matrix<Scalar> A, minv_at, minv_g_projected = w.minv_g, delassus = w.delassus;
  Vector<Scalar> v_free_projected, q_end = q + h * v, q_next;
  const Scalar q_tolerance = tolerance<Scalar>(max_abs(q) + h * max_abs(v), Scalar(256 * (n + 1)));
  Scalar change(0);
  const int max_iterations = 100;
  for (int iteration = 0; iteration < max_iterations; ++iteration) {
    model.one_forms(q_end, A);
    minv_at = w.iteration_lu.solve(Matrix<Scalar>(A.transpose()));
    const Eigen::PartialPivLU<Matrix<Scalar>> schur(Matrix<Scalar>(A * minv_at));
    v_free_projected = work.v_free - minv_at * schur.solve(Vector<Scalar>(A * work.v_free));
    if (m > 0) {
      minv_g_projected = w.minv_g - minv_at * schur.solve(Matrix<Scalar>(A * w.minv_g));
      delassus.noalias() = w.normal_jacobian.transpose() * minv_g_projected;
      delassus = (delassus + Matrix<Scalar>(delassus.transpose())) / Scalar(2);
    }
    impulse_step<Scalar>({scheme, lcp_method}, lcp_options, work.active, delassus, minv_g_projected,
                         w.normal_jacobian, model.restitution(), v_free_projected, work.velocity_k,
                         state.t, work.impulse_step, work.v_next, summary);
    q_next = q + h * ((Scalar(1) - theta) * v + theta * work.v_next);
    change = max_abs(Vector<Scalar>(q_next - q_end));
    q_end = q_next;
    if (change <= q_tolerance) return;
  }
  throw StepError(fmt::format(
      "{}: the velocity constraints A(q_(k+1)) v_(k+1) = 0 at t = {}: the fixed point on "
      "q_(k+1) did not converge in {} iterations (last change {} > {}); reduce h",
      scheme, format_scalar(state.t), max_iterations, format_short(change),
      format_short(q_tolerance)));
}

}  // namespace nsh::detail
