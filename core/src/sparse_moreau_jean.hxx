// Body of the sparse Moreau–Jean theta-scheme (declaration and equations in
// nsh/schemes/sparse_moreau_jean.hpp). Included by sparse_moreau_jean.cpp (double) and
// sparse_moreau_jean_real50.cpp, one scalar per translation unit.
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>
#include <nsh/schemes/sparse_moreau_jean.hpp>

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
}

template <class Scalar>
SparseMoreauJean<Scalar>::SparseMoreauJean(const SchemeSpec& spec) {
  // The dense scheme's constructor is the one parser of these options.
  const MoreauJean<Scalar> parsed(spec);
  theta_ = parsed.theta();
  activation_ = parsed.activation();
  lcp_method_ = parsed.lcp_method();
}

template <class Scalar>
void SparseMoreauJean<Scalar>::initialize(const SparseLinearModel<Scalar>& model,
                                          const State<Scalar>& initial, const Scalar& h) {
  if (!is_finite(h) || !(h > Scalar(0)))
    throw InputError("h", "step size must be finite and > 0, got " + format_scalar(h));
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

  g_sparse_ = model.G.sparseView(Scalar(1), Scalar(0));  // exact zeros only are dropped
  g_sparse_.makeCompressed();
  minv_g_ = ldlt_.solve(model.G);
  delassus_ = model.G.transpose() * minv_g_;

  for (Vector<Scalar>* v : {&force_theta_, &rhs_, &v_free_, &v_next_, &q_next_, &v_theta_, &dv_,
                            &dq_, &work_n_, &permuted_})
    v->setZero(n);
  for (Vector<Scalar>* v : {&gap_k_, &velocity_k_, &velocity_theta_, &impulse_}) v->setZero(m);
  active_.clear();
  active_.reserve(static_cast<std::size_t>(m));
  delassus_active_.setZero(m, m);
  b_active_.setZero(m);
  lcp_workspace_.reserve(m);
}

template <class Scalar>
void SparseMoreauJean<Scalar>::solve_iteration(const Vector<Scalar>& b, Vector<Scalar>& x) {
  // What SimplicialLDLT::_solve_impl does, with the two permutations out of place.
  if (ldlt_.permutationP().size() > 0)
    permuted_.noalias() = ldlt_.permutationP() * b;
  else
    permuted_ = b;
  ldlt_.matrixL().solveInPlace(permuted_);
  permuted_.array() /= ldlt_.vectorD().array();
  ldlt_.matrixU().solveInPlace(permuted_);
  if (ldlt_.permutationPinv().size() > 0)
    x.noalias() = ldlt_.permutationPinv() * permuted_;
  else
    x = permuted_;
}

template <class Scalar>
void SparseMoreauJean<Scalar>::evaluate_force(const Scalar& t_k) {
  const SparseLinearModel<Scalar>& model = *model_;
  force_theta_ = model.F;
  if (!harmonic_) return;
  using std::sin;
  const Scalar weight = (Scalar(1) - theta_) * Scalar(sin(model.omega * t_k)) +
                        theta_ * Scalar(sin(model.omega * (t_k + h_)));
  force_theta_ += weight * model.F_amplitude;
}

template <class Scalar>
void SparseMoreauJean<Scalar>::step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  if (!model_) throw StepError("sparse moreau-jean: step() called before initialize()");
  const SparseLinearModel<Scalar>& model = *model_;
  const Index n = model.dofs(), m = model.contacts();
  if (state.q.size() != n)
    throw InputError("q", fmt::format("state has {} positions, the model has {} degrees of "
                                      "freedom",
                                      state.q.size(), n));
  if (state.v.size() != n)
    throw InputError("v", fmt::format("state has {} velocities, the model has {} degrees of "
                                      "freedom",
                                      state.v.size(), n));
  const Scalar& h = h_;
  const Scalar half(Scalar(1) / 2);
  const Vector<Scalar>& q = state.q;
  const Vector<Scalar>& v = state.v;
  const auto Gt = g_sparse_.transpose();

  gap_k_.noalias() = Gt * q;
  gap_k_ += model.w;
  velocity_k_.noalias() = Gt * v;
  evaluate_force(state.t);

  // Free velocity: v_free = v_k + M^-1 [-h C v_k - h K (q_k + h theta v_k) + h F_{k+theta}].
  work_n_ = q;
  work_n_ += (h * theta_) * v;
  rhs_.noalias() = model.C * v;
  rhs_.noalias() += model.K * work_n_;
  rhs_ -= force_theta_;
  rhs_ *= -h;
  solve_iteration(rhs_, v_free_);
  v_free_ += v;

  // Index set from the state at t_k (gamma_p = 1/2).
  active_.clear();
  for (Index a = 0; a < m; ++a) {
    const bool position = gap_k_(a) + half * h * velocity_k_(a) <= Scalar(0);
    const bool velocity =
        activation_ == MoreauJeanActivation::position || velocity_k_(a) <= Scalar(0);
    if (position && velocity) active_.push_back(a);
  }

  impulse_.setZero();
  v_next_ = v_free_;
  const Index k = static_cast<Index>(active_.size());
  if (k > 0) {
    for (Index i = 0; i < k; ++i) {
      const Index a = active_[static_cast<std::size_t>(i)];
      for (Index j = 0; j < k; ++j)
        delassus_active_(i, j) = delassus_(a, active_[static_cast<std::size_t>(j)]);
      b_active_(i) = g_sparse_.col(a).dot(v_free_) + model.e(a) * velocity_k_(a);
    }
    solve_lcp<Scalar>(lcp_method_, delassus_active_.topLeftCorner(k, k), b_active_.head(k),
                      lcp_options_, lcp_workspace_, summary.lcp);
    if (!summary.lcp.ok()) {
      const LcpCertificate<Scalar>& c = summary.lcp.certificate;
      throw StepError(fmt::format(
          "sparse moreau-jean: the impulse LCP at t = {} ({} active contacts, method {}) was not "
          "certified: status {}, natural map {} (tolerance {}), feasibility {}, "
          "complementarity {}, Siconos error {}{}{}",
          format_scalar(state.t), k, to_string(lcp_method_), to_string(summary.lcp.status),
          format_scalar(c.natural_map), format_scalar(c.tolerance), format_scalar(c.feasibility),
          format_scalar(c.complementarity), format_scalar(c.siconos_error),
          summary.lcp.message.empty() ? "" : "; ", summary.lcp.message));
    }
    for (Index i = 0; i < k; ++i) {
      const Index a = active_[static_cast<std::size_t>(i)];
      impulse_(a) = summary.lcp.z(i);
      v_next_ += summary.lcp.z(i) * minv_g_.col(a);
    }
    summary.lcp_solved = true;
  } else {
    lcp_workspace_.size_result(summary.lcp, 0);
    summary.lcp.status = LcpStatus::solved;
    summary.lcp.method = lcp_method_;
    summary.lcp.iterations = 0;
    summary.lcp.certificate = LcpCertificate<Scalar>{};
    summary.lcp.certificate.accepted = true;
    summary.lcp.message.clear();
    summary.lcp_solved = false;
  }

  // q_{k+1} = q_k + h v_{k+theta}.
  v_theta_ = (Scalar(1) - theta_) * v;
  v_theta_ += theta_ * v_next_;
  q_next_ = q;
  q_next_ += h * v_theta_;
  dv_ = v_next_ - v;
  dq_ = q_next_ - q;

  summary.t_before = state.t;
  summary.t_after = state.t + h;
  summary.h = h;
  summary.index_set.reserve(static_cast<std::size_t>(m));
  summary.index_set.assign(active_.begin(), active_.end());
  summary.impulse = impulse_;
  summary.gap_before = gap_k_;
  summary.velocity_before = velocity_k_;
  summary.velocity_newton = velocity_k_;
  summary.external_impulse = h * force_theta_;
  summary.gap_after.noalias() = Gt * q_next_;
  summary.gap_after += model.w;
  summary.velocity_after.noalias() = Gt * v_next_;

  // Energy ledger (THEORY.md 2.2).
  work_n_.noalias() = model.M * v;
  summary.E_before = v.dot(work_n_);
  work_n_.noalias() = model.K * q;
  summary.E_before = (summary.E_before + q.dot(work_n_)) * half;
  work_n_.noalias() = model.M * v_next_;
  summary.E_after = v_next_.dot(work_n_);
  work_n_.noalias() = model.K * q_next_;
  summary.E_after = (summary.E_after + q_next_.dot(work_n_)) * half;
  summary.W_ext = h * v_theta_.dot(force_theta_);
  work_n_.noalias() = model.C * v_theta_;
  summary.W_damp = -h * v_theta_.dot(work_n_);
  velocity_theta_.noalias() = Gt * v_theta_;
  summary.W_contact = velocity_theta_.dot(impulse_);
  work_n_.noalias() = model.M * dv_;
  Scalar jump = dv_.dot(work_n_);
  work_n_.noalias() = model.K * dq_;
  jump += dq_.dot(work_n_);
  summary.numerical_dissipation = (theta_ - half) * jump;
  summary.has_algorithmic_energy = false;

  state.q = q_next_;
  state.v = v_next_;
  state.t = state.t + h;
}

}  // namespace nsh
