// Every registered scheme on contact-free models (G is n x 0), in every scalar it has (issue 21
// item 2: an empty contact set takes an explicit path — no solve, product or LCP on
// zero-column matrices, whose Eigen code reads through null pointers under UBSan). The run
// must end with finite states and an empty contact record at every step, and the same scheme
// must agree with itself across scalars: double with Real50 to round-off, Real50 with Rational
// to 40 digits, so a path that is only wrong in one scalar is seen. The sanitizer build runs
// this test too (docs/limits.md).
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace {

using nsh::Index;
using nsh::Rational;
using nsh::Real50;

/// Two masses, a spring between them and one to the ground, damping, a constant and (where the
/// scalar has sin) a harmonic force: every term a linear scheme integrates, and no contact.
template <class Scalar>
nsh::LinearModel<Scalar> contact_free_model(bool harmonic) {
  nsh::LinearModel<Scalar> m;
  m.name = "contact-free";
  m.M = nsh::Matrix<Scalar>(2, 2);
  m.M << Scalar(2), Scalar(0), Scalar(0), Scalar(1);
  m.C = nsh::Matrix<Scalar>(2, 2);
  m.C << Scalar(1) / 10, Scalar(0), Scalar(0), Scalar(1) / 20;
  m.K = nsh::Matrix<Scalar>(2, 2);
  m.K << Scalar(3), Scalar(-1), Scalar(-1), Scalar(1);
  m.F = nsh::Vector<Scalar>(2);
  m.F << Scalar(1) / 2, Scalar(-1);
  m.F_amplitude = nsh::Vector<Scalar>(2);
  m.F_amplitude << Scalar(0), harmonic ? Scalar(1) / 4 : Scalar(0);
  m.omega = harmonic ? Scalar(3) : Scalar(0);
  m.G = nsh::Matrix<Scalar>(2, 0);
  m.w = nsh::Vector<Scalar>(0);
  m.e = nsh::Vector<Scalar>(0);
  return m;
}

template <class Scalar>
nsh::State<Scalar> initial_state() {
  nsh::State<Scalar> x;
  x.q = nsh::Vector<Scalar>(2);
  x.q << Scalar(1) / 10, Scalar(-1) / 5;
  x.v = nsh::Vector<Scalar>(2);
  x.v << Scalar(0), Scalar(1) / 2;
  return x;
}

template <class Scalar>
bool finite(const nsh::Vector<Scalar>& x) {
  for (Index i = 0; i < x.size(); ++i)
    if (!nsh::is_finite(x(i))) return false;
  return true;
}

/// q(T) of `spec` in Scalar on the dense model (or its sparse copy), after checking every step;
/// nullopt when the scheme refuses the model as outside its hypotheses (e.g. dla: nonholonomic
/// models only) or has no version in Scalar.
template <class Scalar>
std::optional<nsh::Vector<Scalar>> run(const std::string& spec, bool sparse, bool harmonic) {
  const auto& registry = nsh::Registry::builtin();
  const nsh::LinearModel<Scalar> model = contact_free_model<Scalar>(harmonic);
  std::unique_ptr<nsh::Scheme<Scalar>> scheme;
  try {
    scheme = sparse ? registry.make_sparse<Scalar>(spec) : registry.make<Scalar>(spec);
  } catch (const nsh::SpecError&) {
    return std::nullopt;  // no Rational version
  }
  if (!scheme) return std::nullopt;  // no native sparse path
  const Scalar h = Scalar(1) / 16, T = Scalar(1) / 2;
  const auto check_step = [&](const nsh::State<Scalar>& x, const nsh::StepSummary<Scalar>& s) {
    EXPECT_TRUE(finite(x.q) && finite(x.v)) << spec << " at t = " << nsh::scalar_cast<double>(x.t);
    EXPECT_TRUE(s.index_set.empty()) << spec;
    EXPECT_EQ(s.impulse.size(), 0) << spec;
    EXPECT_TRUE(nsh::is_finite(s.E_after) && nsh::is_finite(s.W_ext)) << spec;
  };
  try {
    // The sparse model exists in double and Real50 only; at -O0 a runtime branch would still
    // reference its Rational instantiation (the sanitizer preset builds without optimisation).
    if constexpr (!nsh::is_exact_v<Scalar>) {
      if (sparse)
        return nsh::simulate(*scheme, nsh::to_sparse(model), initial_state<Scalar>(), h, T,
                             nsh::StepObserver<Scalar>(check_step))
            .q;
    }
    return nsh::simulate(*scheme, model, initial_state<Scalar>(), h, T,
                         nsh::StepObserver<Scalar>(check_step))
        .q;
  } catch (const nsh::ModelError& e) {
    // A scheme outside its hypotheses says so by naming the model; nothing else is excused.
    EXPECT_NE(std::string(e.what()).find("model"), std::string::npos) << spec << ": " << e.what();
    return std::nullopt;
  }
}

double largest_difference(const nsh::Vector<double>& a, const nsh::Vector<double>& b) {
  return (a - b).cwiseAbs().maxCoeff();
}

TEST(ContactFree, EverySchemeInEveryScalarTakesTheEmptyContactPath) {
  const auto& registry = nsh::Registry::builtin();
  int stepped = 0;
  for (const auto& name : registry.names(false)) {
    const nsh::SchemeEntry& entry = registry.find(name);
    if (!entry.in_all) continue;  // adapters of other tools have their own tests
    SCOPED_TRACE(name);
    const auto in_double = run<double>(name, false, true);
    const auto in_real50 = run<Real50>(name, false, true);
    ASSERT_EQ(in_double.has_value(), in_real50.has_value());
    if (!in_double) continue;
    ++stepped;
    EXPECT_LT(largest_difference(*in_double, nsh::scalar_cast<double>(*in_real50)), 1e-12);
    if (const auto exact = run<Rational>(name, false, false)) {
      const auto rounded = run<Real50>(name, false, false);
      ASSERT_TRUE(rounded.has_value());
      const nsh::Vector<Real50> difference = nsh::scalar_cast<Real50>(*exact) - *rounded;
      EXPECT_LT(difference.cwiseAbs().maxCoeff(), Real50("1e-40"));
    }
    if (const auto sparse = run<double>(name, true, true)) {
      EXPECT_LT(largest_difference(*sparse, *in_double), 1e-12);
    }
  }
  // The linear schemes: moreau-jean, the Newmark family, Krenk-Hogsberg, event-driven,
  // penalty2, half-explicit-tdg.
  EXPECT_GE(stepped, 8);
}

}  // namespace
