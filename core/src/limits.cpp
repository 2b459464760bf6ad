// The resource limits of nsh/limits.hpp and the errors they give (docs/limits.md).
#include <nsh/error.hpp>
#include <nsh/limits.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>

namespace nsh::limits {

std::uintmax_t input_file_bytes_limit() {
  const char* text = std::getenv("NSH_MAX_INPUT_BYTES");
  if (!text || !*text) return max_input_file_bytes;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0' || value == 0 || text[0] == '-')
    throw InputError("NSH_MAX_INPUT_BYTES",
                     fmt::format("expected a positive number of bytes, got '{}'", text));
  return value;
}

void check_file_size(std::uintmax_t bytes, const std::string& path, const std::string& field) {
  const std::uintmax_t limit = input_file_bytes_limit();
  if (bytes > limit)
    throw InputError(field, fmt::format("'{}' has {} bytes; nsh reads files of at most {} bytes "
                                        "(NSH_MAX_INPUT_BYTES raises it; docs/limits.md)",
                                        path, bytes, limit));
}

void check_json_depth(std::size_t depth, const std::string& source) {
  if (depth > max_json_depth)
    throw InputError(source, fmt::format("JSON nested deeper than {} levels (arrays and objects "
                                         "inside each other); no nsh file needs more "
                                         "(docs/limits.md)",
                                         max_json_depth));
}

void check_number_digits(std::size_t digits, const std::string& field, const std::string& text) {
  if (digits > max_number_digits)
    throw InputError(field, fmt::format("a number with {} digits ('{}...'); at most {} digits are "
                                        "read (docs/limits.md)",
                                        digits, text.substr(0, 20), max_number_digits));
}

void check_number_exponent(long long exponent, const std::string& field, const std::string& text) {
  if (exponent > max_number_exponent || exponent < -max_number_exponent)
    throw InputError(field, fmt::format("'{}' has a decimal exponent beyond +-{} (docs/limits.md)",
                                        text.size() > 40 ? text.substr(0, 40) + "..." : text,
                                        max_number_exponent));
}

void check_dense_dofs(Index dofs, const std::string& scalar, const std::string& field) {
  if (scalar == "rational" && dofs > max_rational_dofs)
    throw InputError("precision",
                     fmt::format("{} has {} degrees of freedom; exact rational arithmetic is "
                                 "limited to {} (dense exact elimination costs O(n^3) operations "
                                 "on growing numbers): use --precision double or 50 "
                                 "(docs/limits.md)",
                                 field, dofs, max_rational_dofs));
  if (dofs > max_dense_dofs)
    throw InputError(field, fmt::format("the model has {} degrees of freedom; a dense copy is "
                                        "refused above {}: use a command that reads sparse "
                                        "models (nsh events) (docs/limits.md)",
                                        dofs, max_dense_dofs));
}

void check_exact_run(Index dofs) {
  if (dofs > max_rational_run_dofs)
    throw InputError("precision",
                     fmt::format("the model has {} degrees of freedom; runs in exact rational "
                                 "arithmetic are limited to {} (the numbers grow at every step: "
                                 "one step of the 101-dof bar takes about 20 s): use --precision "
                                 "double or 50 (docs/limits.md)",
                                 dofs, max_rational_run_dofs));
}

void check_contacts(Index rows, Index cols, const std::string& field) {
  if (cols > max_contacts)
    throw InputError(field, fmt::format("declares {} contacts (columns); at most {} are read "
                                        "(docs/limits.md)",
                                        cols, max_contacts));
  if (rows * cols > max_dense_G_entries)
    throw InputError(field, fmt::format("{} x {} is {} entries; G is stored densely and at most "
                                        "{} entries are read (docs/limits.md)",
                                        rows, cols, rows * cols, max_dense_G_entries));
}

void check_steps(double steps, double max, const std::string& field, const std::string& option) {
  if (!(steps <= max))
    throw InputError(field, fmt::format("{:.3g} steps for this horizon; at most {:.3g} are "
                                        "taken ({}): raise h or {} (docs/limits.md)",
                                        steps, max, option, option));
}

std::size_t exact_bits(const Rational& x) {
  using boost::multiprecision::msb;
  const auto bits = [](const boost::multiprecision::cpp_int& i) -> std::size_t {
    return i == 0 ? 0 : msb(abs(i)) + 1;
  };
  return std::max(bits(numerator(x)), bits(denominator(x)));
}

void check_exact_size(const Rational& x, const std::string& field) {
  const std::size_t b = exact_bits(x);
  if (b > max_exact_bits)
    throw InputError(field, fmt::format("an exact rational of {} bits; at most {} bits are kept "
                                        "(exact numbers grow with every step): use --precision "
                                        "50 or a shorter horizon (docs/limits.md)",
                                        b, max_exact_bits));
}

void check_exact_growth(const Vector<Rational>& q, const Vector<Rational>& v, Index step,
                        const Rational& t) {
  for (int which = 0; which < 2; ++which) {
    const Vector<Rational>& x = which == 0 ? q : v;
    for (Index i = 0; i < x.size(); ++i) {
      const std::size_t b = exact_bits(x(i));
      if (b > max_exact_bits)
        throw InputError(
            "precision",
            fmt::format("the exact run stopped at step {} (t = {:.6g}): {}[{}] is an exact "
                        "rational of {} bits, more than the {} bits kept (exact numbers grow "
                        "with every step, geometrically for a nonlinear model in contact): use "
                        "--precision 50 or a shorter horizon (docs/limits.md)",
                        step, static_cast<double>(t), which == 0 ? "q" : "v", i, b,
                        max_exact_bits));
    }
  }
}

std::string describe_key(const std::string& key) {
  if (key.empty()) return "\"\" (the empty key)";
  return key.size() > 60 ? key.substr(0, 57) + "..." : key;
}

}  // namespace nsh::limits
