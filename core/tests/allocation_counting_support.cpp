// The replaced global allocation functions of the core test programs (allocation_counting.hpp).
#include "allocation_counting.hpp"

#include <cstdlib>
#include <new>

// GCC sees the malloc/free pair of the replaced operators through inlined library code.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace nsh::test {
bool counting_allocations = false;
long allocations = 0;
}  // namespace nsh::test

void* operator new(std::size_t size) {
  if (nsh::test::counting_allocations) ++nsh::test::allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
