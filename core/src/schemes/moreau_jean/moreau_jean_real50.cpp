// Moreau–Jean theta-scheme in 50-digit floating point (body in moreau_jean.hxx).
#include "moreau_jean.hxx"

namespace nsh {
template class MoreauJean<Real50>;
}  // namespace nsh
