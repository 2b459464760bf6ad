#pragma once
// Counts heap allocations while `counting_allocations` is set, to check that a double step
// allocates nothing of its own. The global operator new of every core test program is replaced
// once, in allocation_counting_support.cpp (a replacement may be defined only once per program).

namespace nsh::test {
extern bool counting_allocations;
extern long allocations;
}  // namespace nsh::test
