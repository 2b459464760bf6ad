// Newmark family and Krenk-Hogsberg in exact rational arithmetic (body in newmark_family.hxx):
// with Lemke or enumeration every step is exact, so the identities hold with defect 0.
#include "newmark_family.hxx"

namespace nsh {
template class NewmarkSplitting<Rational>;
template class NewmarkFamily<Rational>;
template class KrenkHogsberg<Rational>;
}  // namespace nsh
