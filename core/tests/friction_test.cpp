// The one-step friction problem, its solvers, certificate and predicates (docs/friction.md).

#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/friction/alart_curnier.hpp>
#include <nsh/friction/certificate.hpp>
#include <nsh/friction/lemke.hpp>
#include <nsh/friction/pgs.hpp>
#include <nsh/friction/solver.hpp>
#include <nsh/lcp/enumeration.hpp>

#include <gtest/gtest.h>

#include "friction_random.hpp"
#include "trial_count.hpp"

#include <random>
#include <string>

namespace nsh {
namespace {

// ---------------------------------------------------------------------------- validation

template <class Fn>
std::string input_error_field(Fn&& fn) {
  try {
    fn();
  } catch (const InputError& error) {
    return error.field();
  }
  return "<no error>";
}

TEST(FrictionProblem, ValidationNamesTheField) {
  const Matrix<double> W = Matrix<double>::Identity(4, 4);
  const Vector<double> b = Vector<double>::Zero(4);
  const Vector<double> mu = vec<double>({0.5, 0.5});
  EXPECT_NO_THROW(problem_of<double>(1, W, b, mu).validate());

  EXPECT_EQ(input_error_field([&] { problem_of<double>(3, W, b, mu).validate(); }),
            "tangent_dimension");
  EXPECT_EQ(input_error_field([&] { problem_of<double>(2, W, b, mu).validate(); }), "W");
  EXPECT_EQ(
      input_error_field([&] { problem_of<double>(1, W, Vector<double>::Zero(3), mu).validate(); }),
      "b");
  EXPECT_EQ(input_error_field([&] {
              problem_of<double>(1, W, b, vec<double>({0.5, -0.1})).validate();
            }),
            "friction_coefficient[1]");
  Matrix<double> asymmetric = W;
  asymmetric(0, 1) = 0.25;
  EXPECT_EQ(input_error_field([&] { problem_of<double>(1, asymmetric, b, mu).validate(); }),
            "W[0][1]");
  Matrix<double> indefinite = W;
  indefinite(0, 1) = indefinite(1, 0) = 2;
  EXPECT_EQ(input_error_field([&] { problem_of<double>(1, indefinite, b, mu).validate(); }), "W");
  Vector<double> nan_b = b;
  nan_b(2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(input_error_field([&] { problem_of<double>(1, W, nan_b, mu).validate(); }), "b[2]");

  // A singular PSD W is accepted, exactly, in Rational: [[1, 1], [1, 1]] per contact.
  Matrix<Rational> singular = Matrix<Rational>::Ones(2, 2);
  EXPECT_NO_THROW(
      problem_of<Rational>(1, singular, Vector<Rational>::Zero(2), vec<Rational>({q(1, 2)}))
          .validate());
  singular(1, 1) = q(999, 1000);  // 1 * 0.999 - 1 < 0: indefinite by 1/1000, caught exactly
  EXPECT_EQ(input_error_field([&] {
              problem_of<Rational>(1, singular, Vector<Rational>::Zero(2), vec<Rational>({q(1, 2)}))
                  .validate();
            }),
            "W");
}

TEST(FrictionProblem, MethodsThatCannotDoTheProblemAreRefused) {
  auto p = problem_of<double>(2, Matrix<double>::Identity(3, 3), Vector<double>::Zero(3),
                              vec<double>({0.5}));
  EXPECT_THROW(solve_friction(FrictionMethod::lemke, p), SpecError);
  auto r = problem_of<Rational>(1, Matrix<Rational>::Identity(2, 2), Vector<Rational>::Zero(2),
                                vec<Rational>({q(1, 2)}));
  EXPECT_THROW(solve_friction(FrictionMethod::alart_curnier, r), SpecError);
  EXPECT_THROW(solve_friction(FrictionMethod::pgs, r), SpecError);
  EXPECT_EQ(parse_friction_method("alart-curnier"), FrictionMethod::alart_curnier);
  EXPECT_THROW(parse_friction_method("newton"), SpecError);
}

// ------------------------------------------------------------- exact designed problems

/// A unit point mass on the floor (W = I): after the gravity impulse the free normal velocity
/// is -1 (b_N = -1), the free tangential velocity b_T. mu = 1/2, so P_N = 1 and the friction
/// limit is 1/2.
FrictionProblem<Rational> block(const Rational& tangential_velocity) {
  return problem_of<Rational>(1, Matrix<Rational>::Identity(2, 2),
                              vec<Rational>({q(-1), tangential_velocity}),
                              vec<Rational>({q(1, 2)}));
}

void expect_exact_certificate(const FrictionCertificate<Rational>& c) {
  EXPECT_TRUE(c.accepted);
  EXPECT_EQ(c.prox_residual, 0);
  EXPECT_EQ(c.cone_feasibility, 0);
  EXPECT_EQ(c.normal_feasibility, 0);
  EXPECT_EQ(c.normal_complementarity, 0);
  EXPECT_EQ(c.stick_velocity, 0);
  EXPECT_EQ(c.dissipation_defect, 0);
  EXPECT_LE(c.friction_work, 0);
  EXPECT_EQ(c.tolerance, 0);
}

TEST(FrictionLemke, ExactSlidingBlockTakesMinusMuPNAlongTheSlip) {
  for (const Rational& v : {q(2), q(-2)}) {
    const auto result = solve_friction(FrictionMethod::lemke, block(v));
    ASSERT_TRUE(result.ok()) << result.message;
    const Rational slip_sign = v > 0 ? q(1) : q(-1);
    EXPECT_EQ(result.P(0), 1);
    EXPECT_EQ(result.P(1), -q(1, 2) * slip_sign);  // -mu P_N sign(U_T+)
    EXPECT_EQ(result.U(0), 0);
    EXPECT_EQ(result.U(1), v - q(1, 2) * slip_sign);  // 3/2 or -3/2: still sliding
    expect_exact_certificate(result.certificate);
    EXPECT_EQ(result.certificate.sliding, 1);
    EXPECT_EQ(result.certificate.friction_work, -q(3, 4));  // P_T U_T = -mu P_N |U_T|
  }
}

TEST(FrictionLemke, ExactStickingBlockStops) {
  const auto result = solve_friction(FrictionMethod::lemke, block(q(1, 4)));
  ASSERT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(result.P(0), 1);
  EXPECT_EQ(result.P(1), -q(1, 4));  // inside the cone: |P_T| = 1/4 < mu P_N = 1/2
  EXPECT_EQ(result.U(1), 0);         // stick: U_T+ = 0 exactly
  expect_exact_certificate(result.certificate);
  EXPECT_EQ(result.certificate.sticking, 1);
}

TEST(FrictionLemke, ExactCoupledContactSlidesWithTheCoupledNormalImpulse) {
  // W = [[2, 1], [1, 2]] couples the normal and tangential impulse. b = (-2, 3), mu = 1/2:
  // sliding forward, P_T = -P_N / 2, U_N = 2 P_N + P_T - 2 = 0 -> P_N = 4/3, P_T = -2/3,
  // U_T = P_N + 2 P_T + 3 = 3 > 0.
  Matrix<Rational> W(2, 2);
  W << q(2), q(1), q(1), q(2);
  const auto p = problem_of<Rational>(1, W, vec<Rational>({q(-2), q(3)}), vec<Rational>({q(1, 2)}));
  const auto result = solve_friction(FrictionMethod::lemke, p);
  ASSERT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(result.P(0), q(4, 3));
  EXPECT_EQ(result.P(1), -q(2, 3));
  EXPECT_EQ(result.U(1), q(3));
  expect_exact_certificate(result.certificate);
}

TEST(FrictionLemke, EndsWithAnExactSolutionOnRandomProblems) {
  // W positive definite (shift 1): the problem always has a solution and Lemke must end with
  // one, never on a ray, whatever mu (up to 2).
  std::mt19937 rng(20261202);
  int sticking = 0, sliding = 0;
  for (int trial = 0; trial < test::trials(200); ++trial) {
    const auto p = random_problem(rng, 1 + trial % 4, 1, 20, 1, false);
    const auto result = solve_friction(FrictionMethod::lemke, p);
    ASSERT_TRUE(result.ok()) << "trial " << trial << ": " << to_string(result.status) << " "
                             << result.message;
    expect_exact_certificate(result.certificate);
    sticking += static_cast<int>(result.certificate.sticking);
    sliding += static_cast<int>(result.certificate.sliding);
  }
  // The random problems reach both tangential regimes (a tenth of the trials each).
  EXPECT_GT(sticking, test::trials(200) / 10);
  EXPECT_GT(sliding, test::trials(200) / 10);
}

TEST(FrictionLemke, SingularWMayHaveNoSolutionAndTheRayIsRight) {
  // W only semidefinite (a rank-deficient A A^T) with large mu: Painleve-like problems with no
  // solution exist, e.g. W = [[1, -3], [-3, 9]], b = (-5, -3), mu = 3/5: U_T = -3 U_N - 18, so
  // U_N >= 0 forces sliding backwards, P_T = +3/5 P_N, and then U_N = -4/5 P_N - 5 < 0.
  Matrix<Rational> W(2, 2);
  W << q(1), q(-3), q(-3), q(9);
  const auto painleve =
      problem_of<Rational>(1, W, vec<Rational>({q(-5), q(-3)}), vec<Rational>({q(3, 5)}));
  const auto none = solve_friction(FrictionMethod::lemke, painleve);
  EXPECT_EQ(none.status, FrictionStatus::no_solution);
  EXPECT_NE(none.message.find("secondary ray"), std::string::npos) << none.message;
  // Random singular problems: Lemke solves each one, or ends on a ray and exact enumeration of
  // every complementary index set of the same LCP finds no solution either.
  std::mt19937 rng(1202);
  int solved = 0, rays = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const auto p = random_problem(rng, 1 + trial % 2, 1, 20, 0, true);
    const auto result = solve_friction(FrictionMethod::lemke, p);
    if (result.ok()) {
      expect_exact_certificate(result.certificate);
      ++solved;
      continue;
    }
    ASSERT_EQ(result.status, FrictionStatus::no_solution) << result.message;
    Matrix<Rational> A;
    Vector<Rational> lcp_b;
    friction_lcp(p, A, lcp_b);
    LcpOptions<Rational> options;
    options.max_iterations = Index(1) << 10;
    EXPECT_EQ(solve_lcp_enumeration(A, lcp_b, options).status, LcpStatus::no_solution)
        << "trial " << trial;
    ++rays;
  }
  EXPECT_GT(solved, 100);
  EXPECT_GT(rays, 0);
}

// --------------------------------------------------------------- solvers agree (double)

template <class Scalar>
Scalar distance(const Vector<Scalar>& x, const Vector<Scalar>& y) {
  return max_abs(Vector<Scalar>(x - y));
}

TEST(FrictionSolvers, AllThreeAgreeOnRandomProblems) {
  std::mt19937 rng(7);
  int newton_steps = 0, newton_solved = 0, fell_back = 0, problems = 0;
  for (Index d : {Index(1), Index(2)}) {
    for (int trial = 0; trial < test::trials(150); ++trial) {
      const Index m = 1 + trial % 5;
      const auto exact = random_problem(rng, m, d, 8, 1, false);
      const auto p = cast_problem<double>(exact);
      const auto newton = solve_friction(FrictionMethod::alart_curnier, p);
      const auto pgs = solve_friction(FrictionMethod::pgs, p);
      ASSERT_TRUE(newton.ok()) << "d " << d << " trial " << trial << ": " << newton.message;
      ASSERT_TRUE(pgs.ok()) << "d " << d << " trial " << trial << ": " << pgs.message;
      ++problems;
      if (newton.fell_back) {
        ++fell_back;
      } else {
        ++newton_solved;
        newton_steps += static_cast<int>(newton.iterations);
      }
      // Both certified; the points agree to the certificate's tolerance times the conditioning
      // of these small problems.
      const double agree = 1e-9 * (1 + max_abs(newton.P));
      EXPECT_LE(distance(newton.P, pgs.P), agree) << "d " << d << " trial " << trial;
      if (d == 1) {
        const auto lemke = solve_friction(FrictionMethod::lemke, exact);
        ASSERT_TRUE(lemke.ok()) << lemke.message;
        EXPECT_LE(distance(newton.P, scalar_cast<double>(lemke.P)), agree) << "trial " << trial;
      }
    }
  }
  // Semismooth Newton converges in a handful of steps, and rarely needs the fallback (1 in
  // 1000 of these problems for d = 1, none for d = 2, when this was written).
  EXPECT_LE(newton_steps, 10 * newton_solved);
  EXPECT_LE(fell_back, problems / 50);
}

TEST(FrictionSolvers, Real50AgreesWithDoubleAndCertifiesAtItsPrecision) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 12; ++trial) {
    const Index d = 1 + trial % 2;
    const auto exact = random_problem(rng, 1 + trial % 3, d, 6, 1, false);
    const auto p50 = cast_problem<Real50>(exact);
    const auto newton = solve_friction(FrictionMethod::alart_curnier, p50);
    const auto pgs = solve_friction(FrictionMethod::pgs, p50);
    ASSERT_TRUE(newton.ok()) << newton.message;
    ASSERT_TRUE(pgs.ok()) << pgs.message;
    EXPECT_FALSE(newton.fell_back);
    EXPECT_LE(newton.certificate.prox_residual, Real50("1e-40"));
    EXPECT_LE(distance(newton.P, pgs.P), Real50("1e-30"));
    const auto in_double =
        solve_friction(FrictionMethod::alart_curnier, cast_problem<double>(exact));
    ASSERT_TRUE(in_double.ok());
    EXPECT_LE(distance(scalar_cast<double>(newton.P), in_double.P), 1e-10);
    if (d == 1) {
      // Lemke in 50 digits against the exact one.
      const auto lemke50 = solve_friction(FrictionMethod::lemke, p50);
      const auto exact_lemke = solve_friction(FrictionMethod::lemke, exact);
      ASSERT_TRUE(lemke50.ok()) << lemke50.message;
      ASSERT_TRUE(exact_lemke.ok()) << exact_lemke.message;
      EXPECT_LE(distance(lemke50.P, scalar_cast<Real50>(exact_lemke.P)), Real50("1e-40"));
    }
  }
}

TEST(FrictionSolvers, NewtonFallsBackToPgs) {
  std::mt19937 rng(3);
  const auto p = cast_problem<double>(random_problem(rng, 4, 2, 8, 1, false));
  FrictionOptions<double> options;
  options.newton_iterations = 1;  // not enough for this problem: Newton must fail
  options.fallback = false;
  const auto alone = solve_friction(FrictionMethod::alart_curnier, p, options);
  ASSERT_FALSE(alone.ok());
  EXPECT_EQ(alone.status, FrictionStatus::max_iterations);
  options.fallback = true;
  const auto rescued = solve_friction(FrictionMethod::alart_curnier, p, options);
  ASSERT_TRUE(rescued.ok()) << rescued.message;
  EXPECT_TRUE(rescued.fell_back);
  EXPECT_EQ(rescued.method, FrictionMethod::pgs);
  EXPECT_NE(rescued.message.find("alart-curnier failed"), std::string::npos) << rescued.message;
}

// ------------------------------------------------- certificates reject perturbed answers

/// Every mutant of a sliding solution (P, U = W P + b recomputed) must fail the certificate and
/// the named predicate.
template <class Scalar>
void expect_mutants_rejected(const FrictionProblem<Scalar>& p, const Vector<Scalar>& P,
                             Index contact, const std::string& where) {
  const Index d = p.tangent_dimension;
  const Index iN = p.normal_index(contact);
  const Scalar& mu = p.friction_coefficient(contact);
  const Scalar tol = friction_tolerance(p, P);
  // Tangential impulse along the wrong sign.
  {
    Vector<Scalar> wrong = P;
    for (Index k = 1; k <= d; ++k) wrong(iN + k) = -P(iN + k);
    const Vector<Scalar> U = local_velocity(p, wrong);
    EXPECT_FALSE(certify(p, wrong).accepted) << where << ": wrong sign";
    EXPECT_FALSE(maximal_dissipation(wrong, U, p.friction_coefficient, d, tol).holds)
        << where << ": wrong sign";
    EXPECT_FALSE(friction_work_nonpositive(wrong, U, d, tol).holds) << where << ": wrong sign";
  }
  // Cone radius from a wrong (larger) normal impulse: outside the cone.
  {
    Vector<Scalar> wrong = P;
    for (Index k = 1; k <= d; ++k) wrong(iN + k) = P(iN + k) * Scalar(3) / 2;
    EXPECT_FALSE(certify(p, wrong).accepted) << where << ": radius 3/2 mu P_N";
    EXPECT_FALSE(coulomb_cone(wrong, p.friction_coefficient, d, tol).holds)
        << where << ": radius 3/2 mu P_N";
  }
  // Cone radius from a wrong (smaller) normal impulse: strictly inside, i.e. stick declared
  // while the contact slides.
  {
    Vector<Scalar> wrong = P;
    for (Index k = 1; k <= d; ++k) wrong(iN + k) = P(iN + k) / 2;
    const Vector<Scalar> U = local_velocity(p, wrong);
    EXPECT_FALSE(certify(p, wrong).accepted) << where << ": stick while sliding";
    EXPECT_TRUE(coulomb_cone(wrong, p.friction_coefficient, d, tol).holds) << where;
    const auto verdict = maximal_dissipation(wrong, U, p.friction_coefficient, d, tol);
    EXPECT_FALSE(verdict.holds) << where << ": stick while sliding";
    // With one contact the verdict names it (with several, the mutant's U moves the others).
    if (p.contacts() == 1) {
      EXPECT_EQ(verdict.contact, contact) << where;
    }
  }
  (void)mu;
}

TEST(FrictionCertificate, RejectsMutantsOfTheExactSlidingBlock) {
  const auto p = block(q(2));
  const auto result = solve_friction(FrictionMethod::lemke, p);
  ASSERT_TRUE(result.ok());
  // The predicates accept the solution itself, exactly.
  EXPECT_TRUE(coulomb_cone(result.P, p.friction_coefficient, 1, q(0)).holds);
  EXPECT_TRUE(maximal_dissipation(result.P, result.U, p.friction_coefficient, 1, q(0)).holds);
  EXPECT_TRUE(friction_work_nonpositive(result.P, result.U, 1, q(0)).holds);
  expect_mutants_rejected(p, result.P, 0, "sliding block");
  // With U held fixed (a scheme that reports the old velocity) the wrong sign is still caught.
  Vector<Rational> wrong = result.P;
  wrong(1) = -wrong(1);
  EXPECT_FALSE(maximal_dissipation(wrong, result.U, p.friction_coefficient, 1, q(0)).holds);
  const auto verdict = friction_work_nonpositive(wrong, result.U, 1, q(0));
  EXPECT_FALSE(verdict.holds);
  EXPECT_EQ(verdict.defect, q(3, 4));  // +mu P_N |U_T|
}

TEST(FrictionCertificate, RejectsMutantsOfRandomSlidingSolutions) {
  std::mt19937 rng(5);
  int checked = 0;
  for (int trial = 0; trial < 200 && checked < 60; ++trial) {
    const Index d = 1 + trial % 2;
    const auto p = cast_problem<double>(random_problem(rng, 1 + trial % 4, d, 8, 1, false));
    const auto result = solve_friction(FrictionMethod::alart_curnier, p);
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_TRUE(
        coulomb_cone(result.P, p.friction_coefficient, d, result.certificate.tolerance).holds);
    EXPECT_TRUE(maximal_dissipation(result.P, result.U, p.friction_coefficient, d,
                                    result.certificate.tolerance)
                    .holds);
    EXPECT_TRUE(
        friction_work_nonpositive(result.P, result.U, d, result.certificate.tolerance).holds);
    // A contact that clearly slides: impulse and slip well above round-off.
    for (Index a = 0; a < p.contacts(); ++a) {
      const Index iN = p.normal_index(a);
      double slip = 0, tangential = 0;
      for (Index k = 1; k <= d; ++k) {
        slip += std::abs(result.U(iN + k));
        tangential += std::abs(result.P(iN + k));
      }
      if (result.P(iN) > 1e-3 && p.friction_coefficient(a) > 0 && slip > 1e-2 &&
          tangential > 1e-3) {
        expect_mutants_rejected(p, result.P, a, "trial " + std::to_string(trial));
        ++checked;
        break;
      }
    }
  }
  EXPECT_GE(checked, 40);
}

TEST(FrictionCertificate, PredicatesNameAMisshapenArgument) {
  const Vector<double> P = Vector<double>::Zero(4), U = Vector<double>::Zero(4);
  const Vector<double> mu = vec<double>({0.5, 0.5});
  EXPECT_EQ(input_error_field([&] { coulomb_cone(P, mu, 3, 0.0); }), "tangent_dimension");
  EXPECT_EQ(input_error_field([&] { coulomb_cone(P, mu, 2, 0.0); }), "P");
  EXPECT_EQ(input_error_field([&] { coulomb_cone(P, vec<double>({0.5}), 1, 0.0); }),
            "friction_coefficient");
  EXPECT_EQ(input_error_field([&] {
              maximal_dissipation(P, Vector<double>(Vector<double>::Zero(2)), mu, 1, 0.0);
            }),
            "U");
  EXPECT_EQ(input_error_field([&] { friction_work_nonpositive(P, U, 2, 0.0); }), "P");
  // d = 2 norms need a square root: Rational refuses them, naming the field.
  const auto p = problem_of<Rational>(2, Matrix<Rational>::Identity(3, 3),
                                      Vector<Rational>::Zero(3), vec<Rational>({q(1, 2)}));
  EXPECT_EQ(input_error_field([&] { certify(p, Vector<Rational>(Vector<Rational>::Zero(3))); }),
            "tangent_dimension");
  // ... while the cone test, in squares, is exact there: |P_T|^2 = 1/4 + 1/4 > (1/2)^2.
  EXPECT_FALSE(
      coulomb_cone(vec<Rational>({q(1), q(1, 2), q(1, 2)}), p.friction_coefficient, 2, q(0)).holds);
  EXPECT_TRUE(
      coulomb_cone(vec<Rational>({q(1), q(3, 10), q(4, 10)}), p.friction_coefficient, 2, q(0))
          .holds);  // |P_T| = 1/2 = mu P_N: on the boundary, exactly
}

// ------------------------------------------------------- Kane-Levinson (THEORY 9.2 fact)

/// One contact (d = 1), pure impulse step U+ = U- + W P with Newton's law e and Coulomb mu:
/// the kinetic-energy change 1/2 P^T (U+ + U-), exact.
Rational kinetic_energy_change(const Matrix<Rational>& W, const Vector<Rational>& before,
                               const Rational& restitution, const Rational& mu) {
  Vector<Rational> b = before;
  b(0) += restitution * before(0);  // the Newton shift folded into b's normal entry
  const auto p = problem_of<Rational>(1, W, b, vec<Rational>({mu}));
  const auto result = solve_friction(FrictionMethod::lemke, p);
  EXPECT_TRUE(result.ok()) << result.message;
  const Vector<Rational> after = before + W * result.P;
  return Rational(result.P.dot(after + before) / 2);
}

/// A random single-contact impact: W = G^T M^-1 G of a 2-dof body with M = diag(m1, m2) and
/// contact directions with integer entries (coupled W_NT in general), U- approaching.
struct Impact {
  Matrix<Rational> W;
  Vector<Rational> before;
  Rational mu;
};

Impact random_impact(std::mt19937& rng) {
  std::uniform_int_distribution<int> entry(-4, 4), mass(1, 5), speed(-6, 6), approach(-6, -1),
      mu(1, 20);
  Matrix<Rational> G(2, 2);
  do {
    for (Index i = 0; i < 2; ++i)
      for (Index j = 0; j < 2; ++j) G(i, j) = Rational(entry(rng));
  } while (G(0, 0) * G(1, 1) - G(0, 1) * G(1, 0) == 0);
  Matrix<Rational> Minv = Matrix<Rational>::Zero(2, 2);
  Minv(0, 0) = q(1, mass(rng));
  Minv(1, 1) = q(1, mass(rng));
  Impact impact;
  impact.W = G.transpose() * Minv * G;
  impact.before = vec<Rational>({Rational(approach(rng)), Rational(speed(rng))});
  impact.mu = q(mu(rng), 10);
  return impact;
}

TEST(FrictionImpact, KaneLevinsonEnergyGainWithRestitutionAndCoupling) {
  // THEORY's fact (Kane & Levinson 1985): with e > 0 the velocity-level Newton-Coulomb law can
  // create kinetic energy when W couples the normal and tangential directions.
  std::mt19937 rng(1985);
  int gains = 0, coupled = 0;
  for (int trial = 0; trial < test::trials(1000); ++trial) {
    const Impact impact = random_impact(rng);
    if (impact.W(0, 1) == 0) continue;
    ++coupled;
    const Rational restitution = trial % 2 == 0 ? q(1) : q(1, 2);
    if (kinetic_energy_change(impact.W, impact.before, restitution, impact.mu) > 0) ++gains;
  }
  EXPECT_GT(gains, coupled / 100) << gains << " gains in " << coupled << " coupled impacts";
}

TEST(FrictionImpact, NoEnergyGainWithRestitutionWhenDecoupled) {
  // W_NT = 0: the normal impulse is Newton's alone and dissipates (e <= 1), friction only
  // removes tangential energy.
  std::mt19937 rng(1986);
  std::uniform_int_distribution<int> entry(1, 9), speed(-6, 6), approach(-6, -1), mu(0, 20);
  for (int trial = 0; trial < test::trials(1000); ++trial) {
    Matrix<Rational> W = Matrix<Rational>::Zero(2, 2);
    W(0, 0) = q(entry(rng), entry(rng));
    W(1, 1) = q(entry(rng), entry(rng));
    const Vector<Rational> before = vec<Rational>({Rational(approach(rng)), Rational(speed(rng))});
    const Rational change = kinetic_energy_change(W, before, q(trial % 3, 2), q(mu(rng), 10));
    ASSERT_LE(change, 0) << "trial " << trial;
  }
}

TEST(FrictionImpact, NoEnergyGainWithoutRestitution) {
  // e = 0: P_N U_N+ = 0 and P_T^T U_T+ <= 0, so 1/2 P^T (U+ + U-) = P^T U+ - 1/2 P^T W P <= 0.
  std::mt19937 rng(1985);
  for (int trial = 0; trial < test::trials(2000); ++trial) {
    const Impact impact = random_impact(rng);
    const Rational change = kinetic_energy_change(impact.W, impact.before, q(0), impact.mu);
    ASSERT_LE(change, 0) << "trial " << trial;
  }
}

}  // namespace
}  // namespace nsh
