// Newmark family and Krenk-Hogsberg in exact rational arithmetic (bodies in
// splitting.hxx, generalized_alpha.hxx and krenk_hogsberg.hxx): with Lemke or enumeration every
// step is exact, so the identities hold with defect 0.
#include "generalized_alpha.hxx"
#include "krenk_hogsberg.hxx"

namespace nsh {
template class NewmarkSplitting<Rational>;
template class NewmarkFamily<Rational>;
template class KrenkHogsberg<Rational>;
}  // namespace nsh
