// The smooth flow of the event-driven reference (nsh/schemes/event_driven.hpp): the linear ODE
// X' = A_c X of the augmented state X = (q, v, 1, sin(omega t), cos(omega t)) under the closed
// set c, and its Taylor series on one segment,
//   X(s) = sum_k s^k X_k,   X_{k+1} = A_c X_k / (k + 1),
// with a = y + B_c lambda, lambda = -W_c^-1 G_c^T y, y = M^-1 (F c1 + F_amplitude sn - C v - K q)
// (so that G_c^T a = 0: the closed contacts stay at g = 0, U = 0). The closed set's constraint
// belongs here because it is part of A_c; which contacts are closed is decided in
// contact_modes.hxx. Tested against the closed-form exponential of a 1-dof oscillator in
// core/tests/event_driven_test.cpp.
#pragma once

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/scalar.hpp>

#include <fmt/format.h>
#include <Eigen/Cholesky>
#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace nsh::event_driven::detail {

/// The three parts of the spectral bound rho, kept apart so that a work estimate can name the
/// field that makes rho large.
struct FrequencyBound {
  double stiffness{0};  ///< sqrt(lambda_max(M^-1 K)), from K (and M)
  double damping{0};    ///< |M^-1 C|, from C (and M)
  double forcing{0};    ///< |omega| of the harmonic force (0 without one)
  double total() const { return stiffness + damping + forcing; }
};

/// Spectral bound rho of the balanced first-order operator, computed in double (DESIGN: spectral
/// radii in double): sqrt(lambda_max(M^-1 K)) + |M^-1 C| + |omega|.
inline FrequencyBound frequency_bound(const SparseMatrix<double>& Ms,
                                      const SparseMatrix<double>& Ks,
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
    // With a lumped (diagonal) mass the infinity norm of M^-1 A is a row sum, O(nnz), and a
    // rigorous bound of the spectral radius; take it where it is below the power estimate
    // (for the finite-element bar it is 4 k / m, half of 2 x the power iteration's lambda_max,
    // hence sqrt(2) fewer segments).
    bool diagonal = true;
    for (Index j = 0; j < Ms.outerSize() && diagonal; ++j)
      for (SparseMatrix<double>::InnerIterator it(Ms, j); it; ++it)
        if (it.row() != it.col() && it.value() != 0) diagonal = false;
    auto row_sum_bound = [&](const SparseMatrix<double>& A) {
      Vector<double> sums = Vector<double>::Zero(n);
      for (Index j = 0; j < A.outerSize(); ++j)
        for (SparseMatrix<double>::InnerIterator it(A, j); it; ++it)
          sums(it.row()) += std::abs(it.value());
      double best = 0;
      for (Index i = 0; i < n; ++i) best = std::max(best, sums(i) / Ms.coeff(i, i));
      return best;
    };
    if (has_k) lambda_k = power(Ks);
    if (has_c) rho_c = power(Cs);
    if (diagonal) {
      if (has_k) lambda_k = std::min(lambda_k, row_sum_bound(Ks));
      if (has_c) rho_c = std::min(rho_c, row_sum_bound(Cs));
    }
  }
  return FrequencyBound{std::sqrt(lambda_k), rho_c, std::abs(omega)};
}

/// max |x_i|: Eigen's vectorized reduction in double (the same value: a maximum is exact), the
/// generic loop of nsh/scalar.hpp otherwise.
template <class Scalar>
Scalar max_norm(const Vector<Scalar>& x) {
  if constexpr (std::is_same_v<Scalar, double>) {
    return x.size() == 0 ? 0.0 : x.cwiseAbs().maxCoeff();
  } else {
    return max_abs(x);
  }
}

/// True if every entry is zero (stops at the first that is not).
template <class Scalar>
bool all_zero(const Vector<Scalar>& x) {
  for (Index i = 0; i < x.size(); ++i)
    if (x(i) != Scalar(0)) return false;
  return true;
}

/// Quantities integrated over the segments since the flow's last reset (the step's ledger).
template <class Scalar>
struct SegmentIntegrals {
  Vector<Scalar> impulse;   ///< integral of lambda dt per contact (m; impacts add to it too)
  Vector<Scalar> external;  ///< integral of F - C v - K q dt (n)
  Scalar W_ext{0};          ///< integral of v^T F dt
  Scalar W_damp{0};         ///< -integral of v^T C v dt
};

/// The operator A_c of the closed set c and its Taylor series at a state. Holds a reference to
/// the model, which must outlive it.
template <class Scalar>
struct TaylorFlow {
  using Sparse = SparseMatrix<Scalar>;

  /// Segment length times rho. The series costs about terms / reach per unit time (x^k / k! <
  /// eps / 64 needs 16 terms at x = 1/2, 25 at x = 2, 34 at x = 4, in double), and its largest
  /// term, hence its round-off, grows like e^x / sqrt(2 pi x): 4 is 3.8 times cheaper than 1/2
  /// (measured: the bar at N = 1000, 0.56 s at x = 2, 0.37 s at x = 4 per 0.2 time units) for a
  /// loss of about 11 eps. The fastest mode then turns 0.64 of a period per segment, still 25
  /// root-search samples per period.
  static constexpr int segment_reach = 4;

  const SparseLinearModel<Scalar>& model;
  Index n{0}, m{0};

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
  // Row-major copies of K and C for the sparse path: a row's products are accumulated in the
  // order of Eigen's column-major product (j increasing), so f is the same bit for bit, without
  // the scatter into a zeroed temporary.
  Eigen::SparseMatrix<Scalar, Eigen::RowMajor> K_rows, C_rows;
  // Workspace of series(): no allocation per term.
  Vector<Scalar> work_f, work_y, work_a;

  // The closed set's constraint: lambda = -Wc^-1 G_c^T y, a = y + B_c lambda (y = M^-1 f).
  Matrix<Scalar> Gc, Bc, Wc_inv;

  // Series.
  int terms{0};              ///< a priori term count: reach^k / k! < epsilon / 64
  int used{0};               ///< terms of the current series (< terms when it terminated exactly)
  FrequencyBound frequency;  ///< rho's parts, in double
  Scalar rho{0};             ///< spectral bound; 0: the flow is polynomial (nilpotent operator)
  Scalar seg_max{0};         ///< segment_reach / rho, 0 for unlimited
  std::vector<Vector<Scalar>> qk, vk, lamk;
  std::vector<Scalar> c1k, snk, csk;

  /// The model must be validated.
  explicit TaylorFlow(const SparseLinearModel<Scalar>& model_) : model(model_) {
    n = model.dofs();
    m = model.contacts();
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
    if (!dense) {
      if (has_K) K_rows = model.K;
      if (has_C) C_rows = model.C;
    }
    work_f.resize(n);
    work_y.resize(n);
    work_a.resize(n);
    Minv_G.resize(n, m);
    for (Index a = 0; a < m; ++a) Minv_G.col(a) = solve_M(model.G.col(a));
    Minv_F0 = solve_M(model.F);
    Minv_Fa = has_Fa ? solve_M(model.F_amplitude) : Vector<Scalar>::Zero(n);

    frequency =
        frequency_bound(model.M.template cast<double>(), model.K.template cast<double>(),
                        model.C.template cast<double>(), has_Fa ? scalar_cast<double>(omega) : 0.0);
    rho = Scalar(frequency.total());
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
    qk.assign(terms + 1, Vector<Scalar>::Zero(n));
    vk.assign(terms + 1, Vector<Scalar>::Zero(n));
    lamk.assign(terms + 1, Vector<Scalar>());
    c1k.assign(terms + 1, Scalar(0));
    snk.assign(terms + 1, Scalar(0));
    csk.assign(terms + 1, Scalar(0));
    constrain({}, Scalar(0));
  }

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

  /// y = M^-1 f for the augmented state (q, v, c1, sn), into y (sized n; f is workspace).
  void free_acceleration_into(const Vector<Scalar>& q, const Vector<Scalar>& v, const Scalar& c1,
                              const Scalar& sn, Vector<Scalar>& y, Vector<Scalar>& f) const {
    if (dense) {
      y.setZero();
      if (has_K) y.noalias() -= Minv_K * q;
      if (has_C) y.noalias() -= Minv_C * v;
    } else if (has_K || has_C) {
      // f = -K q - C v, each row in the order of the column-major product; with a lumped mass
      // y = f / m in the same pass.
      const bool lumped = M_diagonal_inverse.size() != 0;
      const auto* Kp = K_rows.outerIndexPtr();
      const auto* Kj = K_rows.innerIndexPtr();
      const Scalar* Kv = K_rows.valuePtr();
      const auto* Cp = C_rows.outerIndexPtr();
      const auto* Cj = C_rows.innerIndexPtr();
      const Scalar* Cv = C_rows.valuePtr();
      const Scalar* qd = q.data();
      const Scalar* vd = v.data();
      const Scalar* inverse_mass = M_diagonal_inverse.data();
      Scalar* out = lumped ? y.data() : f.data();
      // Locals, so that the stores through `out` do not force reloads of the members.
      const bool with_K = has_K, with_C = has_C;
      const Index rows = n;
      for (Index i = 0; i < rows; ++i) {
        Scalar fi(0);
        if (with_K)
          for (auto p = Kp[i]; p < Kp[i + 1]; ++p) fi -= Kv[p] * qd[Kj[p]];
        if (with_C)
          for (auto p = Cp[i]; p < Cp[i + 1]; ++p) fi -= Cv[p] * vd[Cj[p]];
        out[i] = lumped ? Scalar(inverse_mass[i] * fi) : fi;
      }
      if (!lumped) y = M_ldlt.solve(f);
    } else {
      y.setZero();
    }
    if (has_F0 && c1 != Scalar(0)) y += c1 * Minv_F0;
    if (has_Fa && sn != Scalar(0)) y += sn * Minv_Fa;
  }

  /// y = M^-1 f for the augmented state (q, v, c1, sn).
  Vector<Scalar> free_acceleration(const Vector<Scalar>& q, const Vector<Scalar>& v,
                                   const Scalar& c1, const Scalar& sn) const {
    Vector<Scalar> y(n), f(n);
    free_acceleration_into(q, v, c1, sn, y, f);
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

  /// The constraint of the closed set `closed` (sorted); `t` only names the instant in the
  /// StepError of dependent gradients.
  void constrain(const std::vector<Index>& closed, const Scalar& t) {
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
                        mc, format_scalar(t)));
      Wc_inv = ldlt.solve(Matrix<Scalar>::Identity(mc, mc));
    } else {
      Wc_inv.resize(0, 0);
    }
  }

  /// Taylor coefficients of the augmented state (and of lambda) at `state`.
  void series(const State<Scalar>& state) {
    using std::cos;
    using std::sin;
    qk[0] = state.q;
    vk[0] = state.v;
    c1k[0] = Scalar(1);
    snk[0] = has_Fa ? Scalar(sin(omega * state.t)) : Scalar(0);
    csk[0] = has_Fa ? Scalar(cos(omega * state.t)) : Scalar(0);
    int last = terms;
    for (int k = 0; k < terms; ++k) {
      free_acceleration_into(qk[k], vk[k], c1k[k], snk[k], work_y, work_f);
      const Vector<Scalar>& a = constrained_into(work_y, lamk[k]);
      const Scalar inv = Scalar(1) / Scalar(k + 1);
      qk[k + 1] = vk[k] * inv;
      vk[k + 1] = a * inv;
      c1k[k + 1] = Scalar(0);
      snk[k + 1] = omega * csk[k] * inv;
      csk[k + 1] = -omega * snk[k] * inv;
      if (snk[k + 1] == Scalar(0) && csk[k + 1] == Scalar(0) && all_zero(qk[k + 1]) &&
          all_zero(vk[k + 1])) {
        last = k + 1;  // nilpotent: the series has terminated exactly
        break;
      }
    }
    // lambda of the last term.
    free_acceleration_into(qk[last], vk[last], c1k[last], snk[last], work_y, work_f);
    constrained_into(work_y, lamk[last]);
    used = last;
  }

  /// constrained() into the workspace: lambda into `lambda`, a = y + B_c lambda returned (y
  /// itself when the closed set is empty).
  const Vector<Scalar>& constrained_into(const Vector<Scalar>& y, Vector<Scalar>& lambda) {
    if (Gc.cols() == 0) {
      lambda.resize(0);
      return y;
    }
    lambda = -(Wc_inv * (Gc.transpose() * y));
    work_a = y + Bc * lambda;
    return work_a;
  }

  /// The longest s <= S (S halved until it holds) on which the series' last two terms are
  /// below epsilon / 64 of its largest one, in the balanced size rho |q_k| + |v_k|: an a
  /// posteriori check of the a priori term count, which rests on rho's estimate.
  Scalar series_reach(Scalar S) const {
    if (used < terms || !(rho > Scalar(0))) return S;  // terminated exactly, or no rho
    std::vector<Scalar> size(static_cast<std::size_t>(used + 1));
    for (int k = 0; k <= used; ++k) size[k] = rho * max_norm(qk[k]) + max_norm(vk[k]);
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

  /// (q, v) at s into the segment (t is left to the caller).
  State<Scalar> evaluate(const Scalar& s) const {
    State<Scalar> out;
    out.q = qk[used];
    out.v = vk[used];
    // Horner in s, one pass per term over q and v together.
    Scalar* q = out.q.data();
    Scalar* v = out.v.data();
    for (int k = used; k-- > 0;) {
      const Scalar* qc = qk[k].data();
      const Scalar* vc = vk[k].data();
      for (Index i = 0; i < n; ++i) {
        q[i] = q[i] * s + qc[i];
        v[i] = v[i] * s + vc[i];
      }
    }
    return out;
  }

  /// Add the integrals of the segment [0, s] from `start` to `end` to `sum`; `closed` is the
  /// closed set the series was computed with.
  void integrate(const Scalar& s, const State<Scalar>& start, const State<Scalar>& end,
                 const std::vector<Index>& closed, SegmentIntegrals<Scalar>& sum) const {
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
      sum.impulse(closed[j]) += total;
    }
    Vector<Scalar> ext = Vector<Scalar>::Zero(n);
    if (has_F0) {
      ext += model.F * s;
      sum.W_ext += model.F.dot(end.q - start.q);
    }
    if (has_Fa) {
      Scalar sn_int(0);
      for (int k = 0; k <= used; ++k) sn_int += snk[k] * ip[k];
      ext += model.F_amplitude * sn_int;
      std::vector<Scalar> fv(static_cast<std::size_t>(used + 1));
      for (int j = 0; j <= used; ++j) fv[j] = model.F_amplitude.dot(vk[j]);
      for (int j = 0; j <= used; ++j)
        for (int k = 0; k <= used; ++k) sum.W_ext += fv[j] * snk[k] * ip[j + k];
    }
    if (has_C) {
      ext -= model.C * (end.q - start.q);
      std::vector<Vector<Scalar>> Cv(static_cast<std::size_t>(used + 1));
      for (int k = 0; k <= used; ++k) Cv[k] = model.C * vk[k];
      for (int j = 0; j <= used; ++j)
        for (int k = 0; k <= used; ++k) sum.W_damp -= vk[j].dot(Cv[k]) * ip[j + k];
    }
    if (has_K) {
      Vector<Scalar> q_int = Vector<Scalar>::Zero(n);
      for (int k = 0; k <= used; ++k) q_int += qk[k] * ip[k];
      ext -= model.K * q_int;
    }
    sum.external += ext;
  }
};

}  // namespace nsh::event_driven::detail
