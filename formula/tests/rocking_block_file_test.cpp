// cases/data/rocking-block.json is the C++ RockingBlock (nsh/cases/rocking_block.hpp): M, f, V,
// g, W_N, W_T and the initial state agree at random states in double and Real50.
#include <nsh/scalar.hpp>

#include <nsh/cases/rocking_block.hpp>
#include <nsh/cases/rod_on_corners.hpp>
#include <nsh/formula/lagrangian_case.hpp>

#include <gtest/gtest.h>

#include <random>

namespace {

using nsh::Index;
using nsh::Matrix;
using nsh::Real50;
using nsh::Vector;

template <class Scalar>
void expect_block_file_equals_class(const Scalar& tolerance) {
  const auto file = nsh::formula::load_lagrangian_case<Scalar>(std::string(NSH_SOURCE_DIR) +
                                                               "/cases/data/rocking-block.json");
  const auto reference = nsh::cases::rocking_block_case<Scalar>();
  const auto& a = file.model;
  const auto& b = reference.model;
  // Relative to the size of the values: the file folds m g into one constant, and its y0 is
  // b sin(1/5) + c cos(1/5) written to 50 digits.
  const auto close = [&](const auto& x, const auto& y) {
    using Plain = Matrix<Scalar>;
    return nsh::max_abs(Plain(x - y)) <= tolerance * (Scalar(1) + nsh::max_abs(Plain(y)));
  };
  EXPECT_TRUE(close(file.initial.q, reference.initial.q)) << file.initial.q.transpose();
  EXPECT_EQ(file.initial.v, reference.initial.v);
  EXPECT_EQ(file.T, reference.T);
  EXPECT_EQ(*file.h, *reference.h);
  EXPECT_EQ(a.restitution(), b.restitution());
  EXPECT_EQ(a.friction_coefficient(), b.friction_coefficient());
  EXPECT_EQ(a.tangent_directions(), 1);
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> draw(-5000, 5000);
  const auto random_vector = [&] {
    Vector<Scalar> x(3);
    for (Index i = 0; i < 3; ++i) x(i) = Scalar(draw(rng)) / 1000;
    return x;
  };
  for (int k = 0; k < 10; ++k) {
    const Vector<Scalar> q = random_vector(), v = random_vector();
    const Scalar t = Scalar(k) / 3;
    EXPECT_TRUE(close(a.mass(q), b.mass(q)));
    EXPECT_TRUE(close(a.force(t, q, v), b.force(t, q, v))) << q.transpose();
    EXPECT_TRUE(close(a.gap(q), b.gap(q))) << q.transpose();
    EXPECT_TRUE(close(a.normal_jacobian(q), b.normal_jacobian(q))) << q.transpose();
    EXPECT_TRUE(close(a.tangent_jacobian(q), b.tangent_jacobian(q))) << q.transpose();
    const auto scalar = [](const Scalar& x) { return Vector<Scalar>::Constant(1, x); };
    EXPECT_TRUE(close(scalar(a.potential(q)), scalar(b.potential(q)))) << q.transpose();
    EXPECT_TRUE(close(scalar(a.energy(q, v)), scalar(b.energy(q, v)))) << q.transpose();
  }
}

TEST(LagrangianCase, RockingBlockFileIsTheRockingBlockInDoubleAndReal50) {
  expect_block_file_equals_class<double>(1e-15);
  expect_block_file_equals_class<Real50>(Real50("1e-48"));
}

TEST(LagrangianCase, RodOnCornersFileIsTheRodOnCornersClass) {
  // The class with the file's parameters; gaps and Jacobians at random states.
  using Scalar = Real50;
  const auto file = nsh::formula::load_lagrangian_case<Scalar>(std::string(NSH_SOURCE_DIR) +
                                                               "/cases/data/rod-on-corners.json");
  nsh::cases::RodOnCornersParameters<Scalar> p;
  p.mass = 1;
  p.half_length = 1;
  p.gravity = Scalar(981) / 100;
  p.restitution = 0;
  p.friction_coefficient = Scalar(1) / 2;
  p.corner_x = Vector<Scalar>(2);
  p.corner_x << Scalar(-1) / 2, Scalar(1) / 2;
  p.corner_y = Vector<Scalar>(2);
  p.corner_y << Scalar(0), Scalar(1) / 5;
  const nsh::cases::RodOnCorners<Scalar> b(p);
  const auto& a = file.model;
  EXPECT_EQ(a.friction_coefficient(), b.friction_coefficient());
  const Scalar tolerance("1e-48");
  const auto close = [&](const auto& x, const auto& y) {
    using Plain = Matrix<Scalar>;
    return nsh::max_abs(Plain(x - y)) <= tolerance * (Scalar(1) + nsh::max_abs(Plain(y)));
  };
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> draw(-3000, 3000);
  for (int k = 0; k < 10; ++k) {
    Vector<Scalar> q(3), v(3);
    for (Index i = 0; i < 3; ++i) q(i) = Scalar(draw(rng)) / 1000, v(i) = Scalar(draw(rng)) / 1000;
    EXPECT_TRUE(close(a.mass(q), b.mass(q)));
    EXPECT_TRUE(close(a.force(Scalar(0), q, v), b.force(Scalar(0), q, v)));
    EXPECT_TRUE(close(a.gap(q), b.gap(q))) << q.transpose();
    EXPECT_TRUE(close(a.normal_jacobian(q), b.normal_jacobian(q))) << q.transpose();
    EXPECT_TRUE(close(a.tangent_jacobian(q), b.tangent_jacobian(q))) << q.transpose();
  }
}

}  // namespace
