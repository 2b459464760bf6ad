// The stamp cannot pass vacuously (stamp.hpp, claims.hpp): a scheme whose reported spec misses
// its entry by one character, or that claims nothing, fails; a taken name is an error;
// inherited claims probe the scheme under test; an unclaimed property is skipped with a reason.
#include <nsh/error.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/properties/stamp.hpp>

#include <gtest/gtest.h>

namespace nsh::properties {
namespace {

/// A do-nothing scheme that reports `reported` as its spec.
class Reporting : public Scheme<double> {
 public:
  explicit Reporting(std::string reported) : reported_(std::move(reported)) {}
  SchemeInfo info() const override {
    SchemeInfo i;
    i.family = "test";
    i.spec = reported_;
    return i;
  }

 private:
  void do_initialize(const LinearModel<double>&, const State<double>&, const double&) override {}
  void do_step(State<double>& x, StepSummary<double>&) override { x.t += step_size(); }
  std::string reported_;
};

SchemeEntry entry_reporting(const std::string& name, const std::string& reported) {
  SchemeEntry entry;
  entry.name = name;
  entry.summary = "stamp_test";
  entry.make.get<double>() = [reported](const SchemeSpec&) {
    return std::make_unique<Reporting>(reported);
  };
  return entry;
}

ClaimFunction claims_momentum() {
  return [](const SchemeInfo&) {
    return std::vector<Claim>{{"momentum_balance", "every model", {}, {}}};
  };
}

TEST(Stamp, SpecNamingNoEntryFailsInsteadOfClaimingNothing) {
  // The old vacuous case: claims declared under one name, the scheme reporting another.
  register_scheme(entry_reporting("stamp-test-euler", "stamp-test-eulr"), claims_momentum());
  EXPECT_NE(stamp_claims_nothing("stamp-test-euler"), "");
  EXPECT_THROW((void)stamp_skip_reason("stamp-test-euler", "momentum_balance"), SpecError);
}

TEST(Stamp, EmptyClaimListFails) {
  register_scheme(entry_reporting("stamp-test-silent", "stamp-test-silent"),
                  [](const SchemeInfo&) { return std::vector<Claim>{}; });
  const std::string why = stamp_claims_nothing("stamp-test-silent");
  EXPECT_NE(why.find("claims no property"), std::string::npos) << why;
}

TEST(Stamp, ClaimingSchemePasses) {
  register_scheme(entry_reporting("stamp-test-honest", "stamp-test-honest"), claims_momentum());
  EXPECT_EQ(stamp_claims_nothing("stamp-test-honest"), "");
  EXPECT_FALSE(stamp_skip_reason("stamp-test-honest", "momentum_balance").has_value());
  EXPECT_TRUE(stamp_skip_reason("stamp-test-honest", "energy_identity").has_value());
}

TEST(Stamp, RegisteringUnderATakenNameIsAnError) {
  EXPECT_THROW(register_scheme(entry_reporting("moreau-jean", "moreau-jean"), claims_momentum()),
               SpecError);
}

TEST(Stamp, UnclaimedPropertyIsSkippedWithTheReason) {
  const auto reason = stamp_skip_reason("moreau-jean:theta=3/10", "moreau_jean_energy_dissipation");
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("not claimed"), std::string::npos) << *reason;
  EXPECT_FALSE(stamp_skip_reason("moreau-jean", "energy_identity").has_value());
}

TEST(Stamp, InheritedClaimsProbeTheSchemeUnderTest) {
  EXPECT_EQ(probe_on_scheme_under_test("mutant:mj-wrong-sign",
                                       "moreau-jean:activation=position,lcp=lemke,theta=1/2"),
            "mutant:mj-wrong-sign:activation=position,lcp=lemke,theta=1/2");
  EXPECT_EQ(probe_on_scheme_under_test("moreau-jean", "moreau-jean:theta=53/100"),
            "moreau-jean:activation=position-velocity,lcp=lemke,theta=53/100");
  // A probe option the scheme under test does not accept names the option.
  EXPECT_THROW((void)probe_on_scheme_under_test("mutant:mj-wrong-sign", "moreau-jean:kappa=2"),
               SpecError);
}

TEST(Stamp, EveryNamedPropertyHasItsStatement) {
  for (const auto& name : shared_property_names()) EXPECT_NO_THROW((void)describe(name)) << name;
}

TEST(Stamp, ClaimsReadTheSchemesOwnParameters) {
  // gen-alpha's claims come from the (alpha_m, alpha_f, beta, gamma) it reports.
  const SchemeInfo info = Registry::builtin().make<double>("gen-alpha:rho=1/2")->info();
  EXPECT_EQ(info.parameters.at("alpha_m"), "0");
  EXPECT_EQ(info.parameters.at("alpha_f"), "1/3");
  EXPECT_TRUE(find_claim(info, "algorithmic_energy_decay").has_value());
  // The mutant claims the same spec and so the same claims, while it steps gamma + 1/1000.
  const SchemeInfo lying = Registry::builtin().make<double>("mutant:genalpha-gamma-off")->info();
  EXPECT_EQ(lying.spec, info.spec);
}

TEST(Stamp, FirstOrderClaimsLiveOnTheirEntries) {
  // Read from the FirstOrderRegistry entry the reported spec names, with the resolved method.
  const auto claimed = [](const std::string& spec) {
    std::vector<std::string> names;
    for (const Claim& c : claims_of(FirstOrderRegistry::builtin().make<double>(spec)->info()))
      names.push_back(c.property);
    return names;
  };
  EXPECT_EQ(claimed("catching-up"),
            (std::vector<std::string>{"projection_nonexpansive", "projection_idempotent",
                                      "projection_variational_inequality",
                                      "catching_up_error_bound"}));
  EXPECT_EQ(claimed("penalty:method=implicit"),
            (std::vector<std::string>{"penalty_convergence", "penalty_stability"}));
  EXPECT_TRUE(claimed("penalty:method=explicit").empty());
  // penalty2's claims on the sweep provider's properties sit with its shared ones.
  const SchemeInfo implicit = Registry::builtin().make<double>("penalty2")->info();
  EXPECT_TRUE(find_claim(implicit, "penalty2_energy_balance").has_value());
  EXPECT_TRUE(find_claim(implicit, "penalty2_penetration_bound").has_value());
  const SchemeInfo explicit_ =
      Registry::builtin().make<double>("penalty2:method=explicit")->info();
  EXPECT_TRUE(find_claim(explicit_, "penalty2_energy_balance").has_value());
  EXPECT_FALSE(find_claim(explicit_, "penalty2_penetration_bound").has_value());
}

TEST(Coverage, AGeneratorWithoutRestitutionFailsNewtonRestitution) {
  // e = 0 leaves Newton's law nothing to bite on beyond Signorini: the coverage requirement
  // ("impact with e > 0") fails the verdict instead of reporting a pass.
  CheckOptions options;
  options.cases = 60;
  options.seed = 3;
  options.restitution = RestitutionRange{"0", "0"};
  const Verdict narrowed = check_property("moreau-jean", "newton_restitution", options);
  EXPECT_EQ(narrowed.outcome, Outcome::fail) << narrowed.note;
  EXPECT_NE(narrowed.note.find("coverage"), std::string::npos) << narrowed.note;
  options.restitution.reset();
  const Verdict full = check_property("moreau-jean", "newton_restitution", options);
  EXPECT_EQ(full.outcome, Outcome::pass) << full.note;
}

TEST(Stamp, ObservedOrderRunsOnceAndStillCatchesTheLostOrder) {
  // The stamp measures the order once (it ignores the drawn case); the gamma-off mutant keeps
  // every energy claim and only this run shows it.
  const std::string failure = stamp_random("mutant:genalpha-gamma-off", "observed_order");
  EXPECT_NE(failure.find("observed_order"), std::string::npos) << failure;
  EXPECT_EQ(stamp_random("gen-alpha", "observed_order"), "");
}

}  // namespace
}  // namespace nsh::properties
