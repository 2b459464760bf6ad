#include <nsh/scalar.hpp>

#include "predicates.hxx"

namespace nsh::properties {
NSH_INSTANTIATE_PREDICATES(Real50)
}  // namespace nsh::properties
