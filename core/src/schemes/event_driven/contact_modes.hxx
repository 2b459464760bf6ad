// The contact mode of the event-driven flow (nsh/schemes/event_driven.hpp): which contacts with
// g = 0 and U = 0 stay closed, from the acceleration-level LCP and, where that is degenerate,
// from the next derivatives of the gap (the derivative hierarchy below). The constraint of the
// chosen set is installed in the flow's operator (taylor_flow.hxx, TaylorFlow::constrain).
#pragma once

#include "flow.hxx"

namespace nsh {

template <class Scalar>
void EventDrivenFlow<Scalar>::Impl::set_mode(std::vector<Index> new_closed) {
  std::sort(new_closed.begin(), new_closed.end());
  closed = std::move(new_closed);
  flow.constrain(closed, state.t);
}

/// Zero test of the k-th Taylor coefficient g_k = g^(k) / k! of a gap (k >= 1): the velocity
/// tolerance over t_ref^(k-1). The gap monitors of advance_to() deflate with the same numbers.
template <class Scalar>
Scalar EventDrivenFlow<Scalar>::Impl::gap_coefficient_tol(int k, const Scalar& t_ref) const {
  Scalar p = velocity_tol();
  for (int i = 1; i < k; ++i) p /= t_ref;
  return p;
}

namespace event_driven::detail {
/// Decision margin of the derivative hierarchy: a coefficient decides only when it is this many
/// times above its zero test, so the monitor of the next segment (which deflates below the
/// deciding order) cannot read its sign differently.
constexpr int decision_margin = 16;
}  // namespace event_driven::detail

/// The closed set among the contacts with g = 0 and U = 0 (Pfeiffer & Glocker 1996, sec. 6.3;
/// Lötstedt, SIAM J. Appl. Math. 42 (1982)): the acceleration LCP
///   0 <= W_A lambda + G_A^T M^-1 f  _|_  lambda >= 0
/// decides every contact whose multiplier or relative acceleration is clearly nonzero. A contact
/// with both zero to tolerance (a multiplier that has just reached zero, a grazing arrival, a
/// bar released with g'' = 0) is decided by the next derivative: with the decided contacts
/// closed and the degenerate set D open, the gap's Taylor coefficient g_k (k = 3, 4, ...) of the
/// flow poses 0 <= W_D z + g_k _|_ z >= 0 (z > 0: the contact stays closed, since then
/// lambda^(k-2) = -W^-1 k! g_k / (k-2)! > 0; W_D z + g_k > 0: it opens). The deciding order is
/// remembered so that the next segment's monitor of that contact starts at that order.
/// Contacts degenerate to the last order fall back to the trigger: a gap that has just
/// arrived closes (`force`), a multiplier that has just vanished opens (`exclude`).
template <class Scalar>
void EventDrivenFlow<Scalar>::Impl::decide_mode(Index exclude, Index force,
                                                std::vector<Event<Scalar>>* events) {
  using event_driven::detail::decision_margin;
  const Matrix<Scalar>& Minv_G = flow.Minv_G;
  const Scalar g_tol = gap_tol();
  const Scalar u_tol = velocity_tol();
  const Vector<Scalar> g = model.gap(state.q);
  const Vector<Scalar> U = model.local_velocity(state.v);
  const std::vector<Index> before = closed;
  decided_order.assign(static_cast<std::size_t>(m), 0);
  // Without a spectral scale (rho = 0: constant acceleration, no higher derivative to
  // consult) the contact whose multiplier has just vanished is left out, as it always was.
  const bool hierarchy = rho() > Scalar(0);
  std::vector<Index> A;
  for (Index a = 0; a < m; ++a)
    if ((hierarchy || a != exclude) && g(a) <= g_tol && abs_value<Scalar>(U(a)) <= u_tol)
      A.push_back(a);
  std::vector<Index> new_closed;
  if (!A.empty()) {
    const Vector<Scalar> y = free_acceleration_now();
    const Index k = static_cast<Index>(A.size());
    Matrix<Scalar> W(k, k);
    Vector<Scalar> b(k);
    for (Index i = 0; i < k; ++i) {
      for (Index j = 0; j < k; ++j) W(i, j) = model.G.col(A[i]).dot(Minv_G.col(A[j]));
      b(i) = model.G.col(A[i]).dot(y);
    }
    const LcpResult<Scalar> lcp = solve_lcp<Scalar>(options.lcp_method, W, b);
    if (!lcp.ok())
      throw StepError(
          fmt::format("event-driven: acceleration LCP at t = {} not certified "
                      "({}): {}",
                      format_scalar(state.t), to_string(lcp.status), lcp.message));
    Scalar w_min = std::numeric_limits<Scalar>::max();
    for (Index i = 0; i < k; ++i) w_min = std::min(w_min, Scalar(W(i, i)));
    const Scalar lam_tol = rel_tol * std::max(max_abs(lcp.z), Scalar(max_abs(b) / w_min));
    // Degenerate at the acceleration level: multiplier and relative acceleration both below
    // the margin times the zero test of g_2 = g'' / 2 (on the problem's scale, not on the
    // size of this LCP's own data, which is itself zero at a release).
    std::vector<Index> D;
    std::vector<bool> fallback_closed;
    const Scalar t_ref = hierarchy ? time_ref() : Scalar(0);
    const Scalar acc_zero =
        hierarchy ? Scalar(Scalar(2 * decision_margin) * gap_coefficient_tol(2, t_ref)) : Scalar(0);
    const Vector<Scalar> w_acc = W * lcp.z + b;
    for (Index i = 0; i < k; ++i) {
      const bool old_closed = lcp.z(i) > lam_tol || A[i] == force;
      if (hierarchy && !(lcp.z(i) * W(i, i) > acc_zero) && !(w_acc(i) > acc_zero)) {
        D.push_back(A[i]);
        fallback_closed.push_back(A[i] != exclude && old_closed);
      } else if (old_closed && A[i] != exclude) {
        new_closed.push_back(A[i]);
      } else if (A[i] == exclude && lcp.z(i) * W(i, i) > acc_zero) {
        new_closed.push_back(A[i]);  // the multiplier is clearly back above zero
      }
    }
    const int max_order = std::min(flow.terms, 8);
    for (int order = 3; !D.empty() && order <= max_order; ++order) {
      set_mode(new_closed);
      flow.series(state);
      if (flow.used < order) break;
      const Index d = static_cast<Index>(D.size());
      Matrix<Scalar> WD(d, d);
      Vector<Scalar> gk(d);
      for (Index i = 0; i < d; ++i) {
        for (Index j = 0; j < d; ++j) WD(i, j) = model.G.col(D[i]).dot(Minv_G.col(D[j]));
        gk(i) = model.G.col(D[i]).dot(flow.qk[order]);
      }
      const LcpResult<Scalar> lk = solve_lcp<Scalar>(options.lcp_method, WD, gk);
      if (!lk.ok())
        throw StepError(
            fmt::format("event-driven: order-{} contact LCP at t = {} not certified ({}): {}",
                        order, format_scalar(state.t), to_string(lk.status), lk.message));
      const Scalar zero_k = Scalar(decision_margin) * gap_coefficient_tol(order, t_ref);
      const Vector<Scalar> wk = WD * lk.z + gk;
      std::vector<Index> still;
      std::vector<bool> still_fallback;
      for (Index i = 0; i < d; ++i) {
        if (lk.z(i) * WD(i, i) > zero_k) {
          new_closed.push_back(D[i]);
          decided_order[static_cast<std::size_t>(D[i])] = order;
        } else if (wk(i) > zero_k) {
          decided_order[static_cast<std::size_t>(D[i])] = order;
        } else {
          still.push_back(D[i]);
          still_fallback.push_back(fallback_closed[static_cast<std::size_t>(i)]);
        }
      }
      D = std::move(still);
      fallback_closed = std::move(still_fallback);
    }
    for (std::size_t i = 0; i < D.size(); ++i)
      if (fallback_closed[i]) new_closed.push_back(D[i]);
  }
  std::sort(new_closed.begin(), new_closed.end());
  const Scalar E = energy();
  const Vector<Scalar> U_now = model.local_velocity(state.v);
  for (Index a : new_closed)
    if (std::find(before.begin(), before.end(), a) == before.end()) {
      push(events, Event<Scalar>{state.t, EventKind::contact_closes, a, U_now(a), U_now(a),
                                 Scalar(0), E, E});
      acc_touched[static_cast<std::size_t>(a)] = true;
    }
  for (Index a : before)
    if (std::find(new_closed.begin(), new_closed.end(), a) == new_closed.end())
      push(events, Event<Scalar>{state.t, EventKind::contact_opens, a, U_now(a), U_now(a),
                                 Scalar(0), E, E});
  if (new_closed != closed) set_mode(new_closed);
}

}  // namespace nsh
