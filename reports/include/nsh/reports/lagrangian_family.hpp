#pragma once
// Whether this nsh reads lagrangian case files (docs/nonlinear-models.md): they need the
// formula module, built only where GiNaC is found. The commands that meet one without it
// (simulate, converge, energy) refuse it with the same message.

#include <nsh/io/case_file.hpp>

namespace nsh::reports {

/// True when the formula module (GiNaC) was built into this nsh.
bool lagrangian_family_available();

/// InputError naming "family": case <name> is of family 'lagrangian', whose formulas need the
/// formula module, with how to get it.
[[noreturn]] void refuse_lagrangian_without_formula(const CaseDocument& document);

}  // namespace nsh::reports
