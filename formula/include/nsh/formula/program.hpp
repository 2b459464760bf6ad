#pragma once
// A compiled formula: the expression trees of a case file's formulas and of their derivatives
// (nsh/formula/lagrangian_case.hpp) flattened into straight-line code evaluated in any Scalar.
// GiNaC builds and differentiates the trees once at load time; evaluation needs no GiNaC and
// no strings: each instruction reads earlier slots and writes its own, and subexpressions
// shared between outputs (sin(phi) in a gap and in its gradient) are computed once. Why this
// rather than GiNaC's evalf: docs/nonlinear-models.md, "Evaluation".

#include <nsh/scalar.hpp>

#include <string>
#include <vector>

namespace nsh::formula {

/// One operation. Unary operations read slot a; binary ones a and b.
enum class Operation {
  constant,  ///< constants[a]
  input,     ///< inputs[a]
  pi,        ///< the constant pi (not in Rational)
  add,
  subtract,
  multiply,
  divide,
  negate,
  integer_power,  ///< slot a to the integer power `exponent` >= 2
  sqrt,
  power,  ///< slot a to the real power slot b (a > 0)
  sin,
  cos,
  tan,
  asin,
  acos,
  atan,
  sinh,
  cosh,
  tanh,
  exp,
  log,
};

struct Instruction {
  Operation operation{Operation::constant};
  int a{-1};
  int b{-1};
  long exponent{0};
};

/// Scalar-independent code: constants as exact text ("981/100"), read into each Scalar by
/// nsh::parse_number.
struct ProgramCode {
  std::vector<std::string> constants;
  std::vector<Instruction> instructions;   ///< slot k is written by instruction k
  std::vector<int> outputs;                ///< the slot of each output
  std::vector<std::string> output_fields;  ///< the case-file field each output derives from
  int inputs{0};

  /// True if every operation is exact in Rational (no pi, roots, powers or functions).
  bool is_rational() const;
  /// True if some instruction reads an input (t, q or v): false means every output is a
  /// constant, which is how a model tells that its force Jacobian or f_ext does not vary.
  bool reads_inputs() const;
};

/// Where an evaluation first left the real numbers, if it did.
struct EvaluationFailure {
  int output{-1};      ///< the first output that depends on it, -1 if none failed
  std::string reason;  ///< "division by zero", "log of a number <= 0", ...
};

template <class Scalar>
class Program {
 public:
  Program() = default;
  /// Reads the constants into Scalar; Rational refuses code that is not rational (InputError
  /// naming the first output's field).
  explicit Program(ProgramCode code);

  int input_count() const { return code_.inputs; }
  int output_count() const { return static_cast<int>(code_.outputs.size()); }
  const std::string& output_field(int k) const { return code_.output_fields[k]; }
  const ProgramCode& code() const { return code_; }

  /// outputs[k] = value of output k at `inputs` (input_count() entries). A division by zero,
  /// a root or log of a negative number, or any non-finite intermediate poisons the slots that
  /// depend on it; the first poisoned output is returned (its value is then meaningless).
  EvaluationFailure evaluate(const Scalar* inputs, Scalar* outputs) const;

 private:
  ProgramCode code_;
  std::vector<Scalar> constants_;
};

}  // namespace nsh::formula
