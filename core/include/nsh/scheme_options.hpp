#pragma once
// A scheme's options, declared once, and the check of a parsed spec against them shared by the
// scheme registry (registry.hpp) and the first-order registry (first_order/scheme.hpp), so that
// both reject an unknown option or choice with the same message and fill in defaults the same
// way.
//
// Each scheme writes one options struct with a member per option and a `visit` that lists
// each option once, with its key, member, default text ("" = no default), description and
// range or choices:
//
//   struct MoreauJeanOptions {
//     Rational theta;
//     MoreauJeanActivation activation{};
//     template <class V>
//     void visit(V& v) {
//       v("theta", theta, "1/2", "theta-method parameter, a number in [0, 1]",
//         closed_range(0, 1));
//       v("activation", activation, "position-velocity", "index set: ...",
//         one_of(MoreauJeanActivation::position, MoreauJeanActivation::position_velocity));
//     }
//   };
//
// From that one declaration the visitors below give the registry's option list
// (declared_options), the parse of a spec with the range and choice errors and the defaults
// (parse_options: every member is read from the spec with its defaults filled in, so the
// defaults are the default texts, not the members' initial values), and the canonical spec and
// exact parameters a scheme reports (canonical_spec, option_values). Member types:
//
//   Rational, std::optional<Rational>  exact, whatever the scheme's Scalar: the canonical text
//                                       is the exact value ("0.5" is written "1/2");
//   double, Real50                      read in that precision; the canonical text is the text
//                                       the spec wrote (the value is rounded, the text is what
//                                       was asked for: 1e-9 stays "1e-9"); a Scalar member of a
//                                       Scalar-templated struct declares its range as_written,
//                                       so that it keeps its text in Rational too;
//   an integer type                     an integer in the range;
//   an enum E, std::optional<E>         one of the OptionChoices, named by to_string(E);
//   an optional without a value         no default: absent from the canonical spec, unless its
//                                       range names a keyword that stands for no value.
//
// An options struct may have `void resolve(const std::string& scheme)`: parse_options calls it
// after reading every option, to check options against each other and fill the ones derived
// from others (gen-alpha: the explicit form's default gamma and beta), so that what it reports
// is what the scheme steps with.

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>

#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nsh {

/// Throws SpecError naming `name:key` for an option not in `options` (listing the accepted
/// ones) or a value outside an option's choices (listing them); then sets every omitted option
/// that has a default.
void apply_scheme_options(SchemeSpec& spec, const std::vector<SchemeOption>& options);

/// The Scalar version of a resolved spec from an entry's factories (entry.make, a PerScalar:
/// SchemeEntry, FirstOrderSchemeEntry). SpecError naming the precision if the entry has no
/// version in Scalar.
template <class Scalar, class Entry>
auto make_from_entry(const Entry& entry, const SchemeSpec& spec) {
  const auto& factory = entry.make.template get<Scalar>();
  if (!factory) {
    if constexpr (is_exact_v<Scalar>)
      throw SpecError("precision", "scheme " + spec.name() +
                                       " has no exact rational version (it needs sqrt, exp or "
                                       "iteration); use --precision double or 50");
    else
      throw SpecError("precision", "scheme " + spec.name() + " has no version in --precision " +
                                       ScalarTraits<Scalar>::name);
  }
  return factory(spec);
}

/// The accepted interval of a number option (each bound optional, open or closed) and the text
/// its error quotes: "<scheme>:<key>: value <text> <violation>; accepted: <text>".
struct OptionRange {
  std::optional<Rational> lo, hi;
  bool lo_open{false}, hi_open{false};
  std::string text;                          ///< "a number in [0, 1]", "kappa > 0", ...
  std::string violation{"is out of range"};  ///< what the error says the value does
  /// The canonical text is the text the spec wrote, also for a Rational member: a number in
  /// the scheme's Scalar (kappa=1e4 of a Scalar-templated scheme stays "1e4" in Rational).
  bool as_written{false};
  /// A word accepted instead of a number by an optional member, read as no value and written
  /// back as itself ("r=delassus"); empty: none.
  std::string keyword;
};

/// [lo, hi], [lo, hi), (lo, hi]: the text is "a number in [lo, hi]" with exact bounds.
OptionRange closed_range(const Rational& lo, const Rational& hi);
OptionRange closed_open_range(const Rational& lo, const Rational& hi);
OptionRange open_closed_range(const Rational& lo, const Rational& hi);
/// x >= lo and x > lo, with the accepted text given ("damping >= 0").
OptionRange at_least(const Rational& lo, std::string text);
OptionRange above(const Rational& lo, std::string text);
/// `range` with as_written set: for a member of the scheme's Scalar type.
OptionRange as_written(OptionRange range);

/// The values an enum option accepts, in the order `nsh list schemes` shows them; each is
/// named by to_string(E).
template <class E>
struct OptionChoices {
  std::vector<E> values;
};

template <class E, class... More>
OptionChoices<E> one_of(E first, More... more) {
  return OptionChoices<E>{{first, static_cast<E>(more)...}};
}

/// The one-step LCP solvers a scheme may name (lcp=...), in the order the schemes list them.
inline OptionChoices<LcpMethod> lcp_method_choices() {
  return one_of(LcpMethod::lemke, LcpMethod::enumeration, LcpMethod::pgs,
                LcpMethod::fischer_burmeister, LcpMethod::prox_newton);
}

/// method=explicit|implicit of the penalty schemes (each says which explicit and implicit
/// step it means).
enum class TimeStepping { explicit_method, implicit_method };
const char* to_string(TimeStepping stepping);

/// lcp=... as the impulse-LCP schemes declare it (default lemke, every solver).
template <class V>
void visit_lcp_method(V& v, LcpMethod& lcp) {
  v("lcp", lcp, "lemke",
    "one-step LCP solver; rational arithmetic accepts lemke and enumeration only",
    lcp_method_choices());
}

/// SpecError naming `scheme:lcp` unless `method` runs in rational arithmetic (lemke,
/// enumeration): the others iterate or need sqrt.
void require_exact_lcp_method(const std::string& scheme, LcpMethod method);

enum class FrictionMethod;  // nsh/friction/solver.hpp
/// SpecError naming `scheme:friction` unless `method` is empty or lemke (d = 1), the one
/// friction solver that runs in rational arithmetic.
void require_exact_friction_method(const std::string& scheme,
                                   const std::optional<FrictionMethod>& method);

namespace scheme_options_detail {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {
  using value_type = T;
};

/// SpecError "<field>: value <text> <violation>; accepted: <range>".
[[noreturn]] void throw_out_of_range(const std::string& field, const std::string& text,
                                     const OptionRange& range);
/// Reads `text` exactly; a malformed number is a SpecError naming `field` with the accepted
/// range (the number reader's message, without its field prefix).
Rational read_exact(const std::string& field, const std::string& text, const OptionRange& range);
bool in_range(const Rational& x, const OptionRange& range);

template <class Scalar>
bool scalar_in_range(const Scalar& x, const OptionRange& range) {
  if (range.lo) {
    const Scalar lo = scalar_cast<Scalar>(*range.lo);
    if (x < lo || (range.lo_open && x == lo)) return false;
  }
  if (range.hi) {
    const Scalar hi = scalar_cast<Scalar>(*range.hi);
    if (x > hi || (range.hi_open && x == hi)) return false;
  }
  return true;
}

template <class E>
std::vector<std::string> choice_names(const OptionChoices<E>& choices) {
  std::vector<std::string> names;
  for (const E& value : choices.values) names.push_back(to_string(value));
  return names;
}

/// The registry's option list: key, default text, description, choice names.
struct DeclareVisitor {
  std::vector<SchemeOption> options;

  template <class T, class Constraint>
  void operator()(const std::string& key, T&, const std::string& default_text,
                  const std::string& description, const Constraint& constraint) {
    SchemeOption option{key, default_text, description, {}};
    if constexpr (!std::is_same_v<Constraint, OptionRange>)
      option.choices = choice_names(constraint);
    options.push_back(std::move(option));
  }
};

/// Reads each option from a spec whose defaults are filled in; an option absent from it keeps
/// the struct's value (an optional stays empty).
struct ReadVisitor {
  const SchemeSpec& spec;

  template <class T, class Constraint>
  void operator()(const std::string& key, T& member, const std::string&, const std::string&,
                  const Constraint& constraint) {
    if (!spec.has(key)) return;
    const std::string& text = spec.text(key);
    const std::string field = spec.name() + ":" + key;
    if constexpr (is_optional<T>::value) {
      if constexpr (std::is_same_v<Constraint, OptionRange>) {
        if (!constraint.keyword.empty() && text == constraint.keyword) {
          member.reset();
          return;
        }
      }
      typename is_optional<T>::value_type value{};
      read(field, text, value, constraint);
      member = value;
    } else {
      read(field, text, member, constraint);
    }
  }

  template <class T, class Constraint>
  static void read(const std::string& field, const std::string& text, T& member,
                   const Constraint& constraint) {
    if constexpr (std::is_same_v<Constraint, OptionRange>) {
      static_assert(std::is_same_v<T, Rational> || std::is_floating_point_v<T> ||
                        std::is_same_v<T, Real50> || std::is_integral_v<T>,
                    "a number option is Rational, double, Real50 or an integer");
      const Rational exact = read_exact(field, text, constraint);
      if constexpr (std::is_same_v<T, Rational>) {
        if (!in_range(exact, constraint)) throw_out_of_range(field, text, constraint);
        member = exact;
      } else if constexpr (std::is_integral_v<T>) {
        if (denominator(exact) != 1 || !in_range(exact, constraint))
          throw_out_of_range(field, text, constraint);
        member = numerator(exact).template convert_to<T>();
      } else {
        // Checked in the option's precision, as the scheme steps with it.
        const T value = parse_number<T>(text, field);
        if (!scalar_in_range(value, constraint)) throw_out_of_range(field, text, constraint);
        member = value;
      }
    } else {
      for (const auto& value : constraint.values)
        if (text == to_string(value)) {
          member = value;
          return;
        }
      throw SpecError(field, "'" + text + "' is not accepted; choices: " +
                                 join(choice_names(constraint), ", "));
    }
  }
};

/// The canonical text of each option that has a value.
struct WriteVisitor {
  const SchemeSpec& written;
  std::map<std::string, std::string> values;

  template <class T, class Constraint>
  void operator()(const std::string& key, const T& member, const std::string&, const std::string&,
                  const Constraint& constraint) {
    if constexpr (is_optional<T>::value) {
      if (member) {
        values[key] = text_of(key, *member, constraint);
      } else if constexpr (std::is_same_v<Constraint, OptionRange>) {
        if (!constraint.keyword.empty()) values[key] = constraint.keyword;
      }
    } else {
      values[key] = text_of(key, member, constraint);
    }
  }

  template <class T, class Constraint>
  std::string text_of(const std::string& key, const T& value, const Constraint& constraint) const {
    if constexpr (std::is_enum_v<T>) {
      return to_string(value);
    } else if constexpr (std::is_integral_v<T>) {
      return std::to_string(value);
    } else {
      if (std::is_same_v<T, Rational> && !constraint.as_written) return format_scalar(value);
      return written.has(key) ? written.text(key) : format_scalar(value);
    }
  }
};

template <class Options>
void resolve_if_declared(Options& options, const std::string& scheme) {
  if constexpr (requires { options.resolve(scheme); }) options.resolve(scheme);
}

}  // namespace scheme_options_detail

/// The option list of an options struct, for SchemeEntry::options and `nsh list schemes`.
template <class Options>
std::vector<SchemeOption> declared_options() {
  Options options{};
  scheme_options_detail::DeclareVisitor visitor;
  options.visit(visitor);
  return visitor.options;
}

/// Reads `spec` into an Options: SpecError naming `name:key` for an unknown key or choice (the
/// registry's texts), a malformed number or one outside its range ("value X is out of range;
/// accepted: ..."); omitted options take their declared defaults; then Options::resolve.
template <class Options>
Options parse_options(const SchemeSpec& spec) {
  SchemeSpec resolved = spec;
  Options options{};
  apply_scheme_options(resolved, declared_options<Options>());
  scheme_options_detail::ReadVisitor visitor{resolved};
  options.visit(visitor);
  scheme_options_detail::resolve_if_declared(options, spec.name());
  return options;
}

/// The canonical text of every option that has a value, by key: the exact resolved parameters
/// a scheme reports (SchemeInfo::parameters). A double or Real50 option writes the text
/// `written` gives it (the spec it was parsed from), else its value.
template <class Options>
std::map<std::string, std::string> option_values(const Options& options,
                                                 const SchemeSpec& written = {}) {
  scheme_options_detail::WriteVisitor visitor{written, {}};
  // visit is not const (it also reads); the write visitor only reads the members.
  const_cast<Options&>(options).visit(visitor);
  return std::move(visitor.values);
}

/// "name:key=value,..." with every option that has a value, keys in order (SchemeSpec::str):
/// the canonical spec a scheme reports (SchemeInfo::spec).
template <class Options>
std::string canonical_spec(const std::string& name, const Options& options,
                           const SchemeSpec& written = {}) {
  return SchemeSpec::from(name, option_values(options, written)).str();
}

}  // namespace nsh
