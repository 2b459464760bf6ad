// One Moreau–Jean step with Coulomb friction (nsh/schemes/moreau_jean.hpp, docs/friction.md
// "Moreau–Jean with friction", docs/theory.md §9.1): the frictionless step of
// moreau_jean_step.hxx with the impulse LCP replaced by the one-step friction problem on the
// index set. Dense models only (the sparse family is frictionless). The frictionless path does
// not come here, so a model with mu = 0 or no G_T steps exactly as before.
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/friction/solver.hpp>
#include <nsh/model.hpp>
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

/// Advance `state` by h on a frictional dense model and fill `summary` (impulse, tangential
/// impulse, index set, velocity_newton, the normal part of the step as summary.lcp, the ledger
/// with the tangential work). `solve(b, x)` applies M^-1. work.force_theta must be filled.
template <class Scalar, class Solve>
void moreau_jean_friction_step(const MoreauJeanFrictionParameters<Scalar>& p,
                               const LinearModel<Scalar>& model, Solve&& solve,
                               MoreauJeanWorkspace<Scalar>& work, State<Scalar>& state,
                               StepSummary<Scalar>& summary) {
  const Index m = model.contacts();
  const Index d = model.tangent_directions();
  const Index block = 1 + d;
  const Scalar& h = p.h;
  const Scalar& theta = p.theta;
  const Scalar half(Scalar(1) / 2);
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& v = state.v;
  const auto Gt = model.G.transpose();

  work.gap_k.noalias() = Gt * q;
  work.gap_k += model.w;
  work.velocity_k.noalias() = Gt * v;

  // Free velocity, as in the frictionless step.
  work.work_n = q;
  work.work_n += (h * theta) * v;
  work.rhs.noalias() = model.C * v;
  work.rhs.noalias() += model.K * work.work_n;
  work.rhs -= work.force_theta;
  work.rhs *= -h;
  solve(work.rhs, work.v_free);
  work.v_free += v;

  // Index set: the frictionless rule, with the same round-off reading of "<= 0".
  const Scalar gradient_scale = max_abs(model.G);
  const Scalar velocity_zero = tolerance<Scalar>(gradient_scale * max_abs(v));
  const Scalar gap_zero =
      tolerance<Scalar>(gradient_scale * max_abs(q) + max_abs(model.w)) + half * h * velocity_zero;
  work.active.clear();
  for (Index a = 0; a < m; ++a) {
    const bool position = work.gap_k(a) + half * h * work.velocity_k(a) <= gap_zero;
    const bool velocity =
        p.activation == MoreauJeanActivation::position || work.velocity_k(a) <= velocity_zero;
    if (position && velocity) work.active.push_back(a);
  }

  Vector<Scalar> impulse = Vector<Scalar>::Zero(m);
  Vector<Scalar> tangential = Vector<Scalar>::Zero(m * d);
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
      problem.friction_coefficient(i) = model.mu(a);
      for (Index r = 0; r < block; ++r) {
        for (Index j = 0; j < k; ++j) {
          const Index c = work.active[static_cast<std::size_t>(j)];
          for (Index s = 0; s < block; ++s)
            problem.W(i * block + r, j * block + s) = p.delassus(a * block + r, c * block + s);
        }
        problem.b(i * block + r) =
            r == 0 ? Scalar(model.G.col(a).dot(work.v_free) + model.e(a) * work.velocity_k(a))
                   : Scalar(model.G_T.col(a * d + r - 1).dot(work.v_free));
      }
    }
    const FrictionResult<Scalar> result = solve_friction(p.method, problem);
    if (!result.ok()) {
      const FrictionCertificate<Scalar>& c = result.certificate;
      throw StepError(fmt::format(
          "{}: the friction problem at t = {} ({} active contacts, d = {}, method {}) was not "
          "certified: status {}, prox residual {} (tolerance {}), cone {}, normal feasibility "
          "{}, complementarity {}, stick velocity {}, dissipation defect {}{}{}",
          p.scheme, format_scalar(state.t), k, d, to_string(p.method), to_string(result.status),
          format_scalar(c.prox_residual), format_scalar(c.tolerance),
          format_scalar(c.cone_feasibility), format_scalar(c.normal_feasibility),
          format_scalar(c.normal_complementarity), format_scalar(c.stick_velocity),
          format_scalar(c.dissipation_defect), result.message.empty() ? "" : "; ", result.message));
    }
    // The normal part as the step's LCP record: z = P_N, w = U_N+ + e U_k on the index set.
    summary.lcp.z.resize(k);
    summary.lcp.w.resize(k);
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
      summary.lcp.z(i) = result.P(i * block);
      summary.lcp.w(i) = result.U(i * block);
    }
    summary.lcp.iterations = result.iterations;
    summary.lcp.certificate.natural_map = result.certificate.normal_complementarity;
    summary.lcp.certificate.feasibility = result.certificate.normal_feasibility;
    summary.lcp.certificate.tolerance = result.certificate.tolerance;
    summary.lcp.message = result.message;
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

  work.v_theta = (Scalar(1) - theta) * v;
  work.v_theta += theta * work.v_next;
  work.q_next = q;
  work.q_next += h * work.v_theta;
  work.dv = work.v_next - v;
  work.dq = work.q_next - q;

  summary.external_impulse = h * work.force_theta;

  // Ledger (docs/theory.md §2.2, §9.1): the contact work is U_{k+theta}^T P over the normal
  // and the tangential components, so that the one-step identity of §2.3 holds unchanged.
  summary.W_ext = h * work.v_theta.dot(work.force_theta);
  work.work_n.noalias() = model.C * work.v_theta;
  summary.W_damp = -h * work.v_theta.dot(work.work_n);
  work.velocity_theta.noalias() = Gt * work.v_theta;
  const Vector<Scalar> tangential_theta = model.G_T.transpose() * work.v_theta;
  summary.W_contact = work.velocity_theta.dot(impulse) + tangential_theta.dot(tangential);
  work.work_n.noalias() = model.M * work.dv;
  Scalar jump = work.dv.dot(work.work_n);
  work.work_n.noalias() = model.K * work.dq;
  jump += work.dq.dot(work.work_n);
  summary.numerical_dissipation = (theta - half) * jump;
  summary.has_algorithmic_energy = false;

  state.q = work.q_next;
  state.v = work.v_next;
  state.t = state.t + h;
}

}  // namespace nsh::detail
