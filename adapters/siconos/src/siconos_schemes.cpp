// Siconos' MoreauJeanOSI, SchatzmanPaoliOSI, D1MinusLinearOSI, EventDriven (LsodarOSI) and
// EventDriven (NewMarkAlphaOSI) as nsh schemes
// (schemes.hpp, docs/siconos.md).
#include "siconos_bridge.hpp"

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/siconos/schemes.hpp>

#include <Eigen/Cholesky>

#include <cmath>
#include <stdexcept>

namespace nsh::siconos {
namespace {

siconos_bridge::LinearSystem system_of(const LinearModel<double>& model, const State<double>& x,
                                       double h) {
  siconos_bridge::LinearSystem s;
  s.n = static_cast<int>(model.dofs());
  s.m = static_cast<int>(model.contacts());
  const auto row_major = [](const Matrix<double>& A) {
    std::vector<double> out;
    for (Index i = 0; i < A.rows(); ++i)
      for (Index j = 0; j < A.cols(); ++j) out.push_back(A(i, j));
    return out;
  };
  const auto values = [](const Vector<double>& v) {
    return std::vector<double>(v.begin(), v.end());
  };
  s.M = row_major(model.M);
  s.C = row_major(model.C);
  s.K = row_major(model.K);
  s.F = values(model.F);
  s.F_amplitude = values(model.F_amplitude);
  s.omega = model.omega;
  for (Index a = 0; a < model.contacts(); ++a)
    for (Index i = 0; i < model.dofs(); ++i) s.G.push_back(model.G(i, a));
  s.w = values(model.w);
  s.e = values(model.e);
  s.q0 = values(x.q);
  s.v0 = values(x.v);
  s.t0 = x.t;
  s.h = h;
  return s;
}

Vector<double> vector_of(const std::vector<double>& x) {
  Vector<double> out(static_cast<Index>(x.size()));
  for (std::size_t i = 0; i < x.size(); ++i) out(static_cast<Index>(i)) = x[i];
  return out;
}

/// One Siconos integrator behind nsh's scheme kit. The step is Siconos'; the summary is nsh's
/// reading of Siconos' states in the discrete definitions of docs/theory.md §2 (Moreau–Jean's
/// ledger and its impulse LCP, which nsh poses itself on Siconos' index set and uses to certify
/// Siconos' impulses).
class SiconosScheme final : public Scheme<double> {
 public:
  using Integrator = siconos_bridge::Options::Integrator;

  SiconosScheme(const SchemeSpec& spec, Integrator integrator)
      : spec_(spec),
        integrator_(integrator),
        // D1MinusLinearOSI has no theta; its ledger is read at the trapezoidal theta = 1/2.
        theta_exact_(spec.has("theta") ? spec.number<Rational>("theta") : Rational(1) / 2),
        theta_(spec.has("theta") ? spec.number<double>("theta") : 0.5) {}

  // Both EventDriven integrators step to each grid point through their events.
  bool event_driven() const {
    return integrator_ == Integrator::event_driven || integrator_ == Integrator::newmark_alpha;
  }

  SchemeInfo info() const override {
    const bool mj = integrator_ == Integrator::moreau_jean;
    const bool d1 = integrator_ == Integrator::d1_minus_linear;
    const bool ed = event_driven();
    const bool na = integrator_ == Integrator::newmark_alpha;
    SchemeInfo info;
    info.family = mj   ? "siconos:moreau-jean"
                  : d1 ? "siconos:d1-minus-linear"
                  : na ? "siconos:newmark-alpha"
                  : ed ? "siconos:event-driven"
                       : "siconos:schatzman-paoli";
    info.spec = spec_.str();
    // Schatzman–Paoli: central differences, second order in smooth phases for every theta
    // (a theta-weighting of K and F around the central difference); not claimed.
    info.smooth_order = !mj || theta_exact_ == Rational(1) / 2 ? 2 : 1;
    // SchatzmanPaoliOSI does pose an LCP on its index set (0: every contact), position-level;
    // the velocity-level properties then run on it as findings (--force), never as claims.
    info.impulse_lcp = true;
    info.momentum_conserving = mj;
    info.algorithmic_energy = false;
    info.resolves_every_impact = ed;
    if (!d1 && !ed) info.parameters["theta"] = format_scalar(theta_exact_);
    if (na) info.parameters["rho"] = spec_.text("rho");
    return info;
  }

 protected:
  void do_initialize(const LinearModel<double>& model, const State<double>& initial,
                     const double& h) override {
    if (model.has_friction())
      throw ModelError("mu",
                       "siconos:* adapters step frictionless models only (the adapter "
                       "builds NewtonImpactNSL laws); this model has friction");
    model_ = &model;
    h_ = h;
    // Moreau–Jean's iteration matrix, W^ = M + h theta C + h^2 theta^2 K (docs/theory.md §2.1):
    // nsh's own, to pose the LCP on Siconos' index set.
    const Matrix<double> iteration =
        model.M + (h * theta_) * model.C + (h * h * theta_ * theta_) * model.K;
    iteration_.compute(iteration);
    minv_g_ = iteration_.solve(model.G);
    mass_.compute(model.M);
    mass_inv_g_ = mass_.solve(model.G);
    restart(initial);
  }

  void do_step(State<double>& state, StepSummary<double>& summary) override {
    // A caller may step from a state it made itself (a replay, a shrunk case): Siconos then
    // starts afresh from it, so that the step is always Siconos' step from `state`.
    // The time is compared to round-off only: a caller that sets t = t0 + k h (nsh simulate)
    // rather than accumulating t must not restart SchatzmanPaoliOSI, a two-step scheme whose
    // restart from (q, v) is a new start-up.
    const bool continues = std::abs(state.t - last_.t) <= 1e-9 * h_ * (1 + std::abs(state.t)) &&
                           state.q == last_.q && state.v == last_.v;
    if (!continues) restart(state);
    try {
      simulation_->step();
    } catch (const std::runtime_error& e) {
      throw StepError(std::string(info().family) + " at t = " + format_scalar(state.t) + ": " +
                      e.what());
    }
    const LinearModel<double>& model = *model_;
    const double h = h_;
    const Index m = model.contacts();
    const Vector<double> q_next = vector_of(simulation_->q());
    const Vector<double> v_next = vector_of(simulation_->v());
    const Vector<double> P = vector_of(simulation_->impulse());

    summary.index_set.clear();
    for (int a : simulation_->index_set()) summary.index_set.push_back(static_cast<Index>(a));
    summary.impulse = Vector<double>::Zero(m);
    if (event_driven())
      summarize_event_driven(state, P, summary);
    else
      summarize_time_step(state, q_next, v_next, P, summary);
    state.q = q_next;
    state.v = v_next;
    state.t += h;
    last_ = state;
  }

 private:
  // The ledger of one step of a time-stepping integrator from Siconos' end state and impulse,
  // on nsh's theta-weighted definitions (docs/theory.md §2.1), and its impact LCP certified
  // where nsh can pose it.
  void summarize_time_step(const State<double>& state, const Vector<double>& q_next,
                           const Vector<double>& v_next, const Vector<double>& P,
                           StepSummary<double>& summary) const {
    const LinearModel<double>& model = *model_;
    const double h = h_;
    // SchatzmanPaoliOSI's multiplier p_{k+1} is position-level,
    // M (q_{k+1} - 2 q_k + q_{k-1}) = h^2 F~ + G p_{k+1}: p / h is the impulse of the jump of the
    // half-step velocities (q_{k+1} - q_k)/h - (q_k - q_{k-1})/h, nsh's P of the step.
    const double impulse_scale = integrator_ == Integrator::schatzman_paoli ? 1.0 / h : 1.0;
    for (Index a : summary.index_set) summary.impulse(a) = impulse_scale * P(a);
    summary.velocity_newton = model.G.transpose() * state.v;
    if (integrator_ == Integrator::d1_minus_linear)
      // D1MinusLinearOSI's impact law is Newton's at t_{k+1}, on the velocity just before the
      // impact impulse, v_{k+1} - M^-1 G P (D1MinusLinearOSI.hpp): nsh derives it from
      // Siconos' end state and impulse.
      summary.velocity_newton = model.G.transpose() * (v_next - mass_inv_g_ * summary.impulse);

    const double t_next = state.t + h;
    const Vector<double> force_theta =
        (1 - theta_) * model.force(state.t) + theta_ * model.force(t_next);
    const Vector<double> v_theta = (1 - theta_) * state.v + theta_ * v_next;
    summary.external_impulse = h * force_theta;
    summary.W_ext = h * v_theta.dot(force_theta);
    summary.W_damp = -h * v_theta.dot(model.C * v_theta);
    summary.W_contact = (model.G.transpose() * v_theta).dot(summary.impulse);
    const Vector<double> dv = v_next - state.v;
    const Vector<double> dq = q_next - state.q;
    summary.numerical_dissipation = (theta_ - 0.5) * (dv.dot(model.M * dv) + dq.dot(model.K * dq));
    summary.has_algorithmic_energy = false;
    if (integrator_ == Integrator::moreau_jean) {
      certify_impulses(state, force_theta, summary);
    } else if (integrator_ == Integrator::d1_minus_linear) {
      // The impact LCP W = G_I^T M^-1 G_I, b = U_newton + e U_newton on Siconos' index set,
      // certified at Siconos' impulse; the contact forces of the smooth part (lambda(2)) are
      // Siconos' own and not re-posed.
      summary.numerical_dissipation = 0;
      certify_impact(summary);
    } else {
      // The Schatzman–Paoli ledger is not Moreau–Jean's: no identity is claimed, and nsh does
      // not pose SchatzmanPaoliOSI's position-level LCP (docs/siconos.md).
      summary.numerical_dissipation = 0;
      leave_unposed(summary, "SchatzmanPaoliOSI's position-level LCP is not re-posed by nsh");
    }
  }

  // A step whose LCP nsh does not pose: no certificate, and the verdicts that need one say why.
  static void leave_unposed(StepSummary<double>& summary, const char* why) {
    summary.lcp_solved = false;
    summary.lcp = LcpResult<double>{};
    summary.lcp.status = LcpStatus::uncertified;
    summary.lcp.message = why;
  }

  void restart(const State<double>& from) {
    siconos_bridge::Options options;
    options.integrator = integrator_;
    options.theta = theta_;
    if (spec_.has("rho")) options.rho = spec_.number<double>("rho");
    if (spec_.has("gamma") && spec_.text("gamma") != "unset")
      options.gamma = spec_.number<double>("gamma");
    try {
      simulation_ =
          std::make_unique<siconos_bridge::Simulation>(system_of(*model_, from, h_), options);
    } catch (const std::runtime_error& e) {
      throw ModelError("model", std::string("Siconos refused the model: ") + e.what());
    }
    last_ = from;
  }

  // What a step of the event-driven simulation tells: its end state and the sum of the impulses
  // of the impacts inside it. The rest of the ledger is not one step's: between impacts Lsodar
  // integrates the flow with the contact forces of the closed contacts (lambda(2), an
  // acceleration LCP), which no grid-level quantity records, so the works, the external impulse
  // and the pre-impact velocities are left unrecorded (zero, U_k) and no step-level law is
  // claimed on them (docs/siconos.md).
  void summarize_event_driven(const State<double>& state, const Vector<double>& P,
                              StepSummary<double>& summary) const {
    const LinearModel<double>& model = *model_;
    for (Index a : summary.index_set) summary.impulse(a) = P(a);
    summary.velocity_newton = model.G.transpose() * state.v;
    summary.external_impulse.setZero(model.dofs());
    summary.W_ext = 0;
    summary.W_damp = 0;
    summary.W_contact = 0;
    summary.numerical_dissipation = 0;
    summary.has_algorithmic_energy = false;
    leave_unposed(summary, "EventDriven's impact LCPs inside the step are not re-posed by nsh");
  }

  // The LCP Moreau–Jean poses on the index set I (docs/theory.md §2.1), W_I = G_I^T W^-1 G_I,
  // b_I = G_I^T v_free + e U_k, built by nsh and certified at Siconos' impulses: the certificate
  // the lcp_certificate property recomputes, here from nsh's problem, not Siconos' report.
  void certify_impulses(const State<double>& state, const Vector<double>& force_theta,
                        StepSummary<double>& summary) const {
    const LinearModel<double>& model = *model_;
    const Index k = static_cast<Index>(summary.index_set.size());
    summary.lcp_solved = k > 0;
    summary.lcp = LcpResult<double>{};
    if (k == 0) return;
    const double h = h_;
    const Vector<double> rhs =
        -h * (model.C * state.v + model.K * (state.q + h * theta_ * state.v) - force_theta);
    const Vector<double> v_free = state.v + iteration_.solve(rhs);
    Matrix<double> W(k, k);
    Vector<double> b(k), z(k);
    for (Index i = 0; i < k; ++i) {
      const Index a = summary.index_set[static_cast<std::size_t>(i)];
      for (Index j = 0; j < k; ++j)
        W(i, j) = model.G.col(a).dot(minv_g_.col(summary.index_set[static_cast<std::size_t>(j)]));
      b(i) = model.G.col(a).dot(v_free) + model.e(a) * summary.velocity_newton(a);
      z(i) = summary.impulse(a);
    }
    LcpResult<double>& lcp = summary.lcp;
    lcp.z = z;
    lcp.w = W * z + b;
    lcp.method = LcpMethod::lemke;  // Siconos' SICONOS_LCP_LEMKE
    lcp.certificate = certify(W, b, z, LcpOptions<double>{});
    lcp.status = lcp.certificate.accepted ? LcpStatus::solved : LcpStatus::uncertified;
    if (!lcp.certificate.accepted)
      lcp.message = "Siconos' impulses fail nsh's certificate of the Moreau–Jean LCP";
  }

  // D1MinusLinearOSI's impact LCP (W = G_I^T M^-1 G_I, b = (1 + e) U_newton on I), posed by
  // nsh from Siconos' state and certified at Siconos' impulses.
  void certify_impact(StepSummary<double>& summary) const {
    const LinearModel<double>& model = *model_;
    const Index k = static_cast<Index>(summary.index_set.size());
    summary.lcp_solved = k > 0;
    summary.lcp = LcpResult<double>{};
    if (k == 0) return;
    Matrix<double> W(k, k);
    Vector<double> b(k), z(k);
    for (Index i = 0; i < k; ++i) {
      const Index a = summary.index_set[static_cast<std::size_t>(i)];
      for (Index j = 0; j < k; ++j)
        W(i, j) =
            model.G.col(a).dot(mass_inv_g_.col(summary.index_set[static_cast<std::size_t>(j)]));
      b(i) = (1 + model.e(a)) * summary.velocity_newton(a);
      z(i) = summary.impulse(a);
    }
    LcpResult<double>& lcp = summary.lcp;
    lcp.z = z;
    lcp.w = W * z + b;
    lcp.method = LcpMethod::lemke;
    lcp.certificate = certify(W, b, z, LcpOptions<double>{});
    lcp.status = lcp.certificate.accepted ? LcpStatus::solved : LcpStatus::uncertified;
    if (!lcp.certificate.accepted)
      lcp.message = "Siconos' impulses fail nsh's certificate of D1MinusLinearOSI's impact LCP";
  }

  SchemeSpec spec_;
  Integrator integrator_;
  Rational theta_exact_;
  double theta_;
  const LinearModel<double>* model_{nullptr};
  double h_{0};
  Eigen::LDLT<Matrix<double>> iteration_, mass_;
  Matrix<double> minv_g_, mass_inv_g_;
  std::unique_ptr<siconos_bridge::Simulation> simulation_;
  State<double> last_;
};

// The claims of nsh's moreau-jean with the index set MoreauJeanOSI.hpp documents
// (I_1 = {G^T (q_k + h v_k) + w <= 0 and U_k <= 0}), its outside probes run on the adapter.
std::vector<properties::Claim> moreau_jean_claims(const SchemeInfo& info) {
  const std::string theta = info.parameters.at("theta");
  const auto documented =
      Registry::builtin().make<double>("moreau-jean:activation=position-velocity,theta=" + theta);
  // The adapter is frictionless (NewtonImpactNSL): held to moreau-jean's frictionless claims.
  SchemeInfo as_documented = documented->info();
  as_documented.friction = false;
  std::vector<properties::Claim> claims = properties::claims_of(as_documented);
  for (auto& claim : claims) {
    claim.domain +=
        " (as MoreauJeanOSI.hpp documents its index set: g predicted <= 0 and U_k <= 0)";
    std::vector<properties::OutsideProbe> outside;
    for (auto& probe : claim.outside) {
      const SchemeSpec spec = Registry::builtin().resolve(probe.spec);
      if (spec.name() != "moreau-jean" || spec.text("activation") != "position-velocity") continue;
      probe.spec = "siconos:moreau-jean:theta=" + spec.text("theta");
      outside.push_back(probe);
    }
    claim.outside = std::move(outside);
  }
  return claims;
}

SchemeEntry moreau_jean_entry() {
  SchemeEntry entry;
  entry.name = "siconos:moreau-jean";
  entry.summary = "Siconos 4.4 MoreauJeanOSI(theta[, gamma]) + LCP Lemke, stepped by Siconos";
  entry.options = {{"theta", "1/2", "theta-method parameter, a number in [0, 1]", {}},
                   {"gamma",
                    "unset",
                    "MoreauJeanOSI's gamma (index set g_k + gamma h U_k <= 0); unset: Siconos' "
                    "default",
                    {}}};
  entry.make.get<double>() = [](const SchemeSpec& spec) -> std::unique_ptr<Scheme<double>> {
    const Rational theta = spec.number<Rational>("theta");
    const Rational zero(0), one(1);
    require_in_range<Rational>(spec, "theta", theta, &zero, &one, "[0, 1]");
    return std::make_unique<SiconosScheme>(spec, SiconosScheme::Integrator::moreau_jean);
  };
  entry.in_all = false;
  entry.representatives = {entry.name, entry.name + ":theta=1"};
  return entry;
}

// What Siconos documents of SchatzmanPaoliOSI (SchatzmanPaoliOSI.hpp/.cpp, Siconos' user guide)
// is its position-level law, 0 <= g_{k+1} + e g_{k-1} _|_ p_{k+1} >= 0, with
// v_{k+1} = (q_{k+1} - q_{k-1}) / (2h); nothing at velocity level. What nsh can check of it as a
// black box: at e = 0 the law is Signorini in positions, g_{k+1} >= 0, so no gap deepens
// (penetration_bound).
std::vector<properties::Claim> schatzman_paoli_claims(const SchemeInfo&) {
  properties::Claim claim;
  claim.property = "penetration_bound";
  claim.domain =
      "e = 0 (SchatzmanPaoliOSI's law 0 <= g_{k+1} + e g_{k-1} _|_ p >= 0 is g_{k+1} >= 0 "
      "there; docs/siconos.md)";
  claim.cases.e_hi = 0;
  return {claim};
}

SchemeEntry schatzman_paoli_entry() {
  SchemeEntry entry;
  entry.name = "siconos:schatzman-paoli";
  entry.summary =
      "Siconos 4.4 SchatzmanPaoliOSI(theta) + LCP Lemke (position level), stepped by Siconos";
  entry.options = {{"theta", "1/2", "theta-method parameter, a number in [0, 1]", {}}};
  entry.make.get<double>() = [](const SchemeSpec& spec) -> std::unique_ptr<Scheme<double>> {
    const Rational theta = spec.number<Rational>("theta");
    const Rational zero(0), one(1);
    require_in_range<Rational>(spec, "theta", theta, &zero, &one, "[0, 1]");
    return std::make_unique<SiconosScheme>(spec, SiconosScheme::Integrator::schatzman_paoli);
  };
  entry.in_all = false;
  entry.representatives = {entry.name};
  return entry;
}

// What D1MinusLinearOSI.hpp documents: the impacts are solved at velocity level "as in
// MoreauJeanOSI" at t_{k+1} on the closed contacts, Newton's law on the velocity before the
// impact impulse. nsh claims that law (newton_restitution, signorini_complementarity) and the
// certificate of the impact LCP nsh poses from Siconos' state.
std::vector<properties::Claim> d1_minus_linear_claims(const SchemeInfo&) {
  const std::string law =
      " (D1MinusLinearOSI.hpp: impact LCP at t_{k+1} on index set 1, U_newton = G^T (v_{k+1} - "
      "M^-1 G P); docs/siconos.md)";
  std::vector<properties::Claim> claims(3);
  claims[0].property = "newton_restitution";
  claims[1].property = "signorini_complementarity";
  claims[2].property = "lcp_certificate";
  for (auto& claim : claims) claim.domain = "every parameter" + law;
  return claims;
}

SchemeEntry d1_minus_linear_entry() {
  SchemeEntry entry;
  entry.name = "siconos:d1-minus-linear";
  entry.summary =
      "Siconos 4.4 D1MinusLinearOSI + TimeSteppingD1Minus (impact and contact-force LCPs, "
      "Lemke), stepped by Siconos";
  entry.make.get<double>() = [](const SchemeSpec& spec) -> std::unique_ptr<Scheme<double>> {
    return std::make_unique<SiconosScheme>(spec, SiconosScheme::Integrator::d1_minus_linear);
  };
  entry.in_all = false;
  entry.representatives = {entry.name};
  return entry;
}

// What Siconos documents of EventDriven with NewtonImpactNSL (EventDriven.hpp, Siconos' user
// guide): exact event location, Newton's law and Signorini at each impact, the flow with g >= 0
// in between. The step-level predicates read U_{k+1} at the grid point, after the flow that
// follows an impact, so Newton's law and the impact work are not step properties here; what
// nsh checks of it on the grid is that no gap goes negative beyond round-off and the event
// tolerances: penetration_bound.
std::vector<properties::Claim> event_driven_claims(const SchemeInfo&) {
  properties::Claim claim;
  claim.property = "penetration_bound";
  claim.domain =
      "every parameter (EventDriven locates each gap's zero and keeps g >= 0 between impacts; "
      "docs/siconos.md)";
  return {claim};
}

SchemeEntry event_driven_entry() {
  SchemeEntry entry;
  entry.name = "siconos:event-driven";
  entry.summary =
      "Siconos 4.4 EventDriven + LsodarOSI (impact and acceleration LCPs, Lemke), the grid "
      "t0 + k h as time events, stepped by Siconos";
  entry.make.get<double>() = [](const SchemeSpec& spec) -> std::unique_ptr<Scheme<double>> {
    return std::make_unique<SiconosScheme>(spec, SiconosScheme::Integrator::event_driven);
  };
  entry.in_all = false;
  entry.representatives = {entry.name};
  return entry;
}

// What Siconos documents of NewMarkAlphaOSI under EventDriven (NewMarkAlphaOSI.hpp: "index-3
// DAE", the constraints at position level; EventDriven.cpp: each contact's closing is detected
// (g < TOL_ED) and located by bisection on the dense output, Newton's law at each impact, the
// position-level LCP keeps g = 0 on the closed contacts): as for siconos:event-driven, what nsh
// checks of it on the grid is that no gap goes negative beyond round-off and the event
// tolerances, penetration_bound. Its impact law is not claimed on the step (an impact inside
// the step is followed by flow); docs/siconos.md measures it directly.
std::vector<properties::Claim> newmark_alpha_claims(const SchemeInfo&) {
  properties::Claim claim;
  claim.property = "penetration_bound";
  claim.domain =
      "every parameter (EventDriven locates each gap's zero on NewMarkAlphaOSI's dense output and "
      "holds closed contacts at g = 0 by its position-level LCP; docs/siconos.md)";
  return {claim};
}

SchemeEntry newmark_alpha_entry() {
  SchemeEntry entry;
  entry.name = "siconos:newmark-alpha";
  entry.summary =
      "Siconos 4.4 EventDriven + NewMarkAlphaOSI(rho, position level) (impact, acceleration and "
      "position LCPs, Lemke), the grid t0 + k h as time events, stepped by Siconos";
  entry.options = {
      {"rho",
       "1/2",
       "NewMarkAlphaOSI's rho_inf (spectral radius at infinite frequency), a number in "
       "[0, 1]",
       {}}};
  entry.make.get<double>() = [](const SchemeSpec& spec) -> std::unique_ptr<Scheme<double>> {
    const Rational rho = spec.number<Rational>("rho");
    const Rational zero(0), one(1);
    require_in_range<Rational>(spec, "rho", rho, &zero, &one, "[0, 1]");
    return std::make_unique<SiconosScheme>(spec, SiconosScheme::Integrator::newmark_alpha);
  };
  entry.in_all = false;
  entry.representatives = {entry.name};
  return entry;
}

}  // namespace

void register_schemes(Registry& registry) {
  if (registry.contains("siconos:moreau-jean")) return;
  properties::register_scheme(moreau_jean_entry(), moreau_jean_claims, registry);
  if (!registry.contains("siconos:schatzman-paoli"))
    properties::register_scheme(schatzman_paoli_entry(), schatzman_paoli_claims, registry);
  if (!registry.contains("siconos:d1-minus-linear"))
    properties::register_scheme(d1_minus_linear_entry(), d1_minus_linear_claims, registry);
  if (!registry.contains("siconos:event-driven"))
    properties::register_scheme(event_driven_entry(), event_driven_claims, registry);
  if (!registry.contains("siconos:newmark-alpha"))
    properties::register_scheme(newmark_alpha_entry(), newmark_alpha_claims, registry);
}

}  // namespace nsh::siconos
