// rapidcheck properties of projections, catching-up and penalty schemes, and the sweep
// provider's verdicts (the claims hold; the finite set and h kappa > 2 give counterexamples).
#include <nsh/scalar.hpp>

#include <nsh/projection/box.hpp>
#include <nsh/projection/finite_set.hpp>
#include <nsh/projection/polyhedron.hpp>
#include <nsh/properties/check.hpp>
#include <nsh/properties/sweep_properties.hpp>

#include <gtest/gtest.h>

#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

namespace {

using nsh::Rational;
using Q = Rational;

rc::Gen<Q> small_rational() {
  return rc::gen::map(rc::gen::pair(rc::gen::inRange(-40, 41), rc::gen::inRange(1, 8)),
                      [](const std::pair<int, int>& p) { return Q(p.first) / Q(p.second); });
}

nsh::Vector<Q> one(const Q& x) {
  return nsh::Vector<Q>::Constant(1, x);
}

RC_GTEST_PROP(SweepProperty, IntervalProjectionIsNonexpansiveIdempotentAndVi, ()) {
  const Q lo = *small_rational();
  const Q width = *rc::gen::map(rc::gen::inRange(0, 20), [](int w) { return Q(w) / 3; });
  const auto C = nsh::BoxProjection<Q>::interval(lo, lo + width);
  const Q y1 = *small_rational(), y2 = *small_rational();
  RC_ASSERT(nsh::properties::projection_nonexpansive<Q>(C, one(y1), one(y2)).holds);
  RC_ASSERT(nsh::properties::projection_idempotent<Q>(C, one(y1)).holds);
  RC_ASSERT(nsh::properties::projection_variational_inequality<Q>(C, one(y1), one(y2)).holds);
}

RC_GTEST_PROP(SweepProperty, TriangleProjectionMatchesItsKktCertificate, ()) {
  nsh::Matrix<Q> A(3, 2);
  A << -1, 0, 0, -1, 1, 1;
  const nsh::PolyhedronProjection<Q> C(A, (nsh::Vector<Q>(3) << 0, 0, 1).finished());
  const nsh::Vector<Q> y = (nsh::Vector<Q>(2) << *small_rational(), *small_rational()).finished();
  const nsh::Vector<Q> z = (nsh::Vector<Q>(2) << *small_rational(), *small_rational()).finished();
  const auto p = C.project(y);
  RC_ASSERT(p.ok());
  RC_ASSERT(p.certificate.residual == Q(0));
  RC_ASSERT(nsh::properties::projection_variational_inequality<Q>(C, y, z).holds);
  RC_ASSERT(nsh::properties::projection_nonexpansive<Q>(C, y, z).holds);
}

TEST(SweepProperty, VariationalInequalityFailsOnTheFiniteSet) {
  const nsh::FiniteSetProjection<Q> C({one(Q(-1)), one(Q(1))});
  const auto f =
      nsh::properties::projection_variational_inequality<Q>(C, one(Q(1) / 2), one(Q(-1)));
  EXPECT_FALSE(f.holds);
  EXPECT_FALSE(
      nsh::properties::projection_nonexpansive<Q>(C, one(Q(-1) / 10), one(Q(1) / 10)).holds);
  EXPECT_TRUE(nsh::properties::projection_idempotent<Q>(C, one(Q(1) / 2)).holds);
}

RC_GTEST_PROP(SweepProperty, CatchingUpErrorBoundIsAnEquality, ()) {
  const int a = *rc::gen::inRange(1, 20);
  const int b = *rc::gen::inRange(a, 50);
  const Q h = Q(a) / Q(b);
  const auto c =
      nsh::load_sweeping_case<Q>(nsh::read_case_file(nsh::locate_case("sweeping-interval")));
  RC_ASSERT(
      nsh::properties::catching_up_error_bound<Q>(nsh::run_first_order<Q>("catching-up", c, h), h)
          .holds);
}

RC_GTEST_PROP(SweepProperty, ExplicitPenaltyStableIffHKappaAtMostTwo, ()) {
  const int r = *rc::gen::inRange(1, 400);  // h kappa = r / 100
  const Q kappa(1000);
  const Q h = Q(r) / 100 / kappa;
  auto c = nsh::load_sweeping_case<Q>(nsh::read_case_file(nsh::locate_case("penalty-line")));
  c.T = Q(60) * h;
  const auto t = nsh::run_first_order<Q>("penalty:kappa=1000,method=explicit", c, h);
  RC_ASSERT(nsh::properties::penalty_stability<Q>(t, kappa, h).holds == (r <= 200));
}

TEST(SweepProvider, PenaltyStabilityVerdicts) {
  nsh::properties::CheckOptions options;
  options.cases = 30;
  options.force = true;
  const auto& p = nsh::properties::provider_for("penalty:kappa=1000,method=explicit");
  EXPECT_FALSE(p.claims("penalty:kappa=1000,method=explicit", "penalty_stability"));
  const auto v = p.check("penalty:kappa=1000,method=explicit", "penalty_stability", options);
  EXPECT_EQ(v.outcome, nsh::properties::Outcome::fail) << v.note;
  ASSERT_TRUE(v.counterexample.has_value());
  // The designed cases on the bound and inside it (h kappa = 2, 1) hold; the first outside it,
  // h kappa = 2 * 1001/1000, breaks it: the bound is sharp.
  EXPECT_EQ(v.failing_case, 2);
  const auto& values = v.counterexample->values;
  EXPECT_NE(std::find(values.begin(), values.end(),
                      std::pair<std::string, std::string>("h kappa", "1001/500")),
            values.end());
  // A search of random cases shrinks its counterexample and says how to reproduce it.
  const auto w2 =
      p.check("penalty2:kappa=1000,method=explicit", "penalty2_penetration_bound", options);
  EXPECT_EQ(w2.outcome, nsh::properties::Outcome::fail) << w2.note;
  EXPECT_EQ(w2.note, "random search found a counterexample (shrunk)");
  ASSERT_TRUE(w2.counterexample.has_value());
  EXPECT_EQ(w2.counterexample->reproduce.rfind("RC_PARAMS=\"", 0), 0u)
      << w2.counterexample->reproduce;
  // Shrunk to the largest step of the generator's range, h = 1/5.
  EXPECT_NE(w2.counterexample->simulate_hint.find("--h 1/5 "), std::string::npos)
      << w2.counterexample->simulate_hint;
  // Implicit claims it and passes.
  options.force = false;
  const auto w = p.check("penalty:kappa=1000,method=implicit", "penalty_stability", options);
  EXPECT_EQ(w.outcome, nsh::properties::Outcome::pass) << w.note;
  const auto u = p.check("penalty:kappa=1000,method=explicit", "penalty_stability", options);
  EXPECT_EQ(u.outcome, nsh::properties::Outcome::not_claimed);
}

TEST(SweepProvider, ProjectionAndCatchingUpVerdicts) {
  nsh::properties::CheckOptions options;
  options.cases = 40;
  const auto& p = nsh::properties::provider_for("catching-up");
  for (const char* property : {"projection_nonexpansive", "projection_idempotent",
                               "projection_variational_inequality", "catching_up_error_bound"}) {
    const auto v = p.check("catching-up", property, options);
    EXPECT_EQ(v.outcome, nsh::properties::Outcome::pass) << property;
  }
  options.force = true;
  const auto f = p.check("projection:set=finite", "projection_variational_inequality", options);
  EXPECT_EQ(f.outcome, nsh::properties::Outcome::fail);
  const auto ball = p.check("projection:set=ball", "projection_nonexpansive", options);
  EXPECT_EQ(ball.outcome, nsh::properties::Outcome::pass);
}

TEST(SweepProvider, Penalty2Verdicts) {
  nsh::properties::CheckOptions options;
  options.cases = 15;
  const auto& p = nsh::properties::provider_for("catching-up");  // the sweep provider
  for (const char* property : {"penalty2_energy_balance", "penalty2_penetration_bound"}) {
    const auto v = p.check("penalty2:kappa=1000,damping=2,method=implicit", property, options);
    EXPECT_EQ(v.outcome, nsh::properties::Outcome::pass) << property;
  }
  const auto e = p.check("penalty2:kappa=1000,method=explicit", "penalty2_energy_balance", options);
  EXPECT_EQ(e.outcome, nsh::properties::Outcome::pass);
}

}  // namespace
