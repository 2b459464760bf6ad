// libFuzzer target: the scheme-spec parser and resolver (see docs/limits.md).
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nsh::fuzz::scheme_spec(data, size);
  return 0;
}
