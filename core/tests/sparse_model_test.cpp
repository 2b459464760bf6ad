// SparseLinearModel: validation names the field and the value like the dense model's, and the
// dense <-> sparse conversions are exact.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/model/sparse_model.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

namespace nsh {
namespace {

// A chain of n unit masses and springs (free-free: K is singular, positive semidefinite), one
// contact on the first mass, a damper on the last; M tridiagonal like a consistent mass.
template <class Scalar>
SparseLinearModel<Scalar> chain(Index n) {
  std::vector<Eigen::Triplet<Scalar>> M, K, C;
  for (Index i = 0; i < n; ++i) M.emplace_back(i, i, Scalar(4) / 6);
  for (Index i = 0; i + 1 < n; ++i) {
    M.emplace_back(i, i + 1, Scalar(1) / 6);
    M.emplace_back(i + 1, i, Scalar(1) / 6);
    K.emplace_back(i, i, Scalar(3));
    K.emplace_back(i + 1, i + 1, Scalar(3));
    K.emplace_back(i, i + 1, Scalar(-3));
    K.emplace_back(i + 1, i, Scalar(-3));
  }
  C.emplace_back(n - 1, n - 1, Scalar(1) / 10);
  SparseLinearModel<Scalar> model;
  model.name = "chain";
  model.M.resize(n, n);
  model.K.resize(n, n);
  model.C.resize(n, n);
  model.M.setFromTriplets(M.begin(), M.end());
  model.K.setFromTriplets(K.begin(), K.end());
  model.C.setFromTriplets(C.begin(), C.end());
  model.G = Matrix<Scalar>::Zero(n, 1);
  model.G(0, 0) = Scalar(1);
  model.e = Vector<Scalar>::Constant(1, Scalar(1) / 2);
  fill_defaults(model);
  return model;
}

template <class F>
std::string failing_field(F&& f) {
  try {
    f();
  } catch (const ModelError& e) {
    return e.field() + " | " + e.what();
  }
  return "no error";
}

TEST(SparseModel, TheChainIsValidAndItsDenseCopyIsExact) {
  const auto model = chain<double>(300);
  EXPECT_NO_THROW(model.validate());
  const LinearModel<double> dense = to_dense(model);
  EXPECT_NO_THROW(dense.validate());
  EXPECT_EQ(Matrix<double>(model.M), dense.M);
  EXPECT_EQ(Matrix<double>(model.K), dense.K);
  const SparseLinearModel<double> back = to_sparse(dense);
  EXPECT_EQ(Matrix<double>(back.M), dense.M);
  EXPECT_EQ(Matrix<double>(back.C), dense.C);
  EXPECT_EQ(back.M.nonZeros(), model.M.nonZeros());
  const Vector<double> q = Vector<double>::LinSpaced(300, -1, 1);
  const Vector<double> v = Vector<double>::LinSpaced(300, 2, 0);
  EXPECT_DOUBLE_EQ(model.energy(q, v), dense.energy(q, v));
  EXPECT_EQ(model.gap(q), dense.gap(q));
}

TEST(SparseModel, Real50ValidatesAndCastsBack) {
  const auto model = chain<Real50>(40);
  EXPECT_NO_THROW(model.validate());
  const auto as_double = sparse_model_cast<double>(model);
  EXPECT_NO_THROW(as_double.validate());
  EXPECT_DOUBLE_EQ(as_double.M.coeff(0, 1), 1.0 / 6);
}

TEST(SparseModel, ToDenseRefusesALargeModelNamingM) {
  const auto model = chain<double>(50);
  try {
    to_dense(model, 49);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "M");
    EXPECT_NE(std::string(e.what()).find("50"), std::string::npos) << e.what();
  }
}

TEST(SparseModel, EveryBrokenHypothesisNamesItsField) {
  auto broken = [](auto edit) {
    auto model = chain<double>(8);
    edit(model);
    return failing_field([&] { model.validate(); });
  };
  using Model = SparseLinearModel<double>;
  // M not positive definite: one negative mass.
  EXPECT_EQ(broken([](Model& m) { m.M.coeffRef(3, 3) = -1; }).rfind("M | ", 0), 0u);
  // K indefinite (the chain's springs with the wrong sign).
  EXPECT_EQ(broken([](Model& m) { m.K = -m.K; }).rfind("K | ", 0), 0u);
  // C not symmetric: one triangle only.
  {
    const std::string what = broken([](Model& m) { m.C.coeffRef(0, 2) = 1; });
    EXPECT_EQ(what.rfind("C | ", 0), 0u) << what;
    EXPECT_NE(what.find("symmetric"), std::string::npos) << what;
  }
  // A NaN entry names the entry.
  EXPECT_EQ(broken([](Model& m) {
              m.K.coeffRef(2, 3) = std::numeric_limits<double>::quiet_NaN();
            }).rfind("K[2][3] | ", 0),
            0u);
  EXPECT_EQ(broken([](Model& m) { m.e(0) = 1.5; }).rfind("e[0] | ", 0), 0u);
  EXPECT_EQ(broken([](Model& m) { m.F = Vector<double>::Zero(3); }).rfind("F | ", 0), 0u);
  EXPECT_EQ(broken([](Model& m) { m.G = Matrix<double>::Zero(3, 1); }).rfind("G | ", 0), 0u);
  EXPECT_EQ(broken([](Model& m) { m.K.resize(7, 7); }).rfind("K | ", 0), 0u);
  EXPECT_EQ(broken([](Model& m) { m.M.resize(0, 0); }).rfind("M | ", 0), 0u);
  EXPECT_EQ(broken([](Model& m) {
              m.omega = std::numeric_limits<double>::infinity();
            }).rfind("omega | ", 0),
            0u);
}

TEST(SparseModel, SemidefiniteTestSeesASmallNegativeEigenvalue) {
  // K = k (free-free chain) - delta e_0 e_0^T has one eigenvalue near -delta / n: refused once
  // delta is well above the tolerance, accepted when it is round-off.
  auto model = chain<double>(20);
  model.K.coeffRef(0, 0) -= 1e-6;
  EXPECT_EQ(failing_field([&] { model.validate(); }).rfind("K | ", 0), 0u);
  auto fine = chain<double>(20);
  fine.K.coeffRef(0, 0) -= 1e-17;
  EXPECT_NO_THROW(fine.validate());
}

}  // namespace
}  // namespace nsh
