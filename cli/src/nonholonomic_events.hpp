#pragma once
// `nsh events` on a "nonholonomic" case (cmd_events_nonholonomic.cpp): the impacts of the exact
// reference (nsh/nonholonomic/exact_reference.hpp), one CSV line each.

#include <nsh/io/case_file.hpp>

#include <string>

namespace nsh::cli {

/// Prints the impacts over [t0, T] (T from `horizon`, or the case's T when empty) at the full
/// precision of `precision` ("double" or "50"). Returns the exit status: 0 done, 1 the
/// reference could not be computed (StepError, message on stderr); InputError propagates (2).
int run_nonholonomic_events(const CaseDocument& document, const std::string& precision,
                            const std::string& horizon);

}  // namespace nsh::cli
