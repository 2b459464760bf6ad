// Moreau–Jean with Coulomb friction (docs/friction.md "Moreau–Jean with friction",
// docs/theory.md §9.1–9.2): the sliding block's exact discrete stop in Rational, the
// Kane–Levinson impact, the one-step identity with the tangential term, mu = 0 bit for bit,
// and the refusals (frictionless schemes, the sparse family, d = 2 in Rational).
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/moreau_jean.hpp>

#include <gtest/gtest.h>

#include <random>

namespace nsh {
namespace {

using Q = Rational;

/// q = (x_N, x_T), G_N = e_1, G_T = e_2: a block on a horizontal plane (mass matrix M).
template <class S>
LinearModel<S> planar_block(const Matrix<S>& M, const S& gravity, const S& mu, const S& e) {
  LinearModel<S> model;
  model.name = "block";
  model.M = M;
  model.G = Matrix<S>::Zero(2, 1);
  model.G(0, 0) = S(1);
  model.G_T = Matrix<S>::Zero(2, 1);
  model.G_T(1, 0) = S(1);
  model.mu = Vector<S>::Constant(1, mu);
  model.e = Vector<S>::Constant(1, e);
  model.F = Vector<S>::Zero(2);
  model.F(0) = -gravity;
  fill_defaults(model);
  model.validate();
  return model;
}

TEST(MoreauJeanFriction, SlidingBlockStopsExactlyInRational) {
  // docs/theory.md §9.2: theta = 1, e = 0: v_{k+1} = v_k - h mu g while v_k > h mu g, then 0.
  const Q g(10), mu = Q(1) / 2, h = Q(1) / 10, v0(2);
  const auto model = planar_block<Q>(Matrix<Q>::Identity(2, 2), g, mu, Q(0));
  auto scheme = Registry::builtin().make<Q>("moreau-jean:theta=1");
  State<Q> x{Q(0), Vector<Q>::Zero(2), Vector<Q>::Zero(2)};
  x.v(1) = v0;
  scheme->initialize(model, x, h);
  StepSummary<Q> s;
  Q expected = v0;
  for (int k = 0; k < 8; ++k) {
    scheme->step(x, s);
    expected = expected > h * mu * g ? Q(expected - h * mu * g) : Q(0);
    EXPECT_EQ(x.v(1), expected) << "step " << k + 1;
    EXPECT_EQ(x.v(0), Q(0));
    ASSERT_EQ(s.tangent_directions, 1);
    EXPECT_EQ(s.tangential_velocity_after(0), x.v(1));
    EXPECT_EQ(s.energy_identity_defect(), Q(0));  // exact, with the tangential work
  }
  EXPECT_EQ(x.v(1), Q(0));
}

TEST(MoreauJeanFriction, KaneLevinsonImpactGainsEnergy) {
  // docs/theory.md §9.2: M = [[3, 2], [2, 2]], U- = (-1, 1), mu = 1/2, e = 1: P = (4, 2),
  // U+ = (1, 0), Delta K = +1, exactly.
  Matrix<Q> M(2, 2);
  M << 3, 2, 2, 2;
  auto model = planar_block<Q>(M, Q(0), Q(1) / 2, Q(1));
  auto scheme = Registry::builtin().make<Q>("moreau-jean");
  State<Q> x{Q(0), Vector<Q>::Zero(2), Vector<Q>::Zero(2)};
  x.v << -1, 1;
  scheme->initialize(model, x, Q(1) / 100);
  StepSummary<Q> s;
  scheme->step(x, s);
  EXPECT_EQ(s.impulse(0), Q(4));
  EXPECT_EQ(s.tangential_impulse(0), Q(2));
  EXPECT_EQ(s.velocity_after(0), Q(1));
  EXPECT_EQ(s.tangential_velocity_after(0), Q(0));
  EXPECT_EQ(s.E_after - s.E_before, Q(1));
  EXPECT_EQ(s.energy_identity_defect(), Q(0));
}

TEST(MoreauJeanFriction, ZeroMuIsTheFrictionlessSchemeBitForBit) {
  Matrix<double> M(2, 2);
  M << 3, 1, 1, 2;
  auto frictional = planar_block<double>(M, 9.81, 0.0, 0.5);
  LinearModel<double> plain = frictional;
  plain.G_T.resize(2, 0);
  plain.mu.resize(0);
  for (const char* spec : {"moreau-jean", "moreau-jean:theta=1", "moreau-jean:theta=7/10"}) {
    State<double> x0{0.0, Vector<double>::Zero(2), Vector<double>::Zero(2)};
    x0.q(0) = 0.3;
    x0.v << -1.0, 0.7;
    auto a = Registry::builtin().make<double>(spec);
    auto b = Registry::builtin().make<double>(spec);
    const auto ta = record(*a, frictional, x0, 0.01, 1.0);
    const auto tb = record(*b, plain, x0, 0.01, 1.0);
    ASSERT_EQ(ta.states.size(), tb.states.size());
    for (std::size_t k = 0; k < ta.states.size(); ++k) {
      EXPECT_EQ(ta.states[k].q, tb.states[k].q) << spec << " step " << k;
      EXPECT_EQ(ta.states[k].v, tb.states[k].v) << spec << " step " << k;
    }
    EXPECT_EQ(ta.steps.back().W_contact, tb.steps.back().W_contact);
  }
}

TEST(MoreauJeanFriction, IdentityHoldsWithTheTangentialTermOnRandomModels) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 40; ++trial) {
    const int d = 1 + trial % 2;
    const Index n = 1 + d + 1;
    Matrix<double> B = Matrix<double>::NullaryExpr(n, n, [&] { return u(rng); });
    LinearModel<double> model;
    model.M = B.transpose() * B + Matrix<double>::Identity(n, n);
    model.G = Matrix<double>::Zero(n, 1);
    model.G(0, 0) = 1;
    model.G(n - 1, 0) = u(rng);
    model.G_T = Matrix<double>::Zero(n, d);
    for (int j = 0; j < d; ++j) model.G_T(1 + j, j) = 1;
    model.mu = Vector<double>::Constant(1, 0.2 + std::abs(u(rng)));
    model.e = Vector<double>::Constant(1, std::abs(u(rng)));
    model.F = Vector<double>::NullaryExpr(n, [&] { return 3 * u(rng); });
    model.F(0) = -9.81;
    fill_defaults(model);
    model.validate();
    State<double> x{0.0, Vector<double>::Zero(n),
                    Vector<double>::NullaryExpr(n, [&] { return u(rng); })};
    x.v(0) = -std::abs(x.v(0));
    auto scheme =
        Registry::builtin().make<double>(trial % 3 == 0 ? "moreau-jean:theta=1" : "moreau-jean");
    const auto traj = record(*scheme, model, x, 0.01, 0.2);
    bool friction_acted = false;
    for (const auto& s : traj.steps) {
      const double scale = 1 + std::abs(s.E_before) + std::abs(s.W_contact) + std::abs(s.W_ext);
      EXPECT_LE(std::abs(s.energy_identity_defect()), 1e-12 * scale) << "trial " << trial;
      friction_acted |= s.tangential_impulse.cwiseAbs().maxCoeff() > 0;
    }
    EXPECT_TRUE(friction_acted) << "trial " << trial;
  }
}

TEST(MoreauJeanFriction, RefusalsNameTheField) {
  auto model = planar_block<double>(Matrix<double>::Identity(2, 2), 9.81, 0.5, 0.0);
  State<double> x{0.0, Vector<double>::Zero(2), Vector<double>::Zero(2)};
  // A scheme without SchemeInfo::friction refuses a frictional model.
  auto newmark = Registry::builtin().make<double>("newmark");
  try {
    newmark->initialize(model, x, 0.01);
    FAIL() << "newmark accepted a frictional model";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.field(), "mu");
  }
  try {
    (void)to_sparse(model);
    FAIL() << "to_sparse accepted a frictional model";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.field(), "mu");
  }
  // mu = 0 is frictionless for both.
  model.mu(0) = 0;
  EXPECT_NO_THROW(newmark->initialize(model, x, 0.01));
  EXPECT_NO_THROW((void)to_sparse(model));
  // d = 2 in Rational, lemke for d = 2, an iterative friction solver in Rational.
  LinearModel<Q> spatial;
  spatial.M = Matrix<Q>::Identity(3, 3);
  spatial.G = Matrix<Q>::Zero(3, 1);
  spatial.G(0, 0) = 1;
  spatial.G_T = Matrix<Q>::Zero(3, 2);
  spatial.G_T(1, 0) = spatial.G_T(2, 1) = 1;
  spatial.mu = Vector<Q>::Constant(1, Q(1) / 2);
  fill_defaults(spatial);
  State<Q> y{Q(0), Vector<Q>::Zero(3), Vector<Q>::Zero(3)};
  EXPECT_THROW(Registry::builtin().make<Q>("moreau-jean")->initialize(spatial, y, Q(1) / 10),
               SpecError);
  const auto spatial_d = model_cast<double>(spatial);
  State<double> yd{0.0, Vector<double>::Zero(3), Vector<double>::Zero(3)};
  EXPECT_THROW(Registry::builtin()
                   .make<double>("moreau-jean:friction=lemke")
                   ->initialize(spatial_d, yd, 0.1),
               SpecError);
  EXPECT_THROW((void)Registry::builtin().make<Q>("moreau-jean:friction=pgs"), SpecError);
  EXPECT_NO_THROW(
      Registry::builtin().make<double>("moreau-jean:friction=pgs")->initialize(spatial_d, yd, 0.1));
  EXPECT_EQ(Registry::builtin().make<double>("moreau-jean:friction=pgs")->info().spec,
            "moreau-jean:activation=position-velocity,friction=pgs,lcp=lemke,theta=1/2");
  EXPECT_EQ(Registry::builtin().make<double>("moreau-jean")->info().spec,
            "moreau-jean:activation=position-velocity,lcp=lemke,theta=1/2");
}

}  // namespace
}  // namespace nsh
