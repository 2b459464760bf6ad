#include <nsh/error.hpp>
#include <nsh/properties/check.hpp>

#include <algorithm>
#include <mutex>
#include <stdexcept>

namespace nsh::properties {

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::pass:
      return "pass";
    case Outcome::fail:
      return "fail";
    case Outcome::not_claimed:
      return "not claimed";
    case Outcome::not_applicable:
      return "n/a";
  }
  return "?";
}

namespace {

std::vector<std::shared_ptr<PropertyProvider>>& provider_list() {
  static std::vector<std::shared_ptr<PropertyProvider>> list;
  return list;
}

}  // namespace

void register_provider(std::shared_ptr<PropertyProvider> provider) {
  auto& list = provider_list();
  for (const auto& p : list)
    if (p->name() == provider->name())
      throw std::logic_error("property provider registered twice: " + provider->name());
  list.push_back(std::move(provider));
}

const std::vector<std::shared_ptr<PropertyProvider>>& providers() {
  static std::once_flag once;
  std::call_once(once, [] { register_builtin_providers(); });
  return provider_list();
}

const PropertyProvider& provider_for(const std::string& spec) {
  std::string known;
  for (const auto& p : providers()) {
    if (p->handles_scheme(spec)) return *p;
    for (const auto& s : p->schemes()) known += (known.empty() ? "" : ", ") + s;
  }
  throw SpecError("scheme", "no property provider handles '" + spec + "'; known: " + known);
}

std::vector<PropertyDescription> all_properties() {
  std::vector<PropertyDescription> out;
  for (const auto& p : providers())
    for (const auto& d : p->properties())
      if (std::none_of(out.begin(), out.end(), [&](const auto& x) { return x.name == d.name; }))
        out.push_back(d);
  return out;
}

std::vector<Verdict> run_checks(const std::vector<std::string>& specs,
                                const std::vector<std::string>& properties,
                                const CheckOptions& options) {
  std::vector<std::string> scheme_list;
  for (const auto& s : specs) {
    if (s == "all") {
      for (const auto& p : providers())
        for (const auto& x : p->schemes()) scheme_list.push_back(x);
    } else {
      scheme_list.push_back(s);
    }
  }
  std::vector<std::string> property_list;
  bool every = false;
  for (const auto& name : properties) {
    if (name == "all") {
      every = true;
    } else {
      const auto known = all_properties();
      if (std::none_of(known.begin(), known.end(), [&](const auto& d) { return d.name == name; })) {
        std::string list;
        for (const auto& d : known) list += (list.empty() ? "" : ", ") + d.name;
        throw InputError("property", "unknown property '" + name + "'; known: " + list);
      }
      property_list.push_back(name);
    }
  }
  std::vector<Verdict> verdicts;
  for (const auto& spec : scheme_list) {
    const PropertyProvider& provider = provider_for(spec);
    const std::string canonical = provider.canonical(spec);
    const auto own = provider.properties();
    std::vector<std::string> wanted = property_list;
    // "all" means every property the scheme's own provider knows.
    if (every)
      for (const auto& d : own)
        if (std::find(wanted.begin(), wanted.end(), d.name) == wanted.end())
          wanted.push_back(d.name);
    for (const auto& property : wanted) {
      if (std::none_of(own.begin(), own.end(), [&](const auto& d) { return d.name == property; })) {
        Verdict v;
        v.scheme = canonical;
        v.property = property;
        v.outcome = Outcome::not_applicable;
        v.note = "provider '" + provider.name() + "' does not check this property";
        verdicts.push_back(std::move(v));
        continue;
      }
      verdicts.push_back(provider.check(canonical, property, options));
    }
  }
  return verdicts;
}

std::vector<Verdict> check_mutant(const std::string& mutant_spec, const CheckOptions& options) {
  const PropertyProvider& provider = provider_for(mutant_spec);
  const std::string canonical = provider.canonical(mutant_spec);
  CheckOptions claimed = options;
  claimed.force = false;
  std::vector<Verdict> verdicts;
  for (const auto& d : provider.properties())
    if (provider.claims(canonical, d.name))
      verdicts.push_back(provider.check(canonical, d.name, claimed));
  return verdicts;
}

}  // namespace nsh::properties
