#pragma once
// Schemes by name, with typed options parsed from a spec string:
//
//   spec   := name [ ":" option ( "," option )* ]
//   option := key "=" value
//   name   := "moreau-jean" | "newmark" | ... | "mutant:" mutant-name | "siconos:" integrator
//
// e.g. "moreau-jean:theta=1/2,activation=position", "gen-alpha:rho=0.8", "mutant:wrong-sign".
// Values are read like case-file numbers ("0.1" and "1/10" are exactly 1/10 in Rational).
// An unknown name or option, or a value outside its range, throws SpecError listing what is
// accepted.

#include <nsh/number.hpp>
#include <nsh/schemes/scheme.hpp>

#include <any>
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
  /// The spec of `name` with these options (the canonical form of a scheme's options).
  static SchemeSpec from(std::string name, std::map<std::string, std::string> options);

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

template <class Scalar>
using SchemeFactory = std::function<std::unique_ptr<Scheme<Scalar>>(const SchemeSpec&)>;

struct SchemeEntry {
  std::string name;
  std::string summary;  ///< one line for `nsh list schemes`
  std::vector<SchemeOption> options;
  /// One factory per scalar (make.get<double>(), ...). An empty one: the scheme has no version
  /// in that scalar (Rational: it needs sqrt, exp or iteration); Registry::make says so.
  PerScalar<SchemeFactory> make;
  /// The implementation that steps sparse models natively, when it is another class than the
  /// dense one (moreau-jean: SparseMoreauJean). Empty: the scheme itself steps sparse models
  /// if its accepts_sparse() says so (event-driven), otherwise callers step the dense copy.
  PerScalar<SchemeFactory> make_sparse;
  /// A test instrument (deliberately broken, registered by the property module,
  /// nsh/properties/mutants.hpp): listed by `nsh list mutants`, not among the schemes.
  bool is_mutant{false};
  /// False for an adapter of an integrator nsh did not write (siconos:*, docs/siconos.md): it
  /// is listed and checked by name, but `--scheme all`, the report's default schemes and the
  /// built-in stamp leave it out, so that nsh's own verdicts never depend on another tool.
  bool in_all{true};
  /// What the scheme claims: a nsh::properties::ClaimFunction, type-erased here because core
  /// does not depend on the property suite (nsh/properties/claims.hpp sets and reads it). A
  /// scheme's claims are found from the spec it reports (SchemeInfo::spec) through this entry,
  /// never through a free-text family name, so a claim cannot silently miss its scheme.
  std::any claims;
  /// The parameter points where the claims differ ("moreau-jean:theta=1/2", ...): what
  /// `nsh check --scheme all`, the report and the built-in stamp test run. Empty: the name.
  std::vector<std::string> representatives;
};

/// The Scalar factory of an entry (SchemeEntry, FirstOrderSchemeEntry) from a class template
/// SchemeT<Scalar> that has a constructor SchemeT<Scalar>(const SchemeSpec&).
template <template <class> class SchemeT, class Scalar, class Entry>
void set_factory(Entry& entry) {
  entry.make.template get<Scalar>() = [](const SchemeSpec& s) {
    return std::make_unique<SchemeT<Scalar>>(s);
  };
}

/// The factories of an entry for the listed scalars (set_factories<S>(entry, InexactScalars{})
/// for a scheme that needs sqrt, exp or iteration: SchemeT<Rational> is then never named).
template <template <class> class SchemeT, class Entry, class... Scalars>
void set_factories(Entry& entry, ScalarList<Scalars...>) {
  (set_factory<SchemeT, Scalars>(entry), ...);
}

/// The factories of an entry for every scalar (AllScalars).
template <template <class> class SchemeT, class Entry>
void set_factories(Entry& entry) {
  set_factories<SchemeT>(entry, AllScalars{});
}

/// The sparse-model factories of an entry (SchemeEntry::make_sparse) for the listed scalars
/// (sparse models exist in double and Real50: InexactScalars).
template <template <class> class SchemeT, class Entry, class... Scalars>
void set_sparse_factories(Entry& entry, ScalarList<Scalars...>) {
  ((entry.make_sparse.template get<Scalars>() =
        [](const SchemeSpec& s) { return std::make_unique<SchemeT<Scalars>>(s); }),
   ...);
}

class Registry {
 public:
  /// The registry with every built-in scheme (built once, on first use); the property module
  /// adds the mutants (nsh::properties::register_builtin_mutants) and users their schemes.
  static Registry& builtin();

  /// Add an entry. Throws SpecError naming the scheme on a duplicate name (a second scheme
  /// under a taken name would silently test the first one).
  void add(SchemeEntry entry);
  /// The entry for `name`; SpecError listing every known name if there is none.
  const SchemeEntry& find(const std::string& name) const;
  SchemeEntry& find(const std::string& name);
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

  /// The scheme for `text` that steps a sparse model natively (make_sparse_* of the entry, or
  /// the scheme itself if it accepts_sparse()), or nullptr if it has none: the caller then
  /// steps the dense copy (nsh::to_dense).
  template <class Scalar>
  std::unique_ptr<Scheme<Scalar>> make_sparse(const std::string& text) const;

  /// The entry's representative specs (its name if it lists none).
  std::vector<std::string> representatives(const std::string& name) const;

 private:
  std::vector<SchemeEntry> entries_;
};

/// Registers the built-in schemes; each scheme's .cpp provides one `register_*` function and
/// builtin_schemes.cpp calls them all.
void register_builtin_schemes(Registry& registry);

}  // namespace nsh
