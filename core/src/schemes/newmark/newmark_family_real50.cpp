// Newmark family and Krenk-Hogsberg in 50-digit arithmetic (body in newmark_family.hxx).
#include "newmark_family.hxx"

namespace nsh {
template class NewmarkSplitting<Real50>;
template class NewmarkFamily<Real50>;
template class KrenkHogsberg<Real50>;
}  // namespace nsh
