#include <nsh/error.hpp>
#include <nsh/formula/program.hpp>
#include <nsh/number.hpp>

#include <boost/math/constants/constants.hpp>

#include <cmath>
#include <utility>

namespace nsh::formula {
namespace {

bool exact_operation(Operation op) {
  switch (op) {
    case Operation::constant:
    case Operation::input:
    case Operation::add:
    case Operation::subtract:
    case Operation::multiply:
    case Operation::divide:
    case Operation::negate:
    case Operation::integer_power:
      return true;
    default:
      return false;
  }
}

template <class Scalar>
Scalar integer_power(Scalar base, long exponent) {
  Scalar result(1);
  while (exponent > 0) {
    if (exponent & 1) result *= base;
    exponent >>= 1;
    if (exponent > 0) base *= base;
  }
  return result;
}

}  // namespace

bool ProgramCode::is_rational() const {
  for (const auto& instruction : instructions)
    if (!exact_operation(instruction.operation)) return false;
  return true;
}

bool ProgramCode::reads_inputs() const {
  for (const auto& instruction : instructions)
    if (instruction.operation == Operation::input) return true;
  return false;
}

template <class Scalar>
Program<Scalar>::Program(ProgramCode code) : code_(std::move(code)) {
  if constexpr (is_exact_v<Scalar>) {
    if (!code_.is_rational())
      throw InputError(code_.output_fields.empty() ? "formula" : code_.output_fields.front(),
                       "needs pi, a root, a non-integer power or a transcendental function, "
                       "which exact rational arithmetic cannot evaluate; use --precision double "
                       "or 50");
  }
  constants_.reserve(code_.constants.size());
  for (const auto& text : code_.constants) constants_.push_back(parse_number<Scalar>(text, text));
}

template <class Scalar>
EvaluationFailure Program<Scalar>::evaluate(const Scalar* inputs, Scalar* outputs) const {
  using std::acos, std::asin, std::atan, std::cos, std::cosh, std::exp, std::log, std::pow,
      std::sin, std::sinh, std::sqrt, std::tan, std::tanh;
  const std::size_t size = code_.instructions.size();
  std::vector<Scalar> slot(size);
  // poisoned[k]: slot k is not a real number (its value is meaningless).
  std::vector<unsigned char> poisoned(size, 0);
  std::string reason;
  const auto poison = [&](std::size_t k, const char* why) {
    poisoned[k] = 1;
    slot[k] = Scalar(0);
    if (reason.empty()) reason = why;
  };
  for (std::size_t k = 0; k < size; ++k) {
    const Instruction& in = code_.instructions[k];
    // constant and input read a table, not a slot; pi reads nothing.
    const bool reads_slots = in.operation != Operation::constant &&
                             in.operation != Operation::input && in.operation != Operation::pi;
    if (reads_slots && (poisoned[in.a] || (in.b >= 0 && poisoned[in.b]))) {
      poisoned[k] = 1;
      continue;
    }
    const Scalar& a = reads_slots ? slot[in.a] : slot[k];
    const Scalar& b = reads_slots && in.b >= 0 ? slot[in.b] : slot[k];
    Scalar& out = slot[k];
    switch (in.operation) {
      case Operation::constant:
        out = constants_[in.a];
        break;
      case Operation::input:
        out = inputs[in.a];
        break;
      case Operation::pi:
        if constexpr (!is_exact_v<Scalar>) out = boost::math::constants::pi<Scalar>();
        break;
      case Operation::add:
        out = a + b;
        break;
      case Operation::subtract:
        out = a - b;
        break;
      case Operation::multiply:
        out = a * b;
        break;
      case Operation::divide:
        if (b == Scalar(0)) {
          poison(k, "division by zero");
          continue;
        }
        out = a / b;
        break;
      case Operation::negate:
        out = -a;
        break;
      case Operation::integer_power:
        out = integer_power<Scalar>(a, in.exponent);
        break;
      default:
        if constexpr (is_exact_v<Scalar>) {
          // The constructor refused such code.
          poison(k, "an operation that is not rational");
          continue;
        } else {
          switch (in.operation) {
            case Operation::sqrt:
              if (a < Scalar(0)) {
                poison(k, "square root of a negative number");
                continue;
              }
              out = sqrt(a);
              break;
            case Operation::power:
              if (!(a > Scalar(0))) {
                poison(k, "non-integer power of a number <= 0");
                continue;
              }
              out = pow(a, b);
              break;
            case Operation::sin:
              out = sin(a);
              break;
            case Operation::cos:
              out = cos(a);
              break;
            case Operation::tan:
              out = tan(a);
              break;
            case Operation::asin:
            case Operation::acos:
              if (a < Scalar(-1) || a > Scalar(1)) {
                poison(k, "asin or acos of a number outside [-1, 1]");
                continue;
              }
              out = in.operation == Operation::asin ? Scalar(asin(a)) : Scalar(acos(a));
              break;
            case Operation::atan:
              out = atan(a);
              break;
            case Operation::sinh:
              out = sinh(a);
              break;
            case Operation::cosh:
              out = cosh(a);
              break;
            case Operation::tanh:
              out = tanh(a);
              break;
            case Operation::exp:
              out = exp(a);
              break;
            case Operation::log:
              if (!(a > Scalar(0))) {
                poison(k, "log of a number <= 0");
                continue;
              }
              out = log(a);
              break;
            default:
              break;
          }
        }
    }
    if (!is_finite(out)) poison(k, "overflow to a non-finite number");
  }
  EvaluationFailure failure;
  for (std::size_t j = 0; j < code_.outputs.size(); ++j) {
    const int s = code_.outputs[j];
    outputs[j] = slot[s];
    if (poisoned[s] && failure.output < 0) {
      failure.output = static_cast<int>(j);
      failure.reason = reason.empty() ? "a value that is not a real number" : reason;
    }
  }
  return failure;
}

#define NSH_INSTANTIATE(Scalar) template class Program<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh::formula
