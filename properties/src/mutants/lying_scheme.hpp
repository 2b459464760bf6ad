#pragma once
// The lying wrapper of the mutants (nsh/properties/mutants.hpp): a healthy scheme stepping the
// model a defect makes of the true one, under the healthy scheme's identity.
#include <nsh/schemes/scheme.hpp>

#include <functional>
#include <memory>
#include <utility>

namespace nsh::properties {

/// The healthy scheme steps `perturb(model)`; info() is the healthy scheme's, and the kit
/// derives the gaps, local velocities and energies of the summary from the true model (this
/// wrapper's own initialize), so that the properties judge the run against the model the
/// mutant was given.
template <class Scalar>
class SeesPerturbedModel : public Scheme<Scalar> {
 public:
  using Perturbation = std::function<LinearModel<Scalar>(const LinearModel<Scalar>&)>;

  SeesPerturbedModel(std::unique_ptr<Scheme<Scalar>> healthy, Perturbation perturb)
      : healthy_(std::move(healthy)), perturb_(std::move(perturb)) {}

  SchemeInfo info() const override { return healthy_->info(); }

 private:
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override {
    seen_ = std::make_unique<LinearModel<Scalar>>(perturb_(model));
    healthy_->initialize(*seen_, initial, h);
  }

  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override {
    healthy_->step(state, summary);
  }

  std::unique_ptr<Scheme<Scalar>> healthy_;
  Perturbation perturb_;
  std::unique_ptr<LinearModel<Scalar>> seen_;  // outlives the healthy scheme's use of it
};

}  // namespace nsh::properties
