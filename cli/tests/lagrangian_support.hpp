#pragma once
// Variants of the catalogue's lagrangian case files for the CLI tests (lagrangian_test.cpp,
// lagrangian_commands_test.cpp): a copy with one field replaced, written by path.
#include "cli_support.hpp"

#include <gtest/gtest.h>

#include <string>

namespace nsh_cli_test {

/// A copy of cases/data/<source>.json with `field` replaced by `value` (raw JSON text), written
/// to the scratch directory as <stem>.json. The value runs to the end of its line (every field
/// of the catalogue's lagrangian files ends with ",\n", except M, which spans three lines ending
/// in "]],").
inline fs::path lagrangian_variant(const std::string& source, const std::string& stem,
                                   const std::string& field, const std::string& value) {
  std::string text = slurp(fs::path(NSH_SOURCE_DIR) / "cases/data" / (source + ".json"));
  const std::string key = "\"" + field + "\":";
  const std::size_t at = text.find(key);
  EXPECT_NE(at, std::string::npos) << field;
  const std::size_t end = field == "M" ? text.find("]],", at) + 2 : text.find(",\n", at);
  text.replace(at, end - at, key + " " + value);
  const fs::path path = scratch() / (stem + ".json");
  std::ofstream(path) << text;
  return path;
}

/// The falling rod's variant (the file most tests edit).
inline fs::path rod_variant(const std::string& stem, const std::string& field,
                            const std::string& value) {
  return lagrangian_variant("falling-rod", stem, field, value);
}

}  // namespace nsh_cli_test
