#include <nsh/detail/dense_lu.hpp>
#include <nsh/format.hpp>
#include <nsh/properties/sweep_properties.hpp>

#include <cmath>

namespace nsh::properties {
namespace {

template <class Scalar>
std::string show(const Vector<Scalar>& x) {
  return x.size() == 1 ? format_scalar(x(0)) : format_vector(x);
}

}  // namespace

template <class Scalar>
Finding projection_nonexpansive(const ProjectionProvider<Scalar>& C, const Vector<Scalar>& y1,
                                const Vector<Scalar>& y2) {
  const auto p1 = C.project(y1), p2 = C.project(y2);
  const Scalar lhs = squared_distance(p1.point, p2.point);
  const Scalar rhs = squared_distance(y1, y2);
  const Scalar tol = projection_tolerance(y1, y2, Scalar(max_abs(p1.point) + max_abs(p2.point)));
  Finding f;
  f.holds = lhs <= rhs + tol;
  f.values = {{"set", C.describe()},
              {"y1", show(y1)},
              {"y2", show(y2)},
              {"P(y1)", show(p1.point)},
              {"P(y2)", show(p2.point)},
              {"|P(y1) - P(y2)|^2", format_scalar(lhs)},
              {"|y1 - y2|^2", format_scalar(rhs)}};
  return f;
}

template <class Scalar>
Finding projection_idempotent(const ProjectionProvider<Scalar>& C, const Vector<Scalar>& y) {
  const auto p = C.project(y);
  const auto pp = C.project(p.point);
  const Scalar d = max_abs(Vector<Scalar>(pp.point - p.point));
  const Scalar bound = tolerance<Scalar>(Scalar(Scalar(1) + max_abs(y)));
  Finding f;
  f.holds = d <= bound && p.certificate.accepted && pp.certificate.accepted;
  f.values = {{"set", C.describe()},
              {"y", show(y)},
              {"P(y)", show(p.point)},
              {"P(P(y))", show(pp.point)},
              {"status", to_string(p.status)}};
  return f;
}

template <class Scalar>
Finding projection_variational_inequality(const ProjectionProvider<Scalar>& C,
                                          const Vector<Scalar>& y, const Vector<Scalar>& y_other) {
  const auto p = C.project(y);
  const auto z = C.project(y_other);
  const Scalar vi =
      nsh::detail::dot<Scalar>(Vector<Scalar>(y - p.point), Vector<Scalar>(z.point - p.point));
  const Scalar tol = projection_tolerance(y, p.point, Scalar(max_abs(z.point)));
  Finding f;
  f.holds = vi <= tol;
  f.values = {{"set", C.describe()},
              {"y", show(y)},
              {"p = P(y)", show(p.point)},
              {"z = P(y')", show(z.point)},
              {"(y - p)^T (z - p)", format_scalar(vi)}};
  return f;
}

template <class Scalar>
Finding catching_up_error_bound(const FirstOrderTrajectory<Scalar>& trajectory, const Scalar& h) {
  Finding f;
  for (std::size_t k = 0; k < trajectory.steps.size(); ++k) {
    const auto& s = trajectory.steps[k];
    if (!s.has_projection || !s.certificate.accepted) {
      f.holds = false;
      f.values = {{"step", std::to_string(k + 1)},
                  {"certificate", format_scalar(s.certificate.residual)}};
      return f;
    }
  }
  for (std::size_t k = 0; k < trajectory.states.size(); ++k) {
    Scalar expected = Scalar(1) - Scalar(static_cast<long>(k)) * h;
    if (expected < Scalar(0)) expected = Scalar(0);
    const Scalar d = abs_value<Scalar>(trajectory.states[k].x(0) - expected);
    if (d > tolerance<Scalar>(Scalar(1), Scalar(64) * Scalar(static_cast<long>(k + 1)))) {
      f.holds = false;
      f.values = {{"h", format_scalar(h)},
                  {"k", std::to_string(k)},
                  {"x_k", format_scalar(trajectory.states[k].x(0))},
                  {"max(1 - kh, 0)", format_scalar(expected)}};
      return f;
    }
  }
  const Scalar error = sweeping_interval_error(trajectory);
  const Scalar exact = sweeping_interval_sup_error(h);
  const Scalar tol = tolerance<Scalar>(
      Scalar(1), Scalar(64) * Scalar(static_cast<long>(trajectory.states.size())));
  f.holds = abs_value<Scalar>(error - exact) <= tol && error <= h + tol;
  f.values = {{"h", format_scalar(h)},
              {"sup |X_h - x|", format_scalar(error)},
              {"s (h - s)/h", format_scalar(exact)}};
  return f;
}

template <class Scalar>
Finding penalty_convergence(const FirstOrderTrajectory<Scalar>& trajectory, const Scalar& kappa) {
  Finding f;
  const Scalar band = Scalar(1) / kappa;
  const Scalar tol =
      tolerance<Scalar>(band, Scalar(64) * Scalar(static_cast<long>(trajectory.states.size())));
  for (std::size_t k = 0; k < trajectory.states.size(); ++k) {
    const Scalar y = trajectory.states[k].x(0);
    bool ok = y <= tol && y >= -band - tol;
    std::string exact_text;
    if constexpr (has_transcendentals_v<Scalar>) {
      using std::exp;
      const Scalar t = trajectory.states[k].t;
      const Scalar exact = -(Scalar(1) - exp(-kappa * t)) / kappa;
      ok = ok && abs_value<Scalar>(exact) <= band + tol;
      exact_text = format_scalar(exact);
    }
    if (!ok) {
      f.holds = false;
      f.values = {{"kappa", format_scalar(kappa)},
                  {"k", std::to_string(k)},
                  {"t_k", format_scalar(trajectory.states[k].t)},
                  {"y_k", format_scalar(y)},
                  {"-1/kappa", format_scalar(Scalar(-band))}};
      if (!exact_text.empty()) f.values.emplace_back("y_kappa(t_k)", exact_text);
      if (trajectory.steps.size() > 0)
        f.values.emplace_back("h", format_scalar(trajectory.steps[0].h));
      return f;
    }
  }
  return f;
}

template <class Scalar>
Finding penalty_stability(const FirstOrderTrajectory<Scalar>& trajectory, const Scalar& kappa,
                          const Scalar& h) {
  Finding f;
  const Scalar band = h > Scalar(1) / kappa ? h : Scalar(Scalar(1) / kappa);
  const Scalar tol =
      tolerance<Scalar>(band, Scalar(64) * Scalar(static_cast<long>(trajectory.states.size())));
  for (std::size_t k = 0; k < trajectory.states.size(); ++k) {
    const Scalar y = trajectory.states[k].x(0);
    if (y > tol || y < -band - tol) {
      f.holds = false;
      f.values = {{"kappa", format_scalar(kappa)},
                  {"h", format_scalar(h)},
                  {"h kappa", format_scalar(Scalar(h * kappa))},
                  {"k", std::to_string(k)},
                  {"y_k", format_scalar(y)},
                  {"band", "[" + format_scalar(Scalar(-band)) + ", 0]"}};
      if (trajectory.states.size() > 2)
        f.values.emplace_back("kappa h^2 - 2h",
                              format_scalar(Scalar(kappa * h * h - Scalar(2) * h)));
      return f;
    }
  }
  f.values = {{"kappa", format_scalar(kappa)}, {"h", format_scalar(h)}};
  return f;
}

template <class Scalar>
Finding penalty2_energy_balance(const StepSummary<Scalar>& s, const Scalar& kappa, bool implicit) {
  auto V = [&](const Vector<Scalar>& g) {
    Scalar v(0);
    for (Index a = 0; a < g.size(); ++a)
      if (g(a) < Scalar(0)) v += g(a) * g(a);
    return kappa * v / Scalar(2);
  };
  const Scalar Vb = V(s.gap_before), Va = V(s.gap_after);
  const Scalar scale = Scalar(1) + abs_value(s.E_before) + abs_value(s.E_after) + Vb + Va +
                       abs_value(s.W_ext) + abs_value(s.W_contact) + abs_value(s.W_damp);
  const Scalar tol = tolerance<Scalar>(scale, Scalar(1024));
  const Scalar split = s.W_contact - ((Vb - Va) + s.W_dashpot - s.stored_energy_dissipation);
  Finding f;
  f.holds = s.has_stored_energy && abs_value(split) <= tol &&
            abs_value<Scalar>(Vb - s.stored_energy_before) <= tol &&
            abs_value<Scalar>(Va - s.stored_energy_after) <= tol;
  if (implicit)
    f.holds = f.holds && s.numerical_dissipation >= -tol && s.stored_energy_dissipation >= -tol &&
              s.W_dashpot <= tol && s.W_damp <= tol;
  f.values = {{"step", std::to_string(s.step)},
              {"W_contact - (V_before - V_after + W_dashpot - D_spring)", format_scalar(split)},
              {"D", format_scalar(s.numerical_dissipation)},
              {"D_spring", format_scalar(s.stored_energy_dissipation)},
              {"W_dashpot", format_scalar(s.W_dashpot)}};
  return f;
}

template <class Scalar>
Finding penalty2_penetration_bound(const StepSummary<Scalar>& s, const Scalar& kappa,
                                   const Scalar& H0) {
  Scalar depth2(0);
  for (Index a = 0; a < s.gap_after.size(); ++a)
    if (s.gap_after(a) < Scalar(0)) depth2 += s.gap_after(a) * s.gap_after(a);
  const Scalar bound = Scalar(2) * H0 / kappa;
  Finding f;
  f.holds = depth2 <= bound + tolerance<Scalar>(Scalar(bound + Scalar(1)), Scalar(1024));
  f.values = {{"step", std::to_string(s.step)},
              {"sum min(0, g)^2", format_scalar(depth2)},
              {"2 H0 / kappa", format_scalar(bound)}};
  return f;
}

#define NSH_INSTANTIATE_SWEEP_PROPERTIES(S)                                                \
  template Finding projection_nonexpansive(const ProjectionProvider<S>&, const Vector<S>&, \
                                           const Vector<S>&);                              \
  template Finding projection_idempotent(const ProjectionProvider<S>&, const Vector<S>&);  \
  template Finding projection_variational_inequality(const ProjectionProvider<S>&,         \
                                                     const Vector<S>&, const Vector<S>&);  \
  template Finding catching_up_error_bound(const FirstOrderTrajectory<S>&, const S&);      \
  template Finding penalty_convergence(const FirstOrderTrajectory<S>&, const S&);          \
  template Finding penalty_stability(const FirstOrderTrajectory<S>&, const S&, const S&);  \
  template Finding penalty2_energy_balance(const StepSummary<S>&, const S&, bool);         \
  template Finding penalty2_penetration_bound(const StepSummary<S>&, const S&, const S&);
NSH_INSTANTIATE_SWEEP_PROPERTIES(double)
NSH_INSTANTIATE_SWEEP_PROPERTIES(Real50)
NSH_INSTANTIATE_SWEEP_PROPERTIES(Rational)
#undef NSH_INSTANTIATE_SWEEP_PROPERTIES

}  // namespace nsh::properties
