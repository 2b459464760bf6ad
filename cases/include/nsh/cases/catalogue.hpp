#pragma once
// The catalogue of built-in benchmark cases: each with its case file under cases/data/ and one
// line on what is known exactly about it (the oracle its tests use).

#include <string>
#include <vector>

namespace nsh::cases {

struct CaseInfo {
  std::string name;      ///< built-in case name, also the file stem
  std::string family;    ///< case-file family ("linear")
  std::string summary;   ///< one line: what is known exactly
  std::string file;      ///< file name under cases/data/
  bool analytic{false};  ///< analytic_state() has a closed form over the whole horizon
};

/// Every built-in case, in a fixed order.
const std::vector<CaseInfo>& catalogue();

/// The entry for `name`, or nullptr.
const CaseInfo* find_case(const std::string& name);

}  // namespace nsh::cases
