// One Moreau–Jean step on a nonlinear model (nsh/schemes/moreau_jean.hpp "Nonlinear models",
// docs/nonlinear-models.md "Moreau–Jean"), the way Siconos' MoreauJeanOSI steps a LagrangianDS
// with a LagrangianScleronomousR on the first iterate of its Newton loop:
//
//   M_k = M(q_k);  f_k = f(t_k, q_k, v_k),  f_k+ = f(t_{k+1}, q_k, v_k),
//   K_k = -df/dq, C_k = -df/dv at (t_{k+1}, q_k, v_k)   (the model's, or central differences)
//   M^ = M_k + h theta C_k + h^2 theta^2 K_k
//   v_free = v_k + M^-1 [ h ((1 - theta) f_k + theta f_k+) - h^2 theta K_k v_k ]
//   q* = q_k + h/2 v_k;  W_N = W_N(q*), W_T = W_T(q*)
//   I = { a : g_a(q_k) + h/2 U_a,k <= 0 [and U_a,k <= 0] },  U_k = W_N(q_k)^T v_k
//   the impulse LCP (or the friction problem) of the linear step with G = W_N(q*), G_T = W_T(q*)
//   v_{k+1} = v_free + M^-1 (W_N P_N + W_T P_T),  q_{k+1} = q_k + h ((1 - theta) v_k + theta
//   v_{k+1})
//
// which is the linear step of moreau_jean_step.hxx, to round-off, when f is affine and M, W_N,
// W_T constant (the LinearModelAdapter cross-check, core/tests/moreau_jean_nonlinear_test.cpp).
// The index set, the impulse LCP and the friction problem are the linear step's own functions.
#pragma once

#include <nsh/detail/moreau_jean_nonlinear_workspace.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/impulse_step.hpp>
#include <nsh/model/nonlinear_model.hpp>

#include "moreau_jean_friction_step.hxx"
#include "moreau_jean_nonholonomic_step.hxx"
#include "moreau_jean_step.hxx"

#include <fmt/format.h>

namespace nsh::detail {

template <class Scalar>
struct MoreauJeanNonlinearParameters {
  const char* scheme;
  Scalar theta;
  Scalar h;
  MoreauJeanActivation activation;
  LcpMethod lcp_method;
  const LcpOptions<Scalar>& lcp_options;
  bool friction;                   ///< has_friction(model): the friction problem replaces the LCP
  FrictionMethod friction_method;  ///< resolved for the model's d
};

template <class Scalar>
void moreau_jean_nonlinear_step(const MoreauJeanNonlinearParameters<Scalar>& p,
                                const NonlinearModel<Scalar>& model,
                                MoreauJeanNonlinearWorkspace<Scalar>& w, State<Scalar>& state,
                                StepSummary<Scalar>& summary) {
  MoreauJeanWorkspace<Scalar>& work = w.base;
  const Index n = model.dofs(), m = model.contacts();
  const Index d = p.friction ? model.tangent_directions() : 0;
  const Scalar& h = p.h;
  const Scalar& theta = p.theta;
  const Scalar half(Scalar(1) / 2);
  const Scalar t_next = state.t + h;
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& v = state.v;

  // The smooth part, linearised at (q_k, v_k).
  model.mass(q, w.mass);
  model.force(state.t, q, v, w.force_k);
  model.force(t_next, q, v, w.force_next);
  if (!model.force_jacobians(t_next, q, v, w.stiffness, w.damping))
    force_jacobians_by_differences(model, t_next, q, v, w.stiffness, w.damping, w.differences);
  const Scalar htheta = h * theta;
  w.iteration = w.mass;
  w.iteration.noalias() += htheta * w.damping;
  w.iteration.noalias() += (htheta * htheta) * w.stiffness;
  w.iteration_lu.compute(w.iteration);
  for (Index i = 0; i < n; ++i)
    if (w.iteration_lu.matrixLU()(i, i) == Scalar(0))
      throw StepError(fmt::format(
          "{}: the iteration matrix M(q) + h theta C + h^2 theta^2 K is singular at t = {} "
          "(pivot {}, q = {})",
          p.scheme, format_scalar(state.t), i, format_vector(q)));
  work.rhs = (Scalar(1) - theta) * w.force_k;
  work.rhs += theta * w.force_next;
  work.rhs *= h;
  work.work_n.noalias() = w.stiffness * v;
  work.rhs -= (h * htheta) * work.work_n;
  work.v_free = w.iteration_lu.solve(work.rhs);
  work.v_free += v;

  // Index set from the configuration at t_k (the predicted gap g(q_k) + h/2 U_k), read to the
  // round-off of the quantities tested as in the linear step (moreau_jean_free_motion), with
  // the gap's scale that of its linearisation at q_k, g ~ W_N^T q + w_k, w_k = g(q_k) - W_N^T q_k
  // (for an affine gap exactly the linear step's scale, so that the adapter decides alike).
  if (m > 0) {
    model.gap(q, work.gap_k);
    model.normal_jacobian(q, w.normal_jacobian_k);
    work.velocity_k.noalias() = w.normal_jacobian_k.transpose() * v;
    work.velocity_theta.noalias() = w.normal_jacobian_k.transpose() * q;  // scratch: W_N^T q_k
    work.velocity_theta -= work.gap_k;
    const Scalar gradient_scale = max_abs(w.normal_jacobian_k);
    const Scalar velocity_zero = tolerance<Scalar>(gradient_scale * max_abs(v));
    const Scalar gap_zero =
        tolerance<Scalar>(gradient_scale * max_abs(q) + max_abs(work.velocity_theta)) +
        half * h * velocity_zero;
    moreau_jean_index_set(p.activation, h, gap_zero, velocity_zero, m, work);
  } else {
    work.active.clear();
  }

  // The Jacobians at the prediction q* = q_k + h/2 v_k, and the impulse on the index set.
  if (m > 0) {
    w.prediction = q;
    w.prediction += (half * h) * v;
    model.normal_jacobian(w.prediction, w.normal_jacobian);
  }
  if (p.friction) {
    model.tangent_jacobian(w.prediction, w.tangent_jacobian);
    const Index block = 1 + d;
    for (Index a = 0; a < m; ++a) {
      w.local.col(a * block) = w.normal_jacobian.col(a);
      for (Index j = 0; j < d; ++j)
        w.local.col(a * block + 1 + j) = w.tangent_jacobian.col(a * d + j);
    }
    w.minv_h = w.iteration_lu.solve(w.local);
    w.delassus_local.noalias() = w.local.transpose() * w.minv_h;
    const MoreauJeanFrictionParameters<Scalar> fp{
        p.scheme,          theta,        h,        p.activation,
        p.friction_method, p.lcp_method, w.minv_h, w.delassus_local};
    moreau_jean_friction_impulse(fp, d, w.normal_jacobian, w.tangent_jacobian, model.restitution(),
                                 model.friction_coefficient(), work, state.t, w.impulse,
                                 w.tangential_impulse, summary);
  } else {
    if (m > 0) {
      w.minv_g = w.iteration_lu.solve(w.normal_jacobian);
      w.delassus.noalias() = w.normal_jacobian.transpose() * w.minv_g;
    }
    if (model.velocity_constraints() > 0)
      moreau_jean_bilateral_impulse(p.scheme, p.lcp_method, p.lcp_options, theta, h, model, w,
                                    state, summary);
    else
      impulse_step<Scalar>({p.scheme, p.lcp_method}, p.lcp_options, work.active, w.delassus,
                           w.minv_g, w.normal_jacobian, model.restitution(), work.v_free,
                           work.velocity_k, state.t, work.impulse_step, work.v_next, summary);
  }
  const Vector<Scalar>& impulse = p.friction ? w.impulse : work.impulse_step.impulse;

  // q_{k+1} = q_k + h v_{k+theta}.
  work.v_theta = (Scalar(1) - theta) * v;
  work.v_theta += theta * work.v_next;
  work.q_next = q;
  work.q_next += h * work.v_theta;
  work.dv = work.v_next - v;
  work.dq = work.q_next - q;

  // The smooth impulse of the momentum equation, M_k [v] = h f~ + W_N P_N + W_T P_T:
  // h f~ = rhs - (h theta C + h^2 theta^2 K) [v].
  work.work_n.noalias() = w.iteration * work.dv;
  work.work_n.noalias() -= w.mass * work.dv;
  summary.external_impulse = work.rhs - work.work_n;

  // Ledger (docs/nonlinear-models.md "Moreau–Jean"): W_ext the theta-weighted work of f_ext at
  // the end states, the contact work with the Jacobians of the LCP (at q*), and the numerical
  // dissipation (theta - 1/2)(||[v]||^2_{M_k} + [q]^T K_k [q]). The identity
  // E_{k+1} - E_k = W_ext + W_contact - D is exact for constant M, quadratic V and f_ext affine
  // in v (the linear family, the rod); otherwise its defect is the step's consistency error.
  model.external_force(state.t, q, v, w.external_k);
  model.external_force(t_next, work.q_next, work.v_next, w.external_next);
  w.external_k *= (Scalar(1) - theta);
  w.external_k += theta * w.external_next;
  summary.W_ext = h * work.v_theta.dot(w.external_k);
  summary.W_damp = Scalar(0);
  if (m > 0) {
    work.velocity_theta.noalias() = w.normal_jacobian.transpose() * work.v_theta;
    summary.W_contact = work.velocity_theta.dot(impulse);
  } else {
    summary.W_contact = Scalar(0);
  }
  if (p.friction) {
    w.tangential_theta.noalias() = w.tangent_jacobian.transpose() * work.v_theta;
    summary.W_contact += w.tangential_theta.dot(w.tangential_impulse);
  }
  work.work_n.noalias() = w.mass * work.dv;
  Scalar jump = work.dv.dot(work.work_n);
  work.work_n.noalias() = w.stiffness * work.dq;
  jump += work.dq.dot(work.work_n);
  summary.numerical_dissipation = (theta - half) * jump;
  summary.has_algorithmic_energy = false;

  state.q = work.q_next;
  state.v = work.v_next;
  state.t = t_next;
}

}  // namespace nsh::detail
