#pragma once
// What every CLI test needs: run the built `nsh` (NSH_EXE) through the shell with the source
// tree's case files, capture its exit status and both streams, and split its text output.
// Tests run as separate processes (gtest_discover_tests), so one scratch directory per process.
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace nsh_cli_test {

namespace fs = std::filesystem;

struct Result {
  int status = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline fs::path scratch() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("nsh_cli_test_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

/// Runs `nsh ARGS` through the shell (arguments are quoted by the caller where needed).
inline Result run_nsh(const std::string& args) {
  const fs::path out = scratch() / "stdout", err = scratch() / "stderr";
  const std::string command = std::string("NSH_CASES_DIR='") + NSH_SOURCE_DIR + "/cases/data' '" +
                              NSH_EXE + "' " + args + " >'" + out.string() + "' 2>'" +
                              err.string() + "' </dev/null";
  const int raw = std::system(command.c_str());
  Result run;
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  run.out = slurp(out);
  run.err = slurp(err);
  return run;
}

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

inline std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
  return out;
}

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A study's JSON without its measured wall times (nsh converge, nsh report): what two runs with
// the same options must give byte for byte.
inline nlohmann::json without_wall_seconds(nlohmann::json j) {
  if (j.is_object()) {
    j.erase("wall_seconds");
    for (auto& [key, value] : j.items()) value = without_wall_seconds(value);
  } else if (j.is_array()) {
    for (auto& value : j) value = without_wall_seconds(value);
  }
  return j;
}

}  // namespace nsh_cli_test
