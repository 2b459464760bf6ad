// The built-in property provider: every nsh::Scheme in Registry::builtin() (schemes and
// mutants) against every shared property of runner.hpp.
#include <nsh/error.hpp>
#include <nsh/properties/runner.hpp>

namespace nsh::properties {
namespace {

class SchemePropertyProvider : public PropertyProvider {
 public:
  std::string name() const override { return "nsh-schemes"; }

  bool handles_scheme(const std::string& spec) const override {
    try {
      return Registry::builtin().contains(SchemeSpec::parse(spec).name());
    } catch (const InputError&) {
      return false;
    }
  }

  /// Every scheme's representative specs (SchemeEntry::representatives: the parameter
  /// points where its claims differ; its defaults if it lists none).
  std::vector<std::string> schemes() const override {
    std::vector<std::string> out;
    for (const auto& name : Registry::builtin().names(false)) {
      if (!Registry::builtin().find(name).in_all) continue;
      for (const auto& spec : Registry::builtin().representatives(name))
        out.push_back(Registry::builtin().resolve(spec).str());
    }
    return out;
  }

  std::vector<std::string> mutants() const override {
    std::vector<std::string> out;
    for (const auto& name : Registry::builtin().names(true))
      out.push_back(Registry::builtin().resolve(name).str());
    return out;
  }

  std::vector<PropertyDescription> properties() const override {
    std::vector<PropertyDescription> out;
    for (const auto& name : shared_property_names()) out.push_back(describe(name));
    return out;
  }

  std::string canonical(const std::string& spec) const override {
    return Registry::builtin().resolve(spec).str();
  }

  bool claims(const std::string& spec, const std::string& property) const override {
    if (!inapplicable_reason(spec, property).empty()) return false;
    const SchemeInfo info = Registry::builtin().make<double>(spec)->info();
    return find_claim(info, property).has_value();
  }

  Verdict check(const std::string& spec, const std::string& property,
                const CheckOptions& options) const override {
    return check_property(spec, property, options);
  }

  bool shards_cases() const override { return true; }

  std::string inapplicable(const std::string& spec, const std::string& property) const override {
    return inapplicable_reason(spec, property);
  }

  CaseOutcome evaluate_case(const std::string& spec, const std::string& property,
                            const GeneratedCase& c) const override {
    return properties::evaluate_case(spec, property, c);
  }
};

}  // namespace

void register_scheme_properties() {
  register_provider(std::make_shared<SchemePropertyProvider>());
}

}  // namespace nsh::properties
