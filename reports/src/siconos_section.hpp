#pragma once
// The report's "Siconos 4.4 under the gate" section (docs/siconos.md): every siconos:* scheme
// registered in this program (the optional adapters, registered by the nsh program where they
// are built) x every shared property applicable to it, claimed or not, with the cases tried
// and whether a counterexample was found. Computed at run time; where no adapter is
// registered the section says so in one sentence.
#include <nsh/properties/check.hpp>

#include <string>

namespace nsh::reports {

void siconos_section(const properties::CheckOptions& check, std::string& html, std::string& mdown);

}  // namespace nsh::reports
