#pragma once
// Schemes by name, with typed options parsed from a spec string:
//
//   spec   := name [ ":" option ( "," option )* ]
//   option := key "=" value
//   name   := "moreau-jean" | "newmark" | ... | "mutant:" mutant-name
//
// e.g. "moreau-jean:theta=1/2,activation=position", "gen-alpha:rho=0.8", "mutant:wrong-sign".
// Values are read like case-file numbers ("0.1" and "1/10" are exactly 1/10 in Rational).
// An unknown name or option, or a value outside its range, throws SpecError listing what is
// accepted.

#include <nsh/number.hpp>
#include <nsh/schemes/scheme.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace nsh {

/// One option a scheme accepts.
struct SchemeOption {
  std::string key;
  std::string default_value;         ///< used when the spec omits the option
  std::string description;           ///< what it means and its accepted range
  std::vector<std::string> choices;  ///< for enumerated options; empty for numbers
};

/// A parsed spec: the scheme name and every option (defaults filled in by the registry).
class SchemeSpec {
 public:
  /// Split `text` into name and key=value pairs (syntax only; no knowledge of schemes).
  static SchemeSpec parse(const std::string& text);

  const std::string& name() const { return name_; }
  const std::map<std::string, std::string>& options() const { return options_; }
  bool has(const std::string& key) const { return options_.count(key) != 0; }
  /// The raw text of an option. Throws SpecError if absent.
  const std::string& text(const std::string& key) const;
  /// An option read as a number of type Scalar; errors name the option.
  template <class Scalar>
  Scalar number(const std::string& key) const {
    return parse_number<Scalar>(text(key), name_ + ":" + key);
  }
  void set(const std::string& key, const std::string& value) { options_[key] = value; }
  /// "name:key=value,..." with options in key order (the canonical form).
  std::string str() const;

 private:
  std::string name_;
  std::map<std::string, std::string> options_;
};

/// Throw SpecError naming `spec:key` unless lo <= value <= hi (each bound optional via nullptr).
template <class Scalar>
void require_in_range(const SchemeSpec& spec, const std::string& key, const Scalar& value,
                      const Scalar* lo, const Scalar* hi, const std::string& range_text);

struct SchemeEntry {
  std::string name;
  std::string summary;  ///< one line for `nsh list schemes`
  std::vector<SchemeOption> options;
  std::function<std::unique_ptr<Scheme<double>>(const SchemeSpec&)> make_double;
  std::function<std::unique_ptr<Scheme<Real50>>(const SchemeSpec&)> make_real50;
  /// Empty if the scheme is not exact in rational arithmetic (needs sqrt, exp, iteration).
  std::function<std::unique_ptr<Scheme<Rational>>(const SchemeSpec&)> make_rational;
  bool is_mutant{false};  ///< deliberately broken; listed by `nsh list mutants`
};

/// Build the three factories of an entry from a class template SchemeT<Scalar> that has a
/// constructor SchemeT<Scalar>(const SchemeSpec&).
template <template <class> class SchemeT>
void set_factories(SchemeEntry& entry, bool rational) {
  entry.make_double = [](const SchemeSpec& s) { return std::make_unique<SchemeT<double>>(s); };
  entry.make_real50 = [](const SchemeSpec& s) { return std::make_unique<SchemeT<Real50>>(s); };
  if (rational)
    entry.make_rational = [](const SchemeSpec& s) {
      return std::make_unique<SchemeT<Rational>>(s);
    };
}

class Registry {
 public:
  /// The registry with every built-in scheme and mutant (built once, on first use).
  static Registry& builtin();

  /// Add an entry. Throws std::logic_error on a duplicate name.
  void add(SchemeEntry entry);
  /// The entry for `name`; SpecError listing every known name if there is none.
  const SchemeEntry& find(const std::string& name) const;
  bool contains(const std::string& name) const;
  /// Names in registration order; mutants only if asked.
  std::vector<std::string> names(bool mutants = false) const;

  /// Parse `text`, check every option against the entry (unknown key: SpecError listing the
  /// accepted ones; bad choice: SpecError listing the choices) and fill in the defaults.
  SchemeSpec resolve(const std::string& text) const;

  /// Resolve the spec and build the scheme for Scalar. SpecError if the scheme has no
  /// rational version and Scalar is Rational.
  template <class Scalar>
  std::unique_ptr<Scheme<Scalar>> make(const std::string& text) const;

 private:
  std::vector<SchemeEntry> entries_;
};

/// Registers the built-in schemes; each scheme's .cpp provides one `register_*` function and
/// builtin_schemes.cpp calls them all.
void register_builtin_schemes(Registry& registry);

}  // namespace nsh
