// Moreau–Jean theta-scheme (docs/theory.md §2.1–2.4): the seed-004 impact exactly, energy
// conservation at theta = 1/2, e = 1, the one-step identity of 2.3, the activation rules of 2.4,
// and the spec/driver errors.
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/recorded_fields.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/moreau_jean.hpp>

#include <gtest/gtest.h>

#include "allocation_counting.hpp"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <new>
#include <random>
#include <string>

// Allocation counting (allocation_counting.hpp): a double step must allocate nothing.
namespace {
bool& counting = nsh::test::counting_allocations;
long& allocations = nsh::test::allocations;
}  // namespace

namespace nsh {
namespace {

template <class S>
MoreauJean<S> make_scheme(const std::string& spec) {
  return MoreauJean<S>(Registry::builtin().resolve(spec));
}

template <class S>
S q_(const char* text) {
  return parse_number<S>(text, "test");
}

/// Seed 004 example 2: m1 = 2, m2 = 3, v1 = -1, v2 = +1 (closing), e = 1/2, gap g = q1 - q2.
LinearModel<Rational> rational_two_body() {
  LinearModel<Rational> model;
  model.name = "two-body";
  model.M = Matrix<Rational>::Zero(2, 2);
  model.M(0, 0) = 2;
  model.M(1, 1) = 3;
  model.G = Matrix<Rational>(2, 1);
  model.G << 1, -1;
  model.e = Vector<Rational>::Constant(1, Rational(1) / 2);
  fill_defaults(model);
  model.validate();
  return model;
}

TEST(MoreauJean, SeedFourTwoBodyImpactIsExactInRational) {
  const LinearModel<Rational> model = rational_two_body();
  for (const char* theta : {"1/2", "1", "0", "3/4"}) {
    for (const char* activation : {"position", "position-velocity"}) {
      SCOPED_TRACE(std::string(theta) + " " + activation);
      MoreauJean<Rational> scheme = make_scheme<Rational>(std::string("moreau-jean:theta=") +
                                                          theta + ",activation=" + activation);
      State<Rational> state{Rational(0), Vector<Rational>::Zero(2), Vector<Rational>(2)};
      state.v << -1, 1;
      const Rational h = Rational(1) / 10;
      scheme.initialize(model, state, h);
      StepSummary<Rational> s;
      scheme.step(state, s);
      ASSERT_EQ(s.index_set.size(), 1u);
      EXPECT_EQ(s.impulse(0), Rational(18) / 5);
      EXPECT_EQ(state.v(0), Rational(4) / 5);
      EXPECT_EQ(state.v(1), Rational(-1) / 5);
      EXPECT_EQ(s.E_before, Rational(5) / 2);
      EXPECT_EQ(s.E_after, Rational(7) / 10);
      EXPECT_EQ(model.energy(state.q, state.v), Rational(7) / 10);
      // Momentum 2(-1) + 3(1) = 1 before and after; Newton's law U+ = -e U-.
      EXPECT_EQ(Rational(2) * state.v(0) + Rational(3) * state.v(1), Rational(1));
      EXPECT_EQ(s.velocity_after(0), Rational(1));
      EXPECT_EQ(s.velocity_newton(0), Rational(-2));
      EXPECT_EQ(s.energy_identity_defect(), Rational(0));
      EXPECT_TRUE(s.lcp.ok());
      EXPECT_TRUE(s.lcp_solved);
      EXPECT_EQ(s.lcp.certificate.natural_map, Rational(0));
      // A pure impact step loses the Thomson–Tait amount whatever theta is: -9/5.
      EXPECT_EQ(s.E_after - s.E_before, Rational(-9) / 5);
      EXPECT_EQ(s.W_ext, Rational(0));
      EXPECT_EQ(s.W_damp, Rational(0));
      EXPECT_EQ(s.h, h);
      EXPECT_EQ(s.t_before, Rational(0));
      EXPECT_EQ(s.t_after, h);
      EXPECT_EQ(state.t, h);
    }
  }
}

/// Two coupled dofs with M, C, K full and a contact g = q_0 - q_1 + 1/20 under a force that
/// closes it: every term of the ledger is non-zero on some step.
template <class S>
LinearModel<S> coupled_pair() {
  LinearModel<S> model;
  model.name = "coupled-pair";
  model.M = Matrix<S>(2, 2);
  model.M << S(2), S(1), S(1), S(3);
  model.K = Matrix<S>(2, 2);
  model.K << S(40), S(-10), S(-10), S(20);
  model.C = Matrix<S>(2, 2);
  model.C << S(1) / 10, S(0), S(0), S(1) / 5;
  model.G = Matrix<S>(2, 1);
  model.G << S(1), S(-1);
  model.w = Vector<S>::Constant(1, S(1) / 20);
  model.e = Vector<S>::Constant(1, S(1) / 2);
  model.F = Vector<S>(2);
  model.F << S(-3), S(2);
  fill_defaults(model);
  model.validate();
  return model;
}

// D = (theta - 1/2)(||[v]||_M^2 + ||[q]||_K^2) comes from the kit's products of the energies
// (Scheme::do_complete_ledger, docs/decisions.md): exactly the jump norms in Rational, on
// steps that continue (the products swapped from the last step) and on a step from an edited
// state (the products formed afresh); within the energies' rounding in double.
TEST(MoreauJean, NumericalDissipationIsTheJumpNormFromTheKitsProducts) {
  const auto jump_norm = [](const auto& model, const auto& before, const auto& after) {
    const auto dv = (after.v - before.v).eval();
    const auto dq = (after.q - before.q).eval();
    return dv.dot(model.M * dv) + dq.dot(model.K * dq);
  };
  for (const char* theta : {"0", "1/2", "3/4", "1"}) {
    SCOPED_TRACE(theta);
    const LinearModel<Rational> model = coupled_pair<Rational>();
    MoreauJean<Rational> scheme = make_scheme<Rational>(std::string("moreau-jean:theta=") + theta);
    State<Rational> state{Rational(0), Vector<Rational>::Zero(2), Vector<Rational>(2)};
    state.v << Rational(-1), Rational(1, 2);
    const Rational h(1, 20), factor = scheme.theta() - Rational(1, 2);
    scheme.initialize(model, state, h);
    int impulses = 0;
    for (int k = 0; k < 12; ++k) {
      if (k == 6) state.v(0) += Rational(1, 7);  // a state the caller edited
      const State<Rational> before = state;
      StepSummary<Rational> s;
      scheme.step_recording_fields(state, s);
      EXPECT_TRUE(s.recorded & bit(RecordedField::numerical_dissipation)) << "step " << k;
      EXPECT_EQ(s.numerical_dissipation, factor * jump_norm(model, before, state)) << "step " << k;
      EXPECT_EQ(s.energy_identity_defect(), Rational(0)) << "step " << k;
      if (!s.index_set.empty() && s.impulse(0) > Rational(0)) ++impulses;
    }
    EXPECT_GT(impulses, 0);
  }
  const LinearModel<double> model = coupled_pair<double>();
  MoreauJean<double> scheme = make_scheme<double>("moreau-jean:theta=1");
  State<double> state{0.0, Vector<double>::Zero(2), Vector<double>(2)};
  state.v << -1.0, 0.5;
  scheme.initialize(model, state, 0.05);
  for (int k = 0; k < 12; ++k) {
    const State<double> before = state;
    StepSummary<double> s;
    scheme.step(state, s);
    const double expected = 0.5 * jump_norm(model, before, state);
    const double scale =
        model.M.cwiseAbs().maxCoeff() *
            std::pow(before.v.cwiseAbs().maxCoeff() + state.v.cwiseAbs().maxCoeff(), 2) +
        model.K.cwiseAbs().maxCoeff() *
            std::pow(before.q.cwiseAbs().maxCoeff() + state.q.cwiseAbs().maxCoeff(), 2);
    EXPECT_NEAR(s.numerical_dissipation, expected, 1e-14 * scale) << "step " << k;
  }
}

/// A 1-dof particle between walls q >= 0 and q <= width, unit mass.
template <class S>
LinearModel<S> particle_between_walls(const S& width, const S& gravity) {
  LinearModel<S> model;
  model.name = "particle-between-walls";
  model.M = Matrix<S>::Identity(1, 1);
  model.G = Matrix<S>(1, 2);
  model.G << S(1), S(-1);
  model.w = Vector<S>(2);
  model.w << S(0), width;
  model.e = Vector<S>::Constant(2, S(1));
  model.F = Vector<S>::Constant(1, -gravity);
  fill_defaults(model);
  model.validate();
  return model;
}

TEST(MoreauJean, ElasticBouncingConservesEnergyAtThetaHalf) {
  // F = 0: E itself is conserved (docs/theory.md §2.4, last bullet: 3.6e-15 after 400 steps).
  const LinearModel<double> model = particle_between_walls<double>(1.0, 0.0);
  MoreauJean<double> scheme = make_scheme<double>("moreau-jean:theta=1/2");
  State<double> initial{0.0, Vector<double>::Constant(1, 0.3), Vector<double>::Constant(1, 1.7)};
  const Trajectory<double> run = record<double>(scheme, model, initial, 0.01, 4.0);
  ASSERT_EQ(run.steps.size(), 400u);
  const double E0 = model.energy(initial.q, initial.v);
  int impacts = 0;
  for (const auto& s : run.steps) {
    if (s.impulse.maxCoeff() > 0) ++impacts;
    EXPECT_NEAR(s.E_after, E0, 64 * std::numeric_limits<double>::epsilon() * E0);
  }
  EXPECT_GE(impacts, 6);  // 1.7 * 4 / 1 = 6.8 wall crossings
  const auto& last = run.states.back();
  EXPECT_NEAR(model.energy(last.q, last.v), E0, 64 * std::numeric_limits<double>::epsilon() * E0);
}

TEST(MoreauJean, DoubleStepDoesNotAllocate) {
  // Free flight and bounces between two walls with a spring and damping: after the first step
  // has sized the summary, steps without an active contact allocate nothing.
  LinearModel<double> model = particle_between_walls<double>(1.0, 9.81);
  model.K(0, 0) = 2.0;
  model.C(0, 0) = 0.1;
  MoreauJean<double> scheme = make_scheme<double>("moreau-jean:theta=0.6");
  State<double> state{0.0, Vector<double>::Constant(1, 0.5), Vector<double>::Constant(1, 0.1)};
  scheme.initialize(model, state, 1e-3);
  StepSummary<double> summary;
  scheme.step(state, summary);
  int free_steps = 0;
  for (int k = 0; k < 200; ++k) {
    allocations = 0;
    counting = true;
    scheme.step(state, summary);
    counting = false;
    if (summary.index_set.empty()) {
      ++free_steps;
      EXPECT_EQ(allocations, 0) << "step " << k;
    }
  }
  EXPECT_GT(free_steps, 100);
}

/// A unit ball on the ground q >= 0 under gravity 9.81, restitution e.
LinearModel<double> ball_on_ground(double e) {
  LinearModel<double> model;
  model.M = Matrix<double>::Identity(1, 1);
  model.G = Matrix<double>::Identity(1, 1);
  model.e = Vector<double>::Constant(1, e);
  model.F = Vector<double>::Constant(1, -9.81);
  fill_defaults(model);
  return model;
}

TEST(MoreauJean, DoubleStepWithActiveContactsDoesNotAllocate) {
  // A bouncing ball (e = 1/2, q >= 0 under gravity) until it settles on the ground: the active
  // set changes size 0 -> 1 -> 0 at every bounce and is mostly {0} once settled. After the first
  // step has sized the summary, no step allocates, with the impulse LCP solved by Lemke or PGS in
  // the scheme's LcpWorkspace.
  for (const char* spec : {"moreau-jean:lcp=lemke", "moreau-jean:lcp=pgs,theta=0.6"}) {
    const LinearModel<double> model = ball_on_ground(0.5);
    MoreauJean<double> scheme = make_scheme<double>(spec);
    State<double> state{0.0, Vector<double>::Constant(1, 0.2), Vector<double>::Zero(1)};
    scheme.initialize(model, state, 1e-3);
    StepSummary<double> summary;
    scheme.step(state, summary);
    int contact_steps = 0, changes = 0;
    std::size_t previous = summary.index_set.size();
    for (int k = 0; k < 2000; ++k) {
      allocations = 0;
      counting = true;
      scheme.step(state, summary);
      counting = false;
      EXPECT_EQ(allocations, 0) << spec << ", step " << k << ", " << summary.index_set.size()
                                << " active";
      if (!summary.index_set.empty()) {
        ++contact_steps;
        EXPECT_TRUE(summary.lcp.ok()) << spec;
        EXPECT_EQ(summary.lcp.z.size(), 1) << spec;
        EXPECT_EQ(summary.lcp.w.size(), 1) << spec;
        EXPECT_EQ(summary.lcp.z(0), summary.impulse(0)) << spec;
      } else {
        EXPECT_EQ(summary.lcp.z.size(), 0) << spec;
      }
      if (summary.index_set.size() != previous) ++changes;
      previous = summary.index_set.size();
    }
    EXPECT_GT(contact_steps, 500) << spec;  // at rest from about t = 0.6
    EXPECT_GE(changes, 6) << spec;          // several bounces
  }
}

TEST(MoreauJean, ElasticBallUnderGravityConservesEnergyMinusExternalWork) {
  // Ball on the ground q >= 0 under gravity: E - sum(W_ext) is conserved at theta = 1/2, e = 1.
  const LinearModel<double> model = ball_on_ground(1.0);
  MoreauJean<double> scheme = make_scheme<double>("moreau-jean");
  State<double> initial{0.0, Vector<double>::Constant(1, 1.0), Vector<double>::Zero(1)};
  const Trajectory<double> run = record<double>(scheme, model, initial, 1e-3, 3.0);
  const double E0 = model.energy(initial.q, initial.v);
  double work = 0, scale = E0;
  int impacts = 0;
  for (const auto& s : run.steps) {
    work += s.W_ext + s.W_damp;
    scale = std::max(scale, std::abs(work));
    if (s.impulse(0) > 0) ++impacts;
    EXPECT_EQ(s.numerical_dissipation, 0.0);
    EXPECT_NEAR(s.E_after - work, E0, 1e-12 * scale) << "step " << s.step;
  }
  EXPECT_GE(impacts, 3);  // the free fall from 1 takes 0.45 s, a bounce 0.9 s
}

/// A random system: n dofs, m contacts, SPD M, PSD K and C, states near contact.
LinearModel<double> random_model(std::mt19937& rng, Index n, Index m) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto random = [&](Index r, Index c) {
    Matrix<double> A(r, c);
    for (Index i = 0; i < r; ++i)
      for (Index j = 0; j < c; ++j) A(i, j) = u(rng);
    return A;
  };
  LinearModel<double> model;
  const Matrix<double> A = random(n, n), B = random(n, n), D = random(n, n);
  model.M = A * A.transpose() + Matrix<double>::Identity(n, n);
  model.K = 10 * B * B.transpose();
  model.C = 0.5 * D * D.transpose();
  model.F = random(n, 1);
  model.G = random(n, m);
  model.w = 0.05 * random(m, 1);
  model.e = Vector<double>(m);
  for (Index a = 0; a < m; ++a) model.e(a) = 0.5 * (u(rng) + 1.0);
  fill_defaults(model);
  model.validate();
  return model;
}

TEST(MoreauJean, EnergyIdentityHoldsToRoundOffInDouble) {
  std::mt19937 rng(20161);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int contact_steps = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const Index n = 1 + trial % 4, m = 1 + trial % 2;
    const LinearModel<double> model = random_model(rng, n, m);
    const double theta = trial % 3 == 0 ? 0.5 : 0.5 * (u(rng) + 1.0);
    const char* activation = trial % 2 ? "position" : "position-velocity";
    MoreauJean<double> scheme = make_scheme<double>(
        "moreau-jean:activation=" + std::string(activation) + ",theta=" + std::to_string(theta));
    State<double> initial{0.0, 0.1 * Vector<double>::Random(n), Vector<double>::Random(n)};
    const Trajectory<double> run = record<double>(scheme, model, initial, 0.01, 1.0);
    for (const auto& s : run.steps) {
      const double scale = std::max({std::abs(s.E_before), std::abs(s.E_after), std::abs(s.W_ext),
                                     std::abs(s.W_damp), std::abs(s.W_contact), 1e-3});
      ASSERT_LE(std::abs(s.energy_identity_defect()), 1e-12 * scale)
          << "trial " << trial << " step " << s.step;
      if (!s.index_set.empty()) ++contact_steps;
      for (Index a = 0; a < m; ++a) {
        bool in_set = false;
        for (Index b : s.index_set) in_set = in_set || a == b;
        if (!in_set) {
          EXPECT_EQ(s.impulse(a), 0.0);
        }
        EXPECT_GE(s.impulse(a), 0.0);
      }
    }
  }
  EXPECT_GT(contact_steps, 100);  // the identity was checked on impact steps, not only free flight
}

/// docs/theory.md §2.4: unit mass, gap g = q, gravity 9.81, h = 1e-2, theta = 1/2, e = 0, a contact
/// slightly penetrated (g_k = -1e-3) and separating slowly (U_k = +0.02).
template <class S>
StepSummary<S> separating_step(const std::string& activation) {
  LinearModel<S> model;
  model.M = Matrix<S>::Identity(1, 1);
  model.G = Matrix<S>::Identity(1, 1);
  model.e = Vector<S>::Zero(1);
  model.F = Vector<S>::Constant(1, -q_<S>("9.81"));
  fill_defaults(model);
  MoreauJean<S> scheme = make_scheme<S>("moreau-jean:theta=1/2,activation=" + activation);
  State<S> state{S(0), Vector<S>::Constant(1, -q_<S>("1e-3")),
                 Vector<S>::Constant(1, q_<S>("0.02"))};
  scheme.initialize(model, state, q_<S>("1e-2"));
  StepSummary<S> s;
  scheme.step(state, s);
  return s;
}

TEST(MoreauJean, PositionRuleGainsEnergyOnASeparatingContact) {
  const StepSummary<Rational> s = separating_step<Rational>("position");
  ASSERT_EQ(s.index_set.size(), 1u);
  EXPECT_EQ(s.impulse(0), q_<Rational>("0.0781"));
  EXPECT_EQ(s.velocity_after(0), Rational(0));
  // Delta E - W_ext - W_damp = +7.81e-4 exactly, and the identity still balances (W_contact).
  EXPECT_EQ(s.E_after - s.E_before - s.W_ext - s.W_damp, q_<Rational>("7.81e-4"));
  EXPECT_EQ(s.W_contact, q_<Rational>("7.81e-4"));
  EXPECT_EQ(s.energy_identity_defect(), Rational(0));

  const StepSummary<double> d = separating_step<double>("position");
  EXPECT_NEAR(d.E_after - d.E_before - d.W_ext - d.W_damp, 7.81e-4, 1e-15);
}

TEST(MoreauJean, VelocityConditionKeepsTheSeparatingContactOut) {
  for (const char* spec : {"position-velocity"}) {
    const StepSummary<Rational> s = separating_step<Rational>(spec);
    EXPECT_TRUE(s.index_set.empty());
    EXPECT_FALSE(s.lcp_solved);
    EXPECT_EQ(s.impulse(0), Rational(0));
    EXPECT_EQ(s.W_contact, Rational(0));
    EXPECT_EQ(s.E_after - s.E_before - s.W_ext - s.W_damp, Rational(0));
    EXPECT_EQ(s.energy_identity_defect(), Rational(0));
  }
  // The default rule is position-velocity.
  EXPECT_EQ(make_scheme<double>("moreau-jean").activation(),
            MoreauJeanActivation::position_velocity);
}

TEST(MoreauJean, UncertifiedLcpThrowsStepErrorWithTheCertificate) {
  // One dof pinned between q >= 0 (e = 0) and q <= -1 (e = 1), both active by the position
  // rule: the velocity LCP U >= 0, -U >= 1 is infeasible, Lemke ends on a ray.
  LinearModel<double> model;
  model.M = Matrix<double>::Identity(1, 1);
  model.G = Matrix<double>(1, 2);
  model.G << 1, -1;
  model.w = Vector<double>(2);
  model.w << 0, -2;
  model.e = Vector<double>(2);
  model.e << 0, 1;
  fill_defaults(model);
  MoreauJean<double> scheme = make_scheme<double>("moreau-jean:activation=position");
  State<double> state{0.0, Vector<double>::Constant(1, -1.0), Vector<double>::Constant(1, 1.0)};
  scheme.initialize(model, state, 0.01);
  StepSummary<double> s;
  try {
    scheme.step(state, s);
    FAIL() << "an infeasible impulse LCP was accepted";
  } catch (const StepError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("not certified"), std::string::npos) << what;
    EXPECT_NE(what.find("natural map"), std::string::npos) << what;
    EXPECT_NE(what.find("lemke"), std::string::npos) << what;
  }
}

TEST(MoreauJean, InfoGivesTheCanonicalSpec) {
  const SchemeInfo a = make_scheme<double>("moreau-jean").info();
  EXPECT_EQ(a.family, "moreau-jean");
  EXPECT_EQ(a.spec, "moreau-jean:activation=position-velocity,lcp=lemke,theta=1/2");
  EXPECT_EQ(a.smooth_order, 2);
  EXPECT_TRUE(a.impulse_lcp);
  const SchemeInfo b =
      make_scheme<Rational>("moreau-jean:theta=0.7,activation=position,lcp=enumeration").info();
  EXPECT_EQ(b.spec, "moreau-jean:activation=position,lcp=enumeration,theta=7/10");
  EXPECT_EQ(b.smooth_order, 1);
  EXPECT_EQ(make_scheme<Real50>("moreau-jean:theta=1/3").theta(), Real50(1) / 3);
  // The canonical spec builds the same scheme.
  EXPECT_EQ(make_scheme<double>(b.spec).info().spec, b.spec);
}

template <class E>
std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception";
  return "";
}

TEST(MoreauJean, BadSpecsNameTheOptionAndListWhatIsAccepted) {
  const Registry& r = Registry::builtin();
  ASSERT_TRUE(r.contains("moreau-jean"));
  std::string m = message_of<SpecError>([&] { r.make<double>("moreau-jean:theta=2"); });
  EXPECT_NE(m.find("theta"), std::string::npos) << m;
  EXPECT_NE(m.find("[0, 1]"), std::string::npos) << m;
  m = message_of<SpecError>([&] { r.make<double>("moreau-jean:theta=-1/10"); });
  EXPECT_NE(m.find("theta"), std::string::npos) << m;
  m = message_of<SpecError>([&] { r.make<double>("moreau-jean:theta=abc"); });
  EXPECT_NE(m.find("theta"), std::string::npos) << m;
  m = message_of<SpecError>([&] { r.make<double>("moreau-jean:foo=1"); });
  EXPECT_NE(m.find("foo"), std::string::npos) << m;
  for (const char* key : {"theta", "activation", "lcp"})
    EXPECT_NE(m.find(key), std::string::npos) << m;
  m = message_of<SpecError>([&] { r.make<double>("moreau-jean:activation=bogus"); });
  EXPECT_NE(m.find("activation"), std::string::npos) << m;
  EXPECT_NE(m.find("bogus"), std::string::npos) << m;
  EXPECT_NE(m.find("position-velocity"), std::string::npos) << m;
  m = message_of<SpecError>([&] { r.make<double>("moreau-jean:lcp=simplex"); });
  EXPECT_NE(m.find("lcp"), std::string::npos) << m;
  EXPECT_NE(m.find("lemke"), std::string::npos) << m;
  m = message_of<SpecError>([&] { r.make<double>("nosuch"); });
  EXPECT_NE(m.find("nosuch"), std::string::npos) << m;
  EXPECT_NE(m.find("moreau-jean"), std::string::npos) << m;
  // Iterative LCP solvers cannot run exactly.
  for (const char* method : {"pgs", "fb", "prox"}) {
    m = message_of<SpecError>([&] { r.make<Rational>(std::string("moreau-jean:lcp=") + method); });
    EXPECT_NE(m.find("lcp"), std::string::npos) << m;
    EXPECT_NE(m.find("lemke, enumeration"), std::string::npos) << m;
    EXPECT_NO_THROW(r.make<double>(std::string("moreau-jean:lcp=") + method));
  }
  // A raw spec that bypasses the registry is checked by the scheme itself.
  m = message_of<SpecError>([] { MoreauJean<double>(SchemeSpec::parse("moreau-jean:foo=1")); });
  EXPECT_NE(m.find("foo"), std::string::npos) << m;
  EXPECT_NE(m.find("theta"), std::string::npos) << m;
  m = message_of<SpecError>(
      [] { MoreauJean<double>(SchemeSpec::parse("moreau-jean:activation=bogus")); });
  EXPECT_NE(m.find("position-velocity"), std::string::npos) << m;
  // theta = 0 and 1 are inside the accepted range.
  EXPECT_NO_THROW(r.make<Rational>("moreau-jean:theta=0"));
  EXPECT_NO_THROW(r.make<Rational>("moreau-jean:theta=1"));
}

TEST(MoreauJean, SimulateRejectsBadStepSizesNamingH) {
  const LinearModel<double> model = particle_between_walls<double>(1.0, 0.0);
  auto scheme = Registry::builtin().make<double>("moreau-jean");
  const State<double> initial{0.0, Vector<double>::Constant(1, 0.5),
                              Vector<double>::Constant(1, 1.0)};
  for (double h : {0.0, -0.1, std::numeric_limits<double>::quiet_NaN(),
                   std::numeric_limits<double>::infinity()}) {
    try {
      simulate<double>(*scheme, model, initial, h, 1.0);
      ADD_FAILURE() << "h = " << h << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "h") << e.what();
    }
    // The scheme checks h itself when used without the driver.
    EXPECT_THROW(scheme->initialize(model, initial, h), InputError);
  }
  auto exact = Registry::builtin().make<Rational>("moreau-jean");
  const LinearModel<Rational> rmodel = model_cast<Rational>(model);
  const State<Rational> rinitial = state_cast<Rational>(initial);
  try {
    simulate<Rational>(*exact, rmodel, rinitial, Rational(0), Rational(1));
    ADD_FAILURE() << "h = 0 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "h") << e.what();
  }
}

TEST(MoreauJean, DriverRunsAllThreeScalarsAlike) {
  // Rational, Real50 and double agree on a bouncing particle with damping and a spring.
  LinearModel<Rational> model = particle_between_walls<Rational>(Rational(1), Rational(981) / 100);
  model.K(0, 0) = 3;
  model.C(0, 0) = Rational(1) / 5;
  model.e << Rational(1) / 2, Rational(3) / 4;
  const State<Rational> initial{Rational(0), Vector<Rational>::Constant(1, Rational(1) / 2),
                                Vector<Rational>::Constant(1, Rational(4))};
  const Rational h = Rational(1) / 50, T = Rational(1);
  auto exact = Registry::builtin().make<Rational>("moreau-jean:theta=3/5");
  const State<Rational> r = simulate<Rational>(*exact, model, initial, h, T);
  auto wide = Registry::builtin().make<Real50>("moreau-jean:theta=3/5");
  const State<Real50> w = simulate<Real50>(*wide, model_cast<Real50>(model),
                                           state_cast<Real50>(initial), Real50(h), Real50(T));
  auto fast = Registry::builtin().make<double>("moreau-jean:theta=3/5");
  const State<double> d =
      simulate<double>(*fast, model_cast<double>(model), state_cast<double>(initial), 0.02, 1.0);
  EXPECT_EQ(r.t, T);
  EXPECT_NEAR(scalar_cast<double>(scalar_cast<Real50>(r.q(0)) - w.q(0)), 0.0, 1e-40);
  EXPECT_NEAR(scalar_cast<double>(scalar_cast<Real50>(r.v(0)) - w.v(0)), 0.0, 1e-40);
  EXPECT_NEAR(scalar_cast<double>(r.q(0)) - d.q(0), 0.0, 1e-12);
  EXPECT_NEAR(scalar_cast<double>(r.v(0)) - d.v(0), 0.0, 1e-12);
}

}  // namespace
}  // namespace nsh
