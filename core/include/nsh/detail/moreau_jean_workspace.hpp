#pragma once
// The buffers of one Moreau–Jean step (nsh/schemes/moreau_jean.hpp), shared by the dense
// MoreauJean and the SparseMoreauJean: sized once by size(), so that a double step with lemke
// or pgs allocates nothing. The step itself is core/src/schemes/moreau_jean/moreau_jean_step.hxx.

#include <nsh/impulse_step.hpp>
#include <nsh/scalar.hpp>

#include <vector>

namespace nsh::detail {

template <class Scalar>
struct MoreauJeanWorkspace {
  Vector<Scalar> force_theta;  ///< (1 - theta) F(t_k) + theta F(t_{k+1}), filled by the scheme
  Vector<Scalar> rhs, v_free, v_next, q_next, v_theta, dv, dq, work_n;  // n
  Vector<Scalar> gap_k, velocity_k, velocity_theta;                     // m
  ImpulseStepWorkspace<Scalar> impulse_step;  ///< the impulse LCP's buffers and the impulse
  std::vector<Index> active;                  ///< the index set of the step

  /// A damped model's C v_k and C v_{k+1} (n; empty when undamped): the ledger's W_damp takes
  /// C v_{k+theta} as their theta-combination, and the next step's free motion starts from
  /// C v_{k+1} when the kit says its state is the one this step produced
  /// (Scheme::continues_last_step), so one product with C per step instead of two.
  bool damped{false};
  bool damping_velocity_known{false};  ///< set by the scheme before each step
  Vector<Scalar> damping_velocity, damping_velocity_next;

  void size(Index n, Index m, bool damped_model = false) {
    for (Vector<Scalar>* v :
         {&force_theta, &rhs, &v_free, &v_next, &q_next, &v_theta, &dv, &dq, &work_n})
      v->setZero(n);
    damped = damped_model;
    damping_velocity_known = false;
    for (Vector<Scalar>* v : {&damping_velocity, &damping_velocity_next})
      v->setZero(damped ? n : 0);
    for (Vector<Scalar>* v : {&gap_k, &velocity_k, &velocity_theta}) v->setZero(m);
    active.clear();
    active.reserve(static_cast<std::size_t>(m));
    impulse_step.size(m);
  }
};

}  // namespace nsh::detail
