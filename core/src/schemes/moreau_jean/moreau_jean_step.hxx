// One Moreau–Jean step (nsh/schemes/moreau_jean.hpp, docs/theory.md §2.1–2.3), written once for the
// dense MoreauJean and the SparseMoreauJean: the model's matrices may be dense or sparse (every
// product below is an Eigen product of either kind), and `solve(b, x)` applies M^-1 =
// (M + h theta C + h^2 theta^2 K)^-1 with whatever factorization the scheme keeps.
#pragma once

#include <nsh/detail/moreau_jean_workspace.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/impulse_step.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/model/linear_model.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/scalar.hpp>
#include <nsh/schemes/moreau_jean.hpp>
#include <nsh/schemes/scheme.hpp>
#include <nsh/step_summary.hpp>

#include <fmt/format.h>

#include <cmath>
#include <type_traits>

namespace nsh::detail {

/// y = A x, where a sparse A without stored entries (an undamped model's C) costs a fill of
/// zeros instead of a sweep of its n columns: Eigen's sparse product also starts from a zero
/// vector, so the bits are the same.
template <class Matrix, class Scalar>
void product_into(const Matrix& A, const Vector<Scalar>& x, Vector<Scalar>& y) {
  if constexpr (std::is_base_of_v<Eigen::SparseMatrixBase<Matrix>, Matrix>)
    if (A.nonZeros() == 0) {
      y.setZero();
      return;
    }
  y.noalias() = A * x;
}

template <class Scalar>
struct MoreauJeanParameters {
  const char* scheme;  ///< for messages: "moreau-jean", "sparse moreau-jean"
  Scalar theta;
  Scalar h;
  MoreauJeanActivation activation;
  LcpMethod lcp_method;
  const LcpOptions<Scalar>& lcp_options;
  const Matrix<Scalar>& minv_g;    ///< M^-1 G, n x m
  const Matrix<Scalar>& delassus;  ///< G^T M^-1 G, m x m
};

/// (1 - theta) F(t_k) + theta F(t_{k+1}) into `force_theta` (F constant plus the harmonic part
/// F_amplitude sin(omega t), which Rational cannot evaluate: its schemes refuse it earlier).
template <class Scalar, class Model>
void theta_weighted_force(const Model& model, const Scalar& theta, const Scalar& h,
                          const Scalar& t_k, bool harmonic, Vector<Scalar>& force_theta) {
  force_theta = model.F;
  if (!harmonic) return;
  if constexpr (is_exact_v<Scalar>) {
    (void)model.force(t_k);  // throws the one InputError for a harmonic force in Rational
  } else {
    using std::sin;
    const Scalar weight = (Scalar(1) - theta) * Scalar(sin(model.omega * t_k)) +
                          theta * Scalar(sin(model.omega * (t_k + h)));
    force_theta += weight * model.F_amplitude;
  }
}

/// The index set of a step from work.gap_k and work.velocity_k (gamma_p = 1/2): contact a is
/// active when g_k + h/2 U_k <= gap_zero (and, for position-velocity, U_k <= velocity_zero).
/// Shared by the linear and the nonlinear step.
template <class Scalar>
void moreau_jean_index_set(MoreauJeanActivation activation, const Scalar& h, const Scalar& gap_zero,
                           const Scalar& velocity_zero, Index m,
                           MoreauJeanWorkspace<Scalar>& work) {
  const Scalar half(Scalar(1) / 2);
  work.active.clear();
  for (Index a = 0; a < m; ++a) {
    const bool position = work.gap_k(a) + half * h * work.velocity_k(a) <= gap_zero;
    const bool velocity =
        activation == MoreauJeanActivation::position || work.velocity_k(a) <= velocity_zero;
    if (position && velocity) work.active.push_back(a);
  }
}

/// The part of a step before the impulse: gaps and U_k, the free velocity
/// v_free = v_k + M^-1[-h C v_k - h K q_k - h^2 theta K v_k + h F_{k+theta}] and the index set
/// into work.active. Shared by the frictionless and the frictional step.
template <class Scalar, class SquareMatrix, class GradientMatrix, class Solve>
void moreau_jean_free_motion(const Scalar& theta, const Scalar& h, MoreauJeanActivation activation,
                             const SquareMatrix& C, const SquareMatrix& K, const GradientMatrix& G,
                             const Vector<Scalar>& w, Solve&& solve,
                             MoreauJeanWorkspace<Scalar>& work, const State<Scalar>& state) {
  const Index m = G.cols();
  const Scalar half(Scalar(1) / 2);
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& v = state.v;
  const auto Gt = G.transpose();

  work.gap_k.noalias() = Gt * q;
  work.gap_k += w;
  work.velocity_k.noalias() = Gt * v;

  // Free velocity: v_free = v_k + M^{-1}[-h C v_k - h K q_k - h^2 theta K v_k + h F_{k+theta}].
  // q_k + h theta v_k (so that K enters once), in the pass that also takes |q_k| and |v_k| for
  // the zero tests below: the operations of `work_n = q; work_n += (h theta) v`, one sweep
  // instead of three.
  const Scalar htheta = h * theta;
  Scalar q_max(0), v_max(0);
  for (Index i = 0; i < q.size(); ++i) {
    work.work_n(i) = q(i) + htheta * v(i);
    const Scalar q_abs = abs_value<Scalar>(q(i)), v_abs = abs_value<Scalar>(v(i));
    q_max = q_abs > q_max ? q_abs : q_max;  // max_abs's rule (NaN entries are skipped)
    v_max = v_abs > v_max ? v_abs : v_max;
  }
  if (!work.damped) {
    product_into(C, v, work.rhs);
  } else {
    if (!work.damping_velocity_known) product_into(C, v, work.damping_velocity);
    work.rhs = work.damping_velocity;
  }
  work.rhs.noalias() += K * work.work_n;
  work.rhs -= work.force_theta;
  work.rhs *= -h;
  solve(work.rhs, work.v_free);
  work.v_free += v;

  // Index set from the state at t_k (gamma_p = 1/2). "<= 0" is read to the round-off of the
  // quantities tested: a contact held at the wall by the previous step's LCP has U_k = 0 and
  // (at theta = 1) g_k = 0 only to the LCP's round-off, and reading the sign of that round-off
  // dropped the contact for a step at random (the bar with consistent mass at h = 0.005 and
  // theta = 1: 38 of 380 held steps without impulse, and two correct factorizations 0.08
  // apart in q). The zero tests are 64 eps times the scale of G^T q + w and G^T v; in Rational
  // they are exactly zero, so the rule is the exact one there.
  const Scalar gradient_scale = max_abs(G);
  const Scalar velocity_zero = tolerance<Scalar>(gradient_scale * v_max);
  const Scalar gap_zero =
      tolerance<Scalar>(gradient_scale * q_max + max_abs(w)) + half * h * velocity_zero;
  moreau_jean_index_set(activation, h, gap_zero, velocity_zero, m, work);
}

/// The end of a step: v_{k+theta}, q_{k+1} = q_k + h v_{k+theta}, the jumps and the ledger of
/// docs/theory.md §2.2 with the normal contact work U_{k+theta}^T P (the frictional step adds
/// the tangential term); the numerical dissipation is moreau_jean_numerical_dissipation's, after
/// the kit's energies. work.v_next must hold v_{k+1}.
template <class Scalar, class SquareMatrix, class GradientMatrix>
void moreau_jean_ledger(const Scalar& theta, const Scalar& h, const SquareMatrix& C,
                        const GradientMatrix& G, const Vector<Scalar>& impulse,
                        MoreauJeanWorkspace<Scalar>& work, const State<Scalar>& state,
                        StepSummary<Scalar>& summary) {
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& v = state.v;
  const auto Gt = G.transpose();
  // q_{k+1} = q_k + h v_{k+theta}.
  work.v_theta = (Scalar(1) - theta) * v;
  work.v_theta += theta * work.v_next;
  work.q_next = q;
  work.q_next += h * work.v_theta;

  summary.external_impulse = h * work.force_theta;

  // Energy ledger (docs/theory.md §2.2; E_before and E_after are derived by the scheme kit).
  summary.W_ext = h * work.v_theta.dot(work.force_theta);
  if (!work.damped) {
    product_into(C, work.v_theta, work.work_n);  // zeros: an empty sparse C costs a fill
  } else {
    // C v_{k+theta} = (1 - theta) C v_k + theta C v_{k+1}: C v_{k+1} is the next step's C v_k
    // (moreau_jean_finish_damping), so the ledger adds no product with C. Rounds at
    // |C| |v|, like the product of the combination (docs/decisions.md).
    product_into(C, work.v_next, work.damping_velocity_next);
    work.work_n = (Scalar(1) - theta) * work.damping_velocity;
    work.work_n += theta * work.damping_velocity_next;
  }
  summary.W_damp = -h * work.v_theta.dot(work.work_n);
  work.velocity_theta.noalias() = Gt * work.v_theta;
  summary.W_contact = work.velocity_theta.dot(impulse);
  summary.has_algorithmic_energy = false;
}

/// At the end of a step of a damped model: C v_{k+1} becomes the next step's C v_k.
template <class Scalar>
void moreau_jean_finish_damping(MoreauJeanWorkspace<Scalar>& work) {
  if (work.damped) work.damping_velocity.swap(work.damping_velocity_next);
}

/// D = (theta - 1/2)(||v_{k+1} - v_k||_M^2 + ||q_{k+1} - q_k||_K^2) (docs/theory.md §2.2) from
/// the kit's products of the energies (Scheme::do_complete_ledger): [v]^T (M v_{k+1} - M v_k) +
/// [q]^T (K q_{k+1} - K q_k), one O(n) pass where M [v] and K [q] were two more products with M
/// and K every step (a third of the ledger's cost on the sparse bar). The difference of the
/// products rounds at the scale of |M| |v| |[v]|, the scale E itself rounds at (docs/decisions.md,
/// "The Moreau–Jean ledger reuses the kit's products").
template <class Scalar>
Scalar moreau_jean_numerical_dissipation(const Scalar& theta, const EnergyProducts<Scalar>& p) {
  const Scalar half(Scalar(1) / 2);
  // The midpoint rule dissipates nothing: D's factor is zero, and the jump (finite: the kit
  // stops a run whose state is not) is not needed.
  if (theta == half) return Scalar(0);
  const Scalar jump =
      (p.after.v - p.before.v).dot(p.mass_velocity_after - p.mass_velocity_before) +
      (p.after.q - p.before.q).dot(p.stiffness_position_after - p.stiffness_position_before);
  return (theta - half) * jump;
}

/// Advance `state` by h and fill `summary`. `G` is the contact gradient in the form whose
/// products are cheapest (the dense G, or its sparse copy); work.force_theta must hold the
/// theta-weighted force of this step.
template <class Scalar, class SquareMatrix, class GradientMatrix, class Solve>
void moreau_jean_step(const MoreauJeanParameters<Scalar>& p, const SquareMatrix& C,
                      const SquareMatrix& K, const GradientMatrix& G, const Vector<Scalar>& w,
                      const Vector<Scalar>& e, Solve&& solve, MoreauJeanWorkspace<Scalar>& work,
                      State<Scalar>& state, StepSummary<Scalar>& summary) {
  const Scalar& h = p.h;
  const Scalar& theta = p.theta;
  moreau_jean_free_motion(theta, h, p.activation, C, K, G, w, solve, work, state);

  impulse_step<Scalar>({p.scheme, p.lcp_method}, p.lcp_options, work.active, p.delassus, p.minv_g,
                       G, e, work.v_free, work.velocity_k, state.t, work.impulse_step, work.v_next,
                       summary);
  const Vector<Scalar>& impulse = work.impulse_step.impulse;

  moreau_jean_ledger(theta, h, C, G, impulse, work, state, summary);

  // Swaps, not copies: the next step overwrites q_next and v_next before reading them.
  moreau_jean_finish_damping(work);
  state.q.swap(work.q_next);
  state.v.swap(work.v_next);
  state.t = state.t + h;
}

}  // namespace nsh::detail
