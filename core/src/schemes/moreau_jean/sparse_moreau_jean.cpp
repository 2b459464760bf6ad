// Sparse Moreau–Jean theta-scheme: the double instantiation (Real50 in
// sparse_moreau_jean_real50.cpp; Boost.Multiprecision + Eigen is slow to compile).
#include "sparse_moreau_jean.hxx"

namespace nsh {

template class SparseMoreauJean<double>;

}  // namespace nsh
