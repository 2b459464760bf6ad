// The Newmark family and Krenk-Hogsberg on sparse models, in 50-digit arithmetic (bodies in
// splitting.hxx, generalized_alpha.hxx and krenk_hogsberg.hxx).
#include "generalized_alpha.hxx"
#include "krenk_hogsberg.hxx"

namespace nsh {
template class NewmarkSplitting<Real50, SparseStorage>;
template class NewmarkFamily<Real50, SparseStorage>;
template class KrenkHogsberg<Real50, SparseStorage>;
}  // namespace nsh
