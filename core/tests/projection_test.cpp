// Projection providers: seed 004's examples exactly (Rational), certificates, the tie.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/projection/ball.hpp>
#include <nsh/projection/box.hpp>
#include <nsh/projection/finite_set.hpp>
#include <nsh/projection/half_space.hpp>
#include <nsh/projection/polyhedron.hpp>

#include <gtest/gtest.h>

namespace {

using nsh::Rational;
using Q = Rational;
using VQ = nsh::Vector<Rational>;

VQ vec(std::initializer_list<Q> x) {
  VQ v(static_cast<nsh::Index>(x.size()));
  nsh::Index i = 0;
  for (const auto& e : x) v(i++) = e;
  return v;
}

TEST(FiniteSetProjection, Seed004TieAtZero) {
  const nsh::FiniteSetProjection<Q> C({vec({-1}), vec({1})});
  EXPECT_FALSE(C.convex());
  const auto result = C.project(vec({0}));
  EXPECT_EQ(result.status, nsh::ProjectionStatus::tie);
  EXPECT_FALSE(result.ok());
  ASSERT_EQ(result.nearest.size(), 2u);
  EXPECT_EQ(result.nearest[0](0), Q(-1));
  EXPECT_EQ(result.nearest[1](0), Q(1));
  EXPECT_EQ(result.distance_squared, Q(1));
  EXPECT_TRUE(result.certificate.accepted);  // each is a nearest point
  EXPECT_NE(result.message.find("not unique"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("{-1, 1}"), std::string::npos) << result.message;
}

TEST(FiniteSetProjection, UniqueOffZeroButVariationalInequalityFails) {
  const nsh::FiniteSetProjection<Q> C({vec({-1}), vec({1})});
  const auto result = C.project(vec({Q(1) / 2}));
  EXPECT_TRUE(result.ok());
  ASSERT_EQ(result.nearest.size(), 1u);
  EXPECT_EQ(result.point(0), Q(1));
  EXPECT_EQ(result.certificate.nearest_residual, Q(0));
  // (y - p)(z - p) at z = -1: (1/2 - 1)(-1 - 1) = 1 > 0: C is not convex.
  EXPECT_EQ(result.certificate.vi_residual, Q(1));
  const auto negative = C.project(vec({Q(-3)}));
  EXPECT_EQ(negative.point(0), Q(-1));
}

TEST(BoxProjection, Seed004IntervalIsClampAndCertifiesWithZeroResidual) {
  const auto C = nsh::BoxProjection<Q>::interval(Q(0), Q(1));
  const Q ys[] = {Q(-1) / 3, Q(0), Q(1) / 2, Q(1), Q(7) / 5};
  const Q ps[] = {Q(0), Q(0), Q(1) / 2, Q(1), Q(1)};
  for (int i = 0; i < 5; ++i) {
    const auto r = C.project(vec({ys[i]}));
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.point(0), ps[i]);
    EXPECT_EQ(r.certificate.residual, Q(0));
    EXPECT_EQ(r.certificate.tolerance, Q(0));
  }
  // A wrong candidate fails: y = 2, p = 1/2 gives sup (2 - 1/2)(z - 1/2) = 3/4 at z = 1.
  nsh::ProjectionResult<Q> wrong;
  wrong.point = vec({Q(1) / 2});
  const auto c = C.certify(vec({Q(2)}), wrong);
  EXPECT_FALSE(c.accepted);
  EXPECT_EQ(c.vi_residual, Q(3) / 4);
  // Outside C: feasibility.
  wrong.point = vec({Q(3) / 2});
  EXPECT_EQ(C.certify(vec({Q(2)}), wrong).feasibility, Q(1) / 2);
}

TEST(BoxProjection, HalfLineRecessionResidual) {
  const auto C = nsh::BoxProjection<Q>::half_line(Q(0));
  EXPECT_EQ(C.project(vec({Q(-5)})).point(0), Q(0));
  nsh::ProjectionResult<Q> wrong;
  wrong.point = vec({Q(1)});
  const auto c = C.certify(vec({Q(2)}), wrong);
  EXPECT_EQ(c.recession_residual, Q(1));
  EXPECT_FALSE(c.accepted);
}

TEST(BoxProjection, BadBoundsNameTheField) {
  try {
    nsh::BoxProjection<Q>::interval(Q(1), Q(0));
    FAIL();
  } catch (const nsh::ModelError& e) {
    EXPECT_EQ(e.field(), "set.upper[0]");
  }
  const auto C = nsh::BoxProjection<Q>::interval(Q(0), Q(1));
  EXPECT_THROW(C.project(vec({Q(0), Q(1)})), nsh::InputError);
}

TEST(HalfSpaceProjection, ExactFootPoint) {
  const nsh::HalfSpaceProjection<Q> C(vec({1, 1}), Q(1));
  const auto r = C.project(vec({1, 1}));
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE((r.point) == (vec({Q(1) / 2, Q(1) / 2})));
  EXPECT_EQ(r.certificate.residual, Q(0));
  const auto inside = C.project(vec({-3, 2}));
  EXPECT_TRUE((inside.point) == (vec({-3, 2})));
  // Sliding along the boundary is not a projection: the recession residual sees it.
  nsh::ProjectionResult<Q> wrong;
  wrong.point = vec({0, 1});
  EXPECT_FALSE(C.certify(vec({1, 1}), wrong).accepted);
  EXPECT_THROW(nsh::HalfSpaceProjection<Q>(vec({0, 0}), Q(1)), nsh::ModelError);
}

TEST(BallProjection, RadialProjection) {
  using V = nsh::Vector<double>;
  V c(2);
  c << 0, 0;
  const nsh::BallProjection<double> C(c, 1.0);
  V y(2);
  y << 3, 4;
  const auto r = C.project(y);
  EXPECT_TRUE(r.ok()) << r.message;
  EXPECT_NEAR(r.point(0), 0.6, 1e-15);
  EXPECT_NEAR(r.point(1), 0.8, 1e-15);
  nsh::ProjectionResult<double> wrong;
  wrong.point = V::Zero(2);
  EXPECT_FALSE(C.certify(y, wrong).accepted);
}

TEST(PolyhedronProjection, SquareAndTriangleExact) {
  nsh::Matrix<Q> A(4, 2);
  A << 1, 0, 0, 1, -1, 0, 0, -1;
  const nsh::PolyhedronProjection<Q> square(A, vec({1, 1, 0, 0}));
  const auto r = square.project(vec({2, Q(3) / 2}));
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_TRUE((r.point) == (vec({1, 1})));
  EXPECT_TRUE((r.multipliers) == (vec({1, Q(1) / 2, 0, 0})));
  EXPECT_EQ(r.certificate.kkt_residual, Q(0));
  // Agrees with the box provider exactly on a grid of points.
  const auto box = nsh::BoxProjection<Q>::box(vec({0, 0}), vec({1, 1}));
  for (int i = -3; i <= 5; ++i)
    for (int j = -3; j <= 5; ++j) {
      const VQ y = vec({Q(i) / 2, Q(j) / 3});
      const auto p = square.project(y);
      ASSERT_TRUE(p.ok()) << p.message;
      EXPECT_TRUE((p.point) == (box.project(y).point));
    }
  nsh::Matrix<Q> T(3, 2);
  T << -1, 0, 0, -1, 1, 1;
  const nsh::PolyhedronProjection<Q> triangle(T, vec({0, 0, 1}));
  const auto t = triangle.project(vec({2, 2}));
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE((t.point) == (vec({Q(1) / 2, Q(1) / 2})));
  EXPECT_EQ(t.multipliers(2), Q(3) / 2);
  const auto corner = triangle.project(vec({-1, 3}));
  ASSERT_TRUE(corner.ok());
  EXPECT_TRUE((corner.point) == (vec({0, 1})));
  const auto vertex = triangle.project(vec({-2, -1}));
  EXPECT_TRUE((vertex.point) == (vec({0, 0})));
}

TEST(PolyhedronProjection, DegenerateRowsAndInfeasible) {
  nsh::Matrix<Q> A(3, 1);
  A << 1, 2, -1;  // x <= 1 twice (scaled) and x >= -1
  const nsh::PolyhedronProjection<Q> C(A, vec({1, 2, 1}));
  const auto r = C.project(vec({5}));
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_TRUE((r.point) == (vec({1})));
  nsh::Matrix<Q> B(2, 1);
  B << 1, -1;  // x <= 0 and x >= 1
  const nsh::PolyhedronProjection<Q> empty(B, vec({0, -1}));
  const auto e = empty.project(vec({Q(1) / 2}));
  EXPECT_EQ(e.status, nsh::ProjectionStatus::infeasible) << e.message;
}

}  // namespace
