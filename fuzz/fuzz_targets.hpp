#pragma once
// The fuzz entry points of nsh (docs/limits.md, "Fuzzing"): each takes arbitrary bytes and
// must end with either a value or an InputError (nsh's "bad input, exit 2") that names a field
// in a message of bounded length; anything else (a crash, a sanitizer report, another
// exception, an InputError without a field, a hang) is a finding. Shared by the libFuzzer
// targets (clang) and the standalone replay driver (any compiler).
#include <cstddef>
#include <cstdint>
#include <string>

namespace nsh::fuzz {

/// The case-file loader: parse_case_text, then every loader of the document's family (linear:
/// dense double and Real50, Rational for at most 16 rows, sparse double; sweeping and
/// penalty-line: their reader). A linear case of at most 16 rows and contacts then runs 8
/// steps of moreau-jean and gen-alpha into a CSV, which must hold no inf or nan (a StepError,
/// exit 1, is an honest stop).
void case_file(const std::uint8_t* data, std::size_t size);

/// The scheme-spec parser: SchemeSpec::parse and Registry::builtin().resolve of the text, and
/// the double scheme it names.
void scheme_spec(const std::uint8_t* data, std::size_t size);

/// Report a finding (an exception other than InputError escaped a target) with the input's
/// first 2000 bytes on stderr, then abort: libFuzzer saves the input, the replay driver fails.
[[noreturn]] void finding(const std::string& target, const std::string& what,
                          const std::uint8_t* data, std::size_t size);

}  // namespace nsh::fuzz
