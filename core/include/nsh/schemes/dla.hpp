#pragma once
// The discrete Lagrange-d'Alembert integrator (nsh/nonholonomic/discrete_lagrange_dalembert.hpp,
// docs/nonholonomic.md) as a scheme of the kit: `dla`.
//
// It steps nonlinear models (NonlinearModel) with a constant mass, elastic contacts (every
// e = 1: the impact step (5c)-(5d) keeps the segment energy) and no friction or work-doing force
// (f_ext = 0 at the initial state): above all the nonholonomic models through
// NonholonomicModelAdapter (r > 0), but equally a holonomic model with r = 0. Every other model
// is refused by initialize with a ModelError naming the field (M, e[j], f_ext) and "dla"; a
// LinearModel or a sparse one with a ModelError naming "model" (step its nonlinear view,
// LinearModelAdapter, to run the DLA on it).
//
// The kit's state (t_k, q_k, v_k) carries v_k = the velocity of the last segment into q_k (the
// DLA's discrete Legendre transform p_k = M v_k for V = 0), so that the kit's E_after is that
// segment's kinetic energy. The scheme keeps the segment's length: a step from the state it
// produced continues the discrete trajectory; a step from any other state starts afresh from
// (q, v) as from an initial state (previous segment of length 0). An impact step records
// index_set = {j} and impulse[j] = lambda_hat (the multiplier of grad g_j, i.e. of W_N
// column j with the sign of nsh's contact impulses); last_step() gives the step's segments and
// impact, with their certified residuals, to the properties of docs/nonholonomic.md.
// Double and Real50 (the DLA's solves are Newton iterations on trigonometric models).

#include <nsh/nonholonomic/discrete_lagrange_dalembert.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/scheme.hpp>

#include <memory>

namespace nsh {

template <class Scalar>
class DlaScheme final : public Scheme<Scalar> {
 public:
  explicit DlaScheme(const SchemeSpec& spec);
  /// A seam for instruments (the mutants of properties/src/mutants/dla.cpp): the integrator
  /// with other evaluation points, named `label` in its refusals; info() stays dla's.
  DlaScheme(const SchemeSpec& spec, const detail::DlaEvaluation& evaluation, std::string label);
  SchemeInfo info() const override;
  bool accepts_nonlinear() const override { return true; }
  /// The segments and the impact (if any) of the last step.
  const DlaTrajectory<Scalar>& last_step() const { return last_; }
  /// The nonholonomic model being stepped (null before initialize).
  const NonholonomicModel<Scalar>* nonholonomic_model() const { return model_; }

 private:
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_initialize(const SparseLinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_initialize(const NonlinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override;

  std::string label_{"dla"};
  DlaOptions<Scalar> options_;
  std::unique_ptr<NonholonomicModel<Scalar>> view_;
  const NonholonomicModel<Scalar>* model_{nullptr};
  std::unique_ptr<DiscreteLagrangeDAlembert<Scalar>> stepper_;
  DlaState<Scalar> state_;
  bool has_state_{false};
  Index contacts_{0};
  DlaTrajectory<Scalar> last_;
};

extern template class DlaScheme<double>;
extern template class DlaScheme<Real50>;

}  // namespace nsh
