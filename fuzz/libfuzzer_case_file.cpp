// libFuzzer target: the case-file loader (clang -fsanitize=fuzzer; see docs/limits.md).
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nsh::fuzz::case_file(data, size);
  return 0;
}
