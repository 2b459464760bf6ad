#pragma once
// Bodies of the step predicates (predicates.hpp), included once per scalar by
// predicates.cpp, predicates_real50.cpp and predicates_rational.cpp.
#include <nsh/format.hpp>
#include <nsh/friction/certificate.hpp>
#include <nsh/number.hpp>
#include <nsh/properties/predicates.hpp>

#include <fmt/format.h>

#include <Eigen/LU>

#include <algorithm>
#include <optional>

namespace nsh::properties {
namespace detail {

template <class Scalar>
Scalar max_of(std::initializer_list<Scalar> xs) {
  Scalar m(0);
  for (const auto& x : xs) {
    const Scalar a = abs_value<Scalar>(x);
    if (a > m) m = a;
  }
  return m;
}

template <class Scalar>
Scalar restitution_of(const StepView<Scalar>& s, Index a) {
  return a < s.model.e.size() ? s.model.e(a) : Scalar(0);
}

template <class Scalar>
bool in_index_set(const StepSummary<Scalar>& step, Index a) {
  return std::find(step.index_set.begin(), step.index_set.end(), a) != step.index_set.end();
}

/// The velocity scale of the step's intermediate quantities (v_free, M^-1 G P): the one-step
/// solve rounds at |external_impulse| + |G| |P| over the smallest mass.
template <class Scalar>
Scalar intermediate_velocity(const StepView<Scalar>& s) {
  Scalar mass = s.model.M(0, 0);
  for (Index i = 1; i < s.model.dofs(); ++i)
    if (s.model.M(i, i) < mass) mass = s.model.M(i, i);
  const Scalar push =
      max_abs(s.step.external_impulse) + max_abs(s.model.G) * max_abs(s.step.impulse);
  return mass > Scalar(0) ? Scalar(push / mass) : push;
}

/// Tolerance for local-velocity comparisons: the scale of U, e U, P times the Delassus scale.
template <class Scalar>
Scalar velocity_tolerance(const StepView<Scalar>& s) {
  const Index n = s.model.dofs();
  const Index m = s.model.contacts();
  Scalar scale = max_abs(s.step.velocity_after) + max_abs(s.step.velocity_newton) +
                 max_abs(s.step.velocity_before) + max_abs(s.model.G) * max_abs(s.before.v) +
                 max_abs(s.model.G) * max_abs(s.after.v);
  // The impulse and the smooth forces move v by [v]; a velocity is rounded at that scale.
  scale += max_abs(s.model.G) *
           (max_abs(Vector<Scalar>(s.after.v - s.before.v)) + intermediate_velocity(s));
  // The rounding the states inherited from the run's earlier, larger velocities.
  scale += max_abs(s.model.G) * s.inherited_velocity;
  if (scale == Scalar(0)) scale = Scalar(1);
  return tolerance<Scalar>(scale, Scalar(256 * (n + m + 1) * (n + 1)));
}

template <class Scalar>
Scalar impulse_tolerance(const StepView<Scalar>& s) {
  const Index n = s.model.dofs();
  const Index m = s.model.contacts();
  Scalar scale =
      max_abs(s.step.impulse) + max_abs(s.model.M) * (max_abs(s.before.v) + max_abs(s.after.v));
  scale += max_abs(s.model.M) * s.inherited_velocity;  // as in velocity_tolerance
  if (scale == Scalar(0)) scale = Scalar(1);
  return tolerance<Scalar>(scale, Scalar(256 * (n + m + 1) * (n + 1)));
}

template <class Scalar>
Scalar energy_scale(const StepView<Scalar>& s, const Scalar& E0, const Scalar& E1) {
  const auto& st = s.step;
  Scalar scale = max_of<Scalar>({E0, E1, st.W_ext, st.W_damp, st.W_contact,
                                 st.numerical_dissipation, st.E_alg_before, st.E_alg_after});
  // Cancellation inside E itself: the terms 1/2 |M| |v|^2 and 1/2 |K| |q|^2.
  const Scalar vv = max_abs(s.before.v) + max_abs(s.after.v);
  const Scalar qq = max_abs(s.before.q) + max_abs(s.after.q);
  scale += max_abs(s.model.M) * vv * vv + max_abs(s.model.K) * qq * qq;
  // v_{k+1} is rounded at the scale of the velocity jump [v] (impulse + smooth forces), so E
  // carries errors of |M| |v| |[v]|, and the work terms errors of h |F| |[v]|.
  const Scalar dv = max_abs(Vector<Scalar>(s.after.v - s.before.v)) + intermediate_velocity(s);
  scale +=
      max_abs(s.model.M) * (vv + dv) * dv + s.step.h * max_abs(s.model.F) * (vv + dv) +
      (max_abs(s.step.external_impulse) + max_abs(s.model.G) * max_abs(s.step.impulse)) * (vv + dv);
  // Work terms written with the position increment [q] = q_{k+1} - q_k (the Newmark family's
  // W_ext = [q]^T F, W_damp = -[q]^T C [q] / h) carry [q]'s rounding, which is at the scale of
  // |q|, not of |[q]|: errors of |q| |F| and |q| |C| |v|. They dominate when |q| >> |[q]|
  // (small h far from the origin: a deep-sweep false alarm at h = 1/1024).
  scale += qq * (max_abs(s.model.F) + max_abs(s.model.C) * (vv + dv));
  if (scale == Scalar(0)) scale = Scalar(1);
  return scale;
}

template <class Scalar>
Scalar energy_tolerance(const StepView<Scalar>& s, const Scalar& E0, const Scalar& E1) {
  const Index n = s.model.dofs();
  const Index m = s.model.contacts();
  return tolerance<Scalar>(energy_scale(s, E0, E1), Scalar(256 * (n + m + 1) * (n + 1)));
}

template <class Scalar>
std::string txt(const Scalar& x) {
  return format_scalar(x);
}

template <class Scalar>
bool has_tangential(const StepSummary<Scalar>& st) {
  const Index md = st.tangential_impulse.size();
  return st.tangent_directions > 0 && md > 0 && st.tangential_velocity_after.size() == md &&
         st.tangential_velocity_before.size() == md;
}

template <class Scalar>
Judgement broken(std::string detail, std::vector<std::pair<std::string, std::string>> values) {
  Judgement j;
  j.holds = false;
  j.detail = std::move(detail);
  j.values = std::move(values);
  return j;
}

}  // namespace detail

template <class Scalar>
Judgement impact_work_nonpositive(const StepView<Scalar>& s) {
  const auto& st = s.step;
  const Index m = st.impulse.size();
  if (m == 0) return {};
  if (st.velocity_after.size() != m || st.velocity_newton.size() != m)
    return detail::broken<Scalar>("velocity_after / velocity_newton not sized to the contacts", {});
  Scalar work(0);
  for (Index a = 0; a < m; ++a)
    work += (st.velocity_after(a) + st.velocity_newton(a)) * st.impulse(a) / Scalar(2);
  Scalar tol =
      detail::velocity_tolerance(s) * (max_abs(st.impulse) + Scalar(1)) +
      detail::impulse_tolerance(s) * (max_abs(st.velocity_after) + max_abs(st.velocity_newton));
  // Friction: the tangential half of 1/2 P^T (U+ + U-) (docs/theory.md §9.2), U- = U_T,k.
  const bool tangential = detail::has_tangential(st);
  Scalar tangential_work(0);
  if (tangential) {
    for (Index i = 0; i < st.tangential_impulse.size(); ++i)
      tangential_work += (st.tangential_velocity_after(i) + st.tangential_velocity_before(i)) *
                         st.tangential_impulse(i) / Scalar(2);
    work += tangential_work;
    tol += detail::velocity_tolerance(s) * max_abs(st.tangential_impulse) +
           detail::impulse_tolerance(s) *
               (max_abs(st.tangential_velocity_after) + max_abs(st.tangential_velocity_before));
  }
  if (work > tol) {
    std::vector<std::pair<std::string, std::string>> values{{"W_impact", detail::txt(work)},
                                                            {"tolerance", detail::txt(tol)}};
    if (tangential) values.push_back({"tangential part", detail::txt(tangential_work)});
    for (Index a = 0; a < m; ++a) {
      values.push_back({fmt::format("P[{}]", a), detail::txt<Scalar>(st.impulse(a))});
      values.push_back(
          {fmt::format("U_newton[{}]", a), detail::txt<Scalar>(st.velocity_newton(a))});
    }
    return detail::broken<Scalar>(
        fmt::format("step {}: impact work 1/2 (U_{{k+1}} + U_newton)^T P = {} > 0", st.step,
                    format_short(work)),
        std::move(values));
  }
  return {};
}

template <class Scalar>
Judgement newton_restitution(const StepView<Scalar>& s) {
  const auto& st = s.step;
  const Index m = st.impulse.size();
  const Scalar ptol = detail::impulse_tolerance(s);
  const Scalar vtol = detail::velocity_tolerance(s);
  for (Index a = 0; a < m; ++a) {
    if (st.impulse(a) <= ptol) continue;
    if (!detail::in_index_set(st, a))
      return detail::broken<Scalar>(
          fmt::format("step {}: contact {} has impulse {} but is not in the index set", st.step, a,
                      format_short<Scalar>(st.impulse(a))),
          {{fmt::format("P[{}]", a), detail::txt<Scalar>(st.impulse(a))}});
    const Scalar e = detail::restitution_of(s, a);
    const Scalar target = -e * st.velocity_newton(a);
    const Scalar defect = st.velocity_after(a) - target;
    if (abs_value(defect) > vtol)
      return detail::broken<Scalar>(
          fmt::format("step {}: contact {} has P = {} > 0 but U_{{k+1}} = {} != -e U_newton = {}",
                      st.step, a, format_short<Scalar>(st.impulse(a)),
                      format_short<Scalar>(st.velocity_after(a)), format_short(target)),
          {{fmt::format("P[{}]", a), detail::txt<Scalar>(st.impulse(a))},
           {fmt::format("U_after[{}]", a), detail::txt<Scalar>(st.velocity_after(a))},
           {fmt::format("U_newton[{}]", a), detail::txt<Scalar>(st.velocity_newton(a))},
           {fmt::format("e[{}]", a), detail::txt(e)},
           {"defect", detail::txt(defect)}});
  }
  return {};
}

template <class Scalar>
Judgement signorini_complementarity(const StepView<Scalar>& s) {
  const auto& st = s.step;
  const Index m = st.impulse.size();
  const Scalar ptol = detail::impulse_tolerance(s);
  const Scalar vtol = detail::velocity_tolerance(s);
  for (Index a = 0; a < m; ++a) {
    const Scalar P = st.impulse(a);
    if (!detail::in_index_set(st, a)) {
      if (P != Scalar(0))
        return detail::broken<Scalar>(
            fmt::format("step {}: contact {} is outside the index set but P = {}", st.step, a,
                        format_short(P)),
            {{fmt::format("P[{}]", a), detail::txt(P)}});
      continue;
    }
    const Scalar shifted =
        st.velocity_after(a) + detail::restitution_of(s, a) * st.velocity_newton(a);
    const Scalar gap = abs_value<Scalar>(P * shifted);
    const bool bad = P < -ptol || shifted < -vtol ||
                     gap > ptol * (abs_value(shifted) + vtol) + vtol * abs_value(P);
    if (bad)
      return detail::broken<Scalar>(
          fmt::format("step {}: contact {} breaks 0 <= U_{{k+1}} + e U_newton = {} _|_ P = {} >= 0",
                      st.step, a, format_short(shifted), format_short(P)),
          {{fmt::format("P[{}]", a), detail::txt(P)},
           {fmt::format("U_after[{}] + e U_newton[{}]", a, a), detail::txt(shifted)},
           {"impulse tolerance", detail::txt(ptol)},
           {"velocity tolerance", detail::txt(vtol)}});
  }
  return {};
}

template <class Scalar>
Judgement lcp_certificate(const StepView<Scalar>& s) {
  const auto& st = s.step;
  if (st.index_set.empty()) return {};
  const Index k = static_cast<Index>(st.index_set.size());
  if (!st.lcp_solved || st.lcp.status != LcpStatus::solved || !st.lcp.certificate.accepted)
    return detail::broken<Scalar>(
        fmt::format("step {}: the impulse LCP was not certified (status {}, accepted {})", st.step,
                    to_string(st.lcp.status), st.lcp.certificate.accepted),
        {{"natural_map (reported)", detail::txt(st.lcp.certificate.natural_map)}});
  if (st.lcp.z.size() != k || st.lcp.w.size() != k)
    return detail::broken<Scalar>(
        fmt::format("step {}: the LCP has {} unknowns for an index set of {}", st.step,
                    st.lcp.z.size(), k),
        {});
  const Scalar ptol = detail::impulse_tolerance(s);
  const Scalar vtol = detail::velocity_tolerance(s);
  Scalar natural(0);
  for (Index i = 0; i < k; ++i) {
    const Index a = st.index_set[static_cast<std::size_t>(i)];
    const Scalar z = st.impulse(a);
    const Scalar w = st.velocity_after(a) + detail::restitution_of(s, a) * st.velocity_newton(a);
    if (abs_value<Scalar>(st.lcp.z(i) - z) > ptol)
      return detail::broken<Scalar>(
          fmt::format("step {}: LCP z[{}] = {} is not the impulse P[{}] = {}", st.step, i,
                      format_short<Scalar>(st.lcp.z(i)), a, format_short(z)),
          {{"z", detail::txt<Scalar>(st.lcp.z(i))}, {"P", detail::txt(z)}});
    if (abs_value<Scalar>(st.lcp.w(i) - w) > vtol)
      return detail::broken<Scalar>(
          fmt::format("step {}: LCP w[{}] = {} is not U_{{k+1}} + e U_newton = {} on contact {}",
                      st.step, i, format_short<Scalar>(st.lcp.w(i)), format_short(w), a),
          {{"w (reported)", detail::txt<Scalar>(st.lcp.w(i))}, {"w (recomputed)", detail::txt(w)}});
    const Scalar nm = abs_value<Scalar>(z < w ? z : w);
    if (nm > natural) natural = nm;
  }
  if (natural > ptol + vtol)
    return detail::broken<Scalar>(
        fmt::format("step {}: recomputed natural map ||min(z, w)|| = {} exceeds {}", st.step,
                    format_short(natural), format_short<Scalar>(ptol + vtol)),
        {{"natural_map (recomputed)", detail::txt(natural)},
         {"natural_map (reported)", detail::txt(st.lcp.certificate.natural_map)},
         {"tolerance", detail::txt<Scalar>(ptol + vtol)}});
  return {};
}

template <class Scalar>
Matrix<Scalar> momentum_directions(const LinearModel<Scalar>& model) {
  const Index n = model.dofs();
  const Index m = model.contacts();
  // K c = C c = 0 only: along such c the contact impulses enter the balance as (G^T c)^T P,
  // so the impulses a scheme reports are checked against the momentum jump of its states.
  (void)m;
  Matrix<Scalar> A(2 * n, n);
  A << model.K, model.C;
  Scalar scale = max_abs(A);
  if (scale == Scalar(0)) return Matrix<Scalar>::Identity(n, n);
  const Scalar tol = tolerance<Scalar>(scale, Scalar(64 * (n + 1)));
  // Reduced row echelon form; the free columns give the null-space basis.
  std::vector<Index> pivot_cols;
  Index row = 0;
  for (Index col = 0; col < n && row < A.rows(); ++col) {
    Index best = row;
    for (Index r = row; r < A.rows(); ++r)
      if (abs_value<Scalar>(A(r, col)) > abs_value<Scalar>(A(best, col))) best = r;
    if (abs_value<Scalar>(A(best, col)) <= tol) continue;
    A.row(row).swap(A.row(best));
    const Scalar p = A(row, col);
    for (Index j = 0; j < n; ++j) A(row, j) = A(row, j) / p;
    for (Index r = 0; r < A.rows(); ++r)
      if (r != row && A(r, col) != Scalar(0)) {
        const Scalar f = A(r, col);
        for (Index j = 0; j < n; ++j) A(r, j) = A(r, j) - f * A(row, j);
      }
    pivot_cols.push_back(col);
    ++row;
  }
  std::vector<Index> free_cols;
  for (Index col = 0; col < n; ++col)
    if (std::find(pivot_cols.begin(), pivot_cols.end(), col) == pivot_cols.end())
      free_cols.push_back(col);
  Matrix<Scalar> basis = Matrix<Scalar>::Zero(n, static_cast<Index>(free_cols.size()));
  for (std::size_t f = 0; f < free_cols.size(); ++f) {
    const Index fc = free_cols[f];
    basis(fc, static_cast<Index>(f)) = Scalar(1);
    for (std::size_t p = 0; p < pivot_cols.size(); ++p)
      basis(pivot_cols[p], static_cast<Index>(f)) = -A(static_cast<Index>(p), fc);
  }
  return basis;
}

template <class Scalar>
Judgement momentum_balance(const StepView<Scalar>& s) {
  const auto& st = s.step;
  const Index n = s.model.dofs();
  if (st.external_impulse.size() != n)
    return detail::broken<Scalar>(
        fmt::format("step {}: external_impulse has {} entries, expected {}", st.step,
                    st.external_impulse.size(), n),
        {});
  const Index m = s.model.contacts();
  if (st.impulse.size() != m)
    return detail::broken<Scalar>(
        fmt::format("step {}: impulse has {} entries, expected {}", st.step, st.impulse.size(), m),
        {});
  const Matrix<Scalar> basis = momentum_directions(s.model);
  const Vector<Scalar> dv = s.after.v - s.before.v;
  const Vector<Scalar> Mdv = s.model.M * dv;
  for (Index j = 0; j < basis.cols(); ++j) {
    const Vector<Scalar> c = basis.col(j);
    const Scalar lhs = c.dot(Mdv);
    const Vector<Scalar> Gc = s.model.G.transpose() * c;
    Scalar rhs = c.dot(st.external_impulse) + (m ? Gc.dot(st.impulse) : Scalar(0));
    Scalar scale = max_abs(c) * (max_abs(s.model.M) * (max_abs(s.before.v) + max_abs(s.after.v)) +
                                 max_abs(st.external_impulse) +
                                 max_abs(s.model.G) * max_abs(st.impulse) * Scalar(m + 1));
    if (m && st.forecast_impulse.size() == m) {  // half-explicit-tdg's forecast force
      rhs += Gc.dot(st.forecast_impulse);
      scale += max_abs(c) * max_abs(s.model.G) * max_abs(st.forecast_impulse) * Scalar(m + 1);
    }
    if (detail::has_tangential(st) && s.model.G_T.cols() == st.tangential_impulse.size()) {
      const Vector<Scalar> GTc = s.model.G_T.transpose() * c;
      rhs += GTc.dot(st.tangential_impulse);
      scale += max_abs(c) * max_abs(s.model.G_T) * max_abs(st.tangential_impulse) *
               Scalar(st.tangential_impulse.size() + 1);
      if (st.forecast_tangential_impulse.size() == st.tangential_impulse.size()) {
        rhs += GTc.dot(st.forecast_tangential_impulse);  // half-explicit-tdg's forecast force
        scale += max_abs(c) * max_abs(s.model.G_T) * max_abs(st.forecast_tangential_impulse) *
                 Scalar(st.tangential_impulse.size() + 1);
      }
    }
    if (scale == Scalar(0)) scale = Scalar(1);
    const Scalar tol = tolerance<Scalar>(scale, Scalar(256 * (n + 1) * (n + 1)));
    if (abs_value<Scalar>(lhs - rhs) > tol)
      return detail::broken<Scalar>(
          fmt::format("step {}: along c = {}, c^T M [v] = {} but c^T external_impulse + "
                      "(G^T c)^T P = {}",
                      st.step, format_vector(c), format_short(lhs), format_short(rhs)),
          {{"c^T M [v]", detail::txt(lhs)},
           {"c^T external_impulse + (G^T c)^T P", detail::txt(rhs)},
           {"difference", detail::txt<Scalar>(lhs - rhs)},
           {"tolerance", detail::txt(tol)}});
  }
  return {};
}

template <class Scalar>
Judgement energy_identity(const StepView<Scalar>& s) {
  const auto& st = s.step;
  const Scalar E0 = s.model.energy(s.before.q, s.before.v);
  const Scalar E1 = s.model.energy(s.after.q, s.after.v);
  const Scalar tol = detail::energy_tolerance(s, E0, E1);
  const Scalar defect =
      (E1 - E0) - (st.W_ext + st.W_damp + st.W_contact - st.numerical_dissipation);
  std::vector<std::pair<std::string, std::string>> values{
      {"E_before (recomputed)", detail::txt(E0)},
      {"E_after (recomputed)", detail::txt(E1)},
      {"W_ext", detail::txt(st.W_ext)},
      {"W_damp", detail::txt(st.W_damp)},
      {"W_contact", detail::txt(st.W_contact)},
      {"numerical_dissipation", detail::txt(st.numerical_dissipation)},
      {"defect", detail::txt(defect)},
      {"tolerance", detail::txt(tol)}};
  if (abs_value<Scalar>(st.E_before - E0) > tol || abs_value<Scalar>(st.E_after - E1) > tol)
    return detail::broken<Scalar>(
        fmt::format("step {}: the summary's energies ({}, {}) are not 1/2 v^T M v + 1/2 q^T K q "
                    "of the states ({}, {})",
                    st.step, format_short(st.E_before), format_short(st.E_after), format_short(E0),
                    format_short(E1)),
        std::move(values));
  if (abs_value(defect) > tol)
    return detail::broken<Scalar>(
        fmt::format("step {}: E_{{k+1}} - E_k - (W_ext + W_damp + W_contact - D) = {} != 0",
                    st.step, format_short(defect)),
        std::move(values));
  return {};
}

template <class Scalar>
Judgement moreau_jean_energy_dissipation(const StepView<Scalar>& s) {
  const auto& st = s.step;
  const Scalar E0 = s.model.energy(s.before.q, s.before.v);
  const Scalar E1 = s.model.energy(s.after.q, s.after.v);
  const Scalar tol = detail::energy_tolerance(s, E0, E1);
  const Scalar excess = (E1 - E0) - (st.W_ext + st.W_damp);
  if (excess > tol)
    return detail::broken<Scalar>(
        fmt::format("step {}: Delta E - W_ext - W_damp = {} > 0 (energy increased)", st.step,
                    format_short(excess)),
        {{"Delta E - W_ext - W_damp", detail::txt(excess)},
         {"E_before", detail::txt(E0)},
         {"E_after", detail::txt(E1)},
         {"W_ext", detail::txt(st.W_ext)},
         {"W_damp", detail::txt(st.W_damp)},
         {"tolerance", detail::txt(tol)}});
  return {};
}

template <class Scalar>
Judgement penetration_bound(const StepView<Scalar>& s) {
  const auto& st = s.step;
  const Vector<Scalar> g0 = s.model.gap(s.before.q);
  const Vector<Scalar> g1 = s.model.gap(s.after.q);
  const Vector<Scalar> U0 = s.model.local_velocity(s.before.v);
  const Vector<Scalar> U1 = s.model.local_velocity(s.after.v);
  const Scalar h = st.h;
  for (Index a = 0; a < g0.size(); ++a) {
    const Scalar speed = detail::max_of<Scalar>({U0(a), U1(a)});
    const Scalar floor = (g0(a) < Scalar(0) ? g0(a) : Scalar(0)) - Scalar(2) * h * speed;
    const Scalar scale = detail::max_of<Scalar>({g0(a), g1(a), h * speed}) +
                         max_abs(s.model.G) * (max_abs(s.before.q) + max_abs(s.after.q)) +
                         abs_value<Scalar>(s.model.w(a));
    const Scalar tol =
        tolerance<Scalar>(scale, Scalar(256 * (g0.size() + 1) * (s.model.dofs() + 1)));
    if (g1(a) < floor - tol)
      return detail::broken<Scalar>(
          fmt::format("step {}: contact {} gap went from {} to {}, deeper than min(0, g_k) - 2 h "
                      "max|U| = {}",
                      st.step, a, format_short<Scalar>(g0(a)), format_short<Scalar>(g1(a)),
                      format_short(floor)),
          {{fmt::format("g_k[{}]", a), detail::txt<Scalar>(g0(a))},
           {fmt::format("g_k+1[{}]", a), detail::txt<Scalar>(g1(a))},
           {fmt::format("U_k[{}]", a), detail::txt<Scalar>(U0(a))},
           {fmt::format("U_k+1[{}]", a), detail::txt<Scalar>(U1(a))},
           {"h", detail::txt(h)}});
  }
  return {};
}

template <class Scalar>
Judgement algorithmic_energy_decay(const StepView<Scalar>& s) {
  const auto& st = s.step;
  if (!st.has_algorithmic_energy)
    return detail::broken<Scalar>(
        fmt::format("step {}: the scheme does not report an algorithmic energy", st.step), {});
  const Scalar E0 = s.model.energy(s.before.q, s.before.v);
  const Scalar E1 = s.model.energy(s.after.q, s.after.v);
  const Scalar tol = detail::energy_tolerance(s, E0, E1);
  // E_alg recomputed from the states, the exposed acceleration-like variable and the claimed
  // parameters, where its formula has no filter terms (alpha_m = alpha_f):
  //   E_alg = E - F^T q + 1/2 h^2 (beta - gamma/2) a^T M a   (docs/theory.md §3.2),
  // so that a scheme cannot report a decay its state does not have.
  const Index n = s.model.dofs();
  if (s.info && st.acceleration_like_before.size() == n && st.acceleration_like_after.size() == n) {
    const auto& p = s.info->parameters;
    const auto at = [&](const char* key) -> std::optional<Rational> {
      const auto it = p.find(key);
      if (it == p.end()) return std::nullopt;
      return parse_rational(it->second, key);
    };
    const auto am = at("alpha_m"), af = at("alpha_f"), beta = at("beta"), gamma = at("gamma");
    if (am && af && beta && gamma && *am == *af) {
      const Scalar bg = scalar_cast<Scalar>(Rational(*beta - *gamma / 2));
      const Scalar half = Scalar(1) / Scalar(2);
      const auto alg = [&](const State<Scalar>& x, const Vector<Scalar>& a, const Scalar& E) {
        return Scalar(E - s.model.F.dot(x.q) +
                      half * st.h * st.h * bg * a.dot(Vector<Scalar>(s.model.M * a)));
      };
      const Scalar A0 = alg(s.before, st.acceleration_like_before, E0);
      const Scalar A1 = alg(s.after, st.acceleration_like_after, E1);
      const Scalar atol =
          tol +
          tolerance<Scalar>(
              st.h * st.h * max_abs(s.model.M) *
                      (max_abs(st.acceleration_like_before) * max_abs(st.acceleration_like_before) +
                       max_abs(st.acceleration_like_after) * max_abs(st.acceleration_like_after)) +
                  max_abs(s.model.F) * (max_abs(s.before.q) + max_abs(s.after.q)),
              Scalar(256 * (n + 1) * (n + 1)));
      std::vector<std::pair<std::string, std::string>> values{
          {"E_alg_before (recomputed)", detail::txt(A0)},
          {"E_alg_after (recomputed)", detail::txt(A1)},
          {"E_alg_before (reported)", detail::txt(st.E_alg_before)},
          {"E_alg_after (reported)", detail::txt(st.E_alg_after)},
          {"tolerance", detail::txt(atol)}};
      if (abs_value<Scalar>(A0 - st.E_alg_before) > atol ||
          abs_value<Scalar>(A1 - st.E_alg_after) > atol)
        return detail::broken<Scalar>(
            fmt::format("step {}: the reported E_alg ({}, {}) is not the algorithmic energy of "
                        "the state and the exposed acceleration-like variable ({}, {})",
                        st.step, format_short(st.E_alg_before), format_short(st.E_alg_after),
                        format_short(A0), format_short(A1)),
            std::move(values));
      if (A1 - A0 > atol)
        return detail::broken<Scalar>(fmt::format("step {}: the recomputed E_alg rose by {}",
                                                  st.step, format_short(Scalar(A1 - A0))),
                                      std::move(values));
    }
  }
  const Scalar rise = st.E_alg_after - st.E_alg_before;
  if (rise > tol)
    return detail::broken<Scalar>(
        fmt::format("step {}: E_alg rose by {}", st.step, format_short(rise)),
        {{"E_alg_before", detail::txt(st.E_alg_before)},
         {"E_alg_after", detail::txt(st.E_alg_after)},
         {"rise", detail::txt(rise)},
         {"tolerance", detail::txt(tol)}});
  return {};
}

namespace detail {

/// The index set's local friction vectors (predicates.hpp): P = [P_N, P_T..], U = [U_N+ +
/// e U_newton, U_T+..] per contact, mu, and H = [G_N^a, G_T^a..] (n x k (1 + d)).
template <class Scalar>
struct LocalFriction {
  Index d{0};
  Index k{0};
  Vector<Scalar> P, U, mu;
  Matrix<Scalar> H;
};

/// nullopt with `why` set when the summary is not sized for the model's friction.
template <class Scalar>
std::optional<LocalFriction<Scalar>> local_friction(const StepView<Scalar>& s, std::string& why) {
  const auto& st = s.step;
  const auto& model = s.model;
  LocalFriction<Scalar> out;
  out.d = model.tangent_directions();
  const Index m = model.contacts();
  if (out.d == 0) return out;
  if (st.tangent_directions != out.d || st.tangential_impulse.size() != m * out.d ||
      st.tangential_velocity_after.size() != m * out.d || st.impulse.size() != m ||
      st.velocity_after.size() != m || st.velocity_newton.size() != m) {
    why = fmt::format(
        "step {}: the summary is not sized for d = {} tangent directions on {} contacts "
        "(tangent_directions {}, tangential_impulse {}, tangential_velocity_after {})",
        st.step, out.d, m, st.tangent_directions, st.tangential_impulse.size(),
        st.tangential_velocity_after.size());
    return std::nullopt;
  }
  const Index block = 1 + out.d;
  out.k = static_cast<Index>(st.index_set.size());
  out.P.resize(out.k * block);
  out.U.resize(out.k * block);
  out.mu.resize(out.k);
  out.H.resize(model.dofs(), out.k * block);
  for (Index i = 0; i < out.k; ++i) {
    const Index a = st.index_set[static_cast<std::size_t>(i)];
    out.mu(i) = a < model.mu.size() ? model.mu(a) : Scalar(0);
    out.P(i * block) = st.impulse(a);
    out.U(i * block) = st.velocity_after(a) + restitution_of(s, a) * st.velocity_newton(a);
    out.H.col(i * block) = model.G.col(a);
    for (Index j = 0; j < out.d; ++j) {
      out.P(i * block + 1 + j) = st.tangential_impulse(a * out.d + j);
      out.U(i * block + 1 + j) = st.tangential_velocity_after(a * out.d + j);
      out.H.col(i * block + 1 + j) = model.G_T.col(a * out.d + j);
    }
  }
  return out;
}

/// The relative tolerance of the recomputed certificate: the step predicates' operation count.
template <class Scalar>
Scalar friction_relative(const StepView<Scalar>& s) {
  const Index n = s.model.dofs(), m = s.model.contacts();
  return tolerance<Scalar>(Scalar(1), Scalar(256 * (n + m + 1) * (n + 1)));
}

/// The recomputed local problem: W = H^T M^-1 H (the scale of the prox parameters), b = U - W P.
template <class Scalar>
FrictionProblem<Scalar> recomputed_problem(const StepView<Scalar>& s,
                                           const LocalFriction<Scalar>& f) {
  FrictionProblem<Scalar> problem;
  problem.tangent_dimension = f.d;
  problem.friction_coefficient = f.mu;
  const Matrix<Scalar> minv_h = Eigen::PartialPivLU<Matrix<Scalar>>(s.model.M).solve(f.H);
  problem.W = f.H.transpose() * minv_h;
  problem.W = (problem.W + problem.W.transpose()) / Scalar(2);
  problem.b = f.U - problem.W * f.P;
  return problem;
}

template <class Scalar>
std::vector<std::pair<std::string, std::string>> contact_values(const LocalFriction<Scalar>& f,
                                                                const StepSummary<Scalar>& st,
                                                                Index i) {
  const Index block = 1 + f.d;
  const Index a = st.index_set[static_cast<std::size_t>(i)];
  std::vector<std::pair<std::string, std::string>> values{
      {fmt::format("mu[{}]", a), txt<Scalar>(f.mu(i))},
      {fmt::format("P_N[{}]", a), txt<Scalar>(f.P(i * block))}};
  for (Index j = 0; j < f.d; ++j) {
    values.push_back({fmt::format("P_T[{}][{}]", a, j), txt<Scalar>(f.P(i * block + 1 + j))});
    values.push_back({fmt::format("U_T,k+1[{}][{}]", a, j), txt<Scalar>(f.U(i * block + 1 + j))});
  }
  return values;
}

}  // namespace detail

template <class Scalar>
Judgement coulomb_cone(const StepView<Scalar>& s) {
  const auto& st = s.step;
  std::string why;
  const auto f = detail::local_friction(s, why);
  if (!f) return detail::broken<Scalar>(why, {});
  if (f->d == 0) return {};
  // Outside the index set nothing may act, tangentially either.
  for (Index a = 0; a < s.model.contacts(); ++a)
    if (!detail::in_index_set(st, a))
      for (Index j = 0; j < f->d; ++j)
        if (st.tangential_impulse(a * f->d + j) != Scalar(0))
          return detail::broken<Scalar>(
              fmt::format("step {}: contact {} is outside the index set but P_T = {}", st.step, a,
                          format_short<Scalar>(st.tangential_impulse(a * f->d + j))),
              {});
  const Scalar tol = detail::impulse_tolerance(s);
  const FrictionVerdict<Scalar> verdict = nsh::coulomb_cone(f->P, f->mu, f->d, tol);
  if (verdict.holds) return {};
  auto values = detail::contact_values(*f, st, verdict.contact);
  values.push_back({"||P_T||^2 - (mu P_N)^2", detail::txt(verdict.defect)});
  values.push_back({"tolerance", detail::txt(tol)});
  return detail::broken<Scalar>(
      fmt::format("step {}: contact {} is outside Coulomb's cone: ||P_T||^2 - mu^2 P_N^2 = {}",
                  st.step, st.index_set[static_cast<std::size_t>(verdict.contact)],
                  format_short(verdict.defect)),
      std::move(values));
}

template <class Scalar>
Judgement maximal_dissipation(const StepView<Scalar>& s) {
  const auto& st = s.step;
  std::string why;
  const auto f = detail::local_friction(s, why);
  if (!f) return detail::broken<Scalar>(why, {});
  if (f->d == 0 || f->k == 0) return {};
  const FrictionProblem<Scalar> problem = detail::recomputed_problem(s, *f);
  const Scalar tol = friction_tolerance(problem, f->P, detail::friction_relative(s));
  const FrictionVerdict<Scalar> verdict = nsh::maximal_dissipation(f->P, f->U, f->mu, f->d, tol);
  if (verdict.holds) return {};
  auto values = detail::contact_values(*f, st, verdict.contact);
  values.push_back({"defect", detail::txt(verdict.defect)});
  values.push_back({"tolerance", detail::txt(tol)});
  return detail::broken<Scalar>(
      fmt::format("step {}: contact {} breaks maximal dissipation (stick with U_T+ != 0, or a "
                  "slide with P_T^T U_T+ != -mu P_N ||U_T+||): defect {}",
                  st.step, st.index_set[static_cast<std::size_t>(verdict.contact)],
                  format_short(verdict.defect)),
      std::move(values));
}

template <class Scalar>
Judgement friction_work_nonpositive(const StepView<Scalar>& s) {
  const auto& st = s.step;
  if (!detail::has_tangential(st)) return {};
  const Index d = st.tangent_directions;
  Scalar theta(1);
  if (s.info) {
    const auto it = s.info->parameters.find("theta");
    if (it != s.info->parameters.end())
      theta = scalar_cast<Scalar>(parse_rational(it->second, "theta"));
  }
  const Scalar tol = detail::velocity_tolerance(s) * (max_abs(st.tangential_impulse) + Scalar(1)) +
                     detail::impulse_tolerance(s) * (max_abs(st.tangential_velocity_after) +
                                                     max_abs(st.tangential_velocity_before));
  for (Index a = 0; a * d < st.tangential_impulse.size(); ++a) {
    Scalar work(0);
    for (Index j = 0; j < d; ++j) {
      const Index i = a * d + j;
      const Scalar u = (Scalar(1) - theta) * st.tangential_velocity_before(i) +
                       theta * st.tangential_velocity_after(i);
      work += u * st.tangential_impulse(i);
    }
    if (work > tol) {
      std::vector<std::pair<std::string, std::string>> values{
          {"theta", detail::txt(theta)},
          {"U_T,{k+theta}^T P_T", detail::txt(work)},
          {"tolerance", detail::txt(tol)}};
      for (Index j = 0; j < d; ++j) {
        values.push_back({fmt::format("P_T[{}][{}]", a, j),
                          detail::txt<Scalar>(st.tangential_impulse(a * d + j))});
        values.push_back({fmt::format("U_T,k[{}][{}]", a, j),
                          detail::txt<Scalar>(st.tangential_velocity_before(a * d + j))});
        values.push_back({fmt::format("U_T,k+1[{}][{}]", a, j),
                          detail::txt<Scalar>(st.tangential_velocity_after(a * d + j))});
      }
      return detail::broken<Scalar>(
          fmt::format("step {}: contact {}: friction did positive work U_T,{{k+theta}}^T P_T = {} "
                      "(theta = {})",
                      st.step, a, format_short(work), format_short(theta)),
          std::move(values));
    }
  }
  return {};
}

template <class Scalar>
Judgement friction_certificate(const StepView<Scalar>& s) {
  const auto& st = s.step;
  std::string why;
  const auto f = detail::local_friction(s, why);
  if (!f) return detail::broken<Scalar>(why, {});
  if (f->d == 0 || f->k == 0) return {};
  const FrictionProblem<Scalar> problem = detail::recomputed_problem(s, *f);
  const FrictionCertificate<Scalar> c = certify(problem, f->P, detail::friction_relative(s));
  if (c.accepted) return {};
  return detail::broken<Scalar>(
      fmt::format("step {}: the recomputed friction certificate of the {} active contacts is not "
                  "accepted: prox residual {}, cone {}, normal feasibility {}, complementarity {}, "
                  "stick velocity {}, dissipation defect {} (tolerance {}, products {})",
                  st.step, f->k, format_short(c.prox_residual), format_short(c.cone_feasibility),
                  format_short(c.normal_feasibility), format_short(c.normal_complementarity),
                  format_short(c.stick_velocity), format_short(c.dissipation_defect),
                  format_short(c.tolerance), format_short(c.product_tolerance)),
      {{"prox_residual", detail::txt(c.prox_residual)},
       {"cone_feasibility", detail::txt(c.cone_feasibility)},
       {"normal_feasibility", detail::txt(c.normal_feasibility)},
       {"normal_complementarity", detail::txt(c.normal_complementarity)},
       {"stick_velocity", detail::txt(c.stick_velocity)},
       {"dissipation_defect", detail::txt(c.dissipation_defect)},
       {"tolerance", detail::txt(c.tolerance)},
       {"product_tolerance", detail::txt(c.product_tolerance)}});
}

#define NSH_INSTANTIATE_PREDICATES(S)                                    \
  template Judgement coulomb_cone(const StepView<S>&);                   \
  template Judgement maximal_dissipation(const StepView<S>&);            \
  template Judgement friction_work_nonpositive(const StepView<S>&);      \
  template Judgement friction_certificate(const StepView<S>&);           \
  template Judgement impact_work_nonpositive(const StepView<S>&);        \
  template Judgement newton_restitution(const StepView<S>&);             \
  template Judgement signorini_complementarity(const StepView<S>&);      \
  template Judgement lcp_certificate(const StepView<S>&);                \
  template Judgement momentum_balance(const StepView<S>&);               \
  template Judgement energy_identity(const StepView<S>&);                \
  template Judgement moreau_jean_energy_dissipation(const StepView<S>&); \
  template Judgement penetration_bound(const StepView<S>&);              \
  template Judgement algorithmic_energy_decay(const StepView<S>&);       \
  template Matrix<S> momentum_directions(const LinearModel<S>&);

}  // namespace nsh::properties
