#pragma once
// The impulse step shared by every scheme whose contacts enter through an impulse LCP on an
// index set (Moreau–Jean, the Newmark family, a user's own scheme): docs/adding-a-scheme.md.
//
// Given the index set I, the smooth end velocity v_free, and the pre-impact local velocity
// U_newton the scheme's Newton law uses, it solves on I
//
//   0 <= W_II P_I + (G_I^T v_free + e_I o U_newton,I)  _|_  P_I >= 0,    P = 0 outside I,
//
// with W = G^T M^-1 G the scheme's Delassus operator (M its iteration matrix), refuses an
// uncertified answer with a StepError that prints the whole certificate, and returns
// v_next = v_free + M^-1 G P. It records in the summary what the scheme alone knows about the
// impulse: index_set, impulse, velocity_newton, the LCP result and lcp_solved (the empty LCP,
// I = {}, is recorded as solved with zero residuals and lcp_solved = false).
// Allocation-free on the double path for lemke and pgs once the workspace is sized.

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/lcp/workspace.hpp>
#include <nsh/scalar.hpp>
#include <nsh/step_summary.hpp>

#include <fmt/format.h>

#include <vector>

namespace nsh {

template <class Scalar>
struct ImpulseStepWorkspace {
  Matrix<Scalar> delassus_active;  ///< m x m; the active block is its top-left k x k corner
  Vector<Scalar> b_active;         ///< m; the active part is its head(k)
  Vector<Scalar> impulse;          ///< m
  LcpWorkspace<Scalar> lcp;

  void size(Index m) {
    delassus_active.setZero(m, m);
    b_active.setZero(m);
    impulse.setZero(m);
    lcp.reserve(m);
  }
};

/// What the step is solving, for the StepError text.
struct ImpulseStepContext {
  const char* scheme;  ///< "moreau-jean", "symplectic-euler", ...
  LcpMethod method{LcpMethod::lemke};
};

/// The impulse step above. `G` may be dense or sparse (any Eigen expression with col(a)).
/// `t` is the time of the step's start, for messages. `v_next` may not alias `v_free`.
template <class Scalar, class GradientMatrix>
void impulse_step(const ImpulseStepContext& context, const LcpOptions<Scalar>& options,
                  const std::vector<Index>& active, const Matrix<Scalar>& delassus,
                  const Matrix<Scalar>& minv_g, const GradientMatrix& G, const Vector<Scalar>& e,
                  const Vector<Scalar>& v_free, const Vector<Scalar>& velocity_newton,
                  const Scalar& t, ImpulseStepWorkspace<Scalar>& work, Vector<Scalar>& v_next,
                  StepSummary<Scalar>& summary) {
  const Index m = delassus.rows();
  if (work.impulse.size() != m) work.size(m);
  work.impulse.setZero();
  v_next = v_free;
  const Index k = static_cast<Index>(active.size());
  if (k > 0) {
    for (Index i = 0; i < k; ++i) {
      const Index a = active[static_cast<std::size_t>(i)];
      for (Index j = 0; j < k; ++j)
        work.delassus_active(i, j) = delassus(a, active[static_cast<std::size_t>(j)]);
      work.b_active(i) = G.col(a).dot(v_free) + e(a) * velocity_newton(a);
    }
    solve_lcp<Scalar>(context.method, work.delassus_active.topLeftCorner(k, k),
                      work.b_active.head(k), options, work.lcp, summary.lcp);
    if (!summary.lcp.ok()) {
      const LcpCertificate<Scalar>& c = summary.lcp.certificate;
      throw StepError(
          fmt::format("{}: the impulse LCP at t = {} ({} active contacts, method {}) was not "
                      "certified: status {}, natural map {} (tolerance {}), feasibility {}, "
                      "complementarity {}, Siconos error {}{}{}",
                      context.scheme, format_scalar(t), k, to_string(context.method),
                      to_string(summary.lcp.status), format_scalar(c.natural_map),
                      format_scalar(c.tolerance), format_scalar(c.feasibility),
                      format_scalar(c.complementarity), format_scalar(c.siconos_error),
                      summary.lcp.message.empty() ? "" : "; ", summary.lcp.message));
    }
    for (Index i = 0; i < k; ++i) {
      const Index a = active[static_cast<std::size_t>(i)];
      work.impulse(a) = summary.lcp.z(i);
      v_next += summary.lcp.z(i) * minv_g.col(a);
    }
    summary.lcp_solved = true;
  } else {
    // Nothing was posed: the empty LCP is solved trivially, with zero residuals.
    // (z and w go back to the workspace rather than being freed, for the next contact.)
    work.lcp.size_result(summary.lcp, 0);
    summary.lcp.status = LcpStatus::solved;
    summary.lcp.method = context.method;
    summary.lcp.iterations = 0;
    summary.lcp.certificate = LcpCertificate<Scalar>{};
    summary.lcp.certificate.accepted = true;
    summary.lcp.message.clear();
    summary.lcp_solved = false;
  }
  summary.index_set.reserve(static_cast<std::size_t>(m));  // once, so that assign never grows
  summary.index_set.assign(active.begin(), active.end());
  summary.impulse = work.impulse;
  summary.velocity_newton = velocity_newton;
}

/// For a scheme that poses no impulse LCP this step (or none at all): records an empty index
/// set, zero impulses and the trivially solved empty LCP.
template <class Scalar>
void record_no_impulse(Index contacts, LcpMethod method, StepSummary<Scalar>& summary) {
  summary.index_set.clear();
  if (summary.impulse.size() != contacts) summary.impulse.resize(contacts);
  summary.impulse.setZero();
  summary.lcp.z.resize(0);
  summary.lcp.w.resize(0);
  summary.lcp.status = LcpStatus::solved;
  summary.lcp.method = method;
  summary.lcp.iterations = 0;
  summary.lcp.certificate = LcpCertificate<Scalar>{};
  summary.lcp.certificate.accepted = true;
  summary.lcp.message.clear();
  summary.lcp_solved = false;
}

}  // namespace nsh
