#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/registry.hpp>
#include <nsh/scheme_options.hpp>

#include <fmt/format.h>

#include <stdexcept>

namespace nsh {
namespace {}  // namespace

SchemeSpec SchemeSpec::parse(const std::string& raw) {
  const std::string text = trim_blanks(raw);
  SchemeSpec spec;
  if (text.empty()) throw SpecError("scheme", "empty scheme spec; try `nsh list schemes`");
  std::size_t colon = text.find(':');
  // "mutant:NAME[:options]" names a mutant and "siconos:NAME[:options]" an adapter of Siconos'
  // integrator NAME (docs/siconos.md); the options follow the second colon.
  const std::string prefix = text.substr(0, colon);
  if ((prefix == "mutant" || prefix == "siconos") && colon != std::string::npos)
    colon = text.find(':', colon + 1);
  spec.name_ = trim_blanks(text.substr(0, colon));
  if (spec.name_.empty()) throw SpecError("scheme", "spec '" + text + "' has no scheme name");
  if (colon == std::string::npos) return spec;
  const std::string rest = text.substr(colon + 1);
  std::size_t start = 0;
  while (start <= rest.size()) {
    const std::size_t comma = rest.find(',', start);
    const std::string item = trim_blanks(rest.substr(start, comma - start));
    const std::size_t equals = item.find('=');
    if (item.empty() || equals == std::string::npos || equals == 0)
      throw SpecError(spec.name_,
                      "option '" + item + "' in spec '" + text + "' is not of the form key=value");
    const std::string key = trim_blanks(item.substr(0, equals));
    if (spec.options_.count(key))
      throw SpecError(spec.name_ + ":" + key, "given twice in spec '" + text + "'");
    spec.options_[key] = trim_blanks(item.substr(equals + 1));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return spec;
}

SchemeSpec SchemeSpec::from(std::string name, std::map<std::string, std::string> options) {
  SchemeSpec spec;
  spec.name_ = std::move(name);
  spec.options_ = std::move(options);
  return spec;
}

const std::string& SchemeSpec::text(const std::string& key) const {
  const auto it = options_.find(key);
  if (it == options_.end()) throw SpecError(name_ + ":" + key, "option is missing");
  return it->second;
}

std::string SchemeSpec::str() const {
  std::string out = name_;
  bool first = true;
  for (const auto& [key, value] : options_) {
    out += (first ? ":" : ",") + key + "=" + value;
    first = false;
  }
  return out;
}

template <class Scalar>
void require_in_range(const SchemeSpec& spec, const std::string& key, const Scalar& value,
                      const Scalar* lo, const Scalar* hi, const std::string& range_text) {
  if ((lo && value < *lo) || (hi && value > *hi))
    throw SpecError(spec.name() + ":" + key,
                    "value " + spec.text(key) + " is out of range; " + "accepted: " + range_text);
}

template void require_in_range(const SchemeSpec&, const std::string&, const double&, const double*,
                               const double*, const std::string&);
template void require_in_range(const SchemeSpec&, const std::string&, const Real50&, const Real50*,
                               const Real50*, const std::string&);
template void require_in_range(const SchemeSpec&, const std::string&, const Rational&,
                               const Rational*, const Rational*, const std::string&);

Registry& Registry::builtin() {
  static Registry registry = [] {
    Registry r;
    register_builtin_schemes(r);
    return r;
  }();
  return registry;
}

void Registry::add(SchemeEntry entry) {
  if (entry.name.empty()) throw SpecError("scheme", "a scheme entry needs a name");
  if (contains(entry.name))
    throw SpecError("scheme", "a scheme named '" + entry.name +
                                  "' is registered already; choose another name (registering "
                                  "under a taken name would test the existing scheme)");
  entries_.push_back(std::move(entry));
}

std::vector<std::string> Registry::representatives(const std::string& name) const {
  const SchemeEntry& entry = find(name);
  if (entry.representatives.empty()) return {entry.name};
  return entry.representatives;
}

bool Registry::contains(const std::string& name) const {
  for (const auto& e : entries_)
    if (e.name == name) return true;
  return false;
}

std::vector<std::string> Registry::names(bool mutants) const {
  std::vector<std::string> out;
  for (const auto& e : entries_)
    if (e.is_mutant == mutants) out.push_back(e.name);
  return out;
}

SchemeEntry& Registry::find(const std::string& name) {
  return const_cast<SchemeEntry&>(static_cast<const Registry&>(*this).find(name));
}

const SchemeEntry& Registry::find(const std::string& name) const {
  for (const auto& e : entries_)
    if (e.name == name) return e;
  std::vector<std::string> known = names(false);
  for (const auto& m : names(true)) known.push_back(m);
  throw SpecError("scheme", "unknown scheme '" + name + "'; known schemes: " + join(known, ", "));
}

void apply_scheme_options(SchemeSpec& spec, const std::vector<SchemeOption>& options) {
  for (const auto& [key, value] : spec.options()) {
    const SchemeOption* option = nullptr;
    for (const auto& o : options)
      if (o.key == key) option = &o;
    if (!option) {
      std::vector<std::string> keys;
      for (const auto& o : options) keys.push_back(o.key + " (" + o.description + ")");
      throw SpecError(spec.name() + ":" + key,
                      "unknown option; " + spec.name() + " accepts: " +
                          (keys.empty() ? std::string("no options") : join(keys, ", ")));
    }
    if (!option->choices.empty()) {
      bool known = false;
      for (const auto& c : option->choices) known = known || c == value;
      if (!known)
        throw SpecError(spec.name() + ":" + key,
                        "'" + value + "' is not accepted; choices: " + join(option->choices, ", "));
    }
  }
  for (const auto& o : options)
    if (!spec.has(o.key) && !o.default_value.empty()) spec.set(o.key, o.default_value);
}

SchemeSpec Registry::resolve(const std::string& text) const {
  SchemeSpec spec = SchemeSpec::parse(text);
  apply_scheme_options(spec, find(spec.name()).options);
  return spec;
}

template <class Scalar>
std::unique_ptr<Scheme<Scalar>> Registry::make(const std::string& text) const {
  const SchemeSpec spec = resolve(text);
  const SchemeEntry& entry = find(spec.name());
  return make_from_entry<Scalar>(entry, spec);
}

template <class Scalar>
std::unique_ptr<Scheme<Scalar>> Registry::make_sparse(const std::string& text) const {
  const SchemeSpec spec = resolve(text);
  const SchemeEntry& entry = find(spec.name());
  if (const auto& sparse = entry.make_sparse.get<Scalar>()) return sparse(spec);
  std::unique_ptr<Scheme<Scalar>> scheme = make_from_entry<Scalar>(entry, spec);
  if (scheme->accepts_sparse()) return scheme;
  return nullptr;
}

#define NSH_INSTANTIATE(Scalar)                                                             \
  template std::unique_ptr<Scheme<Scalar>> Registry::make_sparse(const std::string&) const; \
  template std::unique_ptr<Scheme<Scalar>> Registry::make(const std::string&) const;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh
