// Body of the event-driven reference (nsh/schemes/event_driven.hpp), included by
// event_driven.cpp (double) and event_driven_real50.cpp (Real50).
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/schemes/event_driven.hpp>
#include <nsh/sparse_model.hpp>

#include <fmt/format.h>
#include <Eigen/Cholesky>
#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <optional>

namespace nsh {

namespace event_detail {

template <class Scalar>
Scalar horner(const std::vector<Scalar>& c, const Scalar& s) {
  Scalar r(0);
  for (std::size_t k = c.size(); k-- > 0;) r = r * s + c[k];
  return r;
}

template <class Scalar>
Scalar horner_derivative(const std::vector<Scalar>& c, const Scalar& s) {
  Scalar r(0);
  for (std::size_t k = c.size(); k-- > 1;) r = r * s + Scalar(static_cast<long>(k)) * c[k];
  return r;
}

/// Outcome of the root search on one monitor over (0, S].
template <class Scalar>
struct Root {
  Scalar s{0};
  bool immediate{false};  ///< the monitor is already moving to the wrong side at s = 0
  int order{0};           ///< index of the leading nonzero coefficient (0: value, 1: rate, ...)
};

/// First s in [0, S] where the monitor p(s) = sum c_k s^k, positive on the admissible side,
/// reaches zero. Leading coefficients with |c_k| <= zero_tol[k] count as zero (a monitor
/// that starts on its boundary is deflated), so a contact that has just opened is not found
/// again at s = 0. A monitor that is identically zero never fires.
template <class Scalar>
std::optional<Root<Scalar>> first_root(const std::vector<Scalar>& c, const Scalar& S,
                                       const std::vector<Scalar>& zero_tol, const Scalar& s_tol) {
  std::size_t k0 = 0;
  for (; k0 < c.size(); ++k0)
    if (abs_value<Scalar>(c[k0]) > zero_tol[k0]) break;
  if (k0 == c.size()) return std::nullopt;
  if (c[k0] < Scalar(0)) return Root<Scalar>{Scalar(0), true, static_cast<int>(k0)};
  const std::vector<Scalar> r(c.begin() + static_cast<long>(k0), c.end());
  if (r.size() == 1) return std::nullopt;  // a positive constant
  constexpr int samples = 16;
  auto refine = [&](Scalar lo, Scalar hi) {
    // r(lo) > 0 >= r(hi): safeguarded Newton, bisection whenever Newton leaves the bracket.
    Scalar x = hi;
    for (int it = 0; it < 400; ++it) {
      const Scalar fx = horner(r, x);
      if (fx == Scalar(0)) return x;
      if (fx > Scalar(0))
        lo = x;
      else
        hi = x;
      const Scalar dx = horner_derivative(r, x);
      Scalar next = dx != Scalar(0) ? Scalar(x - fx / dx) : Scalar((lo + hi) / 2);
      if (!(next > lo && next < hi)) next = (lo + hi) / 2;
      const Scalar step = abs_value<Scalar>(next - x);
      x = next;
      if (step <= s_tol || hi - lo <= s_tol) break;
    }
    // Return a point on the far side (r <= 0), a few s_tol past the root at most: a multiplier
    // that has reached zero then drives the free motion away from the contact, and a gap is
    // reached rather than approached, so the next mode decision is not undone at s = 0.
    if (horner(r, x) > Scalar(0)) {
      Scalar d = s_tol;
      while (x + d < hi && horner(r, Scalar(x + d)) > Scalar(0)) d *= 2;
      x = x + d < hi ? Scalar(x + d) : hi;
    }
    return x;
  };
  Scalar a(0);
  Scalar da = horner_derivative(r, a);
  for (int j = 1; j <= samples; ++j) {
    const Scalar b = j == samples ? S : Scalar(S * Scalar(j) / Scalar(samples));
    const Scalar rb = horner(r, b);
    const Scalar db = horner_derivative(r, b);
    if (rb <= Scalar(0)) return Root<Scalar>{refine(a, b), false, static_cast<int>(k0)};
    if (da < Scalar(0) && db > Scalar(0)) {
      // A local minimum inside: a grazing approach that may dip below zero between samples.
      Scalar lo = a, hi = b;
      for (int it = 0; it < 400 && hi - lo > s_tol; ++it) {
        const Scalar mid = (lo + hi) / 2;
        if (horner_derivative(r, mid) < Scalar(0))
          lo = mid;
        else
          hi = mid;
      }
      const Scalar m = (lo + hi) / 2;
      if (horner(r, m) <= Scalar(0)) return Root<Scalar>{refine(a, m), false, static_cast<int>(k0)};
    }
    a = b;
    da = db;
  }
  return std::nullopt;
}

/// Spectral bound rho of the balanced first-order operator, computed in double (DESIGN: spectral
/// radii in double): sqrt(lambda_max(M^-1 K)) + |M^-1 C| + |omega|.
inline double frequency_bound(const SparseMatrix<double>& Ms, const SparseMatrix<double>& Ks,
                              const SparseMatrix<double>& Cs, double omega) {
  auto inf_norm = [](const Matrix<double>& A) {
    double best = 0;
    for (Index i = 0; i < A.rows(); ++i) best = std::max(best, A.row(i).cwiseAbs().sum());
    return best;
  };
  double lambda_k = 0, rho_c = 0;
  const Index n = Ms.rows();
  const bool has_k = max_abs(Ks) > 0, has_c = max_abs(Cs) > 0;
  if (n <= 200) {
    // The infinity norm of M^-1 K bounds its spectral radius: rigorous for small models.
    Eigen::LDLT<Matrix<double>> ldlt{Matrix<double>(Ms)};
    if (has_k) lambda_k = inf_norm(ldlt.solve(Matrix<double>(Ks)));
    if (has_c) rho_c = inf_norm(ldlt.solve(Matrix<double>(Cs)));
  } else {
    // Power iteration (growth ratio, max over iterations) with a safety factor of 2; the
    // series' a posteriori tail test (series_reach) guards against an underestimate.
    Eigen::SimplicialLDLT<SparseMatrix<double>> ldlt(Ms);
    auto power = [&](const Eigen::SparseMatrix<double>& A) {
      Vector<double> x(n);
      for (Index i = 0; i < n; ++i) x(i) = std::sin(1.6180339887 * double(i + 1)) + 0.25;
      double best = 0;
      for (int it = 0; it < 300; ++it) {
        Vector<double> y = ldlt.solve(A * x);
        const double ny = y.cwiseAbs().maxCoeff(), nx = x.cwiseAbs().maxCoeff();
        if (ny == 0 || nx == 0) break;
        best = std::max(best, ny / nx);
        x = y / ny;
      }
      return 2 * best;
    };
    if (has_k) lambda_k = power(Ks);
    if (has_c) rho_c = power(Cs);
  }
  return std::sqrt(lambda_k) + rho_c + std::abs(omega);
}

}  // namespace event_detail

template <class Scalar>
struct EventDrivenFlow<Scalar>::Impl {
  using Sparse = SparseMatrix<Scalar>;
  // The flow's own copy of the model: sparse, whichever form it was given in.
  const SparseLinearModel<Scalar> model;
  EventDrivenOptions<Scalar> options;
  Index n{0}, m{0};
  State<Scalar> state;
  std::vector<Index> closed;
  std::vector<Event<Scalar>> initial_events;

  // Dynamics: dense M^-1 K, M^-1 C for small models; else sparse K, C and M^-1 as a diagonal
  // (a lumped mass) or a sparse LDL^T.
  bool dense{true};
  bool has_C{false}, has_K{false}, has_F0{false}, has_Fa{false};
  Matrix<Scalar> Minv_K, Minv_C;
  Vector<Scalar> Minv_F0, Minv_Fa;
  Sparse Gs;  ///< G, sparse: a contact's gradient touches few degrees of freedom
  Eigen::SimplicialLDLT<Sparse> M_ldlt;
  Vector<Scalar> M_diagonal_inverse;  ///< nonempty when M is diagonal
  Eigen::LDLT<Matrix<Scalar>> M_dense_ldlt;
  Matrix<Scalar> Minv_G;
  Scalar omega{0};

  // The closed set's constraint: lambda = -Wc^-1 G_c^T y, a = y + B_c lambda (y = M^-1 f).
  Matrix<Scalar> Gc, Bc, Wc_inv;

  // Series.
  int terms{0};
  Scalar rho{0};      ///< spectral bound; 0: the flow is polynomial (nilpotent operator)
  Scalar seg_max{0};  ///< 1 / (2 rho), 0 for unlimited
  Scalar rel_tol{0};
  Scalar G_norm{0}, w_norm{0}, F_norm{0}, K_norm{0}, C_norm{0};
  Scalar q_scale{0}, v_scale{0}, t_scale{0};
  Scalar t_start{0};

  std::vector<Vector<Scalar>> qk, vk, lamk;
  std::vector<Scalar> c1k, snk, csk;

  // Accumulators since the last reset.
  Vector<Scalar> acc_impulse, acc_external, acc_last_U;
  Scalar acc_W_ext{0}, acc_W_damp{0}, acc_W_impact{0};
  std::vector<bool> acc_touched;
  bool acc_posed{false};
  LcpResult<Scalar> acc_lcp;

  Impl(SparseLinearModel<Scalar> model_, const State<Scalar>& initial,
       const EventDrivenOptions<Scalar>& options_)
      : model(std::move(model_)), options(options_), state(initial) {
    n = model.dofs();
    m = model.contacts();
    if (state.q.size() != n || state.v.size() != n)
      throw InputError("q0", fmt::format("event-driven: state of size {}/{} for a model with {} "
                                         "degrees of freedom",
                                         state.q.size(), state.v.size(), n));
    rel_tol = options.tolerance > Scalar(0) ? options.tolerance : Scalar(64) * epsilon<Scalar>();
    omega = model.omega;
    has_K = max_abs(model.K) != Scalar(0);
    has_C = max_abs(model.C) != Scalar(0);
    has_F0 = max_abs(model.F) != Scalar(0);
    has_Fa = model.has_harmonic_force() && omega != Scalar(0);
    dense = n <= 64;
    Gs = sparse_of(model.G);
    if (dense) {
      M_dense_ldlt.compute(Matrix<Scalar>(model.M));
      if (M_dense_ldlt.info() != Eigen::Success)
        throw ModelError("M", "event-driven: LDL^T factorization of M failed");
      if (has_K) Minv_K = M_dense_ldlt.solve(Matrix<Scalar>(model.K));
      if (has_C) Minv_C = M_dense_ldlt.solve(Matrix<Scalar>(model.C));
    } else if (is_diagonal(model.M)) {
      M_diagonal_inverse = Vector<Scalar>(model.M.diagonal()).cwiseInverse();
    } else {
      M_ldlt.compute(model.M);
      if (M_ldlt.info() != Eigen::Success)
        throw ModelError("M", "event-driven: sparse LDL^T factorization of M failed");
    }
    Minv_G.resize(n, m);
    for (Index a = 0; a < m; ++a) Minv_G.col(a) = solve_M(model.G.col(a));
    Minv_F0 = solve_M(model.F);
    Minv_Fa = has_Fa ? solve_M(model.F_amplitude) : Vector<Scalar>::Zero(n);

    const double rho_d = event_detail::frequency_bound(
        model.M.template cast<double>(), model.K.template cast<double>(),
        model.C.template cast<double>(), has_Fa ? scalar_cast<double>(omega) : 0.0);
    rho = Scalar(rho_d);
    seg_max = rho > Scalar(0) ? Scalar(Scalar(segment_reach) / rho) : Scalar(0);
    // reach^k / k! < epsilon / 64 bounds the truncation error of every segment.
    {
      Scalar term(1);
      const Scalar target = epsilon<Scalar>() / Scalar(64);
      terms = 0;
      while (term > target) {
        ++terms;
        term = term * Scalar(segment_reach) / Scalar(terms);
      }
    }
    G_norm = max_abs(model.G);
    w_norm = max_abs(model.w);
    F_norm = max_abs(model.F) + (has_Fa ? max_abs(model.F_amplitude) : Scalar(0));
    K_norm = max_abs(model.K);
    C_norm = max_abs(model.C);
    t_start = state.t;
    qk.assign(terms + 1, Vector<Scalar>::Zero(n));
    vk.assign(terms + 1, Vector<Scalar>::Zero(n));
    lamk.assign(terms + 1, Vector<Scalar>());
    c1k.assign(terms + 1, Scalar(0));
    snk.assign(terms + 1, Scalar(0));
    csk.assign(terms + 1, Scalar(0));
    reset();
    update_scales();
    const Vector<Scalar> g = model.gap(state.q);
    for (Index a = 0; a < m; ++a)
      if (g(a) < -gap_tol())
        throw InputError(fmt::format("q0 (gap[{}])", a),
                         "event-driven needs an admissible initial state, but gap " +
                             format_scalar(g(a)) + " < 0");
    set_mode({});
    process(std::nullopt, -1, &initial_events);
  }

  /// Segment length times rho. The series costs about terms / reach per unit time (x^k / k! <
  /// eps / 64 needs 16 terms at x = 1/2, 25 at x = 2, 34 at x = 4, in double), and its largest
  /// term, hence its round-off, grows like e^x / sqrt(2 pi x): 4 is 3.8 times cheaper than 1/2
  /// (measured: the bar at N = 1000, 0.56 s at x = 2, 0.37 s at x = 4 per 0.2 time units) for a
  /// loss of about 11 eps. The fastest mode then turns 0.64 of a period per segment, still 25
  /// root-search samples per period.
  static constexpr int segment_reach = 4;

  static bool is_diagonal(const Sparse& A) {
    for (Index j = 0; j < A.outerSize(); ++j)
      for (typename Sparse::InnerIterator it(A, j); it; ++it)
        if (it.row() != it.col() && it.value() != Scalar(0)) return false;
    return true;
  }

  template <class Rhs>
  Vector<Scalar> solve_M(const Rhs& b) const {
    if (dense) return M_dense_ldlt.solve(b);
    if (M_diagonal_inverse.size() != 0) return M_diagonal_inverse.cwiseProduct(b);
    return M_ldlt.solve(b);
  }

  void reset() {
    acc_impulse = Vector<Scalar>::Zero(m);
    acc_external = Vector<Scalar>::Zero(n);
    acc_last_U = model.local_velocity(state.v);
    acc_W_ext = acc_W_damp = acc_W_impact = Scalar(0);
    acc_touched.assign(static_cast<std::size_t>(m), false);
    for (Index a : closed) acc_touched[static_cast<std::size_t>(a)] = true;
    acc_posed = false;
    acc_lcp = LcpResult<Scalar>{};
  }

  // ---- tolerances, from the running scale of the solution ----
  void update_scales() {
    q_scale = std::max(q_scale, max_abs(state.q));
    v_scale = std::max(v_scale, max_abs(state.v));
    t_scale = std::max(t_scale,
                       std::max(abs_value<Scalar>(state.t), abs_value<Scalar>(state.t - t_start)));
  }
  Scalar time_ref() const { return rho > Scalar(0) ? Scalar(Scalar(1) / rho) : Scalar(0); }
  Scalar gap_tol() const { return rel_tol * (G_norm * (q_scale + v_scale * time_ref()) + w_norm); }
  Scalar velocity_tol() const {
    Scalar v = v_scale;
    if (rho > Scalar(0)) v = std::max(v, q_scale * rho);
    return rel_tol * G_norm * v;
  }
  Scalar time_tol() const { return rel_tol * std::max(t_scale, time_ref()); }
  Scalar force_scale() const { return F_norm + K_norm * q_scale + C_norm * v_scale; }

  // ---- dynamics ----
  /// y = M^-1 f for the augmented state (q, v, c1, sn).
  Vector<Scalar> free_acceleration(const Vector<Scalar>& q, const Vector<Scalar>& v,
                                   const Scalar& c1, const Scalar& sn) const {
    Vector<Scalar> y = Vector<Scalar>::Zero(n);
    if (dense) {
      if (has_K) y.noalias() -= Minv_K * q;
      if (has_C) y.noalias() -= Minv_C * v;
    } else {
      Vector<Scalar> f = Vector<Scalar>::Zero(n);
      if (has_K) f -= model.K * q;
      if (has_C) f -= model.C * v;
      if (has_K || has_C) y = solve_M(f);
    }
    if (has_F0 && c1 != Scalar(0)) y += c1 * Minv_F0;
    if (has_Fa && sn != Scalar(0)) y += sn * Minv_Fa;
    return y;
  }

  /// a = y + B_c lambda with lambda = -Wc^-1 G_c^T y (so that G_c^T a = 0).
  Vector<Scalar> constrained(const Vector<Scalar>& y, Vector<Scalar>* lambda) const {
    if (Gc.cols() == 0) {
      if (lambda) *lambda = Vector<Scalar>();
      return y;
    }
    const Vector<Scalar> lam = -(Wc_inv * (Gc.transpose() * y));
    if (lambda) *lambda = lam;
    return y + Bc * lam;
  }

  void set_mode(std::vector<Index> new_closed) {
    std::sort(new_closed.begin(), new_closed.end());
    closed = std::move(new_closed);
    const Index mc = static_cast<Index>(closed.size());
    Gc.resize(n, mc);
    Bc.resize(n, mc);
    for (Index j = 0; j < mc; ++j) {
      Gc.col(j) = model.G.col(closed[j]);
      Bc.col(j) = Minv_G.col(closed[j]);
    }
    if (mc > 0) {
      const Matrix<Scalar> Wc = Gc.transpose() * Bc;
      Eigen::LDLT<Matrix<Scalar>> ldlt(Wc);
      Scalar min_pivot = std::numeric_limits<Scalar>::max();
      const auto D = ldlt.vectorD();
      for (Index i = 0; i < mc; ++i) min_pivot = std::min(min_pivot, Scalar(D(i)));
      if (ldlt.info() != Eigen::Success || !(min_pivot > tolerance<Scalar>(max_abs(Wc))))
        throw StepError(
            fmt::format("event-driven: the {} closed contacts at t = {} have "
                        "dependent gradients (W_c singular)",
                        mc, format_scalar(state.t)));
      Wc_inv = ldlt.solve(Matrix<Scalar>::Identity(mc, mc));
    } else {
      Wc_inv.resize(0, 0);
    }
  }

  Scalar energy() const { return model.energy(state.q, state.v); }

  // ---- one segment ----
  /// Taylor coefficients of the augmented state (and of lambda) at the current state.
  void series() {
    using std::cos;
    using std::sin;
    qk[0] = state.q;
    vk[0] = state.v;
    c1k[0] = Scalar(1);
    snk[0] = has_Fa ? Scalar(sin(omega * state.t)) : Scalar(0);
    csk[0] = has_Fa ? Scalar(cos(omega * state.t)) : Scalar(0);
    int last = terms;
    for (int k = 0; k < terms; ++k) {
      const Vector<Scalar> y = free_acceleration(qk[k], vk[k], c1k[k], snk[k]);
      const Vector<Scalar> a = constrained(y, &lamk[k]);
      const Scalar inv = Scalar(1) / Scalar(k + 1);
      qk[k + 1] = vk[k] * inv;
      vk[k + 1] = a * inv;
      c1k[k + 1] = Scalar(0);
      snk[k + 1] = omega * csk[k] * inv;
      csk[k + 1] = -omega * snk[k] * inv;
      if (max_abs(qk[k + 1]) == Scalar(0) && max_abs(vk[k + 1]) == Scalar(0) &&
          snk[k + 1] == Scalar(0) && csk[k + 1] == Scalar(0)) {
        last = k + 1;  // nilpotent: the series has terminated exactly
        break;
      }
    }
    // lambda of the last term.
    {
      const Vector<Scalar> y = free_acceleration(qk[last], vk[last], c1k[last], snk[last]);
      constrained(y, &lamk[last]);
    }
    used = last;
  }
  int used{0};

  /// The longest s <= S (S halved until it holds) on which the series' last two terms are
  /// below epsilon / 64 of its largest one, in the balanced size rho |q_k| + |v_k|: an a
  /// posteriori check of the a priori term count, which rests on rho's estimate.
  Scalar series_reach(Scalar S) const {
    if (used < terms || !(rho > Scalar(0))) return S;  // terminated exactly, or no rho
    std::vector<Scalar> size(static_cast<std::size_t>(used + 1));
    for (int k = 0; k <= used; ++k) size[k] = rho * max_abs(qk[k]) + max_abs(vk[k]);
    const Scalar target = epsilon<Scalar>() / Scalar(64);
    for (int halvings = 0; halvings < 64; ++halvings, S /= 2) {
      Scalar p(1), largest(0), tail(0);
      for (int k = 0; k <= used; ++k, p *= S) {
        largest = std::max(largest, Scalar(size[k] * p));
        if (k + 2 > used) tail = std::max(tail, Scalar(size[k] * p));
      }
      if (tail <= target * largest) return S;
    }
    return S;
  }

  State<Scalar> evaluate(const Scalar& s) const {
    State<Scalar> out;
    out.q = qk[used];
    out.v = vk[used];
    for (int k = used; k-- > 0;) {
      out.q = out.q * s + qk[k];
      out.v = out.v * s + vk[k];
    }
    return out;
  }

  /// Add the integrals of the segment [0, s] to the accumulators.
  void integrate(const Scalar& s, const State<Scalar>& end) {
    // powers s^(k+1)/(k+1)
    std::vector<Scalar> ip(static_cast<std::size_t>(2 * used + 2));
    Scalar p = s;
    for (std::size_t k = 0; k < ip.size(); ++k) {
      ip[k] = p / Scalar(static_cast<long>(k + 1));
      p *= s;
    }
    const Index mc = static_cast<Index>(closed.size());
    for (Index j = 0; j < mc; ++j) {
      Scalar total(0);
      for (int k = 0; k <= used; ++k)
        if (lamk[k].size() == mc) total += lamk[k](j) * ip[k];
      acc_impulse(closed[j]) += total;
    }
    Vector<Scalar> ext = Vector<Scalar>::Zero(n);
    if (has_F0) {
      ext += model.F * s;
      acc_W_ext += model.F.dot(end.q - state.q);
    }
    if (has_Fa) {
      Scalar sn_int(0);
      for (int k = 0; k <= used; ++k) sn_int += snk[k] * ip[k];
      ext += model.F_amplitude * sn_int;
      std::vector<Scalar> fv(static_cast<std::size_t>(used + 1));
      for (int j = 0; j <= used; ++j) fv[j] = model.F_amplitude.dot(vk[j]);
      for (int j = 0; j <= used; ++j)
        for (int k = 0; k <= used; ++k) acc_W_ext += fv[j] * snk[k] * ip[j + k];
    }
    if (has_C) {
      ext -= model.C * (end.q - state.q);
      std::vector<Vector<Scalar>> Cv(static_cast<std::size_t>(used + 1));
      for (int k = 0; k <= used; ++k) Cv[k] = model.C * vk[k];
      for (int j = 0; j <= used; ++j)
        for (int k = 0; k <= used; ++k) acc_W_damp -= vk[j].dot(Cv[k]) * ip[j + k];
    }
    if (has_K) {
      Vector<Scalar> q_int = Vector<Scalar>::Zero(n);
      for (int k = 0; k <= used; ++k) q_int += qk[k] * ip[k];
      ext -= model.K * q_int;
    }
    acc_external += ext;
  }

  enum class Trigger { gap, multiplier };

  /// Advance exactly to t_target, processing every event in (t, t_target].
  void advance_to(const Scalar& t_target, std::vector<Event<Scalar>>* events) {
    if (t_target < state.t)
      throw InputError("T", "event-driven: cannot go back from t = " + format_scalar(state.t) +
                                " to " + format_scalar(t_target));
    int zero_length = 0;
    Index count = 0;
    while (state.t < t_target) {
      Scalar S = t_target - state.t;
      bool final_segment = true;
      if (seg_max > Scalar(0) && S > seg_max) {
        S = seg_max;
        final_segment = false;
      }
      series();
      if (const Scalar reach = series_reach(S); reach < S) {
        S = reach;
        final_segment = false;
      }
      const Scalar t_ref = rho > Scalar(0) ? time_ref() : S;
      const Scalar s_tol = Scalar(4) * epsilon<Scalar>() * (abs_value<Scalar>(state.t) + S);
      std::optional<event_detail::Root<Scalar>> best;
      Index best_contact = -1;
      Trigger best_kind = Trigger::gap;
      auto consider = [&](const std::optional<event_detail::Root<Scalar>>& r, Index a,
                          Trigger kind) {
        if (r && (!best || r->s < best->s)) {
          best = r;
          best_contact = a;
          best_kind = kind;
        }
      };
      std::vector<Scalar> c(static_cast<std::size_t>(used + 1));
      std::vector<bool> is_closed(static_cast<std::size_t>(m), false);
      for (Index a : closed) is_closed[static_cast<std::size_t>(a)] = true;
      // The zero tests of a gap's coefficients are those of the contact logic: g <= gap_tol,
      // |U| <= velocity_tol (and that rate over t_ref for the higher ones), so that a monitor
      // deflated here is exactly a contact that process() sees as touching / at rest.
      std::vector<Scalar> gap_zero(static_cast<std::size_t>(used + 1));
      {
        const Scalar u_tol = velocity_tol();
        gap_zero[0] = gap_tol();
        Scalar p = u_tol;
        for (int k = 1; k <= used; ++k, p /= t_ref) gap_zero[k] = p;
      }
      // A contact decided from its k-th derivative at this instant starts its monitor at order
      // k (gap) or k - 2 (multiplier): the coefficients below are zero by that decision.
      const Scalar never = std::numeric_limits<Scalar>::max();
      auto forced = [&](std::vector<Scalar> tol, Index a, int shift) {
        const int order =
            decided_order.empty() ? 0 : decided_order[static_cast<std::size_t>(a)] - shift;
        for (int k = 0; k < order && k <= used; ++k) tol[static_cast<std::size_t>(k)] = never;
        return tol;
      };
      for (Index a = 0; a < m; ++a) {
        if (is_closed[static_cast<std::size_t>(a)]) continue;
        for (int k = 0; k <= used; ++k) c[k] = Gs.col(a).dot(qk[k]);
        c[0] += model.w(a);
        consider(event_detail::first_root<Scalar>(c, S, forced(gap_zero, a, 0), s_tol), a,
                 Trigger::gap);
      }
      if (!closed.empty()) {
        Scalar lam_scale = force_scale();
        for (int k = 0; k <= used; ++k) {
          Scalar p(1);
          for (int i = 0; i < k; ++i) p *= t_ref;
          lam_scale = std::max(lam_scale, max_abs(lamk[k]) * p);
        }
        std::vector<Scalar> lam_zero(static_cast<std::size_t>(used + 1));
        Scalar p = rel_tol * lam_scale;
        for (int k = 0; k <= used; ++k, p /= t_ref) lam_zero[k] = p;
        for (std::size_t j = 0; j < closed.size(); ++j) {
          for (int k = 0; k <= used; ++k) c[k] = lamk[k](static_cast<Index>(j));
          consider(event_detail::first_root<Scalar>(c, S, forced(lam_zero, closed[j], 2), s_tol),
                   closed[j], Trigger::multiplier);
        }
      }
      decided_order.assign(static_cast<std::size_t>(m), 0);
      if (!best) {
        const State<Scalar> end = evaluate(S);
        integrate(S, end);
        state.q = end.q;
        state.v = end.v;
        state.t = final_segment ? t_target : Scalar(state.t + S);
        zero_length = 0;
        update_scales();
        continue;
      }
      Scalar s = best->s;
      if (s > S) s = S;
      if (s > Scalar(0)) {
        const State<Scalar> end = evaluate(s);
        integrate(s, end);
        state.q = end.q;
        state.v = end.v;
        state.t = (final_segment && s == S) ? t_target : Scalar(state.t + s);
      }
      update_scales();
      if (s <= s_tol) {
        if (++zero_length > 16 + 4 * static_cast<int>(m))
          throw StepError(fmt::format(
              "event-driven: {} events at t = {} without progress (contact {}); the contact "
              "mode cannot be decided at this tolerance",
              zero_length, format_scalar(state.t), best_contact));
      } else {
        zero_length = 0;
      }
      if (++count > options.max_events)
        throw StepError(fmt::format("event-driven: more than {} events before t = {}",
                                    options.max_events, format_scalar(t_target)));
      process(best_kind, best_contact, events);
    }
  }

  void push(std::vector<Event<Scalar>>* events, Event<Scalar> ev) {
    if (events) events->push_back(ev);
  }

  /// Handle the state at the current time: impacts, then the contact mode, then accumulation.
  void process(std::optional<Trigger> trigger, Index trigger_contact,
               std::vector<Event<Scalar>>* events) {
    const Scalar g_tol = gap_tol();
    const Scalar u_tol = velocity_tol();
    const Vector<Scalar> g = model.gap(state.q);
    Vector<Scalar> U = model.local_velocity(state.v);
    std::vector<Index> at_contact;
    for (Index a = 0; a < m; ++a)
      if (g(a) <= g_tol || std::find(closed.begin(), closed.end(), a) != closed.end())
        at_contact.push_back(a);
    bool approaching = false;
    for (Index a : at_contact) approaching = approaching || U(a) < -u_tol;
    std::optional<ImpactResult<Scalar>> impact;
    if (approaching) {
      const Scalar E0 = energy();
      impact =
          solve_impact<Scalar>(model.G, Minv_G, model.e, state.v, at_contact, options.lcp_method);
      state.v = impact->v_plus;
      const Scalar E1 = energy();
      for (Index a : at_contact) {
        if (impact->impulse(a) == Scalar(0) && !(U(a) < -u_tol)) continue;
        push(events, Event<Scalar>{state.t, EventKind::impact, a, impact->U_minus(a),
                                   impact->U_plus(a), impact->impulse(a), E0, E1});
        acc_last_U(a) = impact->U_minus(a);
        acc_touched[static_cast<std::size_t>(a)] = true;
      }
      acc_impulse += impact->impulse;
      acc_W_impact += impact->kinetic_change;
      acc_posed = true;
      acc_lcp = impact->lcp;
      U = impact->U_plus;
      update_scales();
    }
    const Index exclude =
        (trigger && *trigger == Trigger::multiplier) ? trigger_contact : Index(-1);
    const Index force =
        (trigger && *trigger == Trigger::gap && !approaching) ? trigger_contact : Index(-1);
    if (impact) accumulation(*impact, events);
    decide_mode(exclude, force, events);
  }

  /// Zero test of the k-th Taylor coefficient g_k = g^(k) / k! of a gap (k >= 1): the velocity
  /// tolerance over t_ref^(k-1). The gap monitors of advance_to() deflate with the same numbers.
  Scalar gap_coefficient_tol(int k, const Scalar& t_ref) const {
    Scalar p = velocity_tol();
    for (int i = 1; i < k; ++i) p /= t_ref;
    return p;
  }

  /// Decision margin of the derivative hierarchy: a coefficient decides only when it is this many
  /// times above its zero test, so the monitor of the next segment (which deflates below the
  /// deciding order) cannot read its sign differently.
  static constexpr int decision_margin = 16;

  /// The closed set among the contacts with g = 0 and U = 0 (Pfeiffer & Glocker 1996, sec. 6.3;
  /// Lötstedt, SIAM J. Appl. Math. 42 (1982)): the acceleration LCP
  ///   0 <= W_A lambda + G_A^T M^-1 f  _|_  lambda >= 0
  /// decides every contact whose multiplier or relative acceleration is clearly nonzero. A contact
  /// with both zero to tolerance (a multiplier that has just reached zero, a grazing arrival, a
  /// bar released with g'' = 0) is decided by the next derivative: with the decided contacts
  /// closed and the degenerate set D open, the gap's Taylor coefficient g_k (k = 3, 4, ...) of the
  /// flow poses 0 <= W_D z + g_k _|_ z >= 0 (z > 0: the contact stays closed, since then
  /// lambda^(k-2) = -W^-1 k! g_k / (k-2)! > 0; W_D z + g_k > 0: it opens). The deciding order is
  /// remembered so that the next segment's monitor of that contact starts at that order.
  /// Contacts degenerate to the last order fall back to the trigger: a gap that has just
  /// arrived closes (`force`), a multiplier that has just vanished opens (`exclude`).
  void decide_mode(Index exclude, Index force, std::vector<Event<Scalar>>* events) {
    const Scalar g_tol = gap_tol();
    const Scalar u_tol = velocity_tol();
    const Vector<Scalar> g = model.gap(state.q);
    const Vector<Scalar> U = model.local_velocity(state.v);
    const std::vector<Index> before = closed;
    decided_order.assign(static_cast<std::size_t>(m), 0);
    // Without a spectral scale (rho = 0: constant acceleration, no higher derivative to
    // consult) the contact whose multiplier has just vanished is left out, as it always was.
    const bool hierarchy = rho > Scalar(0);
    std::vector<Index> A;
    for (Index a = 0; a < m; ++a)
      if ((hierarchy || a != exclude) && g(a) <= g_tol && abs_value<Scalar>(U(a)) <= u_tol)
        A.push_back(a);
    std::vector<Index> new_closed;
    if (!A.empty()) {
      using std::sin;
      const Scalar sn = has_Fa ? Scalar(sin(omega * state.t)) : Scalar(0);
      const Vector<Scalar> y = free_acceleration(state.q, state.v, Scalar(1), sn);
      const Index k = static_cast<Index>(A.size());
      Matrix<Scalar> W(k, k);
      Vector<Scalar> b(k);
      for (Index i = 0; i < k; ++i) {
        for (Index j = 0; j < k; ++j) W(i, j) = model.G.col(A[i]).dot(Minv_G.col(A[j]));
        b(i) = model.G.col(A[i]).dot(y);
      }
      const LcpResult<Scalar> lcp = solve_lcp<Scalar>(options.lcp_method, W, b);
      if (!lcp.ok())
        throw StepError(
            fmt::format("event-driven: acceleration LCP at t = {} not certified "
                        "({}): {}",
                        format_scalar(state.t), to_string(lcp.status), lcp.message));
      Scalar w_min = std::numeric_limits<Scalar>::max();
      for (Index i = 0; i < k; ++i) w_min = std::min(w_min, Scalar(W(i, i)));
      const Scalar lam_tol = rel_tol * std::max(max_abs(lcp.z), Scalar(max_abs(b) / w_min));
      // Degenerate at the acceleration level: multiplier and relative acceleration both below
      // the margin times the zero test of g_2 = g'' / 2 (on the problem's scale, not on the
      // size of this LCP's own data, which is itself zero at a release).
      std::vector<Index> D;
      std::vector<bool> fallback_closed;
      const Scalar t_ref = hierarchy ? time_ref() : Scalar(0);
      const Scalar acc_zero =
          hierarchy ? Scalar(Scalar(2 * decision_margin) * gap_coefficient_tol(2, t_ref))
                    : Scalar(0);
      const Vector<Scalar> w_acc = W * lcp.z + b;
      for (Index i = 0; i < k; ++i) {
        const bool old_closed = lcp.z(i) > lam_tol || A[i] == force;
        if (hierarchy && !(lcp.z(i) * W(i, i) > acc_zero) && !(w_acc(i) > acc_zero)) {
          D.push_back(A[i]);
          fallback_closed.push_back(A[i] != exclude && old_closed);
        } else if (old_closed && A[i] != exclude) {
          new_closed.push_back(A[i]);
        } else if (A[i] == exclude && lcp.z(i) * W(i, i) > acc_zero) {
          new_closed.push_back(A[i]);  // the multiplier is clearly back above zero
        }
      }
      const int max_order = std::min(used_max_order(), 8);
      for (int order = 3; !D.empty() && order <= max_order; ++order) {
        set_mode(new_closed);
        series();
        if (used < order) break;
        const Index d = static_cast<Index>(D.size());
        Matrix<Scalar> WD(d, d);
        Vector<Scalar> gk(d);
        for (Index i = 0; i < d; ++i) {
          for (Index j = 0; j < d; ++j) WD(i, j) = model.G.col(D[i]).dot(Minv_G.col(D[j]));
          gk(i) = model.G.col(D[i]).dot(qk[order]);
        }
        const LcpResult<Scalar> lk = solve_lcp<Scalar>(options.lcp_method, WD, gk);
        if (!lk.ok())
          throw StepError(
              fmt::format("event-driven: order-{} contact LCP at t = {} not certified ({}): {}",
                          order, format_scalar(state.t), to_string(lk.status), lk.message));
        const Scalar zero_k = Scalar(decision_margin) * gap_coefficient_tol(order, t_ref);
        const Vector<Scalar> wk = WD * lk.z + gk;
        std::vector<Index> still;
        std::vector<bool> still_fallback;
        for (Index i = 0; i < d; ++i) {
          if (lk.z(i) * WD(i, i) > zero_k) {
            new_closed.push_back(D[i]);
            decided_order[static_cast<std::size_t>(D[i])] = order;
          } else if (wk(i) > zero_k) {
            decided_order[static_cast<std::size_t>(D[i])] = order;
          } else {
            still.push_back(D[i]);
            still_fallback.push_back(fallback_closed[static_cast<std::size_t>(i)]);
          }
        }
        D = std::move(still);
        fallback_closed = std::move(still_fallback);
      }
      for (std::size_t i = 0; i < D.size(); ++i)
        if (fallback_closed[i]) new_closed.push_back(D[i]);
    }
    std::sort(new_closed.begin(), new_closed.end());
    const Scalar E = energy();
    const Vector<Scalar> U_now = model.local_velocity(state.v);
    for (Index a : new_closed)
      if (std::find(before.begin(), before.end(), a) == before.end()) {
        push(events, Event<Scalar>{state.t, EventKind::contact_closes, a, U_now(a), U_now(a),
                                   Scalar(0), E, E});
        acc_touched[static_cast<std::size_t>(a)] = true;
      }
    for (Index a : before)
      if (std::find(new_closed.begin(), new_closed.end(), a) == new_closed.end())
        push(events, Event<Scalar>{state.t, EventKind::contact_opens, a, U_now(a), U_now(a),
                                   Scalar(0), E, E});
    if (new_closed != closed) set_mode(new_closed);
  }
  /// Highest Taylor order the series can carry.
  int used_max_order() const { return terms; }
  /// Order at which decide_mode() decided each contact from a higher derivative (0: from the
  /// acceleration LCP or not at contact); read by the next segment's monitors.
  std::vector<int> decided_order;

  /// The accumulation event's impulse is the net jump -W^-1 U+, not the sum (1+e)/(1-e) W^-1 U+
  /// of the bounce impulses: the difference is the smooth force's impulse over the remaining
  /// flights, which the step's momentum balance then counts as contact impulse.
  /// After a bounce with U+ > 0, e < 1 and the free motion pushing back (g'' < 0), the remaining
  /// flights sum to tau / (1 - e), tau = 2 U+ / |g''|. Below the time tolerance, replace them by
  /// their limit: U = 0 on those contacts (and on the closed ones), then close the contacts.
  void accumulation(const ImpactResult<Scalar>& impact, std::vector<Event<Scalar>>* events) {
    const Scalar u_tol = velocity_tol();
    // The jump replaces flights that last less than ~1000 time tolerances in all: far below
    // anything a grid or an event list resolves, but wide enough that the last bounce is
    // still well outside the velocity tolerance (so the jump is never skipped).
    const Scalar t_tol = Scalar(1024) * time_tol();
    const Vector<Scalar> U = model.local_velocity(state.v);
    using std::sin;
    const Scalar sn = has_Fa ? Scalar(sin(omega * state.t)) : Scalar(0);
    const Vector<Scalar> acc =
        constrained(free_acceleration(state.q, state.v, Scalar(1), sn), nullptr);
    std::vector<Index> Z;
    std::vector<Scalar> t_acc;
    for (Index a : impact.index_set) {
      if (!(impact.impulse(a) > Scalar(0)) || !(U(a) > u_tol) || !(model.e(a) < Scalar(1)))
        continue;
      if (std::find(closed.begin(), closed.end(), a) != closed.end()) continue;
      const Scalar g_dd = model.G.col(a).dot(acc);
      if (!(g_dd < Scalar(0))) continue;
      const Scalar tau = Scalar(2) * U(a) / (-g_dd);
      const Scalar total = tau / (Scalar(1) - model.e(a));
      if (total <= t_tol) {
        Z.push_back(a);
        t_acc.push_back(state.t + total);
      }
    }
    if (Z.empty()) return;
    std::vector<Index> S = Z;
    for (Index a : closed)
      if (abs_value<Scalar>(U(a)) <= u_tol) S.push_back(a);
    const Index k = static_cast<Index>(S.size());
    Matrix<Scalar> W(k, k);
    Vector<Scalar> rhs(k);
    for (Index i = 0; i < k; ++i) {
      for (Index j = 0; j < k; ++j) W(i, j) = model.G.col(S[i]).dot(Minv_G.col(S[j]));
      rhs(i) = -U(S[i]);
    }
    const Vector<Scalar> P = Eigen::LDLT<Matrix<Scalar>>(W).solve(rhs);
    const Scalar E0 = energy();
    Vector<Scalar> impulse = Vector<Scalar>::Zero(m);
    for (Index i = 0; i < k; ++i) {
      impulse(S[i]) = P(i);
      state.v += Minv_G.col(S[i]) * P(i);
    }
    const Vector<Scalar> U_after = model.local_velocity(state.v);
    const Scalar E1 = energy();
    for (std::size_t i = 0; i < Z.size(); ++i) {
      const Index a = Z[i];
      push(events, Event<Scalar>{t_acc[i], EventKind::accumulation, a, U(a), U_after(a), impulse(a),
                                 E0, E1});
      acc_touched[static_cast<std::size_t>(a)] = true;
    }
    acc_impulse += impulse;
    acc_W_impact += (U_after + U).dot(impulse) / Scalar(2);
    // The contacts close at the accumulation point (which is within the time tolerance of t).
    const std::size_t first = events ? events->size() : 0;
    decide_mode(-1, -1, events);
    if (events) {
      const Scalar t_close = *std::max_element(t_acc.begin(), t_acc.end());
      for (std::size_t i = first; i < events->size(); ++i) (*events)[i].t = t_close;
    }
  }
};

template <class Scalar>
EventDrivenFlow<Scalar>::EventDrivenFlow(const LinearModel<Scalar>& model,
                                         const State<Scalar>& initial,
                                         const EventDrivenOptions<Scalar>& options)
    : impl_(std::make_unique<Impl>(to_sparse(model), initial, options)) {}

template <class Scalar>
EventDrivenFlow<Scalar>::EventDrivenFlow(const SparseLinearModel<Scalar>& model,
                                         const State<Scalar>& initial,
                                         const EventDrivenOptions<Scalar>& options)
    : impl_(std::make_unique<Impl>(model, initial, options)) {}

template <class Scalar>
EventDrivenFlow<Scalar>::~EventDrivenFlow() = default;
template <class Scalar>
EventDrivenFlow<Scalar>::EventDrivenFlow(EventDrivenFlow&&) noexcept = default;
template <class Scalar>
EventDrivenFlow<Scalar>& EventDrivenFlow<Scalar>::operator=(EventDrivenFlow&&) noexcept = default;

template <class Scalar>
void EventDrivenFlow<Scalar>::advance_to(const Scalar& t_target,
                                         std::vector<Event<Scalar>>* events) {
  impl_->advance_to(t_target, events);
}
template <class Scalar>
const State<Scalar>& EventDrivenFlow<Scalar>::state() const {
  return impl_->state;
}
template <class Scalar>
const std::vector<Index>& EventDrivenFlow<Scalar>::closed_set() const {
  return impl_->closed;
}
template <class Scalar>
const std::vector<Event<Scalar>>& EventDrivenFlow<Scalar>::initial_events() const {
  return impl_->initial_events;
}
template <class Scalar>
Vector<Scalar> EventDrivenFlow<Scalar>::impulse() const {
  return impl_->acc_impulse;
}
template <class Scalar>
Vector<Scalar> EventDrivenFlow<Scalar>::external_impulse() const {
  return impl_->acc_external;
}
template <class Scalar>
Scalar EventDrivenFlow<Scalar>::external_work() const {
  return impl_->acc_W_ext;
}
template <class Scalar>
Scalar EventDrivenFlow<Scalar>::damping_work() const {
  return impl_->acc_W_damp;
}
template <class Scalar>
Scalar EventDrivenFlow<Scalar>::impact_work() const {
  return impl_->acc_W_impact;
}
template <class Scalar>
std::vector<Index> EventDrivenFlow<Scalar>::touched() const {
  std::vector<Index> out;
  for (Index a = 0; a < impl_->m; ++a)
    if (impl_->acc_touched[static_cast<std::size_t>(a)]) out.push_back(a);
  return out;
}
template <class Scalar>
Vector<Scalar> EventDrivenFlow<Scalar>::last_U_minus() const {
  return impl_->acc_last_U;
}
template <class Scalar>
bool EventDrivenFlow<Scalar>::posed_lcp() const {
  return impl_->acc_posed;
}
template <class Scalar>
const LcpResult<Scalar>& EventDrivenFlow<Scalar>::last_lcp() const {
  return impl_->acc_lcp;
}
template <class Scalar>
void EventDrivenFlow<Scalar>::reset_accumulators() {
  impl_->reset();
}

namespace event_detail {
template <class Model, class Scalar>
std::vector<Event<Scalar>> events_of(const Model& model, const State<Scalar>& initial,
                                     const Scalar& T, const EventDrivenOptions<Scalar>& options) {
  model.validate();
  EventDrivenFlow<Scalar> flow(model, initial, options);
  std::vector<Event<Scalar>> events = flow.initial_events();
  flow.advance_to(T, &events);
  return events;
}
}  // namespace event_detail

template <class Scalar>
std::vector<Event<Scalar>> compute_events(const LinearModel<Scalar>& model,
                                          const State<Scalar>& initial, const Scalar& T,
                                          const EventDrivenOptions<Scalar>& options) {
  return event_detail::events_of(model, initial, T, options);
}

template <class Scalar>
std::vector<Event<Scalar>> compute_events(const SparseLinearModel<Scalar>& model,
                                          const State<Scalar>& initial, const Scalar& T,
                                          const EventDrivenOptions<Scalar>& options) {
  return event_detail::events_of(model, initial, T, options);
}

// ---- the Scheme ----

namespace event_detail {
template <class Scalar>
EventDrivenOptions<Scalar> options_from_spec(const SchemeSpec& spec) {
  EventDrivenOptions<Scalar> options;
  if (spec.has("tolerance")) {
    options.tolerance = spec.number<Scalar>("tolerance");
    const Scalar zero(0);
    require_in_range<Scalar>(spec, "tolerance", options.tolerance, &zero, nullptr, ">= 0");
  }
  if (spec.has("lcp")) {
    options.lcp_method = parse_lcp_method(spec.text("lcp"));
    if (options.lcp_method != LcpMethod::lemke && options.lcp_method != LcpMethod::enumeration)
      throw SpecError(spec.name() + ":lcp", "accepted: lemke, enumeration (direct methods)");
  }
  return options;
}
}  // namespace event_detail

template <class Scalar>
EventDriven<Scalar>::EventDriven(const SchemeSpec& spec)
    : spec_(spec), options_(event_detail::options_from_spec<Scalar>(spec)) {}

template <class Scalar>
EventDriven<Scalar>::~EventDriven() = default;

template <class Scalar>
SchemeInfo EventDriven<Scalar>::info() const {
  SchemeInfo info;
  info.family = "event-driven";
  info.spec = spec_.str();
  info.smooth_order = 0;  // exact flow: no truncation error, no order to observe
  info.impulse_lcp = false;
  info.algorithmic_energy = false;
  info.momentum_conserving = true;
  return info;
}

template <class Scalar>
void EventDriven<Scalar>::do_initialize(const LinearModel<Scalar>& model,
                                        const State<Scalar>& initial, const Scalar& h) {
  bind(model, initial, h);
  model_ = &model;
  sparse_model_ = nullptr;
}

template <class Scalar>
void EventDriven<Scalar>::do_initialize(const SparseLinearModel<Scalar>& model,
                                        const State<Scalar>& initial, const Scalar& h) {
  bind(model, initial, h);
  model_ = nullptr;
  sparse_model_ = &model;
}

template <class Scalar>
template <class Model>
void EventDriven<Scalar>::bind(const Model& model, const State<Scalar>& initial, const Scalar& h) {
  if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
  flow_ = std::make_unique<EventDrivenFlow<Scalar>>(model, initial, options_);
  t0_ = initial.t;
  initial_ = initial;
  h_ = h;
  k_ = 0;
}

template <class Scalar>
void EventDriven<Scalar>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  if (!flow_) throw StepError("event-driven: step() before initialize()");
  // The events at t0 (an impact in the initial state) belong to the first step; the kit
  // derives the gaps, local velocities and energies of the states before and after.
  const Scalar target = t0_ + Scalar(k_ + 1) * h_;
  flow_->advance_to(target);
  ++k_;
  state = flow_->state();
  state.t = target;
  summary.step = k_;
  summary.index_set = flow_->touched();
  summary.impulse = flow_->impulse();
  summary.velocity_newton = flow_->last_U_minus();
  summary.external_impulse = flow_->external_impulse();
  summary.lcp_solved = flow_->posed_lcp();
  summary.lcp = flow_->last_lcp();
  summary.W_ext = flow_->external_work();
  summary.W_damp = flow_->damping_work();
  summary.W_contact = flow_->impact_work();
  summary.numerical_dissipation = Scalar(0);
  summary.has_algorithmic_energy = false;
  flow_->reset_accumulators();
}

}  // namespace nsh
