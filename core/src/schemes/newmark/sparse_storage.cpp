// The Newmark family and Krenk-Hogsberg on sparse models, in double (bodies in splitting.hxx,
// generalized_alpha.hxx and krenk_hogsberg.hxx; Real50 in sparse_storage_real50.cpp).
#include "generalized_alpha.hxx"
#include "krenk_hogsberg.hxx"

namespace nsh {
template class NewmarkSplitting<double, SparseStorage>;
template class NewmarkFamily<double, SparseStorage>;
template class KrenkHogsberg<double, SparseStorage>;
}  // namespace nsh
