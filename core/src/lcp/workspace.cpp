// The LCP workspace's storage (see nsh/lcp/workspace.hpp); its solve_lcp is in lcp.cpp.

#include <nsh/lcp/workspace.hpp>

namespace nsh {

template <class Scalar>
void LcpWorkspace<Scalar>::reserve(Index capacity) {
  if (capacity <= capacity_) return;
  tableau.resize(capacity, 2 * capacity + 2);
  basis.resize(static_cast<std::size_t>(capacity));
  for (auto* pool : {&z_pool_, &w_pool_}) {
    const Index old = static_cast<Index>(pool->size());
    pool->resize(static_cast<std::size_t>(capacity + 1));
    for (Index s = old < 1 ? 1 : old; s <= capacity; ++s)
      (*pool)[static_cast<std::size_t>(s)].setZero(s);
  }
  capacity_ = capacity;
}

template <class Scalar>
void LcpWorkspace<Scalar>::lend(Vector<Scalar>& v, std::vector<Vector<Scalar>>& pool,
                                Index m) const {
  if (v.size() == m) return;
  const Index old = v.size();
  if (old > 0 && old <= capacity_ && pool[static_cast<std::size_t>(old)].size() == 0)
    v.swap(pool[static_cast<std::size_t>(old)]);  // back to its slot; v is empty now
  if (m <= capacity_ && (m == 0 || pool[static_cast<std::size_t>(m)].size() == m)) {
    if (m > 0) {
      v.resize(0);  // storage not from the pool (if any) is given up
      v.swap(pool[static_cast<std::size_t>(m)]);
    } else {
      v.resize(0);
    }
    return;
  }
  v.resize(m);  // beyond capacity, or the slot is lent to another result
}

template <class Scalar>
void LcpWorkspace<Scalar>::size_result(LcpResult<Scalar>& result, Index m) {
  lend(result.z, z_pool_, m);
  lend(result.w, w_pool_, m);
}

#define NSH_INSTANTIATE(Scalar) template class LcpWorkspace<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh
