// The one-step LCP solvers and their certificate (docs/theory.md §7).

#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/lcp/enumeration.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/lcp/lemke.hpp>
#include <nsh/lcp/workspace.hpp>

#include "trial_count.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace nsh {
namespace {

const std::vector<LcpMethod> kAllMethods = {LcpMethod::enumeration, LcpMethod::lemke,
                                            LcpMethod::pgs, LcpMethod::fischer_burmeister,
                                            LcpMethod::prox_newton};

/// Murty's matrix: 1 on the diagonal, 2 below, 0 above; with b = -1 its solution is e1.
template <class Scalar>
Matrix<Scalar> murty(Index m) {
  Matrix<Scalar> W = Matrix<Scalar>::Zero(m, m);
  for (Index i = 0; i < m; ++i) {
    W(i, i) = Scalar(1);
    for (Index j = 0; j < i; ++j) W(i, j) = Scalar(2);
  }
  return W;
}

/// A random SPD matrix with small-integer entries (so that it is exact in every scalar):
/// A^T A + I, A with entries in -3..3, and b with entries in -5..5.
struct IntegerLcp {
  Matrix<Rational> W;
  Vector<Rational> b;
};

IntegerLcp random_spd_lcp(std::mt19937& rng, Index m) {
  std::uniform_int_distribution<int> entry(-3, 3), rhs(-5, 5);
  Matrix<Rational> A(m, m);
  for (Index i = 0; i < m; ++i)
    for (Index j = 0; j < m; ++j) A(i, j) = Rational(entry(rng));
  IntegerLcp p;
  p.W = Matrix<Rational>(A.transpose() * A);
  for (Index i = 0; i < m; ++i) p.W(i, i) += Rational(1);
  p.b.resize(m);
  for (Index i = 0; i < m; ++i) p.b(i) = Rational(rhs(rng));
  return p;
}

TEST(LcpNames, RoundTripAndUnknownListsKnown) {
  for (LcpMethod method : kAllMethods) EXPECT_EQ(parse_lcp_method(to_string(method)), method);
  EXPECT_STREQ(to_string(LcpMethod::fischer_burmeister), "fb");
  EXPECT_STREQ(to_string(LcpMethod::prox_newton), "prox");
  EXPECT_STREQ(to_string(LcpStatus::no_solution), "no_solution");
  try {
    parse_lcp_method("simplex");
    FAIL() << "no error";
  } catch (const SpecError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("simplex"), std::string::npos) << what;
    for (const char* name : {"enumeration", "lemke", "pgs", "fb", "prox"})
      EXPECT_NE(what.find(name), std::string::npos) << what;
  }
}

TEST(LcpMurty, LemkeNeedsExactlyTwoToTheMPivots) {
  for (Index m : {3, 6, 10}) {
    const Matrix<Rational> W = murty<Rational>(m);
    const Vector<Rational> b = Vector<Rational>::Constant(m, Rational(-1));
    const LcpResult<Rational> r = solve_lcp(LcpMethod::lemke, W, b);
    ASSERT_EQ(r.status, LcpStatus::solved) << r.message;
    Vector<Rational> e1 = Vector<Rational>::Zero(m);
    e1(0) = Rational(1);
    EXPECT_EQ(r.z, e1) << "m = " << m;
    EXPECT_EQ(r.iterations, Index(1) << m) << "m = " << m;
    EXPECT_EQ(r.certificate.natural_map, Rational(0));

    const LcpResult<double> d = solve_lcp(LcpMethod::lemke, murty<double>(m),
                                          Vector<double>(Vector<double>::Constant(m, -1.0)));
    ASSERT_EQ(d.status, LcpStatus::solved) << d.message;
    EXPECT_EQ(d.iterations, Index(1) << m);
    EXPECT_EQ(d.z(0), 1.0);
  }
}

TEST(LcpAgreement, LemkeAndEnumerationEqualExactlyInRational) {
  std::mt19937 rng(20261201);
  for (int trial = 0; trial < test::trials(300); ++trial) {
    const Index m = 1 + trial % 6;
    const IntegerLcp p = random_spd_lcp(rng, m);
    const LcpResult<Rational> lemke = solve_lcp(LcpMethod::lemke, p.W, p.b);
    const LcpResult<Rational> enumeration = solve_lcp(LcpMethod::enumeration, p.W, p.b);
    ASSERT_EQ(lemke.status, LcpStatus::solved) << lemke.message;
    ASSERT_EQ(enumeration.status, LcpStatus::solved) << enumeration.message;
    EXPECT_EQ(lemke.z, enumeration.z) << "trial " << trial;
    EXPECT_EQ(lemke.certificate.natural_map, Rational(0));
    EXPECT_EQ(lemke.certificate.complementarity, Rational(0));
    EXPECT_EQ(lemke.certificate.feasibility, Rational(0));
    // W is SPD, hence a P-matrix: the solution is unique, and enumeration finds exactly one.
    EXPECT_EQ(enumerate_lcp_solutions(p.W, p.b).size(), 1u);
  }
}

TEST(LcpWorkspace, InPlaceSolveOfABlockEqualsSolveLcp) {
  // One workspace reserved for 6 unknowns, one result reused, problems of changing size taken
  // as the top-left block of a 6 x 6 buffer: every method gives exactly solve_lcp's answer
  // (status, z, w, iterations, certificate), also beyond the capacity (m = 8, allocating).
  std::mt19937 rng(20261202);
  for (LcpMethod method : kAllMethods) {
    LcpWorkspace<double> workspace(6);
    EXPECT_EQ(workspace.capacity(), 6);
    LcpResult<double> result;
    Matrix<double> buffer = Matrix<double>::Zero(8, 8);
    Vector<double> b_buffer = Vector<double>::Zero(8);
    for (int trial = 0; trial < 40; ++trial) {
      const Index m = trial % 9;
      const IntegerLcp p = random_spd_lcp(rng, m);
      const Matrix<double> W = scalar_cast<double>(p.W);
      const Vector<double> b = scalar_cast<double>(p.b);
      buffer.topLeftCorner(m, m) = W;
      b_buffer.head(m) = b;
      solve_lcp<double>(method, buffer.topLeftCorner(m, m), b_buffer.head(m), {}, workspace,
                        result);
      const LcpResult<double> reference = solve_lcp(method, W, b);
      const std::string where = std::string(to_string(method)) + ", m = " + std::to_string(m);
      EXPECT_EQ(result.status, reference.status) << where;
      EXPECT_EQ(result.method, reference.method) << where;
      EXPECT_EQ(result.iterations, reference.iterations) << where;
      EXPECT_EQ(result.z, reference.z) << where;
      EXPECT_EQ(result.w, reference.w) << where;
      EXPECT_EQ(result.certificate.natural_map, reference.certificate.natural_map) << where;
      EXPECT_EQ(result.certificate.accepted, reference.certificate.accepted) << where;
      EXPECT_EQ(result.message, reference.message) << where;
    }
  }
  // In Rational the workspace Lemke is exact too.
  LcpWorkspace<Rational> exact(4);
  LcpResult<Rational> result;
  const Matrix<Rational> W = murty<Rational>(4);
  const Vector<Rational> b = Vector<Rational>::Constant(4, Rational(-1));
  solve_lcp<Rational>(LcpMethod::lemke, W, b, {}, exact, result);
  EXPECT_EQ(result.iterations, 16);
  EXPECT_EQ(result.certificate.natural_map, Rational(0));
  // Bad input is rejected as by solve_lcp.
  EXPECT_THROW(solve_lcp<Rational>(LcpMethod::lemke, W, Vector<Rational>(Vector<Rational>::Zero(3)),
                                   {}, exact, result),
               InputError);
}

TEST(LcpCertifyResult, DowngradesAnUncertifiedSolvedOnly) {
  const Matrix<double> W = Matrix<double>::Identity(2, 2);
  const Vector<double> b = Vector<double>::Constant(2, -1.0);
  LcpResult<double> r;
  r.z = Vector<double>::Zero(2);  // wrong: the solution is (1, 1)
  certify_result<double>(W, b, {}, LcpStatus::solved, "", "not certified", r);
  EXPECT_EQ(r.status, LcpStatus::uncertified);
  EXPECT_EQ(r.message, "not certified");
  EXPECT_EQ(r.w, b);
  certify_result<double>(W, b, {}, LcpStatus::max_iterations, "stopped", "not certified", r);
  EXPECT_EQ(r.status, LcpStatus::max_iterations);
  EXPECT_EQ(r.message, "stopped");
  r.z = Vector<double>::Ones(2);
  certify_result<double>(W, b, {}, LcpStatus::solved, "", "not certified", r);
  EXPECT_EQ(r.status, LcpStatus::solved);
  EXPECT_TRUE(r.certificate.accepted);
  EXPECT_EQ(r.w, Vector<double>::Zero(2));
}

TEST(LcpAgreement, AllSolversAgreeOnRandomSpdInDouble) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const Index m = 1 + trial % 6;
    const IntegerLcp p = random_spd_lcp(rng, m);
    const Matrix<double> W = scalar_cast<double>(p.W);
    const Vector<double> b = scalar_cast<double>(p.b);
    const Vector<double> exact = scalar_cast<double>(solve_lcp(LcpMethod::lemke, p.W, p.b).z);
    // A tighter certificate than the default (64 instead of 4096 epsilons), so that the
    // iterative methods stop close to the exact answer.
    LcpOptions<double> tight;
    tight.relative_tolerance = 64 * std::numeric_limits<double>::epsilon();
    for (LcpMethod method : kAllMethods) {
      const LcpResult<double> r = solve_lcp(method, W, b, tight);
      ASSERT_EQ(r.status, LcpStatus::solved)
          << to_string(method) << " trial " << trial << ": " << r.message;
      EXPECT_TRUE(r.certificate.accepted);
      // The solution is O(1) here (integer data, W >= I, cond(W) up to ~1e3).
      EXPECT_LE(max_abs(Vector<double>(r.z - exact)), 1e-11)
          << to_string(method) << " trial " << trial;
    }
  }
}

TEST(LcpNoSolution, LemkeAndEnumerationReportItHonestly) {
  // w = -z - 1 < 0 for every z >= 0: infeasible.
  {
    Matrix<Rational> W(1, 1);
    W << Rational(-1);
    Vector<Rational> b(1);
    b << Rational(-1);
    for (LcpMethod method : {LcpMethod::lemke, LcpMethod::enumeration}) {
      const LcpResult<Rational> r = solve_lcp(method, W, b);
      EXPECT_EQ(r.status, LcpStatus::no_solution) << to_string(method);
      EXPECT_FALSE(r.ok());
      EXPECT_FALSE(r.message.empty());
    }
    EXPECT_TRUE(enumerate_lcp_solutions(W, b).empty());
  }
  // W PSD (copositive-plus) and w_1 + w_2 = -2: the ray is a proof here.
  {
    Matrix<double> W(2, 2);
    W << 1, -1, -1, 1;
    Vector<double> b(2);
    b << -1, -1;
    for (LcpMethod method : {LcpMethod::lemke, LcpMethod::enumeration}) {
      const LcpResult<double> r = solve_lcp(method, W, b);
      EXPECT_EQ(r.status, LcpStatus::no_solution) << to_string(method);
    }
  }
}

TEST(LcpCertificate, RejectsAWrongZAndAcceptsTheRightOne) {
  Matrix<Rational> W(2, 2);
  W << Rational(2), Rational(1), Rational(1), Rational(2);
  Vector<Rational> b(2);
  b << Rational(-5), Rational(-6);
  // Solution: W z = -b, z = (4/3, 7/3) >= 0.
  Vector<Rational> z(2);
  z << Rational(4, 3), Rational(7, 3);
  const LcpCertificate<Rational> good = certify(W, b, z, LcpOptions<Rational>{});
  EXPECT_TRUE(good.accepted);
  EXPECT_EQ(good.natural_map, Rational(0));
  EXPECT_EQ(good.tolerance, Rational(0));
  EXPECT_EQ(solve_lcp(LcpMethod::lemke, W, b).z, z);

  Vector<Rational> wrong(2);
  wrong << Rational(1), Rational(7, 3);  // w = (-2/3, -1/3)
  const LcpCertificate<Rational> bad = certify(W, b, wrong, LcpOptions<Rational>{});
  EXPECT_FALSE(bad.accepted);
  EXPECT_EQ(bad.natural_map, Rational(2, 3));
  EXPECT_EQ(bad.feasibility, Rational(2, 3));
  EXPECT_EQ(bad.complementarity, Rational(7, 9));

  // Negative z with w = 0: infeasible even though z^T w = 0.
  Vector<Rational> negative(1);
  negative << Rational(-1);
  Matrix<Rational> one(1, 1);
  one << Rational(1);
  Vector<Rational> one_b(1);
  one_b << Rational(1);
  const LcpCertificate<Rational> c = certify(one, one_b, negative, LcpOptions<Rational>{});
  EXPECT_FALSE(c.accepted);
  EXPECT_EQ(c.natural_map, Rational(1));

  // In double: a z off by 1e-6 fails the (4096 eps) tolerance; the Siconos error is
  // ||z - max(0, z - w)|| / ||b||, here ||w|| / ||b|| since z > w > 0.
  Matrix<double> Wd = scalar_cast<double>(W);
  Vector<double> bd = scalar_cast<double>(b);
  Vector<double> zd = scalar_cast<double>(z);
  EXPECT_TRUE(certify(Wd, bd, zd, LcpOptions<double>{}).accepted);
  zd(0) += 1e-6;
  const LcpCertificate<double> off = certify(Wd, bd, zd, LcpOptions<double>{});
  EXPECT_FALSE(off.accepted);
  EXPECT_NEAR(off.natural_map, 2e-6, 1e-15);  // w = (2e-6, 1e-6)
  EXPECT_GT(off.fischer_burmeister, 0.0);
  EXPECT_NEAR(off.siconos_error, std::hypot(2e-6, 1e-6) / std::hypot(5.0, 6.0), 1e-15);
}

template <class Fn>
std::string lcp_error_text(Fn&& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.field() + " | " + e.what();
  }
  return "no error";
}

TEST(LcpInput, BadInputNamesTheField) {
  Matrix<double> rect(2, 3);
  rect.setZero();
  Vector<double> b2 = Vector<double>::Zero(2);
  EXPECT_EQ(lcp_error_text([&] { solve_lcp(LcpMethod::lemke, rect, b2); }).rfind("W |", 0), 0u);
  Matrix<double> W = Matrix<double>::Identity(2, 2);
  Vector<double> b3 = Vector<double>::Zero(3);
  EXPECT_EQ(lcp_error_text([&] { solve_lcp(LcpMethod::pgs, W, b3); }).rfind("b |", 0), 0u);
  Matrix<double> nan_W = W;
  nan_W(1, 0) = std::numeric_limits<double>::quiet_NaN();
  const std::string w_msg = lcp_error_text([&] { solve_lcp(LcpMethod::lemke, nan_W, b2); });
  EXPECT_EQ(w_msg.rfind("W[1][0] |", 0), 0u) << w_msg;
  EXPECT_NE(w_msg.find("nan"), std::string::npos) << w_msg;
  Vector<double> inf_b = b2;
  inf_b(1) = std::numeric_limits<double>::infinity();
  const std::string b_msg =
      lcp_error_text([&] { solve_lcp(LcpMethod::fischer_burmeister, W, inf_b); });
  EXPECT_EQ(b_msg.rfind("b[1] |", 0), 0u) << b_msg;
  // The iterative methods have no rational version: a SpecError naming the method.
  Matrix<Rational> Wr = Matrix<Rational>::Identity(1, 1);
  Vector<Rational> br = Vector<Rational>::Zero(1);
  EXPECT_THROW(solve_lcp(LcpMethod::pgs, Wr, br), SpecError);
}

TEST(LcpTrivial, EmptyAndFeasibleProblems) {
  const Matrix<double> W0(0, 0);
  const Vector<double> b0(0);
  for (LcpMethod method : kAllMethods) {
    const LcpResult<double> r = solve_lcp(method, W0, b0);
    EXPECT_EQ(r.status, LcpStatus::solved) << to_string(method);
  }
  Matrix<Rational> W = murty<Rational>(4);
  Vector<Rational> b = Vector<Rational>::Constant(4, Rational(1, 3));
  const LcpResult<Rational> r = solve_lcp(LcpMethod::lemke, W, b);
  EXPECT_EQ(r.status, LcpStatus::solved);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(r.z, Vector<Rational>(Vector<Rational>::Zero(4)));
  EXPECT_EQ(r.w, b);
}

TEST(LcpReal50, PivotingAndNewtonMethodsAgreeWithRational) {
  std::mt19937 rng(50);
  for (int trial = 0; trial < 30; ++trial) {
    const IntegerLcp p = random_spd_lcp(rng, 1 + trial % 5);
    const Vector<Rational> exact = solve_lcp(LcpMethod::lemke, p.W, p.b).z;
    const Matrix<Real50> W = scalar_cast<Real50>(p.W);
    const Vector<Real50> b = scalar_cast<Real50>(p.b);
    for (LcpMethod method : {LcpMethod::lemke, LcpMethod::enumeration,
                             LcpMethod::fischer_burmeister, LcpMethod::prox_newton}) {
      const LcpResult<Real50> r = solve_lcp(method, W, b);
      ASSERT_EQ(r.status, LcpStatus::solved) << r.message;
      EXPECT_LE(max_abs(Vector<Real50>(r.z - scalar_cast<Real50>(exact))), Real50("1e-45"));
    }
  }
}

}  // namespace
}  // namespace nsh
