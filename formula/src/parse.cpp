// Reading formulas into GiNaC with errors that name the case-file field.
#include "symbolic.hpp"

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace nsh::formula::detail {
namespace {

// The functions a formula may call: smooth on their domain, differentiated by GiNaC into
// functions of this list and powers, and evaluated by Program in double and Real50.
const std::set<std::string>& supported_functions() {
  static const std::set<std::string> names = {"sin",  "cos",  "tan",  "asin", "acos", "atan",
                                              "sinh", "cosh", "tanh", "exp",  "log"};
  return names;
}

// Names a coordinate, velocity or parameter may not take: time, GiNaC's constants and the
// functions (sqrt is GiNaC's power x^(1/2)).
bool reserved(const std::string& name) {
  static const std::set<std::string> names = {"t", "pi", "Pi", "I", "Euler", "Catalan", "sqrt"};
  return names.count(name) || supported_functions().count(name);
}

bool identifier(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

GiNaC::ex exact_numeric(const Rational& value) {
  const std::string numerator = boost::multiprecision::numerator(value).str();
  const std::string denominator = boost::multiprecision::denominator(value).str();
  return GiNaC::numeric(numerator.c_str()) / GiNaC::numeric(denominator.c_str());
}

// GiNaC's parse errors read "GiNaC: parse error at line 0, column 0: <what>\n[<source line>]":
// keep <what> (its positions are always 0 for a one-line string).
std::string parse_message(const std::string& what) {
  std::string text = what.substr(0, what.find('\n'));
  const std::string marker = "column 0: ";
  const auto at = text.find(marker);
  if (at != std::string::npos) text = text.substr(at + marker.size());
  return text;
}

}  // namespace

std::string exact_literals(const std::string& text, const std::string& field) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const bool starts_number =
        std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])));
    if (!starts_number || (i > 0 && is_identifier_char(text[i - 1]))) {
      // Inside an identifier ("x1") digits are part of the name.
      if (is_identifier_char(c)) {
        while (i < text.size() && is_identifier_char(text[i])) out += text[i++];
      } else {
        out += text[i++];
      }
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i < text.size() && text[i] == '.') {
      ++i;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    }
    // An exponent only when digits follow ("2e-3"); "2e" stays for GiNaC to reject.
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
      std::size_t j = i + 1;
      if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
      if (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) {
        i = j;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      }
    }
    const std::string literal = text.substr(start, i - start);
    out += "(" + parse_rational(literal, field).str() + ")";
  }
  return out;
}

Symbols::Symbols(std::vector<std::string> coordinates, std::vector<std::string> velocities,
                 const std::vector<std::pair<std::string, Rational>>& parameters)
    : coordinates_(std::move(coordinates)), velocities_(std::move(velocities)), t_("t") {
  std::set<std::string> taken;
  const auto claim = [&](const std::string& name, const std::string& field) {
    if (!identifier(name))
      throw InputError(field, "'" + name +
                                  "' is not a name (letters, digits and '_', not starting "
                                  "with a digit)");
    if (reserved(name))
      throw InputError(field, "'" + name + "' is reserved (time t, the constant pi, functions)");
    if (!taken.insert(name).second) throw InputError(field, "'" + name + "' is used twice");
  };
  for (std::size_t i = 0; i < coordinates_.size(); ++i)
    claim(coordinates_[i], "coordinates[" + std::to_string(i) + "]");
  for (std::size_t i = 0; i < velocities_.size(); ++i)
    claim(velocities_[i], "velocities[" + std::to_string(i) + "]");
  for (const auto& [name, value] : parameters) {
    claim(name, "parameters." + name);
    parameters_.push_back(name);
    table_[name] = exact_numeric(value);
  }
  for (const auto& name : coordinates_) {
    q_.emplace_back(name);
    table_[name] = q_.back();
  }
  for (const auto& name : velocities_) {
    v_.emplace_back(name);
    table_[name] = v_.back();
  }
  table_["t"] = t_;
  table_["pi"] = GiNaC::Pi;
  table_["Pi"] = GiNaC::Pi;
}

int Symbols::input_of(const std::string& name) const {
  if (name == "t") return 0;
  const Index n = dofs();
  for (Index i = 0; i < n; ++i) {
    if (coordinates_[i] == name) return static_cast<int>(1 + i);
    if (velocities_[i] == name) return static_cast<int>(1 + n + i);
  }
  return -1;
}

std::string Symbols::known_names(Depends depends) const {
  std::string out = "coordinates are " + join(coordinates_);
  if (depends != Depends::coordinates) out += "; velocities are " + join(velocities_);
  if (depends == Depends::time_coordinates_velocities) out += "; time is t";
  if (!parameters_.empty()) out += "; parameters are " + join(parameters_);
  return out;
}

GiNaC::ex Symbols::parse(const nlohmann::json& node, const std::string& field,
                         Depends depends) const {
  std::string text;
  if (node.is_string()) {
    text = node.get<std::string>();
  } else if (node.is_number()) {
    text = node.dump();
  } else {
    throw InputError(field, "expected a formula (a string such as \"m*g*y\") or a number, got " +
                                std::string(node.type_name()) + " " + node.dump());
  }
  const std::string exact = exact_literals(text, field);
  GiNaC::ex e;
  try {
    GiNaC::parser reader(table_);
    e = reader(exact);
  } catch (const std::exception& error) {
    throw InputError(field, "malformed formula '" + text + "': " + parse_message(error.what()));
  }
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    const GiNaC::ex& part = *it;
    if (GiNaC::is_a<GiNaC::symbol>(part)) {
      const std::string name = GiNaC::ex_to<GiNaC::symbol>(part).get_name();
      const int input = input_of(name);
      const Index n = dofs();
      if (input < 0)
        throw InputError(field, "unknown symbol '" + name + "' (" + known_names(depends) + ")");
      if (input == 0 && depends != Depends::time_coordinates_velocities)
        throw InputError(
            field, "depends on the time 't', but this formula is a function of the " +
                       std::string(depends == Depends::coordinates ? "coordinates"
                                                                   : "coordinates and velocities") +
                       " only");
      if (input > n && depends == Depends::coordinates)
        throw InputError(field, "depends on the velocity '" + name +
                                    "', but this formula is a function of the coordinates "
                                    "only (" +
                                    known_names(depends) + ")");
    } else if (GiNaC::is_a<GiNaC::function>(part)) {
      const std::string name = GiNaC::ex_to<GiNaC::function>(part).get_name();
      if (!supported_functions().count(name)) {
        std::string list;
        for (const auto& f : supported_functions()) list += (list.empty() ? "" : ", ") + f;
        throw InputError(field, "function '" + name + "' in '" + text +
                                    "' is not supported (supported: " + list + ", sqrt)");
      }
    } else if (GiNaC::is_a<GiNaC::constant>(part)) {
      if (!part.is_equal(GiNaC::Pi))
        throw InputError(
            field, "constant '" + to_text(part) + "' in '" + text + "' is not supported (only pi)");
    } else if (GiNaC::is_a<GiNaC::numeric>(part)) {
      if (!GiNaC::ex_to<GiNaC::numeric>(part).is_real())
        throw InputError(field, "'" + text + "' has a complex number; formulas are real");
    }
  }
  return e;
}

void require_rational(const GiNaC::ex& e, const std::string& field) {
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    const GiNaC::ex& part = *it;
    std::string what;
    if (GiNaC::is_a<GiNaC::function>(part)) {
      what = GiNaC::ex_to<GiNaC::function>(part).get_name();
    } else if (GiNaC::is_a<GiNaC::constant>(part)) {
      what = "pi";
    } else if (GiNaC::is_a<GiNaC::power>(part)) {
      const GiNaC::ex exponent = part.op(1);
      if (!GiNaC::is_a<GiNaC::numeric>(exponent) ||
          !GiNaC::ex_to<GiNaC::numeric>(exponent).is_integer())
        what = "the power " + to_text(part);
    } else if (GiNaC::is_a<GiNaC::numeric>(part) &&
               !GiNaC::ex_to<GiNaC::numeric>(part).is_rational()) {
      what = "the number " + to_text(part);
    }
    if (!what.empty())
      throw InputError(field, "uses " + what +
                                  ", which exact rational arithmetic cannot evaluate: "
                                  "--precision rational needs rational formulas (+, -, *, /, "
                                  "integer powers); use double or 50");
  }
}

std::string to_text(const GiNaC::ex& e) {
  std::ostringstream out;
  out << e;
  return out.str();
}

}  // namespace nsh::formula::detail
