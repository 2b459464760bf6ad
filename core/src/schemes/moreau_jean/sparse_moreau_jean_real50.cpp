// Sparse Moreau–Jean theta-scheme: the Real50 instantiation.
#include "sparse_moreau_jean.hxx"

namespace nsh {

template class SparseMoreauJean<Real50>;

}  // namespace nsh
