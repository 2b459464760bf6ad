#pragma once
// The errors nsh reports for bad input. Each names the field (and entry) and the value, so
// that the message alone tells a user what to fix. The CLI maps InputError to exit status 2.

#include <stdexcept>
#include <string>

namespace nsh {

/// Bad user input: a model, a case file, a spec string, a command-line value.
class InputError : public std::runtime_error {
 public:
  InputError(std::string field, const std::string& message)
      : std::runtime_error(field.empty() ? message : field + ": " + message),
        field_(std::move(field)) {}
  /// The offending field, e.g. "M", "M[1][0]", "e[2]", "h", "theta".
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

/// A model that breaks a hypothesis of docs/theory.md §1 (non-SPD M, e outside [0,1], ...).
class ModelError : public InputError {
 public:
  using InputError::InputError;
};

/// A scheme spec with an unknown name or option, or an out-of-range value.
class SpecError : public InputError {
 public:
  using InputError::InputError;
};

/// A step that cannot complete honestly: the one-step solver could not certify its answer,
/// the LCP has no solution, a factorization failed. Never silently swallowed.
class StepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace nsh
