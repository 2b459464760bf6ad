// The options visitors (nsh/scheme_options.hpp): one declaration gives the registry's option
// list, the parse with defaults and errors naming the option and the value, and the canonical
// spec and parameters, which parse back to the same options.
#include <nsh/registry.hpp>
#include <nsh/scheme_options.hpp>

#include <gtest/gtest.h>

#include <string>

namespace nsh {
namespace {

enum class Rule { position, position_velocity };

const char* to_string(Rule rule) {
  return rule == Rule::position ? "position" : "position-velocity";
}

/// A scheme's options as schemes declare them: an exact number, a number in the scheme's
/// precision, an enum, an optional enum, an optional exact number filled by resolve().
template <class Scalar>
struct ExampleOptions {
  Rational theta{Rational(1) / 2};
  Scalar stiffness{0};
  Rule rule{Rule::position_velocity};
  std::optional<Rule> fallback;
  std::optional<Rational> rho;
  Rational alpha{0};  // derived from rho by resolve()

  template <class V>
  void visit(V& v) {
    v("theta", theta, "1/2", "theta-method parameter, a number in [0, 1]", closed_range(0, 1));
    v("stiffness", stiffness, "1e4", "contact stiffness, > 0", above(0, "stiffness > 0"));
    v("rule", rule, "position-velocity", "index set",
      one_of(Rule::position, Rule::position_velocity));
    v("fallback", fallback, "", "fallback rule (no default)",
      one_of(Rule::position, Rule::position_velocity));
    v("rho", rho, "", "rho in [0, 1)", closed_open_range(0, 1));
  }

  void resolve(const std::string& scheme) {
    if (rho && theta == 1)
      throw SpecError(scheme + ":rho", "rho cannot be combined with theta = 1");
    alpha = rho ? *rho / (*rho + 1) : Rational(0);
  }
};

std::string spec_error(const std::string& text) {
  try {
    (void)parse_options<ExampleOptions<double>>(SchemeSpec::parse(text));
  } catch (const SpecError& error) {
    return error.what();
  }
  return "no error";
}

TEST(SchemeOptions, DeclaresEachOptionOnceWithDefaultDescriptionAndChoices) {
  const std::vector<SchemeOption> options = declared_options<ExampleOptions<double>>();
  ASSERT_EQ(options.size(), 5u);
  EXPECT_EQ(options[0].key, "theta");
  EXPECT_EQ(options[0].default_value, "1/2");
  EXPECT_EQ(options[0].description, "theta-method parameter, a number in [0, 1]");
  EXPECT_TRUE(options[0].choices.empty());
  EXPECT_EQ(options[2].key, "rule");
  EXPECT_EQ(options[2].choices, (std::vector<std::string>{"position", "position-velocity"}));
  EXPECT_EQ(options[3].key, "fallback");
  EXPECT_EQ(options[3].default_value, "");
}

TEST(SchemeOptions, OmittedOptionsTakeTheirDeclaredDefaults) {
  const auto options = parse_options<ExampleOptions<double>>(SchemeSpec::parse("example"));
  EXPECT_EQ(options.theta, Rational(1) / 2);
  EXPECT_EQ(options.stiffness, 1e4);
  EXPECT_EQ(options.rule, Rule::position_velocity);
  EXPECT_FALSE(options.fallback.has_value());
  EXPECT_FALSE(options.rho.has_value());
  EXPECT_EQ(options.alpha, 0);
}

TEST(SchemeOptions, ReadsExactNumbersExactlyWhateverTheScalar) {
  const auto options = parse_options<ExampleOptions<double>>(
      SchemeSpec::parse("example:theta=0.1,stiffness=2.5,rule=position,fallback=position,rho=1/3"));
  EXPECT_EQ(options.theta, Rational(1) / 10);  // exact, not the double nearest 0.1
  EXPECT_EQ(options.stiffness, 2.5);
  EXPECT_EQ(options.rule, Rule::position);
  EXPECT_EQ(options.fallback, Rule::position);
  EXPECT_EQ(options.rho, Rational(1) / 3);
  EXPECT_EQ(options.alpha, Rational(1) / 4);  // resolve() ran
}

TEST(SchemeOptions, ErrorsNameTheOptionAndTheValue) {
  EXPECT_EQ(spec_error("example:theta=3/2"),
            "example:theta: value 3/2 is out of range; accepted: a number in [0, 1]");
  EXPECT_EQ(spec_error("example:stiffness=0"),
            "example:stiffness: value 0 is out of range; accepted: stiffness > 0");
  EXPECT_EQ(spec_error("example:rho=1"),
            "example:rho: value 1 is out of range; accepted: a number in [0, 1)");
  EXPECT_EQ(spec_error("example:theta=abc"),
            "example:theta: expected a number such as 0.1, -2.5e-3 or 1/3, got 'abc'; accepted: "
            "a number in [0, 1]");
  EXPECT_EQ(spec_error("example:rule=velocity"),
            "example:rule: 'velocity' is not accepted; choices: position, position-velocity");
  EXPECT_EQ(spec_error("example:gamma=1"),
            "example:gamma: unknown option; example accepts: theta (theta-method parameter, a "
            "number in [0, 1]), stiffness (contact stiffness, > 0), rule (index set), fallback "
            "(fallback rule (no default)), rho (rho in [0, 1))");
  EXPECT_EQ(spec_error("example:theta=1,rho=1/2"),
            "example:rho: rho cannot be combined with theta = 1");
}

TEST(SchemeOptions, TheInexactNumberIsCheckedInItsPrecision) {
  // 1e-400 is positive, but it is 0 in double: the scheme would step with 0.
  EXPECT_THROW(
      (void)parse_options<ExampleOptions<double>>(SchemeSpec::parse("example:stiffness=1e-400")),
      SpecError);
  const auto options =
      parse_options<ExampleOptions<Real50>>(SchemeSpec::parse("example:stiffness=1e-400"));
  EXPECT_GT(options.stiffness, Real50(0));
}

TEST(SchemeOptions, CanonicalSpecWritesExactValuesAndTheWrittenTextOfInexactOnes) {
  const SchemeSpec written = SchemeSpec::parse("example:theta=0.5,stiffness=1e4,rho=0.25");
  const auto options = parse_options<ExampleOptions<double>>(written);
  EXPECT_EQ(canonical_spec("example", options, written),
            "example:rho=1/4,rule=position-velocity,stiffness=1e4,theta=1/2");
  const auto values = option_values(options, written);
  EXPECT_EQ(values.at("theta"), "1/2");
  EXPECT_EQ(values.count("fallback"), 0u);  // no value: not reported
}

TEST(SchemeOptions, TheCanonicalSpecParsesBackToTheSameOptions) {
  const SchemeSpec written =
      SchemeSpec::parse("example:theta=0.7,stiffness=3,rule=position,fallback=position-velocity");
  const auto options = parse_options<ExampleOptions<double>>(written);
  const std::string canonical = canonical_spec("example", options, written);
  const SchemeSpec again = SchemeSpec::parse(canonical);
  const auto reparsed = parse_options<ExampleOptions<double>>(again);
  EXPECT_EQ(reparsed.theta, options.theta);
  EXPECT_EQ(reparsed.stiffness, options.stiffness);
  EXPECT_EQ(reparsed.rule, options.rule);
  EXPECT_EQ(reparsed.fallback, options.fallback);
  EXPECT_EQ(canonical_spec("example", reparsed, again), canonical);
}

// An entry's factories, one per scalar: set_factories fills the listed scalars only, the
// registry builds each scalar's own, and a scalar without one is a SpecError naming the
// precision, never an empty std::function called.
template <class Scalar>
struct TaggedScheme : Scheme<Scalar> {
  explicit TaggedScheme(const SchemeSpec&) {}
  SchemeInfo info() const override { return {}; }
  using Scheme<Scalar>::do_initialize;
  void do_initialize(const LinearModel<Scalar>&, const State<Scalar>&, const Scalar&) override {}
  void do_step(State<Scalar>&, StepSummary<Scalar>&) override {}
};

TEST(SchemeFactories, OnePerListedScalarAndAMissingOneNamesThePrecision) {
  SchemeEntry exact, inexact;
  set_factories<TaggedScheme>(exact);
  set_factories<TaggedScheme>(inexact, InexactScalars{});
  EXPECT_TRUE(exact.make.get<double>() && exact.make.get<Real50>() && exact.make.get<Rational>());
  EXPECT_TRUE(inexact.make.get<double>() && inexact.make.get<Real50>());
  EXPECT_FALSE(inexact.make.get<Rational>());
  const SchemeSpec spec = SchemeSpec::parse("tagged");
  EXPECT_NE(dynamic_cast<TaggedScheme<Real50>*>(make_from_entry<Real50>(inexact, spec).get()),
            nullptr);
  try {
    (void)make_from_entry<Rational>(inexact, spec);
    ADD_FAILURE() << "no Rational factory, no error";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("precision"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("tagged"), std::string::npos) << e.what();
  }
  SchemeEntry double_only;
  set_factory<TaggedScheme, double>(double_only);
  EXPECT_THROW((void)make_from_entry<Real50>(double_only, spec), SpecError);
}

}  // namespace
}  // namespace nsh
