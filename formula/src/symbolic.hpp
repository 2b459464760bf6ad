#pragma once
// Internal to the formula module: formulas read into GiNaC expressions with checks that name the
// case-file field (parse.cpp), and GiNaC expressions compiled to a Program's code (compile.cpp).
// GiNaC stays out of the public headers: users of nsh::formula need neither its headers nor its
// types.
#include <nsh/scalar.hpp>

#include <nsh/formula/program.hpp>

#include <ginac/ginac.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace nsh::formula::detail {

/// What a formula may depend on.
enum class Depends {
  coordinates,                  ///< q: M entries, potential, gaps, tangents
  coordinates_velocities,       ///< q, v: kinetic energy
  time_coordinates_velocities,  ///< t, q, v: forces
};

/// The names a case file's formulas may use and the GiNaC objects behind them. Parameters are
/// exact rational numbers substituted at parse time; coordinates, velocities and time are real
/// symbols. Program inputs are laid out as (t, q_0..q_{n-1}, v_0..v_{n-1}).
class Symbols {
 public:
  /// Checks every name (an identifier, unique, not reserved): InputError naming
  /// "coordinates[i]", "velocities[i]" or "parameters.<name>".
  Symbols(std::vector<std::string> coordinates, std::vector<std::string> velocities,
          const std::vector<std::pair<std::string, Rational>>& parameters);

  Index dofs() const { return static_cast<Index>(q_.size()); }
  const GiNaC::realsymbol& t() const { return t_; }
  const GiNaC::realsymbol& q(Index i) const { return q_[i]; }
  const GiNaC::realsymbol& v(Index i) const { return v_[i]; }
  const std::vector<std::string>& coordinate_names() const { return coordinates_; }
  const std::vector<std::string>& velocity_names() const { return velocities_; }
  /// Input slot of a symbol's name (t = 0, q_i = 1 + i, v_i = 1 + n + i), -1 if none.
  int input_of(const std::string& name) const;

  /// Parse one formula (a string, or a number's text) and check it: InputError naming `field`
  /// for malformed text, an unknown symbol (listing the known ones), a symbol of the wrong kind
  /// (a velocity in a gap), an unsupported function or a complex number.
  GiNaC::ex parse(const nlohmann::json& node, const std::string& field, Depends depends) const;

 private:
  std::string known_names(Depends depends) const;

  std::vector<std::string> coordinates_, velocities_, parameters_;
  GiNaC::realsymbol t_;
  std::vector<GiNaC::realsymbol> q_, v_;
  GiNaC::symtab table_;
};

/// Decimal literals in `text` replaced by exact fractions ("9.81" -> "(981/100)"), since
/// GiNaC's reader would round them to floating point. InputError naming `field` on a malformed
/// number.
std::string exact_literals(const std::string& text, const std::string& field);

/// InputError naming `field` if `e` is not a rational function of its symbols (pi, a function,
/// a non-integer power): what --precision rational needs.
void require_rational(const GiNaC::ex& e, const std::string& field);

/// The expressions as one program (shared subexpressions computed once), output k labelled by
/// fields[k].
ProgramCode compile(const std::vector<GiNaC::ex>& expressions,
                    const std::vector<std::string>& fields, const Symbols& symbols);

/// GiNaC's printed form, for messages and derived_formulas().
std::string to_text(const GiNaC::ex& e);

}  // namespace nsh::formula::detail
