// Deliberately broken half-explicit-tdg schemes (nsh/properties/mutants.hpp), registered as
// "mutant:<name>". Each is the step of nsh/schemes/half_explicit_tdg.hpp
// (docs/half-explicit-tdg.md) with exactly one defect, and each reports the SchemeInfo and the
// summary the healthy scheme would.
//
//   mutant:hets-explicit-constraint  no velocity-level solve at the end of a non-impulsive step:
//                                    lambda_2 = lambda_1, the constraint imposed on the explicit
//                                    forecast u_1 only (caught by signorini_complementarity)
//   mutant:hets-unsplit              lambda_1 forgotten in the non-impulsive step (impulsive and
//                                    non-impulsive forces not split), while the summary reports
//                                    the forecast impulse h/2 lambda_1 (caught by
//                                    momentum_balance)
//   mutant:hets-wrong-r              r = 0 with Newton stopped on its own prox residual, which
//                                    is then zero at z = 0: a non-solution reported as certified
//                                    (caught by lcp_certificate)
//   mutant:hets-newton-previous      impact law 0 <= U_{n+1} + e U_n _|_ Lambda (u_n instead of
//                                    u*), while reporting U_newton = G^T u* (caught by
//                                    newton_restitution)
//
// and the forecasting trapezoidal rule's (nsh/schemes/forecasting_trapezoidal.hpp: the same step
// with the non-impulsive constraints on acceleration level, its impulse recorded as
// forecast_impulse):
//
//   mutant:ftr-unsplit               lambda_1 forgotten in the non-impulsive velocity update while
//                                    the record keeps h/2 (lambda_1 + lambda_2) (caught by
//                                    momentum_balance)
//   mutant:ftr-newton-forecast       impact law with the forecast velocity G^T u_1 instead of
//                                    G^T u*, while reporting U_newton = G^T u* (caught by
//                                    newton_restitution)
//
// The step is written out once more, densely, with one switch per defect (every defect sits
// inside the step). Double only: a mutant exists to be caught on the CI path.
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/forecasting_trapezoidal.hpp>
#include <nsh/schemes/half_explicit_tdg.hpp>

#include <fmt/format.h>
#include <Eigen/LU>

#include "double_only.hpp"

namespace nsh::properties {
namespace {

enum class HetsDefect {
  explicit_constraint,
  unsplit,
  wrong_r,
  newton_previous,
  ftr_unsplit,
  ftr_newton_forecast
};

bool on_acceleration_level(HetsDefect defect) {
  return defect == HetsDefect::ftr_unsplit || defect == HetsDefect::ftr_newton_forecast;
}

class MutantHalfExplicitTdg : public Scheme<double> {
 public:
  MutantHalfExplicitTdg(const SchemeSpec& spec, HetsDefect defect)
      : defect_(defect), acceleration_(on_acceleration_level(defect)), healthy_(spec), ftr_(spec) {}

  /// The healthy scheme's info, frictionless: the defects are in the frictionless step (a
  /// frictional model is refused, and the mutants are held to their claims without friction).
  SchemeInfo info() const override {
    SchemeInfo info = acceleration_ ? ftr_.info() : healthy_.info();
    info.friction = false;
    return info;
  }

 private:
  void do_initialize(const LinearModel<double>& model, const State<double>&,
                     const double& h) override {
    model_ = &model;
    h_ = h;
    lu_.compute(model.M);
    minv_g_ = model.contacts() == 0 ? Matrix<double>(model.dofs(), 0) : lu_.solve(model.G);
    delassus_ = model.G.transpose() * minv_g_;
  }

  std::vector<Index> closed(const Vector<double>& q, double velocity_scale) const {
    const Vector<double> g = model_->gap(q);
    const double zero = tolerance<double>(
        max_abs(model_->G) * (max_abs(q) + h_ * velocity_scale) + max_abs(model_->w),
        256.0 * static_cast<double>(model_->contacts() + 1));
    std::vector<Index> set;
    for (Index a = 0; a < g.size(); ++a)
      if (g(a) <= zero) set.push_back(a);
    return set;
  }

  /// The LCP on `active` with b = G^T v_free + e o newton (+ shift); z in model order.
  Vector<double> solve(const std::vector<Index>& active, const Vector<double>& v_free,
                       const Vector<double>* newton, LcpResult<double>& result,
                       const Vector<double>* shift = nullptr) const {
    const LinearModel<double>& model = *model_;
    const Index k = static_cast<Index>(active.size());
    Matrix<double> W(k, k);
    Vector<double> b(k), r(k);
    for (Index i = 0; i < k; ++i) {
      const Index a = active[static_cast<std::size_t>(i)];
      for (Index j = 0; j < k; ++j) W(i, j) = delassus_(a, active[static_cast<std::size_t>(j)]);
      b(i) = model.G.col(a).dot(v_free) + (newton ? model.e(a) * (*newton)(a) : 0.0) +
             (shift ? (*shift)(a) : 0.0);
      r(i) = 1.0 / W(i, i);
    }
    if (defect_ == HetsDefect::wrong_r) {
      // r = 0: F(z) = z - max(0, z - 0 w) vanishes at z = 0, and a Newton that stops on |F|
      // stops there at once; the certificate is not consulted.
      result = LcpResult<double>{};
      result.z = Vector<double>::Zero(k);
      result.w = b;
      result.status = LcpStatus::solved;
      result.method = LcpMethod::prox_newton;
      result.certificate.accepted = true;
    } else {
      result = half_explicit_prox_newton<double>(W, b, r, 50, LcpOptions<double>{}, true,
                                                 LcpMethod::lemke);
      if (!result.ok())
        throw StepError("mutant half-explicit-tdg: LCP not certified: " + result.message);
    }
    Vector<double> z = Vector<double>::Zero(model.contacts());
    for (Index i = 0; i < k; ++i) z(active[static_cast<std::size_t>(i)]) = result.z(i);
    return z;
  }

  void do_step(State<double>& state, StepSummary<double>& summary) override {
    const LinearModel<double>& model = *model_;
    const Index m = model.contacts();
    const double h = h_;
    const Vector<double> q = state.q, u = state.v;
    const Vector<double> F_n = model.force(state.t), F_next = model.force(state.t + h);
    const Vector<double> f_n = F_n - model.C * u - model.K * q;
    const Vector<double> u_free1 = u + h * lu_.solve(f_n);
    std::vector<Index> closed_n = closed(q, max_abs(u) + max_abs(u_free1));
    // Acceleration level: separating contacts leave the set, the rows shift by -G^T u_n.
    const Vector<double> U_n = model.local_velocity(u);
    const Vector<double> shift_1 = -U_n;
    if (acceleration_)
      std::erase_if(closed_n, [&](Index a) {
        return U_n(a) > tolerance<double>(max_abs(model.G) * (max_abs(u) + max_abs(u_free1)),
                                          256.0 * static_cast<double>(m + 1));
      });
    Vector<double> z1 = Vector<double>::Zero(m);
    LcpResult<double> forecast;
    if (!closed_n.empty())
      z1 = solve(closed_n, u_free1, nullptr, forecast, acceleration_ ? &shift_1 : nullptr);
    const Vector<double> reaction_1 = minv_g_ * z1;
    const Vector<double> u_1 = u_free1 + reaction_1;
    const Vector<double> q_next = q + h / 2 * (u + u_1);
    const double velocity_scale =
        max_abs(u) + max_abs(u_free1) + max_abs(reaction_1) + max_abs(u_1);
    std::vector<Index> closed_next = closed(q_next, velocity_scale);
    const Vector<double> U_1 = model.local_velocity(u_1);
    const double velocity_zero =
        tolerance<double>(max_abs(model.G) * velocity_scale, 256.0 * static_cast<double>(m + 1));
    bool impact = false;
    for (Index a : closed_next) impact = impact || U_1(a) < -velocity_zero;
    const Vector<double> f_1 = F_next - model.C * u_1 - model.K * q_next;
    const Vector<double> u_star = u + h / 2 * lu_.solve(f_n + f_1);

    Vector<double> impulse = Vector<double>::Zero(m), forecast_impulse = impulse;
    Vector<double> newton = impulse;
    Vector<double> u_next;
    summary.lcp = LcpResult<double>{};
    summary.lcp.status = LcpStatus::solved;
    summary.lcp.certificate.accepted = true;
    if (impact) {
      newton = model.local_velocity(u_star);
      const Vector<double> law = defect_ == HetsDefect::newton_previous ? model.local_velocity(u)
                                 : defect_ == HetsDefect::ftr_newton_forecast ? U_1
                                                                              : newton;
      impulse = solve(closed_next, u_star, &law, summary.lcp);
      u_next = u_star + minv_g_ * impulse;
    } else {
      forecast_impulse = z1 / 2;
      const Vector<double> u_free2 =
          defect_ == HetsDefect::unsplit ? u_star : Vector<double>(u_star + minv_g_ * z1 / 2);
      if (defect_ == HetsDefect::explicit_constraint) {
        // lambda_2 = lambda_1: the last problem is not solved; its record is made up from the
        // forecast's force and declared certified.
        impulse = z1 / 2;
        u_next = u_free2 + minv_g_ * impulse;
        const Index k = static_cast<Index>(closed_next.size());
        summary.lcp.z.resize(k);
        summary.lcp.w.resize(k);
        for (Index i = 0; i < k; ++i) {
          const Index a = closed_next[static_cast<std::size_t>(i)];
          summary.lcp.z(i) = impulse(a);
          summary.lcp.w(i) = model.G.col(a).dot(u_next);
        }
      } else if (acceleration_) {
        // 0 <= G^T (u_{n+1} - (u_n + u_1)/2) _|_ lambda_2 on the closed, non-separating contacts;
        // the whole impulse is recorded as forecast_impulse, no LCP.
        std::erase_if(closed_next, [&](Index a) { return U_1(a) > velocity_zero; });
        const Vector<double> shift_2 = -model.local_velocity((u + u_1) / 2);
        const Vector<double> u_free =
            defect_ == HetsDefect::ftr_unsplit ? u_star : Vector<double>(u_star + minv_g_ * z1 / 2);
        if (!closed_next.empty())
          impulse = solve(closed_next, u_free, nullptr, summary.lcp, &shift_2);
        u_next = u_free + minv_g_ * impulse;
        forecast_impulse += impulse;
        impulse.setZero();
        closed_next.clear();
        summary.lcp = LcpResult<double>{};
        summary.lcp.status = LcpStatus::solved;
        summary.lcp.certificate.accepted = true;
      } else {
        if (!closed_next.empty()) impulse = solve(closed_next, u_free2, nullptr, summary.lcp);
        u_next = u_free2 + minv_g_ * impulse;
      }
    }
    summary.index_set = closed_next;
    summary.impulse = impulse;
    summary.forecast_impulse = forecast_impulse;
    summary.velocity_newton = newton;
    summary.lcp_solved = !closed_next.empty();
    summary.external_impulse = h / 2 * (F_n + F_next);
    const Vector<double> u_mean = (u + u_next) / 2;
    summary.W_ext = (q_next - q).dot(F_n + F_next) / 2;
    summary.W_damp = -h * u_mean.dot(model.C * u_mean);
    summary.W_contact = model.local_velocity(u_mean).dot(impulse + forecast_impulse);
    summary.numerical_dissipation = 0;
    summary.has_algorithmic_energy = false;
    state.q = q_next;
    state.v = u_next;
    state.t = state.t + h;
  }

  HetsDefect defect_;
  bool acceleration_;                   // a forecasting-trapezoidal defect
  HalfExplicitTdg<double> healthy_;     // for the info it pretends to have
  ForecastingTrapezoidal<double> ftr_;  // the same, for the ftr mutants
  const LinearModel<double>* model_{nullptr};
  double h_{0};
  Eigen::PartialPivLU<Matrix<double>> lu_;
  Matrix<double> minv_g_, delassus_;
};

}  // namespace

void register_half_explicit_tdg_mutants(Registry& registry) {
  const struct {
    const char* name;
    HetsDefect defect;
    const char* summary;
  } mutants[] = {
      {"hets-explicit-constraint", HetsDefect::explicit_constraint,
       "half-explicit-tdg imposing the velocity constraint on the explicit forecast only"},
      {"hets-unsplit", HetsDefect::unsplit,
       "half-explicit-tdg forgetting lambda_1 in the non-impulsive step (forces not split)"},
      {"hets-wrong-r", HetsDefect::wrong_r,
       "half-explicit-tdg with r = 0, Newton stopped on its own residual at a non-solution"},
      {"hets-newton-previous", HetsDefect::newton_previous,
       "half-explicit-tdg with the impact law on U_n instead of U*"},
      {"ftr-unsplit", HetsDefect::ftr_unsplit,
       "forecasting-trapezoidal forgetting lambda_1 in the non-impulsive velocity update"},
      {"ftr-newton-forecast", HetsDefect::ftr_newton_forecast,
       "forecasting-trapezoidal with the impact law on the forecast velocity U_1 instead of U*"},
  };
  for (const auto& mutant : mutants) {
    const HetsDefect defect = mutant.defect;
    registry.add(double_only_mutant(
        std::string("mutant:") + mutant.name, mutant.summary,
        {
            {"r", "delassus", "claimed prox parameter", {}},
            {"tolerance", "0", "claimed tolerance", {}},
            {"max_iterations", "50", "claimed Newton iterations", {}},
            {"fallback", "lemke", "claimed fallback", {"lemke", "enumeration", "none"}},
        },
        [defect](const SchemeSpec& spec) {
          return std::make_unique<MutantHalfExplicitTdg>(spec, defect);
        }));
  }
}

}  // namespace nsh::properties
