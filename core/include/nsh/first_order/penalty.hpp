#pragma once
// First-order penalty regularization of the sweeping process on a polyhedral C = {g(x) >= 0},
// g(x) = b_C - A_C x (docs/theory.md §6 item 4, seed 004's penalty line):
//
//   x' = f(t, x) + kappa sum_i max(0, -g_i(x)) grad g_i,   grad g_i = -a_i.
//
// explicit (Euler):   x_{k+1} = x_k + h [f(t_k, x_k) + kappa sum_i max(0, -g_i(x_k)) grad g_i]
// implicit (backward Euler):
//                     x_{k+1} = x_k + h [f(t_{k+1}, x_{k+1}) + kappa sum_i max(0, -g_i(x_{k+1}))
//                     grad g_i],
// a piecewise-linear equation solved exactly by an active-set iteration on the set
// {i : g_i(x_{k+1}) < 0} (then by enumerating the active sets if it cycles); the step is
// accepted only if the residual of the equation is within tolerance (zero in Rational).
//
// On the penalty line (y' = -1 + kappa max(0, -y), y0 = 0) explicit Euler gives y1 = -h and
// y2 = kappa h^2 - 2h: it stays in [-max(h, 1/kappa), 0] iff h kappa <= 2; implicit stays in
// [-1/kappa, 0] for every h.
// Spec: "penalty:kappa=K,method=explicit|implicit" (kappa > 0). Exact in Rational.

#include <nsh/first_order/scheme.hpp>
#include <nsh/scheme_options.hpp>

namespace nsh {

/// The options of FirstOrderPenalty, declared once (nsh/scheme_options.hpp); kappa is a number
/// in Scalar and keeps the text it was written with in the canonical spec.
template <class Scalar>
struct FirstOrderPenaltyOptions {
  Scalar kappa{0};
  TimeStepping method{};  ///< explicit or backward Euler

  template <class V>
  void visit(V& v) {
    v("kappa", kappa, "1000", "penalty stiffness, > 0", as_written(above(0, "kappa > 0")));
    v("method", method, "explicit", "time stepping",
      one_of(TimeStepping::explicit_method, TimeStepping::implicit_method));
  }
};

template <class Scalar>
class FirstOrderPenalty final : public FirstOrderScheme<Scalar> {
 public:
  explicit FirstOrderPenalty(const SchemeSpec& spec);
  FirstOrderSchemeInfo info() const override;
  void initialize(const SweepingProcess<Scalar>& model, const FirstOrderState<Scalar>& initial,
                  const Scalar& h) override;
  void step(FirstOrderState<Scalar>& state, FirstOrderStepSummary<Scalar>& summary) override;

  const Scalar& kappa() const { return options_.kappa; }
  bool implicit() const { return options_.method == TimeStepping::implicit_method; }
  /// kappa sum_i max(0, -g_i(x)) grad g_i.
  Vector<Scalar> penalty_force(const Vector<Scalar>& x) const;

 private:
  SchemeSpec spec_;  // as written, for the canonical text of kappa
  FirstOrderPenaltyOptions<Scalar> options_;
  const SweepingProcess<Scalar>* model_{nullptr};
  Scalar h_{0};
  LinearInequalities<Scalar> constraints_;  // A_C x <= b_C
};

// Instantiated once, in the library (core/src); other files only link them.
extern template class FirstOrderPenalty<double>;
extern template class FirstOrderPenalty<Real50>;
extern template class FirstOrderPenalty<Rational>;

}  // namespace nsh
