// The sweeping process and the catching-up scheme: seed 004's closed forms, exactly.
#include <nsh/scalar.hpp>

#include <nsh/error.hpp>
#include <nsh/first_order/catching_up.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/sweeping_case.hpp>
#include <nsh/projection/box.hpp>
#include <nsh/projection/finite_set.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using nsh::Rational;
using Q = Rational;

template <class Scalar>
nsh::SweepingCase<Scalar> load_sweeping_case(const std::string& name) {
  return nsh::load_sweeping_case<Scalar>(
      nsh::read_case_file(std::string(NSH_SOURCE_DIR) + "/cases/data/" + name + ".json"));
}

Q floor_q(const Q& x) {
  return Q(numerator(x) / denominator(x));
}

TEST(CatchingUp, Seed004ClosedFormXkIsMaxOneMinusKh) {
  const auto c = load_sweeping_case<Q>("sweeping-interval");
  for (const Q& h : {Q(1) / 10, Q(3) / 10, Q(2) / 7, Q(1) / 3, Q(5) / 4}) {
    const auto trajectory = nsh::run_first_order<Q>("catching-up", c, h);
    ASSERT_GE(trajectory.states.size(), 2u);
    for (std::size_t k = 0; k < trajectory.states.size(); ++k) {
      Q expected = Q(1) - Q(static_cast<long>(k)) * h;
      if (expected < Q(0)) expected = Q(0);
      EXPECT_EQ(trajectory.states[k].x(0), expected) << "k = " << k << ", h = " << h;
      EXPECT_EQ(trajectory.states[k].t, Q(static_cast<long>(k)) * h);
    }
    for (const auto& s : trajectory.steps) {
      EXPECT_TRUE(s.has_projection);
      EXPECT_TRUE(s.certificate.accepted);
      EXPECT_EQ(s.certificate.residual, Q(0));  // the zero-residual certificate
      // -reaction is in N_C(x_{k+1}): zero inside, <= 0 at 0, >= 0 at 1.
      if (s.x_after(0) > Q(0) && s.x_after(0) < Q(1)) {
        EXPECT_EQ(s.reaction(0), Q(0));
      }
      if (s.x_after(0) == Q(0)) {
        EXPECT_GE(s.reaction(0), Q(0));
      }
    }
    EXPECT_GE(trajectory.states.back().t, Q(2));
    EXPECT_LT(trajectory.states.back().t - h, Q(2));
  }
}

TEST(CatchingUp, Seed004SupErrorIsExactlySTimesHMinusSOverH) {
  const auto c = load_sweeping_case<Q>("sweeping-interval");
  // h = 3/10: floor(1/h) = 3, s = 1/10, s (h - s)/h = (1/10)(2/10)/(3/10) = 1/15.
  EXPECT_EQ(nsh::sweeping_interval_sup_error(Q(3) / 10), Q(1) / 15);
  EXPECT_EQ(nsh::sweeping_interval_sup_error(Q(1) / 4), Q(0));
  EXPECT_EQ(nsh::sweeping_interval_sup_error(Q(2) / 3), Q(1) / 6);  // s = 1/3 = h/2: h/4
  for (const Q& h : {Q(3) / 10, Q(1) / 4, Q(2) / 3, Q(2) / 7, Q(3) / 7, Q(7) / 20, Q(1) / 7}) {
    const auto trajectory = nsh::run_first_order<Q>("catching-up", c, h);
    const Q error = nsh::sweeping_interval_error(trajectory);
    const Q n = floor_q(Q(1) / h);
    const Q s = Q(1) - n * h;
    EXPECT_EQ(error, s * (h - s) / h) << "h = " << h;
    EXPECT_EQ(error, nsh::sweeping_interval_sup_error(h));
    EXPECT_LE(error, h / 4);
    // The interpolant at the kink t = 1 is where the sup is attained.
    EXPECT_EQ(nsh::interpolate(trajectory, Q(1))(0), error);
  }
}

TEST(CatchingUp, ConvergesAtOrderOneOnSweepingInterval) {
  const auto c = load_sweeping_case<double>("sweeping-interval");
  std::vector<double> log_h, log_e;
  for (int j : {5, 10, 20, 40, 80}) {
    const double h = 1.0 / (j + 1.0 / 3.0);  // s = h/3: error 2h/9 (never zero)
    const auto trajectory = nsh::run_first_order<double>("catching-up", c, h);
    const double e = nsh::sweeping_interval_error(trajectory);
    EXPECT_NEAR(e, nsh::sweeping_interval_sup_error(h), 1e-12);
    log_h.push_back(std::log(h));
    log_e.push_back(std::log(e));
  }
  double mh = 0, me = 0;
  for (std::size_t i = 0; i < log_h.size(); ++i) {
    mh += log_h[i] / log_h.size();
    me += log_e[i] / log_e.size();
  }
  double num = 0, den = 0;
  for (std::size_t i = 0; i < log_h.size(); ++i) {
    num += (log_h[i] - mh) * (log_e[i] - me);
    den += (log_h[i] - mh) * (log_h[i] - mh);
  }
  EXPECT_NEAR(num / den, 1.0, 0.02);
}

TEST(CatchingUp, ExactSolutionFunction) {
  EXPECT_EQ(nsh::sweeping_interval_exact(Q(1) / 3), Q(2) / 3);
  EXPECT_EQ(nsh::sweeping_interval_exact(Q(3) / 2), Q(0));
  EXPECT_EQ(nsh::sweeping_interval_exact(Q(0)), Q(1));
}

TEST(CatchingUp, PolygonStaysInsideAndReachesTheCorner) {
  const auto c = load_sweeping_case<Q>("sweeping-polygon");
  const auto trajectory = nsh::run_first_order<Q>("catching-up", c, *c.h);
  for (const auto& s : trajectory.states) EXPECT_EQ(c.model.set->violation(s.x), Q(0));
  for (const auto& s : trajectory.steps) {
    EXPECT_TRUE(s.certificate.accepted);
    EXPECT_EQ(s.certificate.residual, Q(0));
    for (nsh::Index i = 0; i < s.gap_after.size(); ++i) EXPECT_GE(s.gap_after(i), Q(0));
  }
  EXPECT_EQ(trajectory.states.back().x(0), Q(0));
  EXPECT_EQ(trajectory.states.back().x(1), Q(0));
}

TEST(CatchingUp, TieOnANonconvexSetIsAStepError) {
  nsh::SweepingProcess<Q> model;
  model.A = nsh::Matrix<Q>::Zero(1, 1);
  model.b = nsh::Vector<Q>::Constant(1, Q(-1));
  model.set = std::make_shared<nsh::FiniteSetProjection<Q>>(std::vector<nsh::Vector<Q>>{
      nsh::Vector<Q>::Constant(1, Q(-1)), nsh::Vector<Q>::Constant(1, Q(1))});
  nsh::FirstOrderState<Q> x0{Q(0), nsh::Vector<Q>::Constant(1, Q(1))};
  auto scheme = nsh::FirstOrderRegistry::builtin().make<Q>("catching-up");
  try {
    nsh::record_first_order(*scheme, model, x0, Q(1), Q(1));  // predictor 1 - 1 = 0: a tie
    FAIL() << "a tie must not complete a step";
  } catch (const nsh::StepError& e) {
    EXPECT_NE(std::string(e.what()).find("not unique"), std::string::npos) << e.what();
  }
}

TEST(SweepingCase, ErrorsNameTheField) {
  auto bad = [](const std::string& text) {
    try {
      nsh::load_sweeping_case<Q>(nsh::parse_case_text(text));
    } catch (const nsh::InputError& e) {
      return e.field();
    }
    return std::string("no error");
  };
  EXPECT_EQ(bad(R"({"family":"sweeping","b":[-1],"x0":[1],"T":1,
                    "set":{"type":"interval","lower":0,"upper":"abc"}})"),
            "set.upper");
  EXPECT_EQ(bad(R"({"family":"sweeping","b":[-1],"x0":[2],"T":1,
                    "set":{"type":"interval","lower":0,"upper":1}})"),
            "x0");
  EXPECT_EQ(bad(R"({"family":"sweeping","b":[-1],"x0":[1],"T":1,"set":{"type":"torus"}})"),
            "set.type");
  EXPECT_EQ(bad(R"({"family":"sweeping","b":[-1],"x0":[0],"T":1,
                    "set":{"type":"ball","center":[0],"radius":1}})"),
            "set.type");  // Rational has no sqrt
  EXPECT_THROW(nsh::FirstOrderRegistry::builtin().resolve("catching-up:theta=1"), nsh::SpecError);
  EXPECT_THROW(nsh::FirstOrderRegistry::builtin().resolve("leapfrog"), nsh::SpecError);
}

}  // namespace
