#pragma once
// How many random trials a loop of a core test runs: the number written at the loop, or a fifth
// of it in the sanitizer job (core/CMakeLists.txt defines NSH_SANITIZER_TRIAL_DIVISOR for that
// program). There the code runs at -O0 under AddressSanitizer + UBSan, about ten times slower,
// and looks for memory and undefined-behaviour errors, which the same generators reach in a
// fifth of the trials; the full counts run in the ci build (docs/limits.md, "The sanitizer
// job"). A test that counts what its trials reached scales its minimum with trials().

namespace nsh::test {

constexpr int trials(int written) {
#ifdef NSH_SANITIZER_TRIAL_DIVISOR
  const int fewer = written / NSH_SANITIZER_TRIAL_DIVISOR;
  return fewer > 0 ? fewer : 1;
#else
  return written;
#endif
}

}  // namespace nsh::test
