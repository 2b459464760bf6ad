// One Moreau–Jean step with Coulomb friction (nsh/schemes/moreau_jean.hpp, docs/friction.md
// "Moreau–Jean with friction", docs/theory.md §9.1): the frictionless step of
// moreau_jean_step.hxx with the impulse LCP replaced by the one-step friction problem on the
// index set. Dense models only (the sparse family is frictionless). The frictionless path does
// not come here, so a model with mu = 0 or no G_T steps exactly as before.
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/friction/solver.hpp>
#include <nsh/model/linear_model.hpp>
#include <nsh/scalar.hpp>
#include <nsh/step_summary.hpp>

#include "moreau_jean_step.hxx"

#include <fmt/format.h>

#include <vector>

namespace nsh::detail {

template <class Scalar>
struct MoreauJeanFrictionParameters {
  const char* scheme;
  Scalar theta;
  Scalar h;
  MoreauJeanActivation activation;
  FrictionMethod method;           ///< resolved for this model's d
  LcpMethod reported_lcp;          ///< what summary.lcp.method says (the normal part's record)
  const Matrix<Scalar>& minv_h;    ///< M^-1 H, n x m (1 + d), H contact-major [G_N, G_T..]
  const Matrix<Scalar>& delassus;  ///< H^T M^-1 H, m (1 + d) square
};

/// The one-step friction problem on the index set work.active (docs/friction.md), shared by the
/// linear and the nonlinear frictional step: W = H^T M^-1 H from p.delassus, b = H^T v_free
/// with the normal rows shifted by e U_k (Newton's law with Moreau's U_k = work.velocity_k),
/// H's columns the normal gradients `G_N` and the tangent directions `G_T` (n x m, n x m d).
/// Fills `impulse` (m), `tangential` (m d), work.v_next = v_free + M^-1 H P and the step's
/// record (index set, impulses, velocity_newton, the normal part as summary.lcp); refuses an
/// uncertified solve with a StepError. `t` is the step's start, for messages.
template <class Scalar, class NormalMatrix, class TangentMatrix>
void moreau_jean_friction_impulse(const MoreauJeanFrictionParameters<Scalar>& p, Index d,
                                  const NormalMatrix& G_N, const TangentMatrix& G_T,
                                  const Vector<Scalar>& e, const Vector<Scalar>& mu,
                                  MoreauJeanWorkspace<Scalar>& work, const Scalar& t,
                                  Vector<Scalar>& impulse, Vector<Scalar>& tangential,
                                  StepSummary<Scalar>& summary) {
  const Index m = G_N.cols();
  const Index block = 1 + d;
  impulse.setZero(m);
  tangential.setZero(m * d);
  work.v_next = work.v_free;
  const Index k = static_cast<Index>(work.active.size());
  summary.lcp.status = LcpStatus::solved;
  summary.lcp.method = p.reported_lcp;
  summary.lcp.certificate = LcpCertificate<Scalar>{};
  summary.lcp.certificate.accepted = true;
  summary.lcp.message.clear();
  if (k > 0) {
    // The contact-major local problem on the index set (docs/friction.md): W = H^T M^-1 H,
    // b = H^T v_free with the normal rows shifted by e U_k (Newton's law, Moreau's U_k).
    FrictionProblem<Scalar> problem;
    problem.tangent_dimension = d;
    problem.W.resize(k * block, k * block);
    problem.b.resize(k * block);
    problem.friction_coefficient.resize(k);
    for (Index i = 0; i < k; ++i) {
      const Index a = work.active[static_cast<std::size_t>(i)];
      problem.friction_coefficient(i) = mu(a);
      for (Index r = 0; r < block; ++r) {
        for (Index j = 0; j < k; ++j) {
          const Index c = work.active[static_cast<std::size_t>(j)];
          for (Index s = 0; s < block; ++s)
            problem.W(i * block + r, j * block + s) = p.delassus(a * block + r, c * block + s);
        }
        problem.b(i * block + r) =
            r == 0 ? Scalar(G_N.col(a).dot(work.v_free) + e(a) * work.velocity_k(a))
                   : Scalar(G_T.col(a * d + r - 1).dot(work.v_free));
      }
    }
    const FrictionResult<Scalar> result = solve_friction(p.method, problem);
    if (!result.ok()) {
      const FrictionCertificate<Scalar>& c = result.certificate;
      throw StepError(fmt::format(
          "{}: the friction problem at t = {} ({} active contacts, d = {}, method {}) was not "
          "certified: status {}, prox residual {} (tolerance {}), cone {}, normal feasibility "
          "{}, complementarity {}, stick velocity {}, dissipation defect {}{}{}",
          p.scheme, format_scalar(t), k, d, to_string(p.method), to_string(result.status),
          format_scalar(c.prox_residual), format_scalar(c.tolerance),
          format_scalar(c.cone_feasibility), format_scalar(c.normal_feasibility),
          format_scalar(c.normal_complementarity), format_scalar(c.stick_velocity),
          format_scalar(c.dissipation_defect), result.message.empty() ? "" : "; ", result.message));
    }
    for (Index i = 0; i < k; ++i) {
      const Index a = work.active[static_cast<std::size_t>(i)];
      for (Index r = 0; r < block; ++r) {
        const Scalar& P = result.P(i * block + r);
        if (r == 0)
          impulse(a) = P;
        else
          tangential(a * d + r - 1) = P;
        work.v_next += P * p.minv_h.col(a * block + r);
      }
    }
    // The normal part as the step's LCP record: z = P_N, w = U_N+ + e U_k on the index set.
    record_normal_part(result, k, block, summary.lcp);
    summary.lcp_solved = true;
  } else {
    summary.lcp.z.resize(0);
    summary.lcp.w.resize(0);
    summary.lcp.iterations = 0;
    summary.lcp_solved = false;
  }
  summary.index_set.assign(work.active.begin(), work.active.end());
  summary.impulse = impulse;
  summary.tangential_impulse = tangential;
  summary.velocity_newton = work.velocity_k;
}

/// Advance `state` by h on a frictional dense model and fill `summary` (impulse, tangential
/// impulse, index set, velocity_newton, the normal part of the step as summary.lcp, the ledger
/// with the tangential work). `solve(b, x)` applies M^-1. work.force_theta must be filled.
template <class Scalar, class Solve>
void moreau_jean_friction_step(const MoreauJeanFrictionParameters<Scalar>& p,
                               const LinearModel<Scalar>& model, Solve&& solve,
                               MoreauJeanWorkspace<Scalar>& work, State<Scalar>& state,
                               StepSummary<Scalar>& summary) {
  const Scalar& h = p.h;
  const Scalar& theta = p.theta;
  moreau_jean_free_motion(theta, h, p.activation, model.C, model.K, model.G, model.w, solve, work,
                          state);
  Vector<Scalar> impulse, tangential;
  moreau_jean_friction_impulse(p, model.tangent_directions(), model.G, model.G_T, model.e, model.mu,
                               work, state.t, impulse, tangential, summary);

  // Ledger (docs/theory.md §2.2, §9.1): the contact work is U_{k+theta}^T P over the normal
  // and the tangential components, so that the one-step identity of §2.3 holds unchanged.
  moreau_jean_ledger(theta, h, model.C, model.G, impulse, work, state, summary);
  const Vector<Scalar> tangential_theta = model.G_T.transpose() * work.v_theta;
  summary.W_contact += tangential_theta.dot(tangential);

  moreau_jean_finish_damping(work);
  state.q = work.q_next;
  state.v = work.v_next;
  state.t = state.t + h;
}

}  // namespace nsh::detail
