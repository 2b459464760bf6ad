// Lagrangian files with velocity constraints (docs/nonlinear-models.md "Velocity constraints"):
// cases/data/rolling-disk-formulas.json is seed 003's rolling disk, so dla and moreau-jean step
// it exactly as they step the C++ RollingDisk (same nodes, bit for bit: the formulas compile to
// the same operations); every malformed constraint is refused naming its field; v0 is checked
// against A(q0) v0 = 0 and projected onto ker A(q0).
#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/formula/lagrangian_case.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/nonholonomic/nonlinear_adapter.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using nsh::Index;
using nsh::Real50;
using nsh::formula::load_lagrangian_case;
using json = nlohmann::json;

nsh::CaseDocument disk_document() {
  return nsh::read_case_file(nsh::locate_case("rolling-disk-formulas"));
}

// The disk's document with one field replaced (`value` parsed as JSON) or removed ("null").
nsh::CaseDocument disk_with(const std::string& key, const std::string& value) {
  nsh::CaseDocument document = disk_document();
  if (value == "null") {
    document.root.erase(key);
  } else {
    document.root[key] = json::parse(value);
  }
  return document;
}

// "field | message" of the error loading `document` in double, or "loaded".
std::string constraint_error(const nsh::CaseDocument& document) {
  try {
    load_lagrangian_case<double>(document);
  } catch (const nsh::InputError& e) {
    return e.field() + " | " + e.what();
  }
  return "loaded";
}

bool says(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

template <class Scalar>
void expect_same_nodes_as_the_cpp_disk(const std::string& spec, const std::string& T) {
  SCOPED_TRACE(spec);
  const auto formulas = load_lagrangian_case<Scalar>(disk_document());
  ASSERT_EQ(formulas.model.velocity_constraints(), 2);
  const auto disk =
      nsh::load_nonholonomic_case<Scalar>(nsh::read_case_file(nsh::locate_case("rolling-disk")));
  const nsh::NonholonomicModelAdapter<Scalar> adapter(*disk.model);
  const Scalar h = nsh::parse_number<Scalar>("1/100", "h");
  const Scalar horizon = nsh::parse_number<Scalar>(T, "T");
  auto a = nsh::Registry::builtin().make<Scalar>(spec);
  auto b = nsh::Registry::builtin().make<Scalar>(spec);
  const auto x = nsh::record<Scalar>(*a, formulas.model, formulas.initial, h, horizon);
  const auto y = nsh::record<Scalar>(*b, adapter, disk.initial, h, horizon);
  ASSERT_EQ(x.states.size(), y.states.size());
  Index impulses = 0;
  for (std::size_t k = 0; k < x.states.size(); ++k) {
    ASSERT_EQ(x.states[k].q, y.states[k].q) << "q at step " << k;
    ASSERT_EQ(x.states[k].v, y.states[k].v) << "v at step " << k;
    if (k > 0 && x.steps[k - 1].impulse.size() > 0 && x.steps[k - 1].impulse.maxCoeff() > 0)
      ++impulses;
  }
  EXPECT_GE(impulses, 1) << "the comparison must go through the first impact (t ~ 2.05)";
}

TEST(VelocityConstraints, RollingDiskFileStepsAsTheCppRollingDisk) {
  expect_same_nodes_as_the_cpp_disk<double>("dla", "3");
  expect_same_nodes_as_the_cpp_disk<double>("moreau-jean", "3");
  expect_same_nodes_as_the_cpp_disk<double>("moreau-jean:theta=1", "3");
  expect_same_nodes_as_the_cpp_disk<Real50>("dla", "5/2");
}

TEST(VelocityConstraints, TheModelGivesAAndXAndKeepsEnergyOutOfTheExactClaim) {
  const auto c = load_lagrangian_case<double>(disk_document());
  const nsh::Vector<double> q = (nsh::Vector<double>(4) << 1, -1, 2, 0.7).finished();
  const nsh::Matrix<double> A = c.model.one_forms(q), X = c.model.distribution(q);
  ASSERT_EQ(A.rows(), 2);
  ASSERT_EQ(A.cols(), 4);
  ASSERT_EQ(X.rows(), 4);
  ASSERT_EQ(X.cols(), 2);
  EXPECT_LT((A * X).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_DOUBLE_EQ(A(0, 2), -std::cos(0.7));
  // The constraint impulse is not in Moreau–Jean's ledger: no exact energy identity claimed.
  EXPECT_FALSE(c.model.energy_identity_exact());
}

TEST(VelocityConstraints, InitialVelocityIsCheckedThenProjected) {
  // v0 off the constraint by more than decimal data explains: refused naming v0.
  EXPECT_TRUE(says(constraint_error(disk_with("v0", R"j([2.5, 0, 2, "3/10"])j")), "v0 | "));
  // Off by a decimal's rounding (0.1 + 0.2 != 0.3 in binary, here R theta' = x' written as
  // 2.0000000000000001): accepted, and projected so that A(q0) v0 = 0 to 50 digits in Real50.
  const auto c =
      load_lagrangian_case<Real50>(disk_with("v0", R"j(["2.0000000000000001", 0, 2, "3/10"])j"));
  const nsh::Vector<Real50> residual = c.model.one_forms(c.initial.q) * c.initial.v;
  EXPECT_LT(residual.cwiseAbs().maxCoeff(), Real50("1e-48"));
}

TEST(VelocityConstraints, MalformedConstraintsNameTheField) {
  const std::string no_basis = constraint_error(disk_with("distribution", "null"));
  EXPECT_TRUE(says(no_basis, "distribution | ")) << no_basis;
  EXPECT_TRUE(says(no_basis, "is missing")) << no_basis;
  const std::string no_forms = constraint_error(disk_with("one_forms", "null"));
  EXPECT_TRUE(says(no_forms, "one_forms | ")) << no_forms;
  const std::string short_row =
      constraint_error(disk_with("one_forms", R"j([[1, 0, 0], [0, 1, 0, 0]])j"));
  EXPECT_TRUE(says(short_row, "one_forms[0] | ")) << short_row;
  const std::string too_many =
      constraint_error(disk_with("one_forms", R"j([[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]])j"));
  EXPECT_TRUE(says(too_many, "one_forms | ")) << too_many;
  const std::string symbol =
      constraint_error(disk_with("one_forms", R"j([[1, 0, "-R*cos(psi)", 0], [0, 1, 0, 0]])j"));
  EXPECT_TRUE(says(symbol, "one_forms[0][2] | ")) << symbol;
  EXPECT_TRUE(says(symbol, "psi")) << symbol;
  const std::string columns = constraint_error(
      disk_with("distribution", R"j([["R*cos(phi)"], ["R*sin(phi)"], [1], [0]])j"));
  EXPECT_TRUE(says(columns, "distribution[0] | ")) << columns;
  // A basis outside the kernel (the sign of X1's x-component flipped) and a dependent one.
  const std::string outside = constraint_error(
      disk_with("distribution", R"j([["-R*cos(phi)", 0], ["R*sin(phi)", 0], [1, 0], [0, 1]])j"));
  EXPECT_TRUE(says(outside, "distribution | ")) << outside;
  EXPECT_TRUE(says(outside, "kernel")) << outside;
  const std::string dependent = constraint_error(disk_with(
      "distribution",
      R"j([["R*cos(phi)", "2*R*cos(phi)"], ["R*sin(phi)", "2*R*sin(phi)"], [1, 2], [0, 0]])j"));
  EXPECT_TRUE(says(dependent, "distribution | ")) << dependent;
  EXPECT_TRUE(says(dependent, "independent")) << dependent;
}

TEST(VelocityConstraints, AStartOutsideTheAdmissibleSetIsRefusedForEveryScheme) {
  // The disk's centre at x = 10 on a table of radius 5: both gaps negative. Refused by the
  // loader naming q0 (before any scheme: Moreau–Jean used to step it from there).
  const std::string outside = constraint_error(disk_with("q0", "[10, 0, 0, 0]"));
  EXPECT_TRUE(says(outside, "q0 | ")) << outside;
  EXPECT_TRUE(says(outside, "gaps[0](q0) = -")) << outside;
  // On the rim (one end of the diameter touching the edge: gap 0) is admissible.
  EXPECT_EQ(constraint_error(disk_with("q0", "[4, 0, 0, 0]")), "loaded");
}

}  // namespace
