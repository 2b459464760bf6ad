#pragma once
// Closed-form reference trajectories of the built-in cases that have one over their whole
// horizon, read from the case's own file (so the closed form and the file cannot disagree):
//   free-oscillator, forced-oscillator         Oscillator (oscillator.hpp)
//   bouncing-ball                              BouncingBall (bouncing_ball.hpp)
//   two-body, free-flight, free-flight-elastic, newton-cradle-3, newton-cradle-5
//                                              force-free piecewise-linear motion with the
//                                              impact LCP at each contact time (exact in
//                                              Rational; the cradles give the LCP prediction,
//                                              see cradle.hpp); oblique-impact: the same
//                                              with the Newton-Coulomb impact (friction.hpp)
//   sliding-block, incline-stick, incline-slide, rolling-sphere, rolling-cylinder
//                                              PersistentContact (friction.hpp), exact in
//                                              Rational
//   coulomb-oscillator, bar-on-two-supports     CoulombOscillator (coulomb_oscillator.hpp): a
//                                              spring along rough supports, stick-slip; double
//                                              and Real50
// The state is right-continuous: at an impact time it is the post-impact state.

#include <nsh/model/linear_model.hpp>

#include <functional>
#include <optional>
#include <string>

namespace nsh::cases {

/// A closed form recognised from a model's own data, never from its name (a user's edited copy
/// of "two-body" is its own system): the state at any time t >= initial.t.
template <class Scalar>
using AnalyticFlow = std::function<State<Scalar>(const Scalar&)>;

/// The closed form of `model` from `initial`, recognised by the data, or an empty function:
///   1 dof, no contact, k > 0, underdamped, not at undamped resonance   Oscillator
///   1 dof, 1 contact, K = C = 0, G = [1], w = [0], F < 0, q0 > 0       BouncingBall
///   K = C = 0, F = 0, no harmonic force (any size)                     ballistic_state
///   K = C = 0, constant F, one frictional contact (d = 1) closed at t0   PersistentContact
///   K = k e_j e_j^T, C = 0, constant F, contacts (d = 1) closed at t0
///   sliding along q_j only                                             CoulombOscillator
/// (Rational: the ballistic and persistent-contact forms, the others need sqrt and sin). The model
/// and state are copied into the returned function.
template <class Scalar>
AnalyticFlow<Scalar> analytic_flow(const LinearModel<Scalar>& model, const State<Scalar>& initial);

/// True if `case_name` has a closed form for Scalar (Rational: only the force-free cases).
template <class Scalar>
bool has_analytic(const std::string& case_name);

/// The exact state of `case_name` at time t, or nullopt if the case has no closed form.
template <class Scalar>
std::optional<State<Scalar>> try_analytic_state(const std::string& case_name, const Scalar& t);

/// As try_analytic_state, but throws InputError naming the case if there is no closed form.
template <class Scalar>
State<Scalar> analytic_state(const std::string& case_name, const Scalar& t);

/// Force-free piecewise-linear motion of a model with K = C = 0 and F = 0 from `initial`:
/// straight lines between contact times, the impact LCP of nsh/impact_lcp.hpp at each (the
/// Newton-Coulomb impact of friction.hpp when the model has friction).
/// InputError if the model has forces.
template <class Scalar>
State<Scalar> ballistic_state(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                              const Scalar& t);

}  // namespace nsh::cases
