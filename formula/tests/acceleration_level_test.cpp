// The forecasting trapezoidal rule on nonlinear models (docs/half-explicit-tdg.md, "The
// forecasting trapezoidal rule"): its contact law is on acceleration level, d^2 g/dt^2 =
// W_N(q)^T a + kappa(q, v) >= 0, and kappa = v^T g''(q) v is the gap's curvature along v
// (NonlinearModel::gap_curvature), which lagrangian case files derive symbolically. Checked here:
// kappa against its definition (exactly in Rational, by differences in Real50), and what it does
// for the scheme on a particle sliding along the parabola y = x^2/2 (kappa = -v_x^2): without it
// the law is the one of a flat surface and a step sinks into the curve by h^2 v_x^2 / 2.
#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/formula/lagrangian_case.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using nsh::Index;
using nsh::Matrix;
using nsh::Rational;
using nsh::Real50;
using nsh::Vector;
using nsh::formula::load_lagrangian_case;

// The particle on y = x^2/2, frictionless and inelastic, starting on the curve at x = 1 with the
// tangent velocity (1, 1): it slides down into the valley and up the other side, in contact.
const char* const sliding_particle = R"js({
  "name": "particle-sliding-on-parabola", "family": "lagrangian",
  "parameters": {"m": 1, "g": "981/100"},
  "coordinates": ["x", "y"],
  "M": [["m", 0], [0, "m"]],
  "potential": "m*g*y",
  "gaps": ["y - x^2/2"],
  "e": 0, "q0": [1, "1/2"], "v0": [1, 1], "T": 1, "h": "1/100"
})js";

template <class Scalar>
nsh::formula::LagrangianCase<Scalar> sliding() {
  return load_lagrangian_case<Scalar>(nsh::parse_case_text(sliding_particle, "<test>"));
}

// A model that hides its curvature behind another's (kappa reported as 0: the flat-surface law),
// to show what the curvature term does.
class WithoutCurvature final : public nsh::NonlinearModel<double> {
 public:
  explicit WithoutCurvature(const nsh::NonlinearModel<double>& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name() + " (kappa = 0)"; }
  Index dofs() const override { return inner_.dofs(); }
  Index contacts() const override { return inner_.contacts(); }
  bool constant_mass() const override { return inner_.constant_mass(); }
  const Vector<double>& restitution() const override { return inner_.restitution(); }

 private:
  void do_mass(const Vector<double>& q, Matrix<double>& M) const override { M = inner_.mass(q); }
  void do_force(const double& t, const Vector<double>& q, const Vector<double>& v,
                Vector<double>& f) const override {
    f = inner_.force(t, q, v);
  }
  void do_external_force(const double& t, const Vector<double>& q, const Vector<double>& v,
                         Vector<double>& f_ext) const override {
    f_ext = inner_.external_force(t, q, v);
  }
  double do_potential(const Vector<double>& q) const override { return inner_.potential(q); }
  void do_gap(const Vector<double>& q, Vector<double>& g) const override { g = inner_.gap(q); }
  void do_normal_jacobian(const Vector<double>& q, Matrix<double>& W_N) const override {
    W_N = inner_.normal_jacobian(q);
  }
  bool do_gap_curvature(const Vector<double>&, const Vector<double>&,
                        Vector<double>& kappa) const override {
    kappa = Vector<double>::Zero(inner_.contacts());
    return true;
  }

  const nsh::NonlinearModel<double>& inner_;
};

// The gap after one step from the state on the curve: the forecast's position update
// q_1 = q_0 + h/2 (u_0 + u_1) is all that sets it.
double gap_after_one_step(const nsh::NonlinearModel<double>& model,
                          const nsh::State<double>& initial, double h) {
  auto scheme = nsh::Registry::builtin().make<double>("forecasting-trapezoidal");
  nsh::State<double> state = initial;
  scheme->initialize(model, state, h);
  nsh::StepSummary<double> summary;
  scheme->step(state, summary);
  return model.gap(state.q)(0);
}

TEST(GapCurvature, IsTheGapsSecondDerivativeAlongTheVelocity) {
  // Exactly in Rational on the parabola: g'' = [[-1, 0], [0, 0]], kappa = -v_x^2.
  const auto parabola = sliding<Rational>();
  Vector<Rational> q(2), v(2), kappa;
  q << Rational(3, 7), Rational(-2, 5);
  v << Rational(-5, 3), Rational(11, 13);
  ASSERT_TRUE(parabola.model.gap_curvature(q, v, kappa));
  ASSERT_EQ(kappa.size(), 1);
  EXPECT_EQ(kappa(0), -Rational(25, 9));

  // The falling rod (trigonometric gaps y -+ l sin(phi)) in Real50 against the central
  // difference (W_N(q + s v) - W_N(q - s v))^T v / (2 s), error O(s^2).
  const auto rod = load_lagrangian_case<Real50>("falling-rod");
  Vector<Real50> p(3), w(3), curvature;
  p << Real50(1) / 3, Real50(7) / 10, Real50(-4) / 5;
  w << Real50(-3) / 2, Real50(1) / 4, Real50(9) / 5;
  ASSERT_TRUE(rod.model.gap_curvature(p, w, curvature));
  const Real50 s("1e-20");
  const Vector<Real50> difference = (rod.model.normal_jacobian(Vector<Real50>(p + s * w)) -
                                     rod.model.normal_jacobian(Vector<Real50>(p - s * w)))
                                        .transpose() *
                                    w / (2 * s);
  EXPECT_LT(nsh::max_abs(Vector<Real50>(curvature - difference)), Real50("1e-30"));
  EXPECT_GT(nsh::max_abs(curvature), Real50(1));  // l w_phi^2 sin(phi) = 1.16: not a trivial zero

  // A wrong size is refused naming the call.
  Vector<Real50> short_q(2);
  short_q.setZero();
  EXPECT_THROW(rod.model.gap_curvature(short_q, w, curvature), nsh::ModelError);
}

// One step of a particle sliding on the curve (x = 1, v = (1, 1), pushed into the curve by
// gravity, so the forecast's constraint is active). With the curvature term the forecast holds
// d^2 g/dt^2 = W_N^T a + kappa = 0 and the gap after the step is O(h^3): it falls by about 8
// when h halves. With kappa = 0 (the law of a flat surface) W_N^T a = 0 and the step sinks by
// the curvature's h^2 v_x^2 / 2 (v_x about 1), falling by 4.
TEST(ForecastingTrapezoidal, HoldsACurvedContactToThirdOrderInOneStepWithTheGapCurvature) {
  const auto c = sliding<double>();
  const WithoutCurvature flat(c.model);
  double with[3], without[3];
  const double h[3] = {1.0 / 100, 1.0 / 200, 1.0 / 400};
  for (int k = 0; k < 3; ++k) {
    with[k] = gap_after_one_step(c.model, c.initial, h[k]);
    without[k] = gap_after_one_step(flat, c.initial, h[k]);
  }
  SCOPED_TRACE(::testing::Message()
               << "g(q_1) with kappa: " << with[0] << ", " << with[1] << ", " << with[2]
               << "; kappa = 0: " << without[0] << ", " << without[1] << ", " << without[2]);
  for (int k = 0; k < 2; ++k) {
    EXPECT_GT(std::abs(with[k] / with[k + 1]), 6.0) << k;
    EXPECT_LT(std::abs(with[k] / with[k + 1]), 10.0) << k;
    EXPECT_GT(without[k] / without[k + 1], 3.5) << k;
    EXPECT_LT(without[k] / without[k + 1], 4.5) << k;
  }
  EXPECT_LT(without[0], -0.3 * h[0] * h[0]);  // sinks, by about h^2 v_x^2 / 2
  EXPECT_LT(std::abs(with[0]), 0.1 * std::abs(without[0]));
}

// The curvature of a model that does not provide it is not guessed: the scheme refuses the
// model, naming itself and the missing term; half-explicit-tdg (velocity level) does not need it.
TEST(ForecastingTrapezoidal, RefusesANonlinearModelWithoutItsCurvature) {
  class NoCurvature final : public nsh::NonlinearModel<double> {
   public:
    std::string name() const override { return "no-curvature"; }
    Index dofs() const override { return 1; }
    Index contacts() const override { return 1; }
    const Vector<double>& restitution() const override { return e_; }

   private:
    void do_mass(const Vector<double>&, Matrix<double>& M) const override {
      M = Matrix<double>::Identity(1, 1);
    }
    void do_force(const double&, const Vector<double>&, const Vector<double>&,
                  Vector<double>& f) const override {
      f = Vector<double>::Constant(1, -10.0);
    }
    void do_external_force(const double&, const Vector<double>&, const Vector<double>&,
                           Vector<double>& f) const override {
      f = Vector<double>::Constant(1, -10.0);
    }
    double do_potential(const Vector<double>&) const override { return 0; }
    void do_gap(const Vector<double>& q, Vector<double>& g) const override { g = q; }
    void do_normal_jacobian(const Vector<double>&, Matrix<double>& W) const override {
      W = Matrix<double>::Identity(1, 1);
    }
    Vector<double> e_ = Vector<double>::Zero(1);
  } model;
  const nsh::State<double> start{0.0, Vector<double>::Constant(1, 1.0), Vector<double>::Zero(1)};
  auto ftr = nsh::Registry::builtin().make<double>("forecasting-trapezoidal");
  try {
    ftr->initialize(model, start, 0.01);
    ADD_FAILURE() << "a model without its curvature was accepted";
  } catch (const nsh::SpecError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("forecasting-trapezoidal"), std::string::npos) << what;
    EXPECT_NE(what.find("curvature"), std::string::npos) << what;
    EXPECT_NE(what.find("no-curvature"), std::string::npos) << what;
  }
  auto hets = nsh::Registry::builtin().make<double>("half-explicit-tdg");
  EXPECT_NO_THROW(hets->initialize(model, start, 0.01));
}

}  // namespace
