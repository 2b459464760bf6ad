// The nonlinear model interface (nsh/model/nonlinear_model.hpp): the linear family through the
// adapter, exactly in Rational, and validation naming the field.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/model/linear_model.hpp>
#include <nsh/model/nonlinear_model.hpp>

#include <gtest/gtest.h>

namespace {

using nsh::Index;
using nsh::Matrix;
using nsh::Rational;
using nsh::Vector;

nsh::LinearModel<Rational> damped_two_body() {
  nsh::LinearModel<Rational> model;
  model.name = "damped-two-body";
  model.M = Matrix<Rational>(2, 2);
  model.M << 2, 1, 1, 3;
  model.K = Matrix<Rational>(2, 2);
  model.K << 4, -1, -1, 2;
  model.C = Matrix<Rational>(2, 2);
  model.C << Rational(1, 10), 0, 0, Rational(1, 5);
  model.F = Vector<Rational>(2);
  model.F << 1, Rational(-981, 100);
  model.G = Matrix<Rational>(2, 1);
  model.G << 1, -1;
  model.w = Vector<Rational>::Constant(1, Rational(1, 2));
  model.e = Vector<Rational>::Constant(1, Rational(1, 2));
  model.validate();
  return model;
}

TEST(LinearModelAdapter, IsTheLinearModelExactly) {
  const auto linear = damped_two_body();
  const nsh::LinearModelAdapter<Rational> model(linear);
  Vector<Rational> q(2), v(2);
  q << Rational(1, 3), Rational(-2, 7);
  v << Rational(5, 2), Rational(-1, 9);
  const Rational t(3, 4);
  EXPECT_EQ(model.dofs(), 2);
  EXPECT_EQ(model.contacts(), 1);
  EXPECT_EQ(model.tangent_directions(), 0);
  EXPECT_TRUE(model.constant_mass());
  EXPECT_EQ(model.name(), "damped-two-body");
  EXPECT_EQ(model.mass(q), linear.M);
  const Vector<Rational> f = linear.F - linear.C * v - linear.K * q;
  EXPECT_EQ(model.force(t, q, v), f);
  EXPECT_EQ(model.external_force(t, q, v), Vector<Rational>(linear.F - linear.C * v));
  EXPECT_EQ(model.potential(q), q.dot(linear.K * q) / 2);
  EXPECT_EQ(model.gap(q), linear.gap(q));
  EXPECT_EQ(model.normal_jacobian(q), linear.G);
  EXPECT_EQ(model.normal_velocity(q, v), linear.local_velocity(v));
  EXPECT_EQ(model.tangent_jacobian(q).rows(), 2);
  EXPECT_EQ(model.tangent_jacobian(q).cols(), 0);
  EXPECT_EQ(model.energy(q, v), linear.energy(q, v));
  EXPECT_EQ(model.restitution(), linear.e);
  EXPECT_EQ(model.friction_coefficient().size(), 0);
  EXPECT_NO_THROW(model.validate(nsh::State<Rational>{t, q, v}));
  // f = -grad V + f_ext, exactly: V is quadratic, so central differences are exact in Rational.
  const Matrix<Rational> grad_V = nsh::central_difference_gradients<Rational>(
      [&](const Vector<Rational>& x) { return Vector<Rational>::Constant(1, model.potential(x)); },
      q, Rational(1, 3));
  EXPECT_EQ(Vector<Rational>(-grad_V.col(0) + model.external_force(t, q, v)), f);
  EXPECT_EQ(nsh::force_split_residual<Rational>(model, t, q, v, Rational(1, 2)), Rational(0));
  // W_N is the gradient of the gaps (affine: exact).
  EXPECT_EQ(nsh::central_difference_gradients<Rational>(
                [&](const Vector<Rational>& x) { return model.gap(x); }, q, Rational(1)),
            linear.G);
}

// A configuration-dependent mass matrix M(q) = [[2 + q0^2, q1], [q1, 1]]: definite iff
// 2 + q0^2 > q1^2.
class Tilted final : public nsh::NonlinearModel<Rational> {
 public:
  Vector<Rational> e = Vector<Rational>::Constant(1, Rational(1, 2));
  Vector<Rational> mu;
  Index d = 0;
  Index gap_columns = 1;

  std::string name() const override { return "tilted"; }
  Index dofs() const override { return 2; }
  Index contacts() const override { return 1; }
  Index tangent_directions() const override { return d; }
  const Vector<Rational>& restitution() const override { return e; }
  const Vector<Rational>& friction_coefficient() const override { return mu; }

 private:
  void do_mass(const Vector<Rational>& q, Matrix<Rational>& M) const override {
    M.resize(2, 2);
    M << 2 + q(0) * q(0), q(1), q(1), 1;
  }
  void do_force(const Rational&, const Vector<Rational>&, const Vector<Rational>&,
                Vector<Rational>& f) const override {
    f = Vector<Rational>::Zero(2);
  }
  void do_external_force(const Rational&, const Vector<Rational>&, const Vector<Rational>&,
                         Vector<Rational>& f) const override {
    f = Vector<Rational>::Zero(2);
  }
  Rational do_potential(const Vector<Rational>&) const override { return 0; }
  void do_gap(const Vector<Rational>& q, Vector<Rational>& g) const override {
    g = Vector<Rational>::Constant(1, q(0));
  }
  void do_normal_jacobian(const Vector<Rational>&, Matrix<Rational>& W) const override {
    W = Matrix<Rational>::Zero(2, gap_columns);
    if (gap_columns > 0) W(0, 0) = 1;
  }
  void do_tangent_jacobian(const Vector<Rational>&, Matrix<Rational>& W) const override {
    W = Matrix<Rational>::Zero(2, d);
  }
};

std::string field_of_validate(const Tilted& model, Rational q0, Rational q1) {
  Vector<Rational> q(2);
  q << q0, q1;
  try {
    model.validate(nsh::State<Rational>{0, q, Vector<Rational>::Zero(2)});
  } catch (const nsh::ModelError& e) {
    return e.field() + " | " + e.what();
  }
  return "valid";
}

// Tilted's force is zero, which leaves out the gyroscopic force of its M(q):
// c = (q0 v0^2 + v1^2, 0) (dM/dq0 = [[2 q0, 0], [0, 0]], dM/dq1 = [[0, 1], [1, 0]]). M is
// quadratic in q, so central differences are exact and the residual is c exactly.
TEST(NonlinearModel, ForceSplitResidualFindsAMissingGyroscopicForce) {
  const Tilted model;
  Vector<Rational> q(2), v(2);
  q << 1, 1;
  v << Rational(1, 2), 3;
  EXPECT_EQ(nsh::force_split_residual<Rational>(model, 0, q, v, Rational(1)), Rational(37, 4));
  EXPECT_EQ(
      nsh::force_split_residual<Rational>(model, 0, q, Vector<Rational>::Zero(2), Rational(1)),
      Rational(0));
}

TEST(NonlinearModel, ValidateNamesTheField) {
  Tilted model;
  EXPECT_EQ(field_of_validate(model, 1, 1), "valid");
  // Definite at q0 = (1, 1) but not at (0, 2): the check is at the initial state.
  const std::string indefinite = field_of_validate(model, 0, 2);
  EXPECT_EQ(indefinite.substr(0, 4), "M | ") << indefinite;
  EXPECT_NE(indefinite.find("positive definite"), std::string::npos) << indefinite;
  EXPECT_NE(indefinite.find("[0, 2]"), std::string::npos) << indefinite;
  // Exactly singular where q1^2 = 2 + q0^2, e.g. (1/2, 3/2): strict definiteness, no tolerance.
  EXPECT_EQ(field_of_validate(model, Rational(1, 2), Rational(3, 2)).substr(0, 4), "M | ");
  EXPECT_EQ(field_of_validate(model, Rational(1, 2), Rational(149, 100)), "valid");

  model.e(0) = Rational(3, 2);
  EXPECT_EQ(field_of_validate(model, 1, 1).substr(0, 4), "e[0]");
  model.e(0) = Rational(1, 2);
  model.gap_columns = 2;
  EXPECT_EQ(field_of_validate(model, 1, 1).substr(0, 3), "W_N");
  model.gap_columns = 1;
  model.mu = Vector<Rational>::Constant(1, Rational(1, 3));
  EXPECT_EQ(field_of_validate(model, 1, 1).substr(0, 2), "mu");  // mu without tangents
  model.d = 1;
  EXPECT_EQ(field_of_validate(model, 1, 1), "valid");
  model.mu(0) = Rational(-1, 3);
  EXPECT_EQ(field_of_validate(model, 1, 1).substr(0, 5), "mu[0]");
}

}  // namespace
