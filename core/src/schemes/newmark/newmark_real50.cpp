// Newmark family and Krenk-Hogsberg in 50-digit arithmetic (bodies in splitting.hxx,
// generalized_alpha.hxx and krenk_hogsberg.hxx).
#include "generalized_alpha.hxx"
#include "krenk_hogsberg.hxx"

namespace nsh {
template class NewmarkSplitting<Real50>;
template class NewmarkFamily<Real50>;
template class KrenkHogsberg<Real50>;
}  // namespace nsh
