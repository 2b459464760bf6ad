// Lagrangian case files (nsh/formula/lagrangian_case.hpp): formulas parsed and differentiated
// symbolically, evaluated in double, Real50 and exactly in Rational; the falling rod's file
// against the C++ PlanarRod; gyroscopic forces of a configuration-dependent mass matrix; every
// error naming its field.
#include <nsh/scalar.hpp>

#include <nsh/cases/catalogue.hpp>
#include <nsh/cases/rod.hpp>
#include <nsh/error.hpp>
#include <nsh/formula/lagrangian_case.hpp>
#include <nsh/io/case_file.hpp>

#include <gtest/gtest.h>
#include <boost/math/constants/constants.hpp>

#include <cstdio>
#include <random>

namespace {

using nsh::Index;
using nsh::Matrix;
using nsh::Rational;
using nsh::Real50;
using nsh::Vector;
using nsh::formula::load_lagrangian_case;
using json = nlohmann::json;

const std::string source_dir = NSH_SOURCE_DIR;
const std::string rod_file = source_dir + "/cases/data/falling-rod.json";
const std::string pendulum_file = source_dir + "/formula/tests/data/pendulum.json";

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// "field | message" of the error loading `document` in Scalar, or "loaded".
template <class Scalar>
std::string error_of(const nsh::CaseDocument& document) {
  try {
    load_lagrangian_case<Scalar>(document);
  } catch (const nsh::InputError& e) {
    return e.field() + " | " + e.what();
  }
  return "loaded";
}

nsh::CaseDocument rod() {
  return nsh::read_case_file(rod_file);
}

// The rod's document with one field replaced (`value` parsed as JSON) or, with "null", removed.
nsh::CaseDocument rod_with(const std::string& key, const std::string& value) {
  nsh::CaseDocument document = rod();
  if (value == "null") {
    document.root.erase(key);
  } else {
    document.root[key] = json::parse(value);
  }
  return document;
}

nsh::CaseDocument text(const std::string& json_text) {
  return nsh::parse_case_text(json_text, "<test>");
}

TEST(LagrangianCase, PendulumIsDerivedFromItsKineticAndPotentialEnergy) {
  const auto c = load_lagrangian_case<Real50>(pendulum_file);
  const auto& model = c.model;
  const Real50 m(2), l = Real50(3) / 2, g = Real50(981) / 100;
  EXPECT_EQ(model.dofs(), 1);
  EXPECT_EQ(model.contacts(), 1);
  EXPECT_EQ(model.tangent_directions(), 0);
  EXPECT_TRUE(model.constant_mass());
  EXPECT_EQ(model.velocities(), std::vector<std::string>{"theta_dot"});
  EXPECT_EQ(c.initial.q(0), Real50(1));
  EXPECT_EQ(c.T, Real50(3));
  ASSERT_TRUE(c.h.has_value());
  EXPECT_EQ(*c.h, Real50(1) / 100);
  const Real50 tolerance("1e-48");
  for (const Real50& theta : {Real50(-1) / 3, Real50(1) / 7, Real50(2)}) {
    Vector<Real50> q = Vector<Real50>::Constant(1, theta);
    Vector<Real50> v = Vector<Real50>::Constant(1, Real50(3) / 4);
    EXPECT_LT(nsh::abs_value<Real50>(model.mass(q)(0, 0) - m * l * l), tolerance);
    // f = -dV/dtheta + f_ext = -m g l sin(theta) - theta_dot / 10.
    const Real50 f = -m * g * l * sin(theta) - v(0) / 10;
    EXPECT_LT(nsh::abs_value<Real50>(model.force(Real50(0), q, v)(0) - f), tolerance);
    EXPECT_LT(nsh::abs_value<Real50>(model.external_force(Real50(0), q, v)(0) + v(0) / 10),
              tolerance);
    EXPECT_LT(nsh::abs_value<Real50>(model.gap(q)(0) - (theta + Real50(1) / 2)), tolerance);
    EXPECT_EQ(model.normal_jacobian(q)(0, 0), Real50(1));
    const Real50 E = m * l * l * v(0) * v(0) / 2 - m * g * l * cos(theta);
    EXPECT_LT(nsh::abs_value<Real50>(model.energy(q, v) - E), Real50("1e-47"));
  }
  // The derived formulas are there to read.
  bool printed_force = false;
  for (const auto& [name, formula] : model.derived_formulas())
    if (name == "f[0]") printed_force = has(formula, "sin(theta)");
  EXPECT_TRUE(printed_force);
  // cos has no exact value: Rational refuses the file, naming the formula.
  const std::string rational = error_of<Rational>(nsh::read_case_file(pendulum_file));
  EXPECT_EQ(rational.substr(0, 12), "potential | ") << rational;
  EXPECT_TRUE(has(rational, "cos")) << rational;
  EXPECT_TRUE(has(rational, "use double or 50")) << rational;
}

// The file is the PlanarRod of nsh/cases/rod.hpp, quantity by quantity, at random states.
template <class Scalar>
void expect_file_equals_class(const Scalar& tolerance) {
  const auto file = load_lagrangian_case<Scalar>(rod_file);
  const auto reference = nsh::cases::falling_rod_case<Scalar>();
  const auto& a = file.model;
  const auto& b = reference.model;
  EXPECT_EQ(file.initial.q, reference.initial.q);
  EXPECT_EQ(file.initial.v, reference.initial.v);
  EXPECT_EQ(file.T, reference.T);
  EXPECT_EQ(*file.h, *reference.h);
  EXPECT_EQ(a.restitution(), b.restitution());
  EXPECT_EQ(a.friction_coefficient(), b.friction_coefficient());
  EXPECT_EQ(a.tangent_directions(), 1);
  EXPECT_TRUE(a.constant_mass());
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> draw(-5000, 5000);
  const auto random_vector = [&] {
    Vector<Scalar> x(3);
    for (Index i = 0; i < 3; ++i) x(i) = Scalar(draw(rng)) / 1000;
    return x;
  };
  // Relative to the size of the values: the file folds m g = 981/100 into one constant and
  // the class multiplies m by the rounded g, which differ by an ulp of the result.
  const auto close = [&](const auto& x, const auto& y) {
    using Plain = Matrix<Scalar>;
    return nsh::max_abs(Plain(x - y)) <= tolerance * (Scalar(1) + nsh::max_abs(Plain(y)));
  };
  const auto close_scalar = [&](const Scalar& x, const Scalar& y) {
    return nsh::abs_value<Scalar>(x - y) <= tolerance * (Scalar(1) + nsh::abs_value<Scalar>(y));
  };
  for (int k = 0; k < 10; ++k) {
    const Vector<Scalar> q = random_vector(), v = random_vector();
    const Scalar t = Scalar(k) / 3;
    EXPECT_EQ(a.mass(q), b.mass(q));
    EXPECT_TRUE(close(a.force(t, q, v), b.force(t, q, v))) << q.transpose();
    EXPECT_TRUE(close(a.external_force(t, q, v), b.external_force(t, q, v)));
    EXPECT_TRUE(close_scalar(a.potential(q), b.potential(q))) << q.transpose();
    EXPECT_TRUE(close(a.gap(q), b.gap(q))) << q.transpose();
    EXPECT_TRUE(close(a.normal_jacobian(q), b.normal_jacobian(q))) << q.transpose();
    EXPECT_TRUE(close(a.tangent_jacobian(q), b.tangent_jacobian(q))) << q.transpose();
    EXPECT_TRUE(close_scalar(a.energy(q, v), b.energy(q, v))) << q.transpose();
  }
}

TEST(LagrangianCase, FallingRodFileIsThePlanarRodInDoubleAndReal50) {
  expect_file_equals_class<double>(1e-15);
  expect_file_equals_class<Real50>(Real50("1e-48"));
}

TEST(LagrangianCase, DeclaredThenLoaded) {
  nsh::formula::LagrangianCase<double> c;
  EXPECT_EQ(c.model.dofs(), 0);
  EXPECT_THROW(c.model.validate(c.initial), nsh::ModelError);
  c = load_lagrangian_case<double>("falling-rod");  // a built-in name, as nsh simulate takes
  EXPECT_EQ(c.model.dofs(), 3);
  EXPECT_EQ(c.model.name(), "falling-rod");
}

TEST(LagrangianCase, KineticEnergyGivesTheSameRodAsItsMassMatrix) {
  nsh::CaseDocument document = rod_with("M", "null");
  document.root["kinetic_energy"] = "m*(x_dot^2 + y_dot^2)/2 + m*l^2*phi_dot^2/6";
  const auto from_energy = load_lagrangian_case<Real50>(document);
  const auto from_matrix = load_lagrangian_case<Real50>(rod_file);
  Vector<Real50> q(3);
  q << Real50(1) / 3, Real50(2), Real50(-3) / 5;
  EXPECT_EQ(from_energy.model.mass(q), from_matrix.model.mass(q));
  EXPECT_TRUE(from_energy.model.constant_mass());
}

// A particle in polar coordinates: T = m/2 (r_dot^2 + r^2 theta_dot^2), M = diag(m, m r^2)
// depends on r, and Lagrange's equations carry the centrifugal and Coriolis forces
// (m r theta_dot^2, -2 m r r_dot theta_dot). Every formula is rational: exact in Rational.
const char* polar_particle = R"js({
  "name": "polar", "family": "lagrangian",
  "parameters": {"m": 3, "k": "1/2", "c": "1/10"},
  "coordinates": ["r", "theta"],
  "kinetic_energy": "m*(r_dot^2 + r^2*theta_dot^2)/2",
  "potential": "k*r^2/2",
  "forces": ["-c*r_dot", "t/(1 + r^2)"],
  "gaps": ["2 - r", "r*theta + 1"],
  "e": [0, "1/2"],
  "q0": [1, 0], "v0": [0, 1], "T": 1
})js";

TEST(LagrangianCase, GyroscopicForcesOfAConfigurationDependentMassAreExactInRational) {
  const auto c = load_lagrangian_case<Rational>(text(polar_particle));
  const auto& model = c.model;
  EXPECT_FALSE(model.constant_mass());
  const Rational m(3), k(1, 2), damping(1, 10), t(5, 2);
  Vector<Rational> q(2), v(2);
  q << 2, Rational(1, 3);
  v << Rational(1, 2), 3;
  Matrix<Rational> M(2, 2);
  M << m, 0, 0, m * q(0) * q(0);
  EXPECT_EQ(model.mass(q), M);
  Vector<Rational> f(2);
  f << m * q(0) * v(1) * v(1) - k * q(0) - damping * v(0),
      -2 * m * q(0) * v(0) * v(1) + t / (1 + q(0) * q(0));
  EXPECT_EQ(model.force(t, q, v), f);
  Vector<Rational> f_ext(2);
  f_ext << -damping * v(0), t / (1 + q(0) * q(0));
  EXPECT_EQ(model.external_force(t, q, v), f_ext);
  Matrix<Rational> W_N(2, 2);
  W_N << -1, q(1), 0, q(0);
  EXPECT_EQ(model.normal_jacobian(q), W_N);
  EXPECT_EQ(model.gap(q), (Vector<Rational>(2) << 0, Rational(5, 3)).finished());
  // The derived force is f_ext - grad V - c to the last digit: M and V are quadratic in r, so
  // central differences are exact.
  EXPECT_EQ(nsh::force_split_residual<Rational>(model, t, q, v, Rational(1)), Rational(0));
  // Power balance between impacts, exactly: dE/dt = grad_q E . v + (M v) . (M^-1 f) = v^T f_ext.
  // E is quadratic in r and free of theta, so central differences give grad_q E exactly.
  const Matrix<Rational> grad_E = nsh::central_difference_gradients<Rational>(
      [&](const Vector<Rational>& x) { return Vector<Rational>::Constant(1, model.energy(x, v)); },
      q, Rational(1));
  EXPECT_EQ(grad_E.col(0).dot(v) + v.dot(model.force(t, q, v)),
            v.dot(model.external_force(t, q, v)));
}

// K = -df/dq and C = -df/dv, the symbolic derivatives of the derived force (what Moreau–Jean's
// iteration matrix uses), exactly in Rational for the polar particle, whose f has gyroscopic,
// damping and time-dependent terms.
TEST(LagrangianCase, ForceJacobiansAreTheDerivativesOfTheForceExactlyInRational) {
  const auto c = load_lagrangian_case<Rational>(text(polar_particle));
  const Rational m(3), k(1, 2), damping(1, 10), t(5, 2);
  Vector<Rational> q(2), v(2);
  q << 2, Rational(1, 3);
  v << Rational(1, 2), 3;
  Matrix<Rational> K, C;
  ASSERT_TRUE(c.model.force_jacobians(t, q, v, K, C));
  const Rational r = q(0), rd = v(0), thd = v(1), s = 1 + r * r;
  Matrix<Rational> K_expected(2, 2), C_expected(2, 2);
  K_expected << -(m * thd * thd - k), 0, 2 * m * rd * thd + 2 * t * r / (s * s), 0;
  C_expected << damping, -2 * m * r * thd, 2 * m * r * thd, 2 * m * r * rd;
  EXPECT_EQ(K, K_expected);
  EXPECT_EQ(C, C_expected);
}

// The same for the pendulum's file in Real50, against central differences of its force.
TEST(LagrangianCase, ForceJacobiansMatchCentralDifferencesInReal50) {
  const auto c = load_lagrangian_case<Real50>(pendulum_file);
  Vector<Real50> q(1), v(1);
  q << Real50(7) / 10;
  v << Real50(-13) / 10;
  Matrix<Real50> K, C, K_d, C_d;
  ASSERT_TRUE(c.model.force_jacobians(Real50(0), q, v, K, C));
  nsh::ForceDifferenceWorkspace<Real50> work;
  nsh::force_jacobians_by_differences<Real50>(c.model, Real50(0), q, v, K_d, C_d, work);
  EXPECT_LT(nsh::max_abs(Matrix<Real50>(K - K_d)), Real50(1e-25));
  EXPECT_LT(nsh::max_abs(Matrix<Real50>(C - C_d)), Real50(1e-25));
  EXPECT_GT(nsh::max_abs(K), Real50(1));  // m g l cos(0.7) = 22.5: not a trivial zero
}

// Every supported function, in a potential of two coordinates named like GiNaC functions (psi,
// beta): V in Real50 against Boost directly, and f = -grad V (GiNaC's derivatives, compiled:
// 1 + tan^2, (1 - x^2)^(-1/2), x^(-1), ...) against central differences.
TEST(LagrangianCase, EveryFunctionAndItsDerivativeEvaluateInReal50) {
  const auto c = load_lagrangian_case<Real50>(text(R"js({
    "family": "lagrangian", "coordinates": ["psi", "beta"],
    "M": [[1, 0], [0, 1]],
    "potential": "sin(psi)*cos(beta) + tan(psi/3) + asin(beta/2) + acos(psi/4) + atan(psi*beta) + sinh(beta) + cosh(psi/2) + tanh(beta) + exp(-psi^2) + log(2 + beta) + sqrt(3 + psi) + (1 + beta^2)^(1/3) + pi*psi^(-2)",
    "q0": [1, "1/2"], "v0": [0, 0], "T": 1})js"));
  const auto V = [](const Vector<Real50>& q) {
    const Real50 psi = q(0), beta = q(1);
    return Real50(sin(psi) * cos(beta) + tan(psi / 3) + asin(beta / 2) + acos(psi / 4) +
                  atan(psi * beta) + sinh(beta) + cosh(psi / 2) + tanh(beta) + exp(-psi * psi) +
                  log(2 + beta) + sqrt(3 + psi) + pow(1 + beta * beta, Real50(1) / 3) +
                  boost::math::constants::pi<Real50>() / (psi * psi));
  };
  Vector<Real50> q(2);
  for (const auto& [psi, beta] :
       {std::pair{Real50(1), Real50(1) / 2}, std::pair{Real50(-7) / 10, Real50(-3) / 2},
        std::pair{Real50(2), Real50(1) / 9}}) {
    q << psi, beta;
    EXPECT_LT(nsh::abs_value<Real50>(c.model.potential(q) - V(q)), Real50("1e-47"));
    const Matrix<Real50> grad = nsh::central_difference_gradients<Real50>(
        [&](const Vector<Real50>& x) { return Vector<Real50>::Constant(1, V(x)); }, q,
        Real50("1e-15"));
    const Vector<Real50> f = c.model.force(Real50(0), q, Vector<Real50>::Zero(2));
    EXPECT_LT(nsh::max_abs(Vector<Real50>(f + grad.col(0))), Real50("1e-26")) << q.transpose();
  }
  // Outside asin's domain the potential has no real value, and the error says which formula.
  q << Real50(1), Real50(3);
  try {
    c.model.potential(q);
    ADD_FAILURE() << "asin(3/2) evaluated";
  } catch (const nsh::ModelError& e) {
    EXPECT_EQ(e.field(), "potential");
    EXPECT_TRUE(has(e.what(), "asin")) << e.what();
  }
}

// Spatial friction (d = 2): W_T is n x (m d), contact alpha's directions in columns 2 alpha and
// 2 alpha + 1.
TEST(LagrangianCase, TwoTangentDirectionsPerContactInContactOrder) {
  const auto c = load_lagrangian_case<Rational>(text(R"js({
    "family": "lagrangian", "coordinates": ["x", "y", "z"],
    "M": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "potential": "z",
    "gaps": ["z", "1 - z"], "tangents": [["x", "y"], ["x + z^2", "2*y"]],
    "e": 0, "mu": ["1/2", "1/3"], "q0": [0, 0, "1/2"], "v0": [1, 2, 3], "T": 1})js"));
  EXPECT_EQ(c.model.tangent_directions(), 2);
  Vector<Rational> q(3);
  q << 5, 7, Rational(1, 4);
  Matrix<Rational> W_T(3, 4);
  W_T << 1, 0, 1, 0,  //
      0, 1, 0, 2,     //
      0, 0, Rational(1, 2), 0;
  EXPECT_EQ(c.model.tangent_jacobian(q), W_T);
  EXPECT_EQ(c.model.friction_coefficient(),
            (Vector<Rational>(2) << Rational(1, 2), Rational(1, 3)).finished());
  EXPECT_EQ(c.model.tangent_velocity(q, c.initial.v), W_T.transpose() * c.initial.v);
}

TEST(LagrangianCase, DecimalLiteralsInFormulasAreExact) {
  const auto c = load_lagrangian_case<Rational>(text(R"js({
    "family": "lagrangian", "coordinates": ["x"], "parameters": {"g": 9.81},
    "M": [["0.1"]], "potential": "g*x + 2.5e-1*x^2", "q0": [1], "v0": [0], "T": 1})js"));
  const Vector<Rational> q = Vector<Rational>::Constant(1, Rational(2));
  EXPECT_EQ(c.model.mass(q)(0, 0), Rational(1, 10));
  EXPECT_EQ(c.model.force(Rational(0), q, q)(0), Rational(-981, 100) - Rational(1));
  EXPECT_EQ(c.model.contacts(), 0);
}

TEST(LagrangianCase, ErrorsNameTheField) {
  struct Bad {
    nsh::CaseDocument document;
    std::string field;
    std::string says;
  };
  const std::vector<Bad> cases = {
      {rod_with("gaps", R"js(["y - l*sin(phi)", "z + 1"])js"), "gaps[1]",
       "unknown symbol 'z' (coordinates are x, y, phi"},
      {rod_with("gaps", R"js(["y - * 2", "y"])js"), "gaps[0]", "malformed formula 'y - * 2'"},
      {rod_with("gaps", R"js(["y - l*sin(phi", "y"])js"), "gaps[0]", "malformed formula"},
      {rod_with("gaps", R"js(["x_dot", "y"])js"), "gaps[0]", "velocity 'x_dot'"},
      {rod_with("potential", R"js("m*g*y*t")js"), "potential", "time 't'"},
      {rod_with("potential", R"js("zeta(y)")js"), "potential", "function 'zeta'"},
      {rod_with("potential", R"js("abs(y)")js"), "potential", "function 'abs'"},
      {rod_with("potential", R"js("I*y")js"), "potential", "complex"},
      {rod_with("potential", R"js("log(y - 2)")js"), "potential", "log of a number <= 0"},
      {rod_with("M", R"js([["m", 0, 0], [0, "m", 0], [0, 0, "-m*l^2/3"]])js"), "M",
       "positive definite"},
      {rod_with("M", R"js([["m", 0, 0], [0, "m", 0], [0, 0, "phi - 1/2"]])js"), "M",
       "positive definite"},
      {rod_with("M", R"js([["m", "x", 0], [0, "m", 0], [0, 0, 1]])js"), "M", "symmetric"},
      {rod_with("M", R"js([["m", 0, 0], [0, "m", 0]])js"), "M", "expected 3 entries"},
      {rod_with("M", R"js([["m", 0, 0], [0, "m"], [0, 0, 1]])js"), "M[1]", "expected a row of 3"},
      {rod_with("M", R"js([["m", 0, 0], [0, "m*y_dot", 0], [0, 0, 1]])js"), "M[1][1]", "velocity"},
      {rod_with("M", "null"), "M", "is missing"},
      {rod_with("kinetic_energy", R"js("x_dot^2")js"), "kinetic_energy", "not both"},
      {rod_with("forces", R"js([0, "-m*g"])js"), "forces", "expected 3 entries"},
      {rod_with("forces", R"js([0, "-m*g*w", 0])js"), "forces[1]", "unknown symbol 'w'"},
      {rod_with("tangents", "null"), "mu", "need \"tangents\""},
      {rod_with("mu", "null"), "mu", "is missing"},
      {rod_with("mu", R"js("-1/2")js"), "mu[0]", ">= 0"},
      {rod_with("e", "null"), "e", "is missing"},
      {rod_with("e", R"js(["1/2", "3/2"])js"), "e[1]", "[0, 1]"},
      {rod_with("e", R"js(["1/2"])js"), "e", "one per contact"},
      {rod_with("tangents", R"js(["x", ["x", "y"]])js"), "tangents[1]", "same number"},
      {rod_with("tangents", R"js(["x"])js"), "tangents", "expected 2 entries"},
      {rod_with("coordinates", R"js(["x", "x", "phi"])js"), "coordinates[1]", "used twice"},
      {rod_with("coordinates", R"js(["x", "t", "phi"])js"), "coordinates[1]", "reserved"},
      {rod_with("coordinates", R"js(["x", "2y", "phi"])js"), "coordinates[1]", "not a name"},
      {rod_with("velocities", R"js(["u", "w"])js"), "velocities", "expected 3 entries"},
      {rod_with("parameters", R"js({"m": "2*x", "l": 1, "g": 1})js"), "parameters.m", ""},
      {rod_with("parameters", R"js({"m": 1, "l": 1, "g": 1, "phi": 2})js"), "parameters.phi",
       "used twice"},
      {rod_with("q0", R"js([0, 1])js"), "q0", "expected 3 entries"},
      {rod_with("T", R"js("-1")js"), "T", "before t0"},
      {rod_with("h", R"js(0)js"), "h", "> 0"},
      {rod_with("gap", R"js(["y"])js"), "gap", "unknown field"},
      {text(R"js({"family": "lagrangian", "coordinates": ["x"], "kinetic_energy": "x_dot + x_dot^2",
                "q0": [0], "v0": [0], "T": 1})js"),
       "kinetic_energy", "linear in x_dot"},
      {text(R"js({"family": "lagrangian", "coordinates": ["x"], "kinetic_energy": "x_dot^4",
                "q0": [0], "v0": [0], "T": 1})js"),
       "kinetic_energy", "Hessian depends on x_dot"},
      {text(R"js({"family": "lagrangian", "coordinates": ["x"], "kinetic_energy": "x*x_dot^2/2",
                "q0": [0], "v0": [0], "T": 1})js"),
       "kinetic_energy", "positive definite"},
      {text(R"js({"family": "lagrangian", "coordinates": ["x"], "kinetic_energy": "1 + x_dot^2/2",
                "q0": [0], "v0": [0], "T": 1})js"),
       "kinetic_energy", "at zero velocity"},
      {text(R"js({"family": "linear", "coordinates": ["x"]})js"), "family", "lagrangian"},
      {text(R"js({"family": "lagrangian", "M": [[1]]})js"), "coordinates", "is missing"},
  };
  for (const auto& bad : cases) {
    const std::string error = error_of<double>(bad.document);
    std::printf("%s\n", error.c_str());  // the messages as a user reads them
    EXPECT_EQ(error.substr(0, bad.field.size() + 3), bad.field + " | ") << error;
    EXPECT_TRUE(has(error, bad.says)) << error;
  }
  // Rational refuses the rod's trigonometric gaps, naming the first.
  const std::string rational = error_of<Rational>(rod());
  EXPECT_EQ(rational.substr(0, 10), "gaps[0] | ") << rational;
  EXPECT_TRUE(has(rational, "sin")) << rational;
  // A formula without a real value at a later state names its field and the state.
  const auto c = load_lagrangian_case<double>(rod_with("potential", R"js("m*g*log(y)")js"));
  try {
    c.model.potential(Vector<double>::Zero(3));
    ADD_FAILURE() << "log(0) evaluated";
  } catch (const nsh::ModelError& e) {
    EXPECT_EQ(e.field(), "potential");
    EXPECT_TRUE(has(e.what(), "q = [0, 0, 0]")) << e.what();
  }
}

// Every lagrangian file of the catalogue loads in double and Real50 (case_files_test.cpp skips
// them: their reader is here), and each has a catalogue entry.
TEST(LagrangianCase, EveryCatalogueFileOfTheFamilyLoads) {
  int files = 0;
  for (const auto& c : nsh::cases::catalogue()) {
    if (c.family != "lagrangian") continue;
    ++files;
    const auto document = nsh::read_case_file(source_dir + "/cases/data/" + c.file);
    EXPECT_NO_THROW(load_lagrangian_case<double>(document)) << c.name;
    EXPECT_NO_THROW(load_lagrangian_case<Real50>(document)) << c.name;
  }
  EXPECT_GE(files, 1);
}

}  // namespace
