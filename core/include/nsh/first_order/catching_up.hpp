#pragma once
// The catching-up scheme (projected Euler) for the sweeping process x' in f(t, x) - N_C(x)
// (Moreau, J. Differential Equations 26:347-374, 1977; docs/theory.md §6 item 5, seed 004):
//
//   x_{k+1} = P_C(x_k + h f(t_k, x_k)).
//
// Equivalently (x_{k+1} - x_k)/h - f(t_k, x_k) in -N_C(x_{k+1}). The step completes only if the
// projection provider certifies its answer (the zero-residual certificate: exactly zero in
// Rational) and the nearest point is unique; otherwise it throws StepError with the
// provider's message (a tie lists every nearest point). Order 1: on seed 004's sweeping-interval
// x_k = max(1 - kh, 0) and sup |X_h - x| = s(h - s)/h <= h/4.
// Spec: "catching-up" (no options). Exact in Rational whenever the provider is.

#include <nsh/first_order/scheme.hpp>

namespace nsh {

template <class Scalar>
class CatchingUp final : public FirstOrderScheme<Scalar> {
 public:
  explicit CatchingUp(const SchemeSpec& spec);
  FirstOrderSchemeInfo info() const override;
  void initialize(const SweepingProcess<Scalar>& model, const FirstOrderState<Scalar>& initial,
                  const Scalar& h) override;
  void step(FirstOrderState<Scalar>& state, FirstOrderStepSummary<Scalar>& summary) override;

 private:
  SchemeSpec spec_;
  const SweepingProcess<Scalar>* model_{nullptr};
  Scalar h_{0};
  std::optional<LinearInequalities<Scalar>> inequalities_;
};

// Instantiated once, in the library (core/src); other files only link them.
extern template class CatchingUp<double>;
extern template class CatchingUp<Real50>;
extern template class CatchingUp<Rational>;

}  // namespace nsh
