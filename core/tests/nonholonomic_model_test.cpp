// Nonholonomic models (nsh/nonholonomic/): the rolling disk and the knife edge against their
// definitions (one-forms, distribution, gradients by central differences, the closed-form flow
// against its own derivative), the continuous reflection, and the case-file reader's errors.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/model/nonlinear_model.hpp>
#include <nsh/nonholonomic/knife_edge.hpp>
#include <nsh/nonholonomic/rolling_disk.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

namespace {

using nsh::Index;
using nsh::Matrix;
using nsh::Real50;
using nsh::Vector;

const std::string catalogue_dir = std::string(NSH_SOURCE_DIR) + "/cases/data/";

template <class Scalar>
nsh::RollingDisk<Scalar> seed_disk() {
  return nsh::RollingDisk<Scalar>(nsh::RollingDiskParameters<Scalar>{
      Scalar(1), Scalar(1), Scalar(1) / 2, Scalar(1) / 4, Scalar(5)});
}

template <class Scalar>
nsh::KnifeEdge<Scalar> skate() {
  return nsh::KnifeEdge<Scalar>(
      nsh::KnifeEdgeParameters<Scalar>{Scalar(1), Scalar(1) / 2, Scalar(1)});
}

Vector<double> vec_of(std::initializer_list<double> values) {
  Vector<double> x(static_cast<Index>(values.size()));
  Index i = 0;
  for (double v : values) x(i++) = v;
  return x;
}

// A, X, grad g against their definitions at a generic configuration.
void check_geometry(const nsh::NonholonomicModel<double>& model, const Vector<double>& q) {
  const Matrix<double> A = model.one_forms(q), X = model.distribution(q);
  EXPECT_LE(nsh::max_abs(Matrix<double>(A * X)), 1e-15) << model.name();
  // X has full rank n - r: G_r = X^T M X (2 x 2 for both models) is positive definite.
  const Matrix<double> G = model.reduced_metric(q);
  ASSERT_EQ(G.rows(), 2);
  EXPECT_GT(G(0, 0), 0.0);
  EXPECT_GT(G(0, 0) * G(1, 1) - G(0, 1) * G(1, 0), 0.0);
  const std::function<Vector<double>(const Vector<double>&)> g = [&](const Vector<double>& x) {
    return model.inequality(x);
  };
  const Matrix<double> numeric = nsh::central_difference_gradients<double>(g, q, 1e-5);
  EXPECT_LE(nsh::max_abs(Matrix<double>(numeric - model.inequality_gradient(q))), 1e-8)
      << model.name();
  EXPECT_EQ(model.gap(q), -model.inequality(q));
  EXPECT_EQ(model.normal_jacobian(q), -model.inequality_gradient(q));
}

// The closed-form flow: its velocity is its derivative (central differences), the velocity stays
// in D, and the energy is constant.
void check_flow(const nsh::NonholonomicModel<double>& model, const nsh::State<double>& start) {
  const double E0 = model.energy(start.q, start.v);
  for (double tau : {0.0, 0.3, 1.7, 4.0}) {
    const auto s = model.exact_flow(start, tau);
    const double d = 1e-5;
    const Vector<double> derivative =
        (model.exact_flow(start, tau + d).q - model.exact_flow(start, tau - d).q) / (2 * d);
    EXPECT_LE(nsh::max_abs(Vector<double>(derivative - s.v)), 1e-8) << model.name() << " " << tau;
    EXPECT_LE(nsh::max_abs(Vector<double>(model.one_forms(s.q) * s.v)), 1e-15);
    EXPECT_NEAR(model.energy(s.q, s.v), E0, 1e-14 * E0);
    EXPECT_DOUBLE_EQ(s.t, start.t + tau);
  }
}

TEST(NonholonomicModels, RollingDiskGeometryAndFlow) {
  const auto disk = seed_disk<double>();
  EXPECT_EQ(disk.dofs(), 4);
  EXPECT_EQ(disk.velocity_constraints(), 2);
  EXPECT_EQ(disk.inequalities(), 2);
  check_geometry(disk, vec_of({0.7, -1.1, 0.4, 2.3}));
  // g_+- are the ends of the diameter: at the centre with phi = 0 the ends are (+-R, 0).
  const Vector<double> g = disk.inequality(vec_of({1, 0, 0, 0}));
  EXPECT_DOUBLE_EQ(g(0), 4.0 - 25.0);
  EXPECT_DOUBLE_EQ(g(1), 0.0 - 25.0);
  const Vector<double> q = vec_of({0.5, 0.2, 0.1, 0.7});
  check_flow(disk, nsh::State<double>{0.0, q, disk.velocity(q, 2.0, 0.3)});
  check_flow(disk, nsh::State<double>{1.0, q, disk.velocity(q, 2.0, 0.0)});   // a line
  check_flow(disk, nsh::State<double>{0.0, q, disk.velocity(q, 1.5, 1e-9)});  // near a line
  // The reduced velocity of an admissible v is (theta', phi') exactly as built.
  const Vector<double> u = disk.reduced_velocity(q, disk.velocity(q, 2.0, 0.3));
  EXPECT_NEAR(u(0), 2.0, 1e-15);
  EXPECT_NEAR(u(1), 0.3, 1e-15);
  // The metric of the reduced velocities is diag(m R^2 + I, J).
  const Matrix<double> G = disk.reduced_metric(q);
  EXPECT_NEAR(G(0, 0), 1.5, 1e-15);
  EXPECT_NEAR(G(1, 1), 0.25, 1e-15);
  EXPECT_NEAR(G(0, 1), 0.0, 1e-15);
}

TEST(NonholonomicModels, KnifeEdgeGeometryAndFlow) {
  const auto edge = skate<double>();
  EXPECT_EQ(edge.dofs(), 3);
  EXPECT_EQ(edge.velocity_constraints(), 1);
  EXPECT_EQ(edge.inequalities(), 1);
  check_geometry(edge, vec_of({0.3, 2.0, -0.8}));
  const Vector<double> q = vec_of({-0.5, 0.2, 0.9});
  check_flow(edge, nsh::State<double>{0.0, q, edge.velocity(q, 1.0, 0.5)});
  check_flow(edge, nsh::State<double>{0.0, q, edge.velocity(q, -2.0, 0.0)});
}

// The continuous jump in Real50: energy kept and n^T u reversed to 1e-45; the change of v is
// M^{-1} (lambda grad g + A^T beta), i.e. M (v+ - v-) is in span{grad g, rows of A}.
template <class Model>
void check_reflection(const Model& model, const Vector<Real50>& q, const Vector<Real50>& v,
                      Index j) {
  const auto jump = nsh::continuous_reflection<Real50>(model, q, v, j);
  const Real50 E = model.energy(q, v);
  EXPECT_LE(nsh::abs_value<Real50>(model.energy(q, jump.v_plus) - E), Real50("1e-45") * E);
  EXPECT_LE(nsh::abs_value<Real50>(jump.normal_plus + jump.normal_minus),
            Real50("1e-45") * nsh::abs_value<Real50>(jump.normal_minus));
  EXPECT_GT(nsh::abs_value<Real50>(jump.normal_minus), Real50("1e-3"));
  EXPECT_LE(nsh::max_abs(Vector<Real50>(model.one_forms(q) * jump.v_plus)), Real50("1e-45"));
  // M (v+ - v-) has no component in D: X^T M (v+ - v-) is parallel to n = X^T grad g.
  const Matrix<Real50> X = model.distribution(q);
  const Vector<Real50> change = X.transpose() * model.mass(q) * (jump.v_plus - v);
  const Vector<Real50> n = X.transpose() * model.inequality_gradient(q).col(j);
  EXPECT_LE(nsh::abs_value<Real50>(change(0) * n(1) - change(1) * n(0)),
            Real50("1e-45") * (nsh::max_abs(change) * nsh::max_abs(n) + 1));
}

TEST(NonholonomicModels, ContinuousReflectionKeepsEnergyAndReversesTheNormalVelocity) {
  const auto disk = seed_disk<Real50>();
  Vector<Real50> q(4);
  q << Real50("3.1"), Real50("-2.2"), Real50("0.4"), Real50("0.9");
  check_reflection(disk, q, disk.velocity(q, Real50(2), Real50("0.3")), 0);
  check_reflection(disk, q, disk.velocity(q, Real50(-1), Real50("1.7")), 1);
  const auto edge = skate<Real50>();
  Vector<Real50> p(3);
  p << Real50(1), Real50("0.25"), Real50("0.6");
  const Vector<Real50> v = edge.velocity(p, Real50(1), Real50("0.5"));
  check_reflection(edge, p, v, 0);
  // The knife edge reverses along its blade, the turning rate unchanged (exactly, up to round-off).
  const auto jump = nsh::continuous_reflection<Real50>(edge, p, v, 0);
  EXPECT_LE(nsh::abs_value<Real50>(jump.u_plus(0) + 1), Real50("1e-45"));
  EXPECT_LE(nsh::abs_value<Real50>(jump.u_plus(1) - Real50("0.5")), Real50("1e-45"));
}

TEST(NonholonomicModels, ParametersAreChecked) {
  using P = nsh::RollingDiskParameters<double>;
  const auto field_of = [](const P& p) {
    try {
      nsh::RollingDisk<double> disk(p);
    } catch (const nsh::ModelError& e) {
      return e.field() + " | " + e.what();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(field_of(P{1, 1, 0.5, 0.25, 5}), "accepted");
  EXPECT_EQ(field_of(P{1, 1, -0.5, 0.25, 5}).substr(0, 4), "I | ");
  EXPECT_NE(field_of(P{1, 1, -0.5, 0.25, 5}).find("-0.5"), std::string::npos);
  EXPECT_EQ(field_of(P{0, 1, 0.5, 0.25, 5}).substr(0, 4), "m | ");
  EXPECT_EQ(field_of(P{1, 1, 0.5, 0, 5}).substr(0, 4), "J | ");
  EXPECT_EQ(field_of(P{1, 2, 0.5, 0.25, 2}).substr(0, 4), "a | ");
  EXPECT_THROW(nsh::KnifeEdge<double>(nsh::KnifeEdgeParameters<double>{1, -1, 0}), nsh::ModelError);
}

TEST(NonholonomicModels, ValidateNamesTheInitialStateField) {
  const auto disk = seed_disk<double>();
  const Vector<double> inside = vec_of({1, 1, 0, 0.5});
  EXPECT_NO_THROW(disk.validate(nsh::State<double>{0, inside, disk.velocity(inside, 2, 0.3)}));
  try {
    disk.validate(nsh::State<double>{0, vec_of({4.5, 0, 0, 0}), vec_of({0, 0, 0, 0})});
    ADD_FAILURE() << "q0 outside the table accepted";
  } catch (const nsh::ModelError& e) {
    EXPECT_EQ(e.field(), "q0");
    EXPECT_NE(std::string(e.what()).find("g_+(q0) = 5.25"), std::string::npos) << e.what();
  }
  try {
    disk.validate(nsh::State<double>{0, inside, vec_of({1, 0, 2, 0})});
    ADD_FAILURE() << "v0 off the constraint accepted";
  } catch (const nsh::ModelError& e) {
    EXPECT_EQ(e.field(), "v0");
    EXPECT_NE(std::string(e.what()).find("|A(q0) v0|"), std::string::npos) << e.what();
  }
}

// --- case files --------------------------------------------------------------------------

std::string nonholonomic_error_of(const std::string& text) {
  try {
    nsh::load_nonholonomic_case<double>(nsh::parse_case_text(text));
  } catch (const nsh::InputError& e) {
    return e.what();
  }
  return "accepted";
}

std::string disk_case(const std::string& parameters, const std::string& q0, const std::string& v0) {
  return R"({"name": "d", "family": "nonholonomic", "model": "rolling-disk", "parameters": )" +
         parameters + R"(, "q0": )" + q0 + R"(, "v0": )" + v0 + R"(, "T": 1})";
}

const std::string seed_parameters = R"({"m": 1, "R": 1, "I": "1/2", "J": "1/4", "a": 5})";

TEST(NonholonomicCaseFiles, BuiltinCasesLoadInDoubleAndReal50) {
  for (const char* name : {"rolling-disk", "knife-edge"}) {
    const auto document = nsh::read_case_file(catalogue_dir + name + ".json");
    EXPECT_EQ(document.family, "nonholonomic");
    const auto lean = nsh::load_nonholonomic_case<double>(document);
    const auto wide = nsh::load_nonholonomic_case<Real50>(document);
    EXPECT_EQ(lean.model->name(), name);
    EXPECT_EQ(wide.model->name(), name);
    ASSERT_TRUE(lean.h.has_value());
    // The 50-digit v0 satisfies the constraint to 50 digits ("3/10" read exactly, projected).
    EXPECT_LE(nsh::max_abs(Vector<Real50>(wide.model->one_forms(wide.initial.q) * wide.initial.v)),
              Real50("1e-48"));
  }
  const auto disk =
      nsh::load_nonholonomic_case<Real50>(nsh::read_case_file(catalogue_dir + "rolling-disk.json"));
  EXPECT_EQ(disk.initial.v(2), Real50(2));
  EXPECT_LE(nsh::abs_value<Real50>(disk.initial.v(3) - Real50(3) / 10), Real50("1e-49"));
  EXPECT_EQ(disk.T, Real50(12));
}

TEST(NonholonomicCaseFiles, MalformedCasesNameTheFieldAndTheValue) {
  EXPECT_EQ(nonholonomic_error_of(disk_case(seed_parameters, "[0, 0, 0, 0]", "[2, 0, 2, 0.3]")),
            "accepted");
  // v0 off the rolling constraint: x' = 1 but R theta' cos(phi) = 2.
  const std::string v0 =
      nonholonomic_error_of(disk_case(seed_parameters, "[0, 0, 0, 0]", "[1, 0, 2, 0.3]"));
  EXPECT_EQ(v0.rfind("v0: ", 0), 0u) << v0;
  EXPECT_NE(v0.find("|A(q0) v0| = 1"), std::string::npos) << v0;
  // q0 off the table: g_+ = (4.5 + 1)^2 - 25 = 5.25.
  const std::string q0 =
      nonholonomic_error_of(disk_case(seed_parameters, "[4.5, 0, 0, 0]", "[0, 0, 0, 0]"));
  EXPECT_EQ(q0.rfind("q0: ", 0), 0u) << q0;
  EXPECT_NE(q0.find("g_+(q0) = 5.25"), std::string::npos) << q0;
  // Non-positive inertias and masses.
  const std::string I = nonholonomic_error_of(
      disk_case(R"({"m": 1, "R": 1, "I": "-1/2", "J": "1/4", "a": 5})", "[0,0,0,0]", "[0,0,0,0]"));
  EXPECT_EQ(I.rfind("parameters.I: ", 0), 0u) << I;
  EXPECT_NE(I.find("-0.5"), std::string::npos) << I;
  const std::string J = nonholonomic_error_of(
      disk_case(R"({"m": 1, "R": 1, "I": "1/2", "J": 0, "a": 5})", "[0,0,0,0]", "[0,0,0,0]"));
  EXPECT_EQ(J.rfind("parameters.J: ", 0), 0u) << J;
  const std::string m = nonholonomic_error_of(
      disk_case(R"({"m": -2, "R": 1, "I": "1/2", "J": 1, "a": 5})", "[0,0,0,0]", "[0,0,0,0]"));
  EXPECT_EQ(m.rfind("parameters.m: ", 0), 0u) << m;
  EXPECT_NE(m.find("-2"), std::string::npos) << m;
  // Structure: missing or unknown parameters, unknown model, wrong lengths, unknown fields.
  EXPECT_EQ(nonholonomic_error_of(
                disk_case(R"({"m": 1, "R": 1, "I": 1, "a": 5})", "[0,0,0,0]", "[0,0,0,0]"))
                .rfind("parameters.J: is missing", 0),
            0u);
  EXPECT_EQ(nonholonomic_error_of(disk_case(R"({"m": 1, "R": 1, "I": 1, "J": 1, "a": 5, "K": 2})",
                                            "[0,0,0,0]", "[0,0,0,0]"))
                .rfind("parameters.", 0),
            0u);
  EXPECT_EQ(nonholonomic_error_of(disk_case(seed_parameters, "[0, 0, 0]", "[0, 0, 0, 0]"))
                .rfind("q0: ", 0),
            0u);
  EXPECT_EQ(nonholonomic_error_of(
                R"({"family": "nonholonomic", "model": "unicycle", "q0": [], "v0": [], "T": 1})")
                .rfind("model: ", 0),
            0u);
  EXPECT_EQ(nonholonomic_error_of(
                R"({"family": "nonholonomic", "model": "knife-edge", "parameters": {"m": 1,
      "J": 1, "a": 1}, "q0": [0, 0, 0], "v0": [1, 0, 0], "T": 1, "M": 3})")
                .rfind("M: ", 0),
            0u);
  EXPECT_EQ(nonholonomic_error_of(R"({"family": "linear", "M": [[1]]})").rfind("family: ", 0), 0u);
  // The knife edge: sideways velocity at heading 0 is a constraint violation.
  const std::string side =
      nonholonomic_error_of(R"({"family": "nonholonomic", "model": "knife-edge",
      "parameters": {"m": 1, "J": 1, "a": 1}, "q0": [0, 0, 0], "v0": [1, "1/2", 0], "T": 1})");
  EXPECT_EQ(side.rfind("v0: ", 0), 0u) << side;
  const std::string wall =
      nonholonomic_error_of(R"({"family": "nonholonomic", "model": "knife-edge",
      "parameters": {"m": 1, "J": 1, "a": 1}, "q0": [2, 0, 0], "v0": [1, 0, 0], "T": 1})");
  EXPECT_NE(wall.find("g_wall(q0) = 1"), std::string::npos) << wall;
}

}  // namespace
