// Body of the sparse Moreau–Jean theta-scheme (declaration and equations in
// nsh/schemes/sparse_moreau_jean.hpp). Included by sparse_moreau_jean.cpp (double) and
// sparse_moreau_jean_real50.cpp, one scalar per translation unit.
#pragma once

#include <nsh/detail/sparse_shapes.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>
#include <nsh/schemes/sparse_moreau_jean.hpp>

#include "moreau_jean_step.hxx"

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace nsh {

template <class Scalar>
SparseMoreauJean<Scalar>::SparseMoreauJean(const SparseMoreauJeanOptions<Scalar>& options)
    : theta_(options.theta),
      activation_(options.activation),
      lcp_method_(options.lcp_method),
      lcp_options_(options.lcp_options) {
  if (!is_finite(theta_) || theta_ < Scalar(0) || theta_ > Scalar(1))
    throw InputError("theta", "value " + format_scalar(theta_) +
                                  " is out of range; accepted: a number in [0, 1]");
  info_ =
      MoreauJean<Scalar>(
          SchemeSpec::parse(std::string("moreau-jean:activation=") + to_string(activation_) +
                            ",lcp=" + to_string(lcp_method_) + ",theta=" + format_scalar(theta_)))
          .info();
}

template <class Scalar>
SparseMoreauJean<Scalar>::SparseMoreauJean(const SchemeSpec& spec) {
  // The dense scheme's constructor is the one parser of these options.
  const MoreauJean<Scalar> parsed(spec);
  theta_ = parsed.theta();
  activation_ = parsed.activation();
  lcp_method_ = parsed.lcp_method();
  info_ = parsed.info();  // the same scheme, so the same spec and claims
}

template <class Scalar>
void SparseMoreauJean<Scalar>::do_initialize(const LinearModel<Scalar>& model,
                                             const State<Scalar>& initial, const Scalar& h) {
  owned_ = to_sparse(model);
  do_initialize(owned_, initial, h);
}

template <class Scalar>
void SparseMoreauJean<Scalar>::do_initialize(const SparseLinearModel<Scalar>& model,
                                             const State<Scalar>& initial, const Scalar& h) {
  const Index n = model.dofs(), m = model.contacts();
  detail::check_sparse_shapes(model, initial);
  model_ = &model;
  h_ = h;
  harmonic_ = model.has_harmonic_force();
  symmetric_ =
      exactly_symmetric(model.M) && exactly_symmetric(model.C) && exactly_symmetric(model.K);

  const Scalar htheta = h * theta_;
  SparseMatrix<Scalar> iteration = model.M;
  if (htheta != Scalar(0)) {
    iteration += htheta * model.C;
    iteration += (htheta * htheta) * model.K;
  }
  // M^ is SPD for a valid model (M SPD, C and K PSD, theta >= 0): every pivot is positive.
  const Index bad = ldlt_.compute(iteration);
  if (bad == -2)
    throw StepError(
        "sparse moreau-jean: the LDL^T factorization of M + h theta C + h^2 theta^2 K "
        "failed; validate the model");
  if (bad >= 0)
    throw StepError(fmt::format(
        "sparse moreau-jean: the iteration matrix M + h theta C + h^2 theta^2 K has pivot {} = "
        "{}, it is not positive definite; validate the model",
        bad, format_scalar(Scalar(ldlt_.pivots()(bad)))));

  g_sparse_ = sparse_of(model.G);
  g_sparse_.makeCompressed();
  if (m == 0) {  // no triangular solve on an n x 0 right-hand side
    minv_g_.resize(n, 0);
    delassus_.resize(0, 0);
  } else {
    minv_g_ = ldlt_.solve(model.G);
    delassus_ = model.G.transpose() * minv_g_;
  }

  work_.size(n, m, model.C.nonZeros() > 0);
}

template <class Scalar>
void SparseMoreauJean<Scalar>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  const SparseLinearModel<Scalar>& model = *model_;
  const Index n = model.dofs();
  if (state.q.size() != n)
    throw InputError("q", fmt::format("state has {} positions, the model has {} degrees of "
                                      "freedom",
                                      state.q.size(), n));
  if (state.v.size() != n)
    throw InputError("v", fmt::format("state has {} velocities, the model has {} degrees of "
                                      "freedom",
                                      state.v.size(), n));
  work_.damping_velocity_known = work_.damped && this->continues_last_step();
  detail::theta_weighted_force(model, theta_, h_, state.t, harmonic_, work_.force_theta);
  const detail::MoreauJeanParameters<Scalar> parameters{
      "sparse moreau-jean", theta_, h_, activation_, lcp_method_, lcp_options_, minv_g_, delassus_};
  const auto solve = [this](const Vector<Scalar>& b, Vector<Scalar>& x) { ldlt_.solve(b, x); };
  if (symmetric_)
    detail::moreau_jean_step(parameters, model.C.transpose(), model.K.transpose(), g_sparse_,
                             model.w, model.e, solve, work_, state, summary);
  else
    detail::moreau_jean_step(parameters, model.C, model.K, g_sparse_, model.w, model.e, solve,
                             work_, state, summary);
}

template <class Scalar>
void SparseMoreauJean<Scalar>::do_complete_ledger(const EnergyProducts<Scalar>& products,
                                                  StepSummary<Scalar>& summary) {
  summary.numerical_dissipation = detail::moreau_jean_numerical_dissipation(theta_, products);
}

}  // namespace nsh
