// The non-template parts of the options visitors (nsh/scheme_options.hpp): range texts and the
// errors that name an option and its value.
#include <nsh/friction/solver.hpp>
#include <nsh/scheme_options.hpp>

namespace nsh {
namespace {

OptionRange interval_range(const Rational& lo, const Rational& hi, bool lo_open, bool hi_open) {
  OptionRange range;
  range.lo = lo;
  range.hi = hi;
  range.lo_open = lo_open;
  range.hi_open = hi_open;
  range.text = std::string("a number in ") + (lo_open ? "(" : "[") + format_scalar(lo) + ", " +
               format_scalar(hi) + (hi_open ? ")" : "]");
  return range;
}

}  // namespace

OptionRange closed_range(const Rational& lo, const Rational& hi) {
  return interval_range(lo, hi, false, false);
}

OptionRange closed_open_range(const Rational& lo, const Rational& hi) {
  return interval_range(lo, hi, false, true);
}

OptionRange open_closed_range(const Rational& lo, const Rational& hi) {
  return interval_range(lo, hi, true, false);
}

OptionRange at_least(const Rational& lo, std::string text) {
  OptionRange range;
  range.lo = lo;
  range.text = std::move(text);
  return range;
}

OptionRange above(const Rational& lo, std::string text) {
  OptionRange range = at_least(lo, std::move(text));
  range.lo_open = true;
  return range;
}

void require_exact_lcp_method(const std::string& scheme, LcpMethod method) {
  if (method != LcpMethod::lemke && method != LcpMethod::enumeration)
    throw SpecError(scheme + ":lcp",
                    std::string("'") + to_string(method) +
                        "' iterates or needs sqrt and cannot run in rational arithmetic; "
                        "accepted with --precision rational: lemke, enumeration");
}

const char* to_string(TimeStepping stepping) {
  return stepping == TimeStepping::explicit_method ? "explicit" : "implicit";
}

OptionRange as_written(OptionRange range) {
  range.as_written = true;
  return range;
}

void require_exact_friction_method(const std::string& scheme,
                                   const std::optional<FrictionMethod>& method) {
  if (method && *method != FrictionMethod::lemke)
    throw SpecError(scheme + ":friction",
                    std::string("'") + to_string(*method) +
                        "' iterates and cannot run in rational arithmetic; accepted with "
                        "--precision rational: lemke (d = 1)");
}

namespace scheme_options_detail {

void throw_out_of_range(const std::string& field, const std::string& text,
                        const OptionRange& range) {
  throw SpecError(field, "value " + text + " " + range.violation + "; accepted: " + range.text);
}

Rational read_exact(const std::string& field, const std::string& text, const OptionRange& range) {
  try {
    return parse_rational(text, field);
  } catch (const SpecError&) {
    throw;
  } catch (const InputError& error) {
    // A malformed number in a spec is a spec error (the reader's message, naming the option).
    std::string message = error.what();
    const std::string prefix = error.field() + ": ";
    if (message.rfind(prefix, 0) == 0) message = message.substr(prefix.size());
    throw SpecError(field, message + "; accepted: " + range.text);
  }
}

bool in_range(const Rational& x, const OptionRange& range) {
  if (range.lo && (x < *range.lo || (range.lo_open && x == *range.lo))) return false;
  if (range.hi && (x > *range.hi || (range.hi_open && x == *range.hi))) return false;
  return true;
}

}  // namespace scheme_options_detail
}  // namespace nsh
