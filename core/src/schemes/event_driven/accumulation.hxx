// Accumulation of impacts in the event-driven flow (nsh/schemes/event_driven.hpp): after a bounce
// with e < 1 whose free motion pushes the contact back, the remaining flights form a geometric
// series tau / (1 - e), tau = 2 U+ / |g''|; below the time tolerance they are replaced by their
// limit (a Zeno point: the bouncing ball reaches its accumulation time and rests).
#pragma once

#include "contact_modes.hxx"

namespace nsh {

/// The accumulation event's impulse is the net jump -W^-1 U+, not the sum (1+e)/(1-e) W^-1 U+
/// of the bounce impulses: the difference is the smooth force's impulse over the remaining
/// flights, which the step's momentum balance then counts as contact impulse.
/// After a bounce with U+ > 0, e < 1 and the free motion pushing back (g'' < 0), the remaining
/// flights sum to tau / (1 - e), tau = 2 U+ / |g''|. Below the time tolerance, replace them by
/// their limit: U = 0 on those contacts (and on the closed ones), then close the contacts.
template <class Scalar>
void EventDrivenFlow<Scalar>::Impl::accumulation(const ImpactResult<Scalar>& impact,
                                                 std::vector<Event<Scalar>>* events) {
  const Matrix<Scalar>& Minv_G = flow.Minv_G;
  const Scalar u_tol = velocity_tol();
  // The jump replaces flights that last less than ~1000 time tolerances in all: far below
  // anything a grid or an event list resolves, but wide enough that the last bounce is
  // still well outside the velocity tolerance (so the jump is never skipped).
  const Scalar t_tol = Scalar(1024) * time_tol();
  const Vector<Scalar> U = model.local_velocity(state.v);
  const Vector<Scalar> acceleration = flow.constrained(free_acceleration_now(), nullptr);
  std::vector<Index> Z;
  std::vector<Scalar> t_acc;
  for (Index a : impact.index_set) {
    if (!(impact.impulse(a) > Scalar(0)) || !(U(a) > u_tol) || !(model.e(a) < Scalar(1))) continue;
    if (std::find(closed.begin(), closed.end(), a) != closed.end()) continue;
    const Scalar g_dd = model.G.col(a).dot(acceleration);
    if (!(g_dd < Scalar(0))) continue;
    const Scalar tau = Scalar(2) * U(a) / (-g_dd);
    const Scalar total = tau / (Scalar(1) - model.e(a));
    if (total <= t_tol) {
      Z.push_back(a);
      t_acc.push_back(state.t + total);
    }
  }
  if (Z.empty()) return;
  std::vector<Index> S = Z;
  for (Index a : closed)
    if (abs_value<Scalar>(U(a)) <= u_tol) S.push_back(a);
  const Index k = static_cast<Index>(S.size());
  Matrix<Scalar> W(k, k);
  Vector<Scalar> rhs(k);
  for (Index i = 0; i < k; ++i) {
    for (Index j = 0; j < k; ++j) W(i, j) = model.G.col(S[i]).dot(Minv_G.col(S[j]));
    rhs(i) = -U(S[i]);
  }
  const Vector<Scalar> P = Eigen::LDLT<Matrix<Scalar>>(W).solve(rhs);
  const Scalar E0 = energy();
  Vector<Scalar> impulse = Vector<Scalar>::Zero(m);
  for (Index i = 0; i < k; ++i) {
    impulse(S[i]) = P(i);
    state.v += Minv_G.col(S[i]) * P(i);
  }
  const Vector<Scalar> U_after = model.local_velocity(state.v);
  const Scalar E1 = energy();
  for (std::size_t i = 0; i < Z.size(); ++i) {
    const Index a = Z[i];
    push(events,
         Event<Scalar>{t_acc[i], EventKind::accumulation, a, U(a), U_after(a), impulse(a), E0, E1});
    acc_touched[static_cast<std::size_t>(a)] = true;
  }
  acc.impulse += impulse;
  acc_W_impact += (U_after + U).dot(impulse) / Scalar(2);
  // The contacts close at the accumulation point (which is within the time tolerance of t).
  const std::size_t first = events ? events->size() : 0;
  decide_mode(-1, -1, events);
  if (events) {
    const Scalar t_close = *std::max_element(t_acc.begin(), t_acc.end());
    for (std::size_t i = first; i < events->size(); ++i) (*events)[i].t = t_close;
  }
}

}  // namespace nsh
