#include <nsh/scalar.hpp>

#include "predicates.hxx"

namespace nsh::properties {
NSH_INSTANTIATE_PREDICATES(Rational)
}  // namespace nsh::properties
