// Moreau–Jean theta-scheme in exact rational arithmetic (body in moreau_jean.hxx): with Lemke
// or enumeration every step is exact, so the identity of docs/theory.md §2.3 holds with defect 0.
#include "moreau_jean.hxx"

namespace nsh {
template class MoreauJean<Rational>;
}  // namespace nsh
