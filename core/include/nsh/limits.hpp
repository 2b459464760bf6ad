#pragma once
// Resource limits: every bound nsh puts on its input, in one place (docs/limits.md lists them
// with the error each gives). A gate runs unattended on files people edit by hand and on
// counterexamples it wrote itself; each limit turns what would be a crash (stack overflow), a
// hang (quadratic parsing, a scan of 10^13 points, dense exact elimination of a large model)
// or an exhausted memory (a declared size of 10^7 x 10^7) into an InputError naming the field
// or the option to change, raised before the expensive work starts.

#include <nsh/scalar.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace nsh::limits {

/// Largest case file or shard file read, in bytes (the 1001-dof sparse bar is 156 kB).
inline constexpr std::uintmax_t max_input_file_bytes = 64u << 20;

/// Deepest nesting of JSON arrays and objects in a case file or a shard file. A case file needs
/// 4 (root, "M", its "entries", one entry), a shard file 5; the bound keeps every recursive
/// walk of a document (nlohmann's dump, comparisons) far from the stack's end.
inline constexpr std::size_t max_json_depth = 32;

/// Most digits (before and after the point, leading zeros included) in one number's text, per
/// side of a fraction "p/q". Reading d digits costs O(d^2) in exact arithmetic; 50-digit
/// Real50 values and the exact dyadic form of any double (at most 767 digits) fit well.
inline constexpr std::size_t max_number_digits = 4096;

/// Largest |exponent| of a number's text ("1e-300" has 300). double ends at 1e±308 and Real50
/// inputs need no more; an exact 1e99999 would be a 330000-bit integer in every product.
inline constexpr long max_number_exponent = 1000;

/// Largest declared "rows" or "cols" of a sparse matrix in a case file.
inline constexpr Index max_sparse_dimension = 10'000'000;

/// Most degrees of freedom of a model read into dense matrices of double or Real50 (a sparse
/// case file above it is refused by the dense readers; nsh events reads it sparse).
inline constexpr Index max_dense_dofs = 4096;

/// Most degrees of freedom of a model in exact rational arithmetic: validation eliminates M, C
/// and K densely, O(n^3) operations on numbers whose size grows with n (the 101-dof bar: 3 s at
/// -O1; 128 dofs about twice that; the 1001-dof sparse bar read densely: hours).
inline constexpr Index max_rational_dofs = 128;

/// Most degrees of freedom of a *run* in exact rational arithmetic: every step's numbers grow,
/// so a step of the 101-dof bar costs about 20 s (Moreau-Jean, -O1), T = 3 would be hours.
/// Reading and validating such a model stays allowed (max_rational_dofs: the bar's exact file
/// is compared with its generator); check_exact_run refuses the run before its first step.
inline constexpr Index max_rational_run_dofs = 32;

/// Most contacts (columns of G): G is stored densely, n x m.
inline constexpr Index max_contacts = 4096;

/// Most entries n * m of the dense G.
inline constexpr Index max_dense_G_entries = 16'000'000;

/// Most steps of one run (driver.cpp's step_count refuses more, naming "h").
inline constexpr double max_steps = 1e9;

/// Most steps of one run of `nsh converge` (every run's trajectory is held in memory, and the
/// analytic reference scans 8 points per finest step): the default of its --max-steps.
inline constexpr Index default_converge_max_steps = 10'000'000;

/// Most bits of one exact rational's numerator or denominator that check_exact_size and
/// check_exact_growth accept: exact arithmetic on a long run grows its numbers without bound, and
/// Boost's cpp_rational costs grow faster than quadratically with them. Measured on
/// particle-on-parabola (moreau-jean:theta=1, h = 1/20, -O1): every step with an impulse
/// quadruples the bits; the whole run to step 26 (numbers of ~16k bits) takes 0.8 s, the next two
/// steps (to ~66k bits) more than 100 s. 2^13 bits (about 2500 digits) stops a run before its
/// steps cost seconds; linear models with a constant iteration matrix grow only linearly.
inline constexpr std::size_t max_exact_bits = 1u << 13;

/// max_input_file_bytes, or the positive byte count in the environment variable
/// NSH_MAX_INPUT_BYTES (a sparse case of 10^6 degrees of freedom is about 100 MB: a user who
/// means to read one says so); InputError naming the variable when it is not a positive count.
std::uintmax_t input_file_bytes_limit();

/// InputError(source) if a file has more than input_file_bytes_limit() bytes.
void check_file_size(std::uintmax_t bytes, const std::string& path, const std::string& field);

/// InputError(source) if a JSON container opens at `depth` (1 for the root) > max_json_depth.
void check_json_depth(std::size_t depth, const std::string& source);

/// InputError(field) if a number's text has more digits or a larger exponent than above.
void check_number_digits(std::size_t digits, const std::string& field, const std::string& text);
void check_number_exponent(long long exponent, const std::string& field, const std::string& text);

/// InputError("precision") naming the option to change if a model of `dofs` degrees of
/// freedom is beyond what `scalar` ("double", "50", "rational") handles (dense readers).
void check_dense_dofs(Index dofs, const std::string& scalar, const std::string& field);

/// InputError("precision") naming --precision if an exact run of a model with `dofs` degrees
/// of freedom is beyond max_rational_run_dofs. For the callers that start a run (the driver's
/// simulate and the commands that call it), before the first step.
void check_exact_run(Index dofs);

/// InputError(field) if G declared rows x cols is beyond max_contacts / max_dense_G_entries.
void check_contacts(Index rows, Index cols, const std::string& field);

/// InputError(option) if a run of `steps` steps is beyond `max_steps` (`option` names the
/// override, e.g. "--max-steps").
void check_steps(double steps, double max_steps, const std::string& field,
                 const std::string& option);

/// The larger bit count of an exact rational's numerator and denominator.
std::size_t exact_bits(const Rational& x);

/// InputError(field) if an exact rational's numerator or denominator has more than
/// max_exact_bits bits.
void check_exact_size(const Rational& x, const std::string& field);

/// InputError("precision") naming the step, t and the entry if a number of an exact run's state
/// after `step` has more than max_exact_bits bits: the driver's loop calls it after every step,
/// so a long exact run stops saying how far it got instead of slowing without bound.
void check_exact_growth(const Vector<Rational>& q, const Vector<Rational>& v, Index step,
                        const Rational& t);

/// A key for a message: "\"\" (the empty key)" for an empty key, the key otherwise, cut to
/// 60 characters.
std::string describe_key(const std::string& key);

}  // namespace nsh::limits
