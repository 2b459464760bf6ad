// Body of what the Newmark family and Krenk-Hogsberg share (declarations in
// nsh/schemes/newmark/splitting.hpp): the impulse step, the model-bound factorizations and the
// ledger parts. Included by the members' bodies and by splitting.cpp (double), newmark_real50.cpp
// and newmark_rational.cpp.
#pragma once

#include <nsh/detail/sparse_shapes.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/impulse_step.hpp>
#include <nsh/number.hpp>
#include <nsh/schemes/newmark/splitting.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <type_traits>

namespace nsh {
namespace newmark::detail {

/// The impulse step shared by both schemes: index set at q_{k+1}, impulse LCP on it, post-impact
/// velocity. Fills v_next, impulse, summary.lcp / lcp_solved / index_set, the local velocities.
template <class Scalar, class Model>
void impulse_step(const char* scheme, const Model& model, const Matrix<Scalar>& delassus,
                  const Matrix<Scalar>& minv_g, NewmarkImpactLaw law, NewmarkActivation activation,
                  LcpMethod method, const LcpOptions<Scalar>& options, const Scalar& t,
                  const Vector<Scalar>& v_k, const Vector<Scalar>& q_next,
                  const Vector<Scalar>& vs_next, Vector<Scalar>& gap_next,
                  Vector<Scalar>& velocity_k, Vector<Scalar>& velocity_smooth,
                  Vector<Scalar>& velocity_newton, Vector<Scalar>& impulse, Vector<Scalar>& v_next,
                  std::vector<Index>& active, ImpulseStepWorkspace<Scalar>& work,
                  StepSummary<Scalar>& summary) {
  const Index m = model.contacts();
  gap_next.noalias() = model.G.transpose() * q_next;
  gap_next += model.w;
  velocity_k.noalias() = model.G.transpose() * v_k;
  velocity_smooth.noalias() = model.G.transpose() * vs_next;
  velocity_newton = law == NewmarkImpactLaw::smooth ? velocity_smooth : velocity_k;

  active.clear();
  for (Index a = 0; a < m; ++a) {
    const bool position = gap_next(a) <= Scalar(0);
    const bool velocity =
        activation == NewmarkActivation::position || velocity_newton(a) <= Scalar(0);
    if (position && velocity) active.push_back(a);
  }

  impulse_step<Scalar>({scheme, method}, options, active, delassus, minv_g, model.G, model.e,
                       vs_next, velocity_newton, t, work, v_next, summary);
  impulse = work.impulse;
  summary.gap_after = gap_next;
  summary.velocity_before = velocity_k;
  summary.velocity_after.noalias() = model.G.transpose() * v_next;
}

template <class Scalar, class Model>
void check_initial(const char* scheme, const Model& model, const State<Scalar>& initial,
                   const Scalar& h) {
  if (!is_finite(h) || !(h > Scalar(0)))
    throw InputError("h", "step size must be finite and > 0, got " + format_scalar(h));
  if constexpr (std::is_same_v<Model, SparseLinearModel<Scalar>>) {
    nsh::detail::check_sparse_shapes(model, initial);  // the state's size too
  } else {
    const Index n = model.dofs();
    if (initial.q.size() != n || initial.v.size() != n)
      throw InputError("q0", fmt::format("{}: initial state has {} positions and {} velocities, "
                                         "the model has {} degrees of freedom",
                                         scheme, initial.q.size(), initial.v.size(), n));
    if constexpr (is_exact_v<Scalar>) {
      if (model.has_harmonic_force()) (void)model.force(initial.t);  // throws the model's error
    }
  }
}

template <class Scalar>
void factorize(const char* scheme, const char* what, Eigen::PartialPivLU<Matrix<Scalar>>& lu,
               const Matrix<Scalar>& A) {
  lu.compute(A);
  for (Index i = 0; i < A.rows(); ++i)
    if (lu.matrixLU()(i, i) == Scalar(0))
      throw StepError(fmt::format("{}: the matrix {} is singular (pivot {}); validate the model",
                                  scheme, what, i));
}

/// The sparse storage's matrices are symmetric, and positive definite for a valid model (M
/// SPD; C and K PSD; the iteration matrices' coefficients > 0): every pivot of D is > 0.
template <class Scalar>
void factorize(const char* scheme, const char* what, nsh::detail::SparseLdlt<Scalar>& ldlt,
               const SparseMatrix<Scalar>& A) {
  const Index bad = ldlt.compute(A);
  if (bad == -2)
    throw StepError(
        fmt::format("{}: the LDL^T factorization of {} failed; validate the model", scheme, what));
  if (bad >= 0)
    throw StepError(fmt::format(
        "{}: the matrix {} has pivot {} = {}, it is not positive definite; validate the model",
        scheme, what, bad, format_scalar(Scalar(ldlt.pivots()(bad)))));
}

/// x = A^-1 b through the factorization of A (the sparse one does not allocate).
template <class Scalar>
void solve_into(const Eigen::PartialPivLU<Matrix<Scalar>>& lu, const Vector<Scalar>& b,
                Vector<Scalar>& x) {
  x = lu.solve(b);
}

template <class Scalar>
void solve_into(nsh::detail::SparseLdlt<Scalar>& ldlt, const Vector<Scalar>& b, Vector<Scalar>& x) {
  ldlt.solve(b, x);
}

template <class Scalar, class Model>
void harmonic_force(const Model& model, bool harmonic, const Scalar& t, Vector<Scalar>& out) {
  out = model.F;
  if (!harmonic) return;
  if constexpr (is_exact_v<Scalar>) {
    (void)model.force(t);  // throws: Rational cannot evaluate sin
  } else {
    using std::sin;
    out += Scalar(sin(model.omega * t)) * model.F_amplitude;
  }
}

template <class Scalar>
bool is_zero_matrix(const Matrix<Scalar>& A) {
  for (Index j = 0; j < A.cols(); ++j)
    for (Index i = 0; i < A.rows(); ++i)
      if (A(i, j) != Scalar(0)) return false;
  return true;
}

template <class Scalar>
bool is_zero_matrix(const SparseMatrix<Scalar>& A) {
  return max_abs(A) == Scalar(0);
}

template <class Scalar>
bool is_spd(const Matrix<Scalar>& K) {
  if (K.rows() == 0) return true;
  const Scalar scale = max_abs(K);
  return first_indefinite_pivot<Scalar>(K, true, tolerance<Scalar>(scale)) < 0;
}

/// Whether K is positive definite (the algorithmic energy's r terms need K^-1), and if so its
/// factorization in `lu`.
template <class Scalar>
bool factorize_if_spd(const char* scheme, Eigen::PartialPivLU<Matrix<Scalar>>& lu,
                      const Matrix<Scalar>& K) {
  if (!is_spd(K)) return false;
  factorize(scheme, "K", lu, K);
  return true;
}

/// The same on the sparse storage, with one LDL^T: K is positive definite when every pivot is
/// > the tolerance of K's scale, and the factorization that told is the one kept (it was
/// computed twice, once to test and once to keep).
template <class Scalar>
bool factorize_if_spd(const char*, nsh::detail::SparseLdlt<Scalar>& ldlt,
                      const SparseMatrix<Scalar>& K) {
  if (ldlt.compute(K) != -1) return false;
  const Scalar floor = tolerance<Scalar>(max_abs(K));
  for (Index i = 0; i < ldlt.pivots().size(); ++i)
    if (!(ldlt.pivots()(i) > floor)) return false;
  return true;
}

/// x^T A x.
template <class Scalar>
Scalar quad(const Matrix<Scalar>& A, const Vector<Scalar>& x, Vector<Scalar>& work) {
  work.noalias() = A * x;
  return x.dot(work);
}

/// x^T A^{-1} x via a factorization of A.
template <class Scalar, class Factorization>
Scalar inverse_quad(Factorization& factor, const Vector<Scalar>& x, Vector<Scalar>& work) {
  solve_into(factor, x, work);
  return x.dot(work);
}

/// x^T A x.
template <class Scalar>
Scalar quad(const SparseMatrix<Scalar>& A, const Vector<Scalar>& x, Vector<Scalar>& work) {
  work.noalias() = A * x;
  return x.dot(work);
}

}  // namespace newmark::detail

// ------------------------------------------------------------------------------------------
// NewmarkSplitting: what both schemes share
// ------------------------------------------------------------------------------------------

template <class Scalar, class Storage>
template <class Own>
Own NewmarkSplitting<Scalar, Storage>::parse(const SchemeSpec& spec) {
  NewmarkFamilyOptions<Own> options = parse_options<NewmarkFamilyOptions<Own>>(spec);
  if constexpr (is_exact_v<Scalar>) require_exact_lcp_method(spec.name(), options.impulse.lcp);
  name_ = spec.name();
  impulse_options_ = options.impulse;
  own_values_ = option_values(options.own);
  return options.own;
}

template <class Scalar, class Storage>
void NewmarkSplitting<Scalar, Storage>::set_dynamics(const NewmarkParameters& p) {
  am_ = scalar_cast<Scalar>(p.alpha_m);
  af_ = scalar_cast<Scalar>(p.alpha_f);
  beta_ = scalar_cast<Scalar>(p.beta);
  gamma_ = scalar_cast<Scalar>(p.gamma);
}

template <class Scalar, class Storage>
SchemeInfo NewmarkSplitting<Scalar, Storage>::splitting_info(
    const char* family, int smooth_order, const NewmarkParameters& claimed) const {
  SchemeInfo info;
  // The options as the scheme claims them (a mutant's law included), then the parameters.
  info.parameters = own_values_;
  info.parameters.merge(option_values(impulse_options_));
  info.spec = SchemeSpec::from(name_, info.parameters).str();
  info.parameters["alpha_m"] = format_scalar(claimed.alpha_m);
  info.parameters["alpha_f"] = format_scalar(claimed.alpha_f);
  info.parameters["beta"] = format_scalar(claimed.beta);
  info.parameters["gamma"] = format_scalar(claimed.gamma);
  info.family = family;
  info.smooth_order = smooth_order;
  info.impulse_lcp = true;
  info.algorithmic_energy = true;
  info.momentum_conserving = true;
  return info;
}

template <class Scalar, class Storage>
void NewmarkSplitting<Scalar, Storage>::force_at(const Scalar& t, Vector<Scalar>& out) const {
  newmark::detail::harmonic_force(*model_, harmonic_, t, out);
}

template <class Scalar, class Storage>
void NewmarkSplitting<Scalar, Storage>::bind(const char* scheme, const Model& model,
                                             const State<Scalar>& initial, const Scalar& h) {
  newmark::detail::check_initial(scheme, model, initial, h);
  model_ = &model;
  h_ = h;
  harmonic_ = model.has_harmonic_force();
}

template <class Scalar, class Storage>
void NewmarkSplitting<Scalar, Storage>::do_initialize(const LinearModel<Scalar>& model,
                                                      const State<Scalar>& initial,
                                                      const Scalar& h) {
  if constexpr (NewmarkStorage<Scalar, Storage>::sparse) {
    owned_ = to_sparse(model);
    initialize_on(owned_, initial, h);
  } else {
    initialize_on(model, initial, h);
  }
}

template <class Scalar, class Storage>
void NewmarkSplitting<Scalar, Storage>::do_initialize(const SparseLinearModel<Scalar>& model,
                                                      const State<Scalar>& initial,
                                                      const Scalar& h) {
  if constexpr (NewmarkStorage<Scalar, Storage>::sparse)
    initialize_on(model, initial, h);
  else
    Scheme<Scalar>::do_initialize(model, initial, h);
}

template <class Scalar, class Storage>
void NewmarkSplitting<Scalar, Storage>::prepare(const char* scheme, const State<Scalar>& initial,
                                                bool r_terms, bool damping_allowed) {
  namespace d = newmark::detail;
  const Model& model = *model_;
  const Index n = model.dofs(), m = model.contacts();
  d::factorize(scheme, "M", mass_factor_, model.M);
  if (m == 0) {  // no triangular solve on an n x 0 right-hand side
    minv_g_.resize(n, 0);
    delassus_.resize(0, 0);
  } else {
    minv_g_ = mass_factor_.solve(model.G);
    delassus_ = model.G.transpose() * minv_g_;
  }
  r_terms_ = r_terms;
  algorithmic_ = !harmonic_ && (damping_allowed || d::is_zero_matrix(model.C)) &&
                 (!r_terms_ || d::factorize_if_spd(scheme, stiffness_factor_, model.K));

  for (Vector<Scalar>* v : {&a_, &r_, &f_k_, &f_next_, &rhs_, &a_next_, &vs_next_, &q_next_,
                            &v_next_, &r_next_, &work_, &work2_, &dq_, &da_, &dr_})
    v->setZero(n);
  for (Vector<Scalar>* v :
       {&gap_next_, &velocity_k_, &velocity_smooth_, &velocity_newton_, &impulse_})
    v->setZero(m);
  active_.clear();
  active_.reserve(static_cast<std::size_t>(m));
  impulse_work_.size(m);

  // a_0 = M^{-1}(F_0 - C v_0 - K q_0), r_0 = 0.
  force_at(initial.t, f_k_);
  rhs_ = f_k_;
  rhs_.noalias() -= model.C * initial.v;
  rhs_.noalias() -= model.K * initial.q;
  d::solve_into(mass_factor_, rhs_, a_);
  r_.setZero();
}

template <class Scalar, class Storage>
void NewmarkSplitting<Scalar, Storage>::impulse(const char* scheme, NewmarkImpactLaw law,
                                                const State<Scalar>& state,
                                                StepSummary<Scalar>& summary) {
  newmark::detail::impulse_step<Scalar>(
      scheme, *model_, delassus_, minv_g_, law, impulse_options_.activation, impulse_options_.lcp,
      lcp_options_, state.t, state.v, q_next_, vs_next_, gap_next_, velocity_k_, velocity_smooth_,
      velocity_newton_, impulse_, v_next_, active_, impulse_work_, summary);
  // A mutant that claims the smooth law reports the smooth velocity as the law's velocity.
  summary.velocity_newton =
      impulse_options_.impact == NewmarkImpactLaw::smooth ? velocity_smooth_ : velocity_k_;
}

template <class Scalar, class Storage>
void NewmarkSplitting<Scalar, Storage>::mechanical_ledger(const State<Scalar>& state,
                                                          StepSummary<Scalar>& summary) {
  namespace d = newmark::detail;
  const Model& model = *model_;
  const Scalar half(Scalar(1) / 2);
  // The kit derives E_before and E_after again from the states (the same arithmetic); the
  // algorithmic energy below is built on them.
  summary.E_before = half * (d::quad(model.M, state.v, work_) + d::quad(model.K, state.q, work_));
  summary.E_after = half * (d::quad(model.M, v_next_, work_) + d::quad(model.K, q_next_, work_));
  work_ = velocity_smooth_ + summary.velocity_after;
  summary.W_contact = half * work_.dot(impulse_);
}

template <class Scalar, class Storage>
void NewmarkSplitting<Scalar, Storage>::algorithmic_ledger(const State<Scalar>& state,
                                                           const Scalar& bg, const Scalar& a2_k,
                                                           const Scalar& a2_next, Scalar D,
                                                           const Scalar& c_r, const Scalar& alpha_m,
                                                           StepSummary<Scalar>& summary) {
  namespace d = newmark::detail;
  summary.has_algorithmic_energy = algorithmic_;
  if (!algorithmic_) {
    summary.E_alg_before = summary.E_alg_after = summary.algorithmic_dissipation = Scalar(0);
    return;
  }
  const Scalar half(Scalar(1) / 2), h = h_;
  Scalar r_k_term(0), r_next_term(0);
  if (r_terms_) {
    r_k_term = c_r * d::inverse_quad<Scalar>(stiffness_factor_, r_, work_);
    r_next_term = c_r * d::inverse_quad<Scalar>(stiffness_factor_, r_next_, work_);
    D += c_r * (Scalar(1) - 2 * alpha_m) * d::inverse_quad<Scalar>(stiffness_factor_, dr_, work_);
  }
  summary.E_alg_before =
      summary.E_before - model_->F.dot(state.q) + half * h * h * bg * a2_k + r_k_term;
  summary.E_alg_after =
      summary.E_after - model_->F.dot(q_next_) + half * h * h * bg * a2_next + r_next_term;
  summary.algorithmic_dissipation = D;
  summary.acceleration_like_before = a_;
  summary.acceleration_like_after = a_next_;
}

template <class Scalar, class Storage>
void NewmarkSplitting<Scalar, Storage>::advance(State<Scalar>& state) {
  a_ = a_next_;
  r_ = r_next_;
  state.q = q_next_;
  state.v = v_next_;
  state.t = state.t + h_;
}

}  // namespace nsh
