#include <nsh/detail/dense_lu.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/schemes/penalty2.hpp>

#include <fmt/format.h>

#include <cstdint>

namespace nsh {

template <class Scalar>
Penalty2<Scalar>::Penalty2(const SchemeSpec& spec)
    : spec_(spec), options_(parse_options<Penalty2Options<Scalar>>(spec)) {}

template <class Scalar>
SchemeInfo Penalty2<Scalar>::info() const {
  SchemeInfo info;
  info.family = "penalty2";
  info.spec = canonical_spec("penalty2", options_, spec_);
  info.parameters = option_values(options_, spec_);
  info.smooth_order = 1;
  info.impulse_lcp = false;
  info.algorithmic_energy = false;
  info.momentum_conserving = true;
  return info;
}

template <class Scalar>
void Penalty2<Scalar>::do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                                     const Scalar& h) {
  model.validate();
  if (model.has_harmonic_force()) (void)model.force(initial.t);  // Rational: the model's error
  model_ = &model;
  h_ = h;
}

template <class Scalar>
Scalar Penalty2<Scalar>::stored_energy(const Vector<Scalar>& gap) const {
  Scalar v(0);
  for (Index a = 0; a < gap.size(); ++a)
    if (gap(a) < Scalar(0)) v += gap(a) * gap(a);
  return options_.kappa * v / Scalar(2);
}

template <class Scalar>
void Penalty2<Scalar>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  const LinearModel<Scalar>& model = *model_;
  const Index n = model.dofs(), m = model.contacts();
  const Scalar& h = h_;
  const Vector<Scalar> q0 = state.q, v0 = state.v;
  const Vector<Scalar> g0 = model.gap(q0), U0 = model.local_velocity(v0);
  Vector<Scalar> spring(m), dashpot(m);  // the two parts of lambda used by the step
  Vector<Scalar> q1, v1, F;

  if (!implicit()) {
    F = model.force(state.t);
    for (Index a = 0; a < m; ++a) {
      const bool penetrating = g0(a) < Scalar(0);
      spring(a) = penetrating ? Scalar(-options_.kappa * g0(a)) : Scalar(0);
      dashpot(a) = penetrating && U0(a) < Scalar(0) ? Scalar(-options_.damping * U0(a)) : Scalar(0);
    }
    detail::DenseLu<Scalar> lu;
    if (!lu.factor(model.M)) throw StepError("penalty2: the mass matrix is singular");
    const Vector<Scalar> force = F - model.C * v0 - model.K * q0 + model.G * (spring + dashpot);
    v1 = v0 + h * lu.solve_vector(force);
    q1 = q0 + h * v1;
  } else {
    F = model.force(state.t + h);
    // S v - h G lambda(G^T v) = r with lambda_a = a_a + b_a U_a on the current pieces.
    const Matrix<Scalar> S = model.M + h * model.C + (h * h) * model.K;
    const Vector<Scalar> r = model.M * v0 + h * F - h * (model.K * q0);
    std::vector<bool> dashpot_switch(static_cast<std::size_t>(m));
    for (Index a = 0; a < m; ++a)
      dashpot_switch[static_cast<std::size_t>(a)] =
          options_.damping > Scalar(0) && g0(a) < Scalar(0);
    auto law = [&](const Vector<Scalar>& v, Vector<Scalar>& s, Vector<Scalar>& d) {
      const Vector<Scalar> U = model.local_velocity(v);
      for (Index a = 0; a < m; ++a) {
        const Scalar g1 = g0(a) + h * U(a);
        s(a) = g1 < Scalar(0) ? Scalar(-options_.kappa * g1) : Scalar(0);
        d(a) = dashpot_switch[static_cast<std::size_t>(a)] && U(a) < Scalar(0)
                   ? Scalar(-options_.damping * U(a))
                   : Scalar(0);
      }
    };
    Vector<Scalar> s(m), d(m);
    auto residual = [&](const Vector<Scalar>& v) {
      law(v, s, d);
      return Vector<Scalar>(S * v - h * (model.G * (s + d)) - r);
    };
    // pieces: bit 0 spring on, bit 1 dashpot on, per contact.
    auto solve_pieces = [&](const std::vector<unsigned>& pieces, Vector<Scalar>& v) {
      Matrix<Scalar> A = S;
      Vector<Scalar> rhs = r;
      for (Index a = 0; a < m; ++a) {
        const unsigned p = pieces[static_cast<std::size_t>(a)];
        Scalar slope(0), offset(0);
        if (p & 1U) {
          offset -= options_.kappa * g0(a);
          slope -= options_.kappa * h;
        }
        if (p & 2U) slope -= options_.damping;
        const Vector<Scalar> Ga = model.G.col(a);
        A -= (h * slope) * Ga * Ga.transpose();
        rhs += (h * offset) * Ga;
      }
      detail::DenseLu<Scalar> lu;
      if (!lu.factor(A, tolerance<Scalar>(Scalar(max_abs(A))))) return false;
      v = lu.solve_vector(rhs);
      return true;
    };
    auto pieces_at = [&](const Vector<Scalar>& v) {
      const Vector<Scalar> U = model.local_velocity(v);
      std::vector<unsigned> pieces(static_cast<std::size_t>(m));
      for (Index a = 0; a < m; ++a) {
        unsigned p = 0;
        if (g0(a) + h * U(a) < Scalar(0)) p |= 1U;
        if (dashpot_switch[static_cast<std::size_t>(a)] && U(a) < Scalar(0)) p |= 2U;
        pieces[static_cast<std::size_t>(a)] = p;
      }
      return pieces;
    };
    const Scalar scale =
        max_abs(S) * (Scalar(1) + max_abs(v0)) + max_abs(r) +
        h * max_abs(model.G) * (options_.kappa * max_abs(g0) + options_.damping * max_abs(U0));
    const Scalar tol = tolerance<Scalar>(Scalar(scale + Scalar(1)), Scalar(64 * (n + m + 1)));
    Vector<Scalar> v = v0;
    std::vector<unsigned> pieces = pieces_at(v0);
    bool solved = false;
    for (int it = 0; it < 50 && !solved; ++it) {
      if (!solve_pieces(pieces, v)) break;
      solved = max_abs(residual(v)) <= tol;
      pieces = pieces_at(v);
    }
    for (std::uint64_t code = 0; !solved && m <= 6 && code < (std::uint64_t(1) << (2 * m));
         ++code) {
      for (Index a = 0; a < m; ++a)
        pieces[static_cast<std::size_t>(a)] = static_cast<unsigned>((code >> (2 * a)) & 3U);
      if (solve_pieces(pieces, v)) solved = max_abs(residual(v)) <= tol;
    }
    if (!solved)
      throw StepError(fmt::format(
          "penalty2 (implicit) at t = {}: no certified solution of the "
          "step equation (residual {} > {})",
          format_scalar(state.t), format_scalar(max_abs(residual(v))), format_scalar(tol)));
    (void)residual(v);  // leaves lambda(v) in s, d
    spring = s;
    dashpot = d;
    v1 = v;
    q1 = q0 + h * v1;
  }
  for (Index i = 0; i < n; ++i)
    if (!is_finite(v1(i)) || !is_finite(q1(i)))
      throw StepError("penalty2 at t = " + format_scalar(state.t) + ": non-finite state");

  const Vector<Scalar> dv = v1 - v0, dq = q1 - q0;
  const Vector<Scalar> lambda = spring + dashpot;
  summary.index_set.clear();
  for (Index a = 0; a < m; ++a)
    if (lambda(a) > Scalar(0)) summary.index_set.push_back(a);
  summary.impulse = h * lambda;
  const Vector<Scalar> g1 = model.gap(q1), U1 = model.local_velocity(v1);
  summary.velocity_newton = U0;
  summary.external_impulse = h * F;
  summary.lcp = LcpResult<Scalar>{};
  summary.lcp_solved = false;
  const Scalar half = Scalar(1) / 2;
  summary.W_ext = h * detail::dot<Scalar>(v1, F);
  summary.W_contact = h * detail::dot<Scalar>(U1, lambda);
  const Scalar dvM = detail::dot<Scalar>(dv, Vector<Scalar>(model.M * dv));
  const Scalar dqK = detail::dot<Scalar>(dq, Vector<Scalar>(model.K * dq));
  if (implicit()) {
    summary.W_damp = -h * detail::dot<Scalar>(v1, Vector<Scalar>(model.C * v1));
    summary.numerical_dissipation = half * dvM + half * dqK;
  } else {
    summary.W_damp = -h * detail::dot<Scalar>(v1, Vector<Scalar>(model.C * v0));
    summary.numerical_dissipation = half * dvM - half * dqK;
  }
  summary.has_algorithmic_energy = false;
  summary.has_stored_energy = true;
  summary.stored_energy_before = stored_energy(g0);
  summary.stored_energy_after = stored_energy(g1);
  summary.W_dashpot = h * detail::dot<Scalar>(U1, dashpot);
  summary.stored_energy_dissipation = (summary.stored_energy_before - summary.stored_energy_after) -
                                      h * detail::dot<Scalar>(U1, spring);
  state.q = q1;
  state.v = v1;
  state.t = state.t + h;
}

#define NSH_INSTANTIATE(Scalar) template class Penalty2<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

void register_penalty2(Registry& registry) {
  SchemeEntry entry;
  entry.name = "penalty2";
  entry.summary = "second-order spring-dashpot penalty contact, symplectic or backward Euler";
  entry.options = declared_options<Penalty2Options<double>>();
  set_factories<Penalty2>(entry);
  registry.add(std::move(entry));
}

}  // namespace nsh
