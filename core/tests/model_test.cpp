// LinearModel::validate and the driver's input checks: every bad input names its field.
#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/model/linear_model.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace nsh {
namespace {

// Two bodies, one contact (the seed-004 system), in Scalar.
template <class Scalar>
LinearModel<Scalar> two_body() {
  LinearModel<Scalar> m;
  m.name = "two-body";
  m.M = Matrix<Scalar>::Zero(2, 2);
  m.M(0, 0) = Scalar(2);
  m.M(1, 1) = Scalar(3);
  m.G = Matrix<Scalar>(2, 1);
  m.G << Scalar(1), Scalar(-1);
  m.e = Vector<Scalar>::Constant(1, Scalar(1) / 2);
  fill_defaults(m);
  return m;
}

struct Failure {
  std::string field;
  std::string message;
};

template <class F>
Failure failure_of(F&& f) {
  try {
    f();
  } catch (const ModelError& e) {
    return {e.field(), e.what()};
  } catch (const InputError& e) {
    return {e.field(), std::string("(InputError, not ModelError) ") + e.what()};
  }
  ADD_FAILURE() << "nothing thrown";
  return {};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Model, ValidModelPasses) {
  EXPECT_NO_THROW(two_body<double>().validate());
  EXPECT_NO_THROW(two_body<Real50>().validate());
  EXPECT_NO_THROW(two_body<Rational>().validate());
}

TEST(Model, DefaultsHaveTheRightShape) {
  const auto m = two_body<Rational>();
  EXPECT_EQ(m.C.rows(), 2);
  EXPECT_EQ(m.K.cols(), 2);
  EXPECT_EQ(m.F.size(), 2);
  EXPECT_EQ(m.w.size(), 1);
  EXPECT_EQ(m.dofs(), 2);
  EXPECT_EQ(m.contacts(), 1);
}

TEST(Model, MassNotSymmetric) {
  auto m = two_body<Rational>();
  m.M(0, 1) = Rational(1, 3);
  const Failure f = failure_of([&] { m.validate(); });
  EXPECT_EQ(f.field, "M");
  EXPECT_TRUE(contains(f.message, "symmetric")) << f.message;
  EXPECT_TRUE(contains(f.message, "M[0][1] = 1/3") || contains(f.message, "M[1][0] = 0"))
      << f.message;
}

TEST(Model, MassNotPositiveDefinite) {
  auto m = two_body<Rational>();
  m.M(1, 1) = Rational(0);
  Failure f = failure_of([&] { m.validate(); });
  EXPECT_EQ(f.field, "M");
  EXPECT_TRUE(contains(f.message, "positive definite")) << f.message;
  EXPECT_TRUE(contains(f.message, "M[1][1] = 0")) << f.message;
  // Indefinite with a positive diagonal: only elimination sees it.
  m.M << Rational(1), Rational(2), Rational(2), Rational(1);
  f = failure_of([&] { m.validate(); });
  EXPECT_EQ(f.field, "M");
  EXPECT_TRUE(contains(f.message, "pivot")) << f.message;
}

TEST(Model, StiffnessAndDampingNotSemidefinite) {
  auto m = two_body<double>();
  m.K << 1, 2, 2, 1;
  Failure f = failure_of([&] { m.validate(); });
  EXPECT_EQ(f.field, "K");
  EXPECT_TRUE(contains(f.message, "semidefinite")) << f.message;
  m = two_body<double>();
  m.C(0, 0) = -1e-3;
  f = failure_of([&] { m.validate(); });
  EXPECT_EQ(f.field, "C");
  EXPECT_TRUE(contains(f.message, "C[0][0]")) << f.message;
  m = two_body<double>();
  m.K(0, 1) = 1;
  f = failure_of([&] { m.validate(); });
  EXPECT_EQ(f.field, "K");
  EXPECT_TRUE(contains(f.message, "symmetric")) << f.message;
}

TEST(Model, SemidefiniteIsAccepted) {
  auto m = two_body<Rational>();
  m.K << Rational(1), Rational(-1), Rational(-1), Rational(1);  // a spring between the bodies
  EXPECT_NO_THROW(m.validate());
  EXPECT_EQ(first_indefinite_pivot<Rational>(m.K, false, Rational(0)), -1);
  EXPECT_GE(first_indefinite_pivot<Rational>(m.K, true, Rational(0)), 0);
}

TEST(Model, DimensionMismatchNamesTheField) {
  auto check = [](auto mutate, const std::string& field) {
    auto m = two_body<double>();
    mutate(m);
    const Failure f = failure_of([&] { m.validate(); });
    EXPECT_EQ(f.field, field) << f.message;
  };
  check([](LinearModel<double>& m) { m.C = Matrix<double>::Zero(3, 3); }, "C");
  check([](LinearModel<double>& m) { m.K = Matrix<double>::Zero(2, 1); }, "K");
  check([](LinearModel<double>& m) { m.M = Matrix<double>::Identity(2, 3); }, "M");
  check([](LinearModel<double>& m) { m.F = Vector<double>::Zero(1); }, "F");
  check([](LinearModel<double>& m) { m.F_amplitude = Vector<double>::Ones(3); }, "F_amplitude");
  check([](LinearModel<double>& m) { m.G = Matrix<double>::Ones(3, 1); }, "G");
  check([](LinearModel<double>& m) { m.w = Vector<double>::Zero(2); }, "w");
  check([](LinearModel<double>& m) { m.e = Vector<double>::Zero(0); }, "e");
  check([](LinearModel<double>& m) { m.M = Matrix<double>(0, 0); }, "M");
}

TEST(Model, NonFiniteEntriesNameTheEntry) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto check = [](auto mutate, const std::string& field) {
    auto m = two_body<double>();
    mutate(m);
    const Failure f = failure_of([&] { m.validate(); });
    EXPECT_EQ(f.field, field) << f.message;
    EXPECT_TRUE(contains(f.message, "finite")) << f.message;
  };
  check([&](LinearModel<double>& m) { m.M(1, 1) = nan; }, "M[1][1]");
  check([&](LinearModel<double>& m) { m.K(0, 1) = inf; }, "K[0][1]");
  check([&](LinearModel<double>& m) { m.C(1, 0) = nan; }, "C[1][0]");
  check([&](LinearModel<double>& m) { m.F(1) = -inf; }, "F[1]");
  check([&](LinearModel<double>& m) { m.G(1, 0) = nan; }, "G[1][0]");
  check([&](LinearModel<double>& m) { m.w(0) = nan; }, "w[0]");
  check([&](LinearModel<double>& m) { m.e(0) = nan; }, "e[0]");
  check([&](LinearModel<double>& m) { m.omega = nan; }, "omega");
  check([&](LinearModel<double>& m) { m.F_amplitude = Vector<double>::Constant(2, nan); },
        "F_amplitude[0]");
  auto r = two_body<Real50>();
  r.M(0, 0) = std::numeric_limits<Real50>::quiet_NaN();
  EXPECT_EQ(failure_of([&] { r.validate(); }).field, "M[0][0]");
}

TEST(Model, RestitutionOutsideUnitInterval) {
  for (const Rational& e : {Rational(3, 2), Rational(-1, 10)}) {
    auto m = two_body<Rational>();
    m.e(0) = e;
    const Failure f = failure_of([&] { m.validate(); });
    EXPECT_EQ(f.field, "e[0]");
    EXPECT_TRUE(contains(f.message, "[0, 1]")) << f.message;
    EXPECT_TRUE(contains(f.message, e.str())) << f.message;
  }
  auto m = two_body<Rational>();
  m.e(0) = Rational(1);
  EXPECT_NO_THROW(m.validate());
  m.e(0) = Rational(0);
  EXPECT_NO_THROW(m.validate());
}

TEST(Model, EnergyGapAndForce) {
  const auto m = two_body<Rational>();
  Vector<Rational> q(2), v(2);
  q << Rational(1, 2), Rational(1, 3);
  v << Rational(4, 5), Rational(-1, 5);
  EXPECT_EQ(m.energy(q, v), Rational(7, 10));  // K+ of seed 004
  EXPECT_EQ(m.gap(q)(0), Rational(1, 6));
  EXPECT_EQ(m.local_velocity(v)(0), Rational(1));
  EXPECT_EQ(m.max_restitution(), Rational(1, 2));
  EXPECT_FALSE(m.has_harmonic_force());
  auto h = m;
  h.F_amplitude = Vector<Rational>::Ones(2);
  h.omega = Rational(1);
  EXPECT_TRUE(h.has_harmonic_force());
  EXPECT_EQ(failure_of([&] { h.force(Rational(0)); }).field, "F_amplitude");
}

TEST(Model, CastIsExactFromDouble) {
  auto m = two_body<double>();
  m.F(0) = 0.1;
  const auto r = model_cast<Rational>(m);
  EXPECT_EQ(r.F(0), Rational(0.1));
  EXPECT_NE(r.F(0), Rational(1, 10));
  EXPECT_EQ(r.e(0), Rational(1, 2));
  EXPECT_EQ(model_cast<double>(r).F(0), 0.1);
}

// Item 7 of issue 2 for the driver: step size, horizon and the initial state.
TEST(Driver, StepCountAndItsErrors) {
  EXPECT_EQ(step_count<Rational>(Rational(0), Rational(1), Rational(1, 10)), 10);
  EXPECT_EQ(step_count<double>(0.0, 1.0, 0.1), 10);
  EXPECT_EQ(step_count<Rational>(Rational(0), Rational(1), Rational(3, 10)), 4);
  EXPECT_EQ(step_count<Rational>(Rational(1), Rational(1), Rational(1, 10)), 0);
  auto field = [](auto f) {
    try {
      f();
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("nothing thrown");
  };
  EXPECT_EQ(field([] { step_count<double>(0.0, 1.0, 0.0); }), "h");
  EXPECT_EQ(field([] { step_count<double>(0.0, 1.0, -0.1); }), "h");
  EXPECT_EQ(field([] { step_count<Rational>(Rational(0), Rational(1), Rational(-1, 10)); }), "h");
  EXPECT_EQ(field([] { step_count<double>(0.0, 1.0, std::numeric_limits<double>::quiet_NaN()); }),
            "h");
  EXPECT_EQ(field([] { step_count<double>(0.0, std::numeric_limits<double>::infinity(), 0.1); }),
            "T");
  EXPECT_EQ(field([] { step_count<double>(1.0, 0.5, 0.1); }), "T");
}

TEST(Driver, ValidateStateNamesTheEntry) {
  const auto m = two_body<double>();
  State<double> s{0.0, Vector<double>::Zero(2), Vector<double>::Zero(2)};
  EXPECT_NO_THROW(validate_state(m, s));
  auto field = [&](State<double> bad) {
    try {
      validate_state(m, bad);
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("nothing thrown");
  };
  State<double> bad = s;
  bad.q = Vector<double>::Zero(3);
  EXPECT_EQ(field(bad), "q0");
  bad = s;
  bad.v = Vector<double>::Zero(1);
  EXPECT_EQ(field(bad), "v0");
  bad = s;
  bad.v(1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(field(bad), "v0[1]");
  bad = s;
  bad.q(0) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(field(bad), "q0[0]");
  bad = s;
  bad.t = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(field(bad), "t0");
}

}  // namespace
}  // namespace nsh
