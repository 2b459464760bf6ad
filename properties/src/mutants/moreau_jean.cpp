// Deliberately broken Moreau–Jean schemes (nsh/properties/mutants.hpp), registered as
// "mutant:<name>". Each one is the theta-scheme of nsh/schemes/moreau_jean.hpp (docs/theory.md
// §2.1) with exactly one defect, and each reports the SchemeInfo (spec, family) and the energy
// ledger of the healthy scheme it pretends to be.
//
//   mutant:mj-wrong-sign           impact law 0 <= U_{k+1} - e U_k _|_ P (sign of e flipped)
//   mutant:mj-restitution-101      the LCP uses 1.01 e instead of e
//   mutant:mj-theta-past           dynamics use theta' = 1/(1 + max e) + 1/20 while the spec
//                                  (and the dissipation claim) say theta
//   mutant:mj-activation-position  index set g_k + h/2 U_k <= 0 without U_k <= 0, while the
//                                  spec says activation=position-velocity
//   mutant:mj-dropped-damping      C left out of the iteration matrix and the free velocity,
//                                  the ledger still reports W_damp = -h v_theta^T C v_theta
//   mutant:mj-position-vk          q_{k+1} = q_k + h v_k instead of q_k + h v_{k+theta}
//   mutant:mj-wrong-contact        the impulse of contact a is applied along G column a+1 (mod m)
//   mutant:mj-uncertified-lemke    Lemke's z perturbed by a relative 1/1000 (an inexact pivot)
//                                  and accepted as solved without recomputing the certificate
//   mutant:mj-lying-impulse        applies 9/10 of the impulse it reports
//
// Friction mutants (SchemeInfo::friction set, so they are held to the friction claims on
// frictional models; docs/friction.md "Moreau–Jean with friction"):
//   mutant:mj-friction-previous-radius      P_T clipped to the cone mu P_N of the previous
//                                           step's normal impulse (zero at a first impact)
//   mutant:mj-friction-wrong-sign           P_T applied and reported with the wrong sign
//   mutant:mj-friction-stick-while-sliding  the friction problem solved with 1000 mu, so a
//                                           contact that should slide sticks
//
// The defects outside the step (wrong sign, 1.01 e, the position-only index set, the dropped
// damping) are lying wrappers of the production MoreauJean (LyingMoreauJean below). The others
// sit inside the step (theta', the position update, the contact column, the LCP's answer, the
// friction cone) and run on docs/theory.md §2.1 written out once more, densely, with one switch
// per defect (MutantMoreauJean): its exact index-set tests are not the production step's zero
// tolerances, and the counterexamples `nsh check --mutants` prints are this step's numbers
// (docs/decisions.md). Double only: a mutant exists to be caught on the CI path.
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/friction/solver.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/moreau_jean.hpp>

#include <fmt/format.h>
#include <Eigen/LU>

#include "double_only.hpp"
#include "lying_scheme.hpp"

namespace nsh::properties {
namespace {

enum class Defect {
  wrong_sign,
  restitution_101,
  theta_past,
  activation_position,
  dropped_damping,
  position_vk,
  wrong_contact,
  uncertified_lemke,
  lying_impulse,
  // Friction (docs/friction.md "Moreau–Jean with friction"): the scheme claims friction.
  friction_previous_radius,
  friction_wrong_sign,
  friction_stick_while_sliding
};

bool is_friction_defect(Defect defect) {
  return defect == Defect::friction_previous_radius || defect == Defect::friction_wrong_sign ||
         defect == Defect::friction_stick_while_sliding;
}

class MutantMoreauJean : public Scheme<double> {
 public:
  MutantMoreauJean(const SchemeSpec& spec, Defect defect) : defect_(defect) {
    theta_text_ = spec.has("theta") ? spec.text("theta") : "1/2";
    theta_claimed_ = parse_number<double>(theta_text_, spec.name() + ":theta");
    if (theta_claimed_ < 0 || theta_claimed_ > 1)
      throw SpecError(spec.name() + ":theta",
                      "value " + theta_text_ + " is out of range; accepted: a number in [0, 1]");
    activation_ = spec.has("activation") ? spec.text("activation") : "position-velocity";
    lcp_ = parse_lcp_method(spec.has("lcp") ? spec.text("lcp") : "lemke");
  }

  SchemeInfo info() const override {
    SchemeInfo info;
    info.family = "moreau-jean";
    info.spec = "moreau-jean:activation=" + activation_ + ",lcp=" + to_string(lcp_) +
                ",theta=" + format_scalar(parse_rational(theta_text_, "theta"));
    info.smooth_order = parse_rational(theta_text_, "theta") == Rational(1) / 2 ? 2 : 1;
    info.parameters["theta"] = format_scalar(parse_rational(theta_text_, "theta"));
    info.parameters["activation"] = activation_;
    info.friction = is_friction_defect(defect_);
    return info;
  }

  void do_initialize(const LinearModel<double>& model, const State<double>&,
                     const double& h) override {
    model_ = &model;
    h_ = h;
    theta_ = theta_claimed_;
    previous_normal_ = Vector<double>::Zero(model.contacts());
    if (defect_ == Defect::theta_past) theta_ = 1.0 / (1.0 + model.max_restitution()) + 1.0 / 20;
    const double ht = h * theta_;
    lu_.compute(model.M + ht * model.C + ht * ht * model.K);
    minv_g_ = model.contacts() == 0 ? Matrix<double>(model.dofs(), 0) : lu_.solve(model.G);
    delassus_ = model.G.transpose() * minv_g_;
  }

  void do_step(State<double>& state, StepSummary<double>& summary) override {
    const LinearModel<double>& model = *model_;
    const Index m = model.contacts();
    const double h = h_, th = theta_;
    const Vector<double> q = state.q, v = state.v;
    const Vector<double> F = (1 - th) * model.force(state.t) + th * model.force(state.t + h);
    const Vector<double> g = model.gap(q), U = model.local_velocity(v);
    const Vector<double> v_free =
        v + lu_.solve(-h * (model.C * v + model.K * (q + h * th * v) - F));

    std::vector<Index> active;
    const bool velocity_rule = activation_ == "position-velocity";
    for (Index a = 0; a < m; ++a)
      if (g(a) + h / 2 * U(a) <= 0 && (!velocity_rule || U(a) <= 0)) active.push_back(a);

    Vector<double> P = Vector<double>::Zero(m);
    Vector<double> v_next = v_free;
    const Index k = static_cast<Index>(active.size());
    const Index d = model.tangent_directions();
    Vector<double> P_T = Vector<double>::Zero(m * d);
    if (model.has_friction()) {
      friction_impulse(active, v_free, U, state.t, P, P_T, v_next, summary);
    } else if (k > 0) {
      Matrix<double> W(k, k);
      Vector<double> b(k);
      for (Index i = 0; i < k; ++i) {
        const Index a = active[static_cast<std::size_t>(i)];
        for (Index j = 0; j < k; ++j) W(i, j) = delassus_(a, active[static_cast<std::size_t>(j)]);
        b(i) = model.G.col(a).dot(v_free) + model.e(a) * U(a);
      }
      summary.lcp = solve_lcp<double>(lcp_, W, b);
      if (!summary.lcp.ok())
        throw StepError("mutant moreau-jean: impulse LCP not certified: " + summary.lcp.message);
      if (defect_ == Defect::uncertified_lemke) {
        // An inexact pivot, taken at face value: the certificate is not recomputed.
        summary.lcp.z *= 1.001;
        summary.lcp.w = W * summary.lcp.z + b;
        summary.lcp.status = LcpStatus::solved;
        summary.lcp.certificate.accepted = true;
      }
      for (Index i = 0; i < k; ++i) {
        const Index a = active[static_cast<std::size_t>(i)];
        P(a) = summary.lcp.z(i);
        const Index along = defect_ == Defect::wrong_contact ? (a + 1) % m : a;
        // lying-impulse: the state gets a relaxed 9/10 of the impulse the summary reports.
        const double applied = defect_ == Defect::lying_impulse ? 0.9 : 1.0;
        v_next += applied * summary.lcp.z(i) * minv_g_.col(along);
      }
      summary.lcp_solved = true;
    } else {
      summary.lcp = LcpResult<double>{};
      summary.lcp.status = LcpStatus::solved;
      summary.lcp.certificate.accepted = true;
      summary.lcp_solved = false;
    }
    const Vector<double> v_theta = (1 - th) * v + th * v_next;
    const Vector<double> q_next = defect_ == Defect::position_vk ? Vector<double>(q + h * v)
                                                                 : Vector<double>(q + h * v_theta);
    const Vector<double> dv = v_next - v, dq = q_next - q;

    summary.index_set = active;
    summary.impulse = P;
    if (defect_ == Defect::lying_impulse) {
      // The after-state it would report if the scheme derived nothing: what the full impulse
      // gives (the kit overwrites it with what the state says).
      summary.velocity_after = model.local_velocity(v_free + minv_g_ * P);
    }
    summary.velocity_newton = U;
    summary.external_impulse = h * F;
    // The healthy ledger (docs/theory.md §2.2, §2.3) at the theta the dynamics used; the kit
    // derives the gaps, local velocities and energies from the states.
    summary.W_ext = h * v_theta.dot(F);
    summary.W_damp = -h * v_theta.dot(model.C * v_theta);
    summary.W_contact = model.local_velocity(v_theta).dot(P);
    if (model.has_friction()) {
      summary.tangential_impulse = P_T;
      summary.W_contact += model.tangential_velocity(v_theta).dot(P_T);
    }
    summary.numerical_dissipation = (th - 0.5) * (dv.dot(model.M * dv) + dq.dot(model.K * dq));
    summary.has_algorithmic_energy = false;
    state.q = q_next;
    state.v = v_next;
    state.t = state.t + h;
  }

 private:
  /// The friction step written densely (docs/friction.md), with the three friction defects.
  void friction_impulse(const std::vector<Index>& active, const Vector<double>& v_free,
                        const Vector<double>& U, double t, Vector<double>& P, Vector<double>& P_T,
                        Vector<double>& v_next, StepSummary<double>& summary) {
    const LinearModel<double>& model = *model_;
    const Index d = model.tangent_directions(), block = 1 + d;
    const Index k = static_cast<Index>(active.size());
    summary.lcp = LcpResult<double>{};
    summary.lcp.status = LcpStatus::solved;
    summary.lcp.certificate.accepted = true;
    summary.lcp_solved = k > 0;
    if (k == 0) {
      previous_normal_.setZero();
      return;
    }
    Matrix<double> H(model.dofs(), k * block);
    FrictionProblem<double> problem;
    problem.tangent_dimension = d;
    problem.friction_coefficient.resize(k);
    problem.b.resize(k * block);
    for (Index i = 0; i < k; ++i) {
      const Index a = active[static_cast<std::size_t>(i)];
      H.col(i * block) = model.G.col(a);
      for (Index j = 0; j < d; ++j) H.col(i * block + 1 + j) = model.G_T.col(a * d + j);
      problem.friction_coefficient(i) = model.mu(a);
      if (defect_ == Defect::friction_stick_while_sliding)
        problem.friction_coefficient(i) = 1000 * model.mu(a);  // a cone that never binds
    }
    const Matrix<double> minv_h = lu_.solve(H);
    problem.W = H.transpose() * minv_h;
    problem.W = (problem.W + problem.W.transpose()) / 2;
    problem.b = H.transpose() * v_free;
    for (Index i = 0; i < k; ++i)
      problem.b(i * block) +=
          model.e(active[static_cast<std::size_t>(i)]) * U(active[static_cast<std::size_t>(i)]);
    const FrictionResult<double> result =
        solve_friction(d == 1 ? FrictionMethod::lemke : FrictionMethod::alart_curnier, problem);
    if (!result.ok())
      throw StepError(fmt::format(
          "mutant moreau-jean: friction problem at t = {} not certified: {}", t, result.message));
    Vector<double> local = result.P;
    for (Index i = 0; i < k; ++i) {
      const Index a = active[static_cast<std::size_t>(i)];
      auto tangential = local.segment(i * block + 1, d);
      if (defect_ == Defect::friction_wrong_sign) tangential = -tangential;
      if (defect_ == Defect::friction_previous_radius) {
        // The cone of the previous step's normal impulse (zero at a first impact).
        const double radius = model.mu(a) * previous_normal_(a);
        const double norm = tangential.norm();
        if (norm > radius) tangential *= norm > 0 ? radius / norm : 0.0;
      }
    }
    previous_normal_.setZero();
    summary.lcp.z.resize(k);
    summary.lcp.w.resize(k);
    for (Index i = 0; i < k; ++i) {
      const Index a = active[static_cast<std::size_t>(i)];
      P(a) = local(i * block);
      previous_normal_(a) = P(a);
      for (Index j = 0; j < d; ++j) P_T(a * d + j) = local(i * block + 1 + j);
      summary.lcp.z(i) = local(i * block);
    }
    v_next = v_free + minv_h * local;
    for (Index i = 0; i < k; ++i) {
      const Index a = active[static_cast<std::size_t>(i)];
      summary.lcp.w(i) = model.G.col(a).dot(v_next) + model.e(a) * U(a);
    }
  }

  Vector<double> previous_normal_;
  Defect defect_;
  std::string theta_text_;
  double theta_claimed_{0.5};
  double theta_{0.5};
  std::string activation_;
  LcpMethod lcp_{LcpMethod::lemke};
  const LinearModel<double>* model_{nullptr};
  double h_{0};
  Eigen::PartialPivLU<Matrix<double>> lu_;
  Matrix<double> minv_g_, delassus_;
};

/// The defects outside the step: the production MoreauJean runs on the model the defect
/// perturbs (e -> -e, e -> 1.01 e, C -> 0) or with the parameter it changes (theta', the
/// position-only index set), and the wrapper reports the claimed spec's info, frictionless as
/// every mutant:mj-* outside the friction ones.
bool is_outside_the_step(Defect defect) {
  return defect == Defect::wrong_sign || defect == Defect::restitution_101 ||
         defect == Defect::activation_position || defect == Defect::dropped_damping;
}

class LyingMoreauJean : public Scheme<double> {
 public:
  LyingMoreauJean(const SchemeSpec& spec, Defect defect)
      : claimed_(SchemeSpec::parse("moreau-jean")), defect_(defect) {
    for (const auto& [key, value] : spec.options()) claimed_.set(key, value);
    claimed_info_ = MoreauJean<double>(claimed_).info();
    claimed_info_.friction = false;
    claimed_info_.parameters.erase("friction");
  }

  SchemeInfo info() const override { return claimed_info_; }

 private:
  void do_initialize(const LinearModel<double>& model, const State<double>& initial,
                     const double& h) override {
    model_ = &model;
    h_ = h;
    SchemeSpec stepped = claimed_;
    LinearModel<double> seen = model;
    if (defect_ == Defect::wrong_sign) seen.e = -model.e;
    if (defect_ == Defect::restitution_101) seen.e = 1.01 * model.e;
    if (defect_ == Defect::dropped_damping) seen.C.setZero();
    if (defect_ == Defect::activation_position) stepped.set("activation", "position");
    if (defect_ == Defect::theta_past)
      stepped.set("theta",
                  fmt::format("{:.17g}", 1.0 / (1.0 + model.max_restitution()) + 1.0 / 20));
    theta_ = parse_number<double>(stepped.text("theta"), "theta");
    lying_ = std::make_unique<SeesPerturbedModel<double>>(
        std::make_unique<MoreauJean<double>>(stepped),
        [seen](const LinearModel<double>&) { return seen; });
    lying_->initialize(model, initial, h);
  }

  void do_step(State<double>& state, StepSummary<double>& summary) override {
    const Vector<double> v = state.v;
    lying_->step(state, summary);
    if (defect_ != Defect::dropped_damping) return;
    // The ledger still reports the damping work of the true C at the step's v_theta.
    const Vector<double> v_theta = (1 - theta_) * v + theta_ * state.v;
    summary.W_damp = -h_ * v_theta.dot(model_->C * v_theta);
  }

  SchemeSpec claimed_;
  Defect defect_;
  SchemeInfo claimed_info_;
  const LinearModel<double>* model_{nullptr};
  double h_{0}, theta_{0.5};
  std::unique_ptr<Scheme<double>> lying_;
};

}  // namespace

void register_moreau_jean_mutants(Registry& registry) {
  const struct {
    const char* name;
    Defect defect;
    const char* summary;
  } mutants[] = {
      {"mj-wrong-sign", Defect::wrong_sign, "moreau-jean with impact law U_{k+1} - e U_k"},
      {"mj-restitution-101", Defect::restitution_101, "moreau-jean reading e as 1.01 e"},
      {"mj-theta-past", Defect::theta_past,
       "moreau-jean stepping with theta = 1/(1+max e) + 1/20 while claiming theta"},
      {"mj-activation-position", Defect::activation_position,
       "moreau-jean with the position-only index set while claiming position-velocity"},
      {"mj-dropped-damping", Defect::dropped_damping,
       "moreau-jean without the damping term C (ledger still reports W_damp)"},
      {"mj-position-vk", Defect::position_vk,
       "moreau-jean with the position update q_{k+1} = q_k + h v_k"},
      {"mj-wrong-contact", Defect::wrong_contact,
       "moreau-jean applying contact a's impulse along contact a+1"},
      {"mj-uncertified-lemke", Defect::uncertified_lemke,
       "moreau-jean accepting an inexact Lemke answer without its certificate"},
      {"mj-lying-impulse", Defect::lying_impulse,
       "moreau-jean applying 9/10 of the impulse it reports (state and summary disagree)"},
      {"mj-friction-previous-radius", Defect::friction_previous_radius,
       "moreau-jean with friction clipping P_T to the cone mu P_N of the previous step"},
      {"mj-friction-wrong-sign", Defect::friction_wrong_sign,
       "moreau-jean with friction applying the tangential impulse with the wrong sign"},
      {"mj-friction-stick-while-sliding", Defect::friction_stick_while_sliding,
       "moreau-jean with friction declaring stick while sliding (a 1000 mu cone)"},
  };
  for (const auto& mutant : mutants) {
    const Defect defect = mutant.defect;
    registry.add(double_only_mutant(
        std::string("mutant:") + mutant.name, mutant.summary,
        {
            {"theta", "1/2", "claimed theta, a number in [0, 1]", {}},
            {"activation",
             "position-velocity",
             "claimed index set rule",
             {"position", "position-velocity"}},
            {"lcp", "lemke", "one-step LCP solver", {"lemke", "enumeration", "pgs", "fb", "prox"}},
            {"friction", "", "claimed friction solver", {"lemke", "alart-curnier", "pgs"}},
        },
        [defect](const SchemeSpec& spec) -> std::unique_ptr<Scheme<double>> {
          if (is_outside_the_step(defect)) return std::make_unique<LyingMoreauJean>(spec, defect);
          return std::make_unique<MutantMoreauJean>(spec, defect);
        }));
  }
}

}  // namespace nsh::properties
