// GiNaC expression trees to straight-line Program code (nsh/formula/program.hpp).
#include "symbolic.hpp"

#include <nsh/error.hpp>

#include <map>
#include <stdexcept>

namespace nsh::formula::detail {
namespace {

const std::map<std::string, Operation>& function_operations() {
  static const std::map<std::string, Operation> table = {
      {"sin", Operation::sin},   {"cos", Operation::cos},   {"tan", Operation::tan},
      {"asin", Operation::asin}, {"acos", Operation::acos}, {"atan", Operation::atan},
      {"sinh", Operation::sinh}, {"cosh", Operation::cosh}, {"tanh", Operation::tanh},
      {"exp", Operation::exp},   {"log", Operation::log}};
  return table;
}

bool negative_numeric(const GiNaC::ex& e) {
  return GiNaC::is_a<GiNaC::numeric>(e) && GiNaC::ex_to<GiNaC::numeric>(e).is_negative();
}

// A term of a sum written with a minus sign: a negative number, or a product whose numeric
// coefficient (GiNaC keeps it last) is negative.
bool negative_term(const GiNaC::ex& term) {
  if (negative_numeric(term)) return true;
  return GiNaC::is_a<GiNaC::mul>(term) && negative_numeric(term.op(term.nops() - 1));
}

class Compiler {
 public:
  explicit Compiler(const Symbols& symbols) : symbols_(symbols) {
    code_.inputs = static_cast<int>(1 + 2 * symbols.dofs());
  }

  void output(const GiNaC::ex& e, const std::string& field) {
    field_ = field;
    code_.outputs.push_back(node(e));
    code_.output_fields.push_back(field);
  }

  ProgramCode finish() { return std::move(code_); }

 private:
  int emit(Operation operation, int a = -1, int b = -1, long exponent = 0) {
    code_.instructions.push_back(Instruction{operation, a, b, exponent});
    return static_cast<int>(code_.instructions.size()) - 1;
  }

  int constant_slot(const std::string& text) {
    const auto it = constant_slots_.find(text);
    if (it != constant_slots_.end()) return it->second;
    code_.constants.push_back(text);
    const int slot = emit(Operation::constant, static_cast<int>(code_.constants.size()) - 1);
    constant_slots_[text] = slot;
    return slot;
  }

  // x^n for an integer n != 0: exact in Rational; 1 / x^|n| for n < 0.
  int integer_power(int base, long n) {
    const long magnitude = n < 0 ? -n : n;
    const int power = magnitude == 1 ? base : emit(Operation::integer_power, base, -1, magnitude);
    return n < 0 ? emit(Operation::divide, constant_slot("1"), power) : power;
  }

  int product(const std::vector<GiNaC::ex>& factors) {
    int slot = -1;
    for (const auto& f : factors) {
      const int s = node(f);
      slot = slot < 0 ? s : emit(Operation::multiply, slot, s);
    }
    return slot < 0 ? constant_slot("1") : slot;
  }

  int node(const GiNaC::ex& e) {
    const auto cached = cache_.find(e);
    if (cached != cache_.end()) return cached->second;
    const int slot = build(e);
    cache_.emplace(e, slot);
    return slot;
  }

  int build(const GiNaC::ex& e) {
    using namespace GiNaC;
    if (is_a<numeric>(e)) {
      const numeric& x = ex_to<numeric>(e);
      if (!x.is_rational()) throw InputError(field_, "cannot evaluate the number " + to_text(e));
      if (x.is_negative()) return emit(Operation::negate, node(-e));
      return x.is_integer() ? constant_slot(to_text(e))
                            : emit(Operation::divide, constant_slot(to_text(x.numer())),
                                   constant_slot(to_text(x.denom())));
    }
    if (is_a<symbol>(e)) {
      const int input = symbols_.input_of(ex_to<symbol>(e).get_name());
      if (input < 0) throw std::logic_error("formula compile: unchecked symbol " + to_text(e));
      return emit(Operation::input, input);
    }
    if (is_a<GiNaC::constant>(e)) {
      if (!e.is_equal(Pi)) throw InputError(field_, "cannot evaluate the constant " + to_text(e));
      return emit(Operation::pi);
    }
    if (is_a<add>(e)) {
      int sum = -1;
      for (std::size_t i = 0; i < e.nops(); ++i) {
        const ex term = e.op(i);
        if (negative_term(term)) {
          const int s = node(-term);
          sum = sum < 0 ? emit(Operation::negate, s) : emit(Operation::subtract, sum, s);
        } else {
          const int s = node(term);
          sum = sum < 0 ? s : emit(Operation::add, sum, s);
        }
      }
      return sum;
    }
    if (is_a<mul>(e)) {
      // One division for all the factors with negative integer powers and the coefficient's
      // denominator: x*y/(3*z^2) rather than x*y*(1/3)*z^(-2), so 1/3 is never rounded alone.
      std::vector<ex> numerator, denominator;
      bool negative = false;
      for (std::size_t i = 0; i < e.nops(); ++i) {
        const ex f = e.op(i);
        if (is_a<numeric>(f)) {
          numeric c = ex_to<numeric>(f);
          if (!c.is_rational())
            throw InputError(field_, "cannot evaluate the number " + to_text(f));
          if (c.is_negative()) {
            negative = true;
            c = -c;
          }
          if (c.numer() != 1) numerator.push_back(c.numer());
          if (c.denom() != 1) denominator.push_back(c.denom());
        } else if (is_a<power>(f) && is_a<numeric>(f.op(1)) &&
                   ex_to<numeric>(f.op(1)).is_integer() && ex_to<numeric>(f.op(1)).is_negative()) {
          denominator.push_back(pow(f.op(0), -f.op(1)));
        } else {
          numerator.push_back(f);
        }
      }
      int slot = product(numerator);
      if (!denominator.empty()) slot = emit(Operation::divide, slot, product(denominator));
      return negative ? emit(Operation::negate, slot) : slot;
    }
    if (is_a<power>(e)) {
      const ex base = e.op(0), exponent = e.op(1);
      if (is_a<numeric>(exponent)) {
        const numeric& p = ex_to<numeric>(exponent);
        if (p.is_integer()) return integer_power(node(base), p.to_long());
        if (p.is_rational() && p.denom() == 2) {
          // x^(k/2) = sqrt(x)^k: the root correctly rounded, then an exact-order power.
          return integer_power(emit(Operation::sqrt, node(base)), p.numer().to_long());
        }
      }
      return emit(Operation::power, node(base), node(exponent));
    }
    if (is_a<function>(e)) {
      const std::string name = ex_to<function>(e).get_name();
      const auto it = function_operations().find(name);
      if (it == function_operations().end() || e.nops() != 1)
        throw InputError(field_, "cannot evaluate the function " + to_text(e));
      return emit(it->second, node(e.op(0)));
    }
    throw InputError(field_, "cannot evaluate '" + to_text(e) + "'");
  }

  const Symbols& symbols_;
  ProgramCode code_;
  std::map<GiNaC::ex, int, GiNaC::ex_is_less> cache_;
  std::map<std::string, int> constant_slots_;
  std::string field_;
};

}  // namespace

ProgramCode compile(const std::vector<GiNaC::ex>& expressions,
                    const std::vector<std::string>& fields, const Symbols& symbols) {
  Compiler compiler(symbols);
  for (std::size_t k = 0; k < expressions.size(); ++k) compiler.output(expressions[k], fields[k]);
  return compiler.finish();
}

}  // namespace nsh::formula::detail
