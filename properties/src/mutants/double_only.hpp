#pragma once
// The registry entry of a mutant that steps in double only: a mutant exists to be caught on the
// CI path (nsh/properties/mutants.hpp).
#include <nsh/error.hpp>
#include <nsh/registry.hpp>

#include <string>
#include <utility>
#include <vector>

namespace nsh::properties {

/// A mutant entry whose Real50 factory refuses with SpecError naming the precision.
inline SchemeEntry double_only_mutant(std::string name, std::string summary,
                                      std::vector<SchemeOption> options,
                                      SchemeFactory<double> make) {
  SchemeEntry entry;
  entry.name = std::move(name);
  entry.summary = std::move(summary);
  entry.options = std::move(options);
  entry.make.get<double>() = std::move(make);
  entry.make.get<Real50>() = [](const SchemeSpec& spec) -> std::unique_ptr<Scheme<Real50>> {
    throw SpecError("precision", spec.name() + " runs in double only; use --precision double");
  };
  entry.is_mutant = true;
  return entry;
}

}  // namespace nsh::properties
