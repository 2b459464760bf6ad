// Body of the sparse Moreau–Jean theta-scheme (declaration and equations in
// nsh/schemes/sparse_moreau_jean.hpp). Included by sparse_moreau_jean.cpp (double) and
// sparse_moreau_jean_real50.cpp, one scalar per translation unit.
#pragma once

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
  // Eigen does not check shapes in a release build; a mismatch would read out of bounds.
  auto square = [&](const SparseMatrix<Scalar>& A, const char* field) {
    if (A.rows() != n || A.cols() != n)
      throw InputError(field, fmt::format("is {} x {}, expected {} x {} (the size of M)", A.rows(),
                                          A.cols(), n, n));
  };
  if (model.M.cols() != n)
    throw InputError("M", fmt::format("is {} x {}, expected square", n, model.M.cols()));
  square(model.C, "C");
  square(model.K, "K");
  auto sized = [](const Vector<Scalar>& x, Index size, const char* field) {
    if (x.size() != size)
      throw InputError(field, fmt::format("has {} entries, expected {}", x.size(), size));
  };
  sized(model.F, n, "F");
  if (model.F_amplitude.size() != 0) sized(model.F_amplitude, n, "F_amplitude");
  if (model.G.rows() != n)
    throw InputError("G",
                     fmt::format("has {} rows, expected {} (the size of M)", model.G.rows(), n));
  sized(model.w, m, "w");
  sized(model.e, m, "e");
  if (initial.q.size() != n || initial.v.size() != n)
    throw InputError("q0", fmt::format("initial state has {} positions and {} velocities, the "
                                       "model has {} degrees of freedom",
                                       initial.q.size(), initial.v.size(), n));
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
  ldlt_.compute(iteration);
  if (ldlt_.info() != Eigen::Success)
    throw StepError(
        "sparse moreau-jean: the LDL^T factorization of M + h theta C + h^2 theta^2 K "
        "failed; validate the model");
  // M^ is SPD for a valid model (M SPD, C and K PSD, theta >= 0): every pivot is positive.
  const Vector<Scalar>& pivots = ldlt_.vectorD();
  for (Index i = 0; i < n; ++i)
    if (!(pivots(i) > Scalar(0)))
      throw StepError(fmt::format(
          "sparse moreau-jean: the iteration matrix M + h theta C + h^2 theta^2 K has pivot {} = "
          "{}, it is not positive definite; validate the model",
          i, format_scalar(Scalar(pivots(i)))));

  // solve_iteration sweeps L's compressed arrays (matrixL() views the factor by reference) and
  // reads D from pivots_: vectorD() returns a copy, and a step must not allocate.
  if (!ldlt_.matrixL().nestedExpression().isCompressed())
    throw StepError("sparse moreau-jean: the LDL^T factor is not in compressed storage");
  pivots_ = ldlt_.vectorD();

  g_sparse_ = sparse_of(model.G);
  g_sparse_.makeCompressed();
  if (m == 0) {  // no triangular solve on an n x 0 right-hand side
    minv_g_.resize(n, 0);
    delassus_.resize(0, 0);
  } else {
    minv_g_ = ldlt_.solve(model.G);
    delassus_ = model.G.transpose() * minv_g_;
  }

  work_.size(n, m);
  permuted_.setZero(n);
}

template <class Scalar>
void SparseMoreauJean<Scalar>::solve_iteration(const Vector<Scalar>& b, Vector<Scalar>& x) {
  // What SimplicialLDLT::_solve_impl does, with the two permutations out of place.
  if (ldlt_.permutationP().size() > 0)
    permuted_.noalias() = ldlt_.permutationP() * b;
  else
    permuted_ = b;
  // L y = P b, then L^T x = D^-1 y with the division folded into the backward sweep: the
  // operations of Eigen's sparse triangular solves (TriangularSolver.h: the zero test, the
  // order of the updates) on the compressed arrays, so the same bits, without its iterator
  // overhead on a recurrence that is latency-bound (a tridiagonal L at 10^3 dofs).
  const SparseMatrix<Scalar>& factor = ldlt_.matrixL().nestedExpression();
  const int* start = factor.outerIndexPtr();
  const int* row = factor.innerIndexPtr();
  const Scalar* value = factor.valuePtr();
  const Scalar* pivot = pivots_.data();
  Scalar* y = permuted_.data();
  const Index n = permuted_.size();
  for (Index i = 0; i < n; ++i) {
    const Scalar y_i = y[i];
    if (y_i == Scalar(0)) continue;
    for (int p = start[i]; p < start[i + 1]; ++p)
      if (row[p] > i) y[row[p]] -= y_i * value[p];
  }
  for (Index i = n - 1; i >= 0; --i) {
    Scalar x_i = y[i] / pivot[i];  // y[i] is final here: only the sweep's step i writes it
    for (int p = start[i]; p < start[i + 1]; ++p)
      if (row[p] > i) x_i -= value[p] * y[row[p]];
    y[i] = x_i;
  }
  if (ldlt_.permutationPinv().size() > 0)
    x.noalias() = ldlt_.permutationPinv() * permuted_;
  else
    x = permuted_;
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
  detail::theta_weighted_force(model, theta_, h_, state.t, harmonic_, work_.force_theta);
  const detail::MoreauJeanParameters<Scalar> parameters{
      "sparse moreau-jean", theta_, h_, activation_, lcp_method_, lcp_options_, minv_g_, delassus_};
  const auto solve = [this](const Vector<Scalar>& b, Vector<Scalar>& x) { solve_iteration(b, x); };
  if (symmetric_)
    detail::moreau_jean_step(parameters, model.M.transpose(), model.C.transpose(),
                             model.K.transpose(), g_sparse_, model.w, model.e, solve, work_, state,
                             summary);
  else
    detail::moreau_jean_step(parameters, model.M, model.C, model.K, g_sparse_, model.w, model.e,
                             solve, work_, state, summary);
}

}  // namespace nsh
