// Body of the Moreau–Jean theta-scheme (declaration and equations in
// nsh/schemes/moreau_jean.hpp). Included by moreau_jean.cpp (double), moreau_jean_real50.cpp
// and moreau_jean_rational.cpp, so that each scalar compiles in its own translation unit.
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>
#include <nsh/schemes/moreau_jean.hpp>

#include "moreau_jean_friction_step.hxx"
#include "moreau_jean_nonlinear_step.hxx"
#include "moreau_jean_step.hxx"

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace nsh {
namespace moreau_jean::detail {

/// The friction solver a step uses on a model with d tangent directions: the option, or lemke
/// for d = 1 (exact in Rational) and alart-curnier for d = 2; lemke is refused for d = 2.
inline FrictionMethod resolve_friction_method(const std::optional<FrictionMethod>& option,
                                              Index d) {
  const FrictionMethod method =
      option.value_or(d == 1 ? FrictionMethod::lemke : FrictionMethod::alart_curnier);
  if (d == 2 && method == FrictionMethod::lemke)
    throw SpecError("moreau-jean:friction",
                    "lemke solves the planar (d = 1) friction problem only; the model has d = 2 "
                    "tangent directions: use alart-curnier or pgs");
  return method;
}

}  // namespace moreau_jean::detail

template <class Scalar>
MoreauJean<Scalar>::MoreauJean(const SchemeSpec& spec)
    : options_(parse_options<MoreauJeanOptions>(spec)),
      theta_(round_exact<Scalar>(options_.theta, spec.name() + ":theta")) {
  if constexpr (is_exact_v<Scalar>) {
    require_exact_friction_method(spec.name(), options_.friction);
    require_exact_lcp_method(spec.name(), options_.lcp);
  }
}

template <class Scalar>
SchemeInfo MoreauJean<Scalar>::info() const {
  SchemeInfo info;
  info.family = "moreau-jean";
  info.spec = canonical_spec("moreau-jean", options_);
  info.parameters = option_values(options_);
  info.smooth_order = options_.theta == Rational(1) / 2 ? 2 : 1;
  info.impulse_lcp = true;
  info.algorithmic_energy = false;
  info.momentum_conserving = true;
  info.friction = true;
  if (!options_.friction) info.parameters["friction"] = "lemke (d = 1), alart-curnier (d = 2)";
  return info;
}

template <class Scalar>
void MoreauJean<Scalar>::do_initialize(const LinearModel<Scalar>& model,
                                       const State<Scalar>& initial, const Scalar& h) {
  const Index n = model.dofs(), m = model.contacts();
  if (initial.q.size() != n || initial.v.size() != n)
    throw InputError("q0", fmt::format("initial state has {} positions and {} velocities, the "
                                       "model has {} degrees of freedom",
                                       initial.q.size(), initial.v.size(), n));
  model_ = &model;
  nonlinear_model_ = nullptr;
  h_ = h;
  harmonic_ = model.has_harmonic_force();
  if constexpr (is_exact_v<Scalar>) {
    if (harmonic_) (void)model.force(initial.t);  // throws the model's own error
  }

  const Scalar htheta = h * theta_;
  const Matrix<Scalar> iteration = model.M + htheta * model.C + (htheta * htheta) * model.K;
  iteration_lu_.compute(iteration);
  // M^ is SPD for a validated model (M SPD, C and K PSD, theta >= 0), so a zero pivot means
  // the model was not validated or is numerically singular.
  for (Index i = 0; i < n; ++i)
    if (iteration_lu_.matrixLU()(i, i) == Scalar(0))
      throw StepError(
          "moreau-jean: the iteration matrix M + h theta C + h^2 theta^2 K is "
          "singular (pivot " +
          std::to_string(i) + "); validate the model");
  if (m == 0) {  // no triangular solve on an n x 0 right-hand side
    minv_g_.resize(n, 0);
    delassus_.resize(0, 0);
  } else {
    minv_g_ = iteration_lu_.solve(model.G);
    delassus_ = model.G.transpose() * minv_g_;
  }

  work_.size(n, m, (model.C.array() != Scalar(0)).any());

  friction_ = model.has_friction();
  if (friction_) {
    const Index d = model.tangent_directions();
    friction_resolved_ = moreau_jean::detail::resolve_friction_method(options_.friction, d);
    if constexpr (is_exact_v<Scalar>) {
      if (d != 1)
        throw SpecError("precision",
                        "moreau-jean with friction in rational arithmetic steps d = 1 only (the "
                        "spatial cone needs square roots); the model has d = 2: use double or "
                        "--precision 50");
    }
    // H contact-major: [G_N^a, G_T^{a,1}, .., G_T^{a,d}] for each contact a.
    Matrix<Scalar> H(n, m * (1 + d));
    for (Index a = 0; a < m; ++a) {
      H.col(a * (1 + d)) = model.G.col(a);
      for (Index j = 0; j < d; ++j) H.col(a * (1 + d) + 1 + j) = model.G_T.col(a * d + j);
    }
    minv_h_ = iteration_lu_.solve(H);
    delassus_local_ = H.transpose() * minv_h_;
  } else {
    minv_h_.resize(0, 0);
    delassus_local_.resize(0, 0);
  }
}

template <class Scalar>
bool MoreauJean<Scalar>::accepts_nonlinear() const {
  return true;
}

template <class Scalar>
void MoreauJean<Scalar>::do_initialize(const NonlinearModel<Scalar>& model,
                                       const State<Scalar>& initial, const Scalar& h) {
  const Index n = model.dofs(), m = model.contacts();
  if (initial.q.size() != n || initial.v.size() != n)
    throw InputError("q0", fmt::format("initial state has {} positions and {} velocities, the "
                                       "model has {} degrees of freedom",
                                       initial.q.size(), initial.v.size(), n));
  model_ = nullptr;
  nonlinear_model_ = &model;
  h_ = h;
  friction_ = has_friction(model);
  const Index d = friction_ ? model.tangent_directions() : 0;
  if (friction_)
    friction_resolved_ = moreau_jean::detail::resolve_friction_method(options_.friction, d);
  nonlinear_work_.size(n, m, d);
  if (model.velocity_constraints() > 0 && friction_)
    throw ModelError("mu",
                     "moreau-jean keeps velocity constraints A(q) v = 0 as bilateral "
                     "rows of the impulse LCP, not of the friction problem: '" +
                         model.name() + "' has both (docs/nonholonomic.md)");
  if constexpr (is_exact_v<Scalar>) {
    if (model.velocity_constraints() > 0)
      throw SpecError("precision",
                      "moreau-jean with velocity constraints (nonholonomic models) steps in "
                      "double and 50 digits: the constraint rows are solved by a fixed-point "
                      "iteration to a tolerance (docs/nonholonomic.md); use --precision 50");
    // Exact steps need the model's own force Jacobians (central differences need a cube
    // root) and, with friction, the planar cone (the spatial one needs square roots).
    // Formula models whose formulas are all rational have both (docs/nonlinear-models.md).
    if (friction_ && d != 1)
      throw SpecError("precision",
                      "moreau-jean with friction in rational arithmetic steps d = 1 only (the "
                      "spatial cone needs square roots); the model has d = 2: use double or "
                      "--precision 50");
    if (!model.force_jacobians(initial.t, initial.q, initial.v, nonlinear_work_.stiffness,
                               nonlinear_work_.damping))
      throw SpecError("precision",
                      "moreau-jean steps the nonlinear model " + model.name() +
                          " in rational arithmetic only with the model's own force Jacobians "
                          "(central differences need a cube root); use double or "
                          "--precision 50");
  }
}

template <class Scalar>
void MoreauJean<Scalar>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  if (nonlinear_model_) {
    const detail::MoreauJeanNonlinearParameters<Scalar> parameters{
        "moreau-jean", theta_,       h_,        options_.activation,
        options_.lcp,  lcp_options_, friction_, friction_resolved_};
    detail::moreau_jean_nonlinear_step(parameters, *nonlinear_model_, nonlinear_work_, state,
                                       summary);
    return;
  }
  const LinearModel<Scalar>& model = *model_;
  work_.damping_velocity_known = work_.damped && this->continues_last_step();
  detail::theta_weighted_force(model, theta_, h_, state.t, harmonic_, work_.force_theta);
  if (friction_) {
    const detail::MoreauJeanFrictionParameters<Scalar> parameters{
        "moreau-jean",      theta_,       h_,      options_.activation,
        friction_resolved_, options_.lcp, minv_h_, delassus_local_};
    detail::moreau_jean_friction_step(
        parameters, model,
        [this](const Vector<Scalar>& b, Vector<Scalar>& x) { x = iteration_lu_.solve(b); }, work_,
        state, summary);
    return;
  }
  const detail::MoreauJeanParameters<Scalar> parameters{
      "moreau-jean", theta_,       h_,      options_.activation,
      options_.lcp,  lcp_options_, minv_g_, delassus_};
  detail::moreau_jean_step(
      parameters, model.C, model.K, model.G, model.w, model.e,
      [this](const Vector<Scalar>& b, Vector<Scalar>& x) { x = iteration_lu_.solve(b); }, work_,
      state, summary);
}

template <class Scalar>
void MoreauJean<Scalar>::do_complete_ledger(const EnergyProducts<Scalar>& products,
                                            StepSummary<Scalar>& summary) {
  summary.numerical_dissipation = detail::moreau_jean_numerical_dissipation(theta_, products);
}

}  // namespace nsh
