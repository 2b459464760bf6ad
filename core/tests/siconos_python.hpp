#pragma once
// The Python interpreter the Siconos comparisons run (Debian's, which sees python3-siconos;
// NSH_SICONOS_PYTHON overrides it) and whether it imports siconos.kernel.

#include <cstdlib>
#include <string>

namespace nsh::test {

inline const std::string& siconos_python() {
  static const std::string python =
      std::getenv("NSH_SICONOS_PYTHON") ? std::getenv("NSH_SICONOS_PYTHON") : "/usr/bin/python3";
  return python;
}

inline bool siconos_available() {
  return std::system((siconos_python() + " -c 'import siconos.kernel' > /dev/null 2>&1").c_str()) ==
         0;
}

}  // namespace nsh::test

// Skips the test, saying how to install what is missing, when Siconos cannot be imported.
#define NSH_REQUIRE_SICONOS()                                                              \
  if (!::nsh::test::siconos_available())                                                   \
  GTEST_SKIP() << "Siconos is not installed: " << ::nsh::test::siconos_python()            \
               << " cannot import siconos (apt-get install python3-siconos); the Siconos " \
                  "side-by-side comparison is skipped"
