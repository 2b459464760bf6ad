#pragma once
// The discrete Lagrange-d'Alembert integrator with the seed's impact step (docs/theory.md §5,
// docs/nonholonomic.md), for a NonholonomicModel with constant mass.
//
// Discrete Lagrangian (midpoint rule) L_d(q0, q1, h) = h L((q0 + q1)/2, (q1 - q0)/h); with the
// segment velocity w = (q1 - q0)/h and midpoint m = (q0 + q1)/2,
//   D1 L_d = -M w - h/2 grad V(m),   D2 L_d = M w - h/2 grad V(m),
//   -D3 L_d = E_d(q0, q1, h) = 1/2 w^T M w + V(m)    (the segment's discrete energy).
// Discrete constraint (midpoint): (q0, q1) in D_d iff A(m) w = 0.
//
// Smooth step (no inequality crossed): from the node q_k and the previous segment (velocity w-,
// length h-), find w+ and lambda with
//   D2 L_d(q_{k-1}, q_k, h-) + D1 L_d(q_k, q_{k+1}, h) = A(q_k)^T lambda,   A(m+) w+ = 0.
// Impact step (the trial smooth step leaves the admissible set: some g_j(q_{k+1}) > 0):
//   (5a) q_bar = q_{i-1} + alpha h w_bar with D2 L_d(q_{i-2}, q_{i-1}) + D1 L_d(q_{i-1}, q_bar,
//        alpha h) = A(q_{i-1})^T lambda, A(mid) w_bar = 0, g_j(q_bar) = 0   -> w_bar, lambda,
//        alpha;
//   (5c) D2 L_d(q_{i-1}, q_bar, alpha h) + D1 L_d(q_bar, q_i, (1-alpha) h) = lambda_hat grad
//        g_j(q_bar) + A(q_bar)^T lambda_bar, A(mid) w_i = 0, lambda_hat > 0,
//   (5d) E_d(q_{i-1}, q_bar, alpha h) = E_d(q_bar, q_i, (1-alpha) h)   -> w_i, lambda_hat,
//        lambda_bar; q_i = q_bar + (1-alpha) h w_i, Newton started from the continuous reflection
//        of w_bar at q_bar (the no-impact root w_i = w_bar, lambda_hat = 0, is nearby);
//   (5b) the next step is a smooth step whose previous segment is (w_i, (1-alpha) h).
// The unknowns are segment velocities, not positions, so that alpha -> 0 or 1 stays regular.
//
// Initialization: the continuous v0 as the previous segment velocity with length 0 (the discrete
// Legendre transform p0 = M v0).
//
// Every nonlinear solve is Newton with a central-difference Jacobian, certified by its residual:
// each equation scaled by the size of its terms, the largest scaled residual must be at most
// residual_tolerance (default 4096 epsilons), or the step throws StepError naming the time and the
// residual. An impact step also throws StepError when alpha is not in (0, 1], lambda_hat <= 0
// (Newton found the no-impact root), another inequality is violated at q_bar or q_i (two impacts
// in one step are not handled), or the model's mass is not constant (ModelError "M").

#include <nsh/nonholonomic/nonholonomic_model.hpp>

#include <optional>
#include <vector>

namespace nsh {

namespace detail {
/// Where the integrator evaluates the terms of (5a)-(5d) whose point the method fixes. The
/// defaults are the method's; the fields are a seam for instruments only, such as the mutants
/// of properties/src/mutants/dla.cpp that show the checks of docs/nonholonomic.md are sharp.
struct DlaEvaluation {
  /// The discrete constraint A(m) w = 0 at the segment's midpoint m; false: at its first node.
  bool constraint_at_midpoint{true};
  /// alpha of (5a) solves g_j(q_bar) = 0; false: alpha of the linear interpolation of g along
  /// the trial step (q_bar off the boundary by O(h^2)).
  bool impact_point_on_boundary{true};
  /// The impact sub-steps (5c)-(5d) and the next step's (5b) take the lengths alpha h and
  /// (1 - alpha) h; false: h/2 and h/2, with the segment velocity into q_bar that h/2 implies,
  /// (q_bar - q_{i-1})/(h/2) = 2 alpha w_bar.
  bool substeps_split_at_alpha{true};
  /// The constraint forces of (5c) along the one-forms at q_bar; false: at q_{i-1} (an O(h)
  /// error of the post-impact velocity against the continuous reflection).
  bool impact_forms_at_impact_point{true};
};
}  // namespace detail

template <class Scalar>
struct DlaOptions {
  detail::DlaEvaluation evaluation;  ///< the method's (a seam for instruments)
  /// Largest scaled residual a solve may leave; 0: 4096 epsilons of the scalar.
  Scalar residual_tolerance{0};
  int max_newton_iterations{40};
};

/// One segment (q0 -> q1) of the discrete trajectory: a regular step, or one of the two
/// sub-steps of an impact.
template <class Scalar>
struct DlaSegment {
  Scalar t0{0}, t1{0};
  Vector<Scalar> velocity;  ///< (q1 - q0)/(t1 - t0)
  Scalar energy{0};         ///< E_d = 1/2 w^T M w + V(midpoint)
  Scalar constraint{0};     ///< |A(midpoint) w|, the discrete constraint's residual
  bool substep{false};      ///< alpha h or (1 - alpha) h of an impact
};

template <class Scalar>
struct DlaImpact {
  Index step{0};        ///< the impact happens in step k: from t_k to t_{k+1}
  Index inequality{0};  ///< j with g_j(q_bar) = 0
  Scalar alpha{0};      ///< q_bar at t_k + alpha h
  Scalar t{0};          ///< t_k + alpha h
  Vector<Scalar> q_bar;
  Scalar g_bar{0};                      ///< g_j(q_bar) (0 up to the certified residual)
  Scalar lambda_hat{0};                 ///< > 0
  Vector<Scalar> u_before;              ///< reduced velocity of the segment q_{i-1} -> q_bar
  Vector<Scalar> u_after;               ///< reduced velocity of the segment q_bar -> q_i
  Scalar residual_a{0}, residual_c{0};  ///< certified scaled residuals of (5a), (5c)+(5d)
};

/// The state between steps: the node and the previous segment.
template <class Scalar>
struct DlaState {
  Scalar t{0};
  Vector<Scalar> q;
  Vector<Scalar> previous_velocity;  ///< velocity of the last segment (v0 at the start)
  Scalar previous_length{0};         ///< its duration (0 at the start)
};

template <class Scalar>
struct DlaTrajectory {
  std::vector<Scalar> t;
  std::vector<Vector<Scalar>> q;  ///< the nodes q_k at t_k = t0 + k h
  std::vector<DlaSegment<Scalar>> segments;
  std::vector<DlaImpact<Scalar>> impacts;
  Scalar max_residual{0};  ///< the largest certified scaled residual of any solve
};

template <class Scalar>
class DiscreteLagrangeDAlembert {
  static_assert(has_transcendentals_v<Scalar>, "the DLA integrator runs in double and Real50");

 public:
  /// ModelError "M" unless the model's mass is constant.
  explicit DiscreteLagrangeDAlembert(const NonholonomicModel<Scalar>& model,
                                     DlaOptions<Scalar> options = {});

  /// The state before the first step: validates the model at `initial`.
  DlaState<Scalar> start(const State<Scalar>& initial) const;
  /// One step of length h from `state` (smooth or with an impact); appends its segments and its
  /// impact (if any) to `trajectory` and advances `state`.
  void step(DlaState<Scalar>& state, const Scalar& h, DlaTrajectory<Scalar>& trajectory) const;

 private:
  const NonholonomicModel<Scalar>& model_;
  DlaOptions<Scalar> options_;
  Matrix<Scalar> M_;
};

/// Steps of h from initial.t: t_k = t0 + k h for k = 0, 1, ... while t_k < T - h/2 (so T itself
/// when (T - t0)/h is an integer).
template <class Scalar>
DlaTrajectory<Scalar> run_dla(const NonholonomicModel<Scalar>& model, const State<Scalar>& initial,
                              const Scalar& h, const Scalar& T,
                              const DlaOptions<Scalar>& options = {});

// Instantiated once, in the library (core/src); other files only link them.
extern template class DiscreteLagrangeDAlembert<double>;
extern template class DiscreteLagrangeDAlembert<Real50>;

}  // namespace nsh
