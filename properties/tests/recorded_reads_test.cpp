// The debug-build check that a property reads only fields the scheme wrote (architecture
// review P1): which recorded fields each step property reads, how the refusal names them, and
// every built-in scheme run with the probe on (Scheme::step_recording_fields, what step does
// in a debug build) on the designed cases and ten random ones of each step property it claims:
// every field the property reads was written on every step, so no claimed verdict rests on a
// stale value.
#include <nsh/properties/claims.hpp>
#include <nsh/properties/generators.hpp>
#include <nsh/properties/predicates.hpp>
#include <nsh/properties/runner.hpp>
#include <nsh/recorded_fields.hpp>
#include <nsh/registry.hpp>

#include <gtest/gtest.h>

#include <rapidcheck.h>
#include <algorithm>
#include <cstdint>

namespace nsh::properties {
namespace {

const std::vector<std::string> step_properties{"impact_work_nonpositive",
                                               "newton_restitution",
                                               "signorini_complementarity",
                                               "lcp_certificate",
                                               "momentum_balance",
                                               "energy_identity",
                                               "moreau_jean_energy_dissipation",
                                               "penetration_bound",
                                               "algorithmic_energy_decay",
                                               "coulomb_cone",
                                               "maximal_dissipation",
                                               "friction_work_nonpositive",
                                               "friction_certificate"};

TEST(RecordedReads, EveryStepPropertyButPenetrationReadsWhatOnlyTheSchemeRecords) {
  for (const auto& p : step_properties)
    EXPECT_EQ(recorded_fields_read(p) == 0, p == "penetration_bound") << p;
  EXPECT_EQ(recorded_fields_read("observed_order"), 0u);
  EXPECT_EQ(recorded_field_names(recorded_fields_read("energy_identity")),
            "W_ext, W_damp, W_contact, numerical_dissipation");
}

TEST(RecordedReads, AFieldTheSchemeDidNotWriteIsNamed) {
  const std::uint32_t all_but_damping = all_recorded_fields & ~bit(RecordedField::W_damp);
  EXPECT_EQ(unwritten_reads("energy_identity", all_recorded_fields), "");
  EXPECT_EQ(unwritten_reads("lcp_certificate", all_but_damping), "");
  const std::string why = unwritten_reads("energy_identity", all_but_damping);
  EXPECT_EQ(why.rfind("energy_identity reads W_damp, which the scheme did not write", 0), 0u)
      << why;
  EXPECT_NE(unwritten_reads("moreau_jean_energy_dissipation", 0).find("W_ext, W_damp"),
            std::string::npos);
}

// A scheme that keeps a ledger only on its first step: from the second on, energy_identity would
// read the first step's W_damp and W_contact, which is what the kit's probe reports.
class FirstStepLedger : public Scheme<double> {
 public:
  SchemeInfo info() const override {
    SchemeInfo i;
    i.family = "test";
    i.spec = "first-step-ledger";
    return i;
  }

 protected:
  void do_initialize(const LinearModel<double>&, const State<double>&, const double&) override {}
  void do_step(State<double>& state, StepSummary<double>& summary) override {
    state.t += step_size();
    summary.W_ext = 0;
    if (first_) summary.W_damp = summary.W_contact = summary.numerical_dissipation = 0;
    first_ = false;
  }

 private:
  bool first_{true};
};

TEST(RecordedReads, TheKitSeesAFieldLeftFromTheStepBefore) {
  LinearModel<double> model;
  model.M = Matrix<double>::Identity(1, 1);
  fill_defaults(model);
  State<double> state{0, Vector<double>::Zero(1), Vector<double>::Zero(1)};
  FirstStepLedger scheme;
  scheme.initialize(model, state, 0.1);
  StepSummary<double> summary;
  scheme.step_recording_fields(state, summary);
  EXPECT_EQ(unwritten_reads("energy_identity", summary.recorded), "");
  scheme.step_recording_fields(state, summary);
  EXPECT_EQ(recorded_field_names(recorded_fields_read("energy_identity") & ~summary.recorded),
            "W_damp, W_contact, numerical_dissipation");
  EXPECT_NE(unwritten_reads("energy_identity", summary.recorded), "");
  EXPECT_EQ(unwritten_reads("penetration_bound", summary.recorded), "");
}

TEST(RecordedReads, EveryBuiltInSchemeWritesWhatItsClaimedStepPropertiesRead) {
  const Registry& registry = Registry::builtin();
  std::vector<std::string> problems;
  int judged = 0;
  for (const auto& name : registry.names(false)) {
    if (!registry.find(name).in_all) continue;
    for (const auto& representative : registry.representatives(name)) {
      const std::string spec = registry.resolve(representative).str();
      const SchemeInfo info = registry.make<double>(spec)->info();
      for (const auto& property : step_properties) {
        const std::optional<Claim> claim = find_claim(info, property);
        if (!claim || !inapplicable_reason(spec, property).empty()) continue;
        // The designed cases and a few random ones (drawn outside a property: no shrinking).
        std::vector<GeneratedCase> cases = designed_cases(claim->cases);
        for (int k = 0; k < 10; ++k)
          cases.push_back(
              gen_case(claim->cases)(rc::Random(static_cast<std::uint64_t>(k + 1)), 10 * k)
                  .value());
        for (const GeneratedCase& c : cases) {
          const LinearModel<double> model = model_cast<double>(c.model);
          State<double> state = state_cast<double>(c.initial);
          auto scheme = registry.make<double>(c.spec_override.value_or(spec));
          StepSummary<double> summary;
          try {
            scheme->initialize(model, state, scalar_cast<double>(c.h));
            for (int k = 0; k < std::min(c.steps, 40); ++k) {
              scheme->step_recording_fields(state, summary);
              ++judged;
              if (const std::string why = unwritten_reads(property, summary.recorded);
                  !why.empty()) {
                problems.push_back(spec + " on '" + c.origin + "', step " + std::to_string(k + 1) +
                                   ": " + why);
                break;
              }
            }
          } catch (const InputError&) {  // a refused case (ModelError too) judges nothing
          } catch (const StepError&) {
          }
        }
      }
    }
  }
  EXPECT_GT(judged, 1000);
  std::string list;
  for (const auto& p : problems) list += "\n  " + p;
  EXPECT_TRUE(problems.empty()) << problems.size() << " problem(s):" << list;
}

}  // namespace
}  // namespace nsh::properties
