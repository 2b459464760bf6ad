#pragma once
// The report's "Siconos 4.4 under the gate" section (docs/siconos.md): every siconos:* scheme
// registered in this program (the optional adapters, registered by the nsh program where they
// are built) x every shared property applicable to it, claimed or not, with the cases tried
// and whether a counterexample was found. Computed at run time; where no adapter is
// registered the section says so in one sentence, and so it does when the run skips it
// (`nsh report --no-siconos`: the slowest section, about 60 % of a 10-case report).
#include <nsh/properties/check.hpp>

#include <functional>
#include <string>

namespace nsh::reports {

/// `progress` gets one line per adapter (its verdicts and failures), as the other sections.
void siconos_section(const properties::CheckOptions& check, bool skipped,
                     const std::function<void(const std::string&)>& progress, std::string& html,
                     std::string& mdown);

}  // namespace nsh::reports
