// Moreau–Jean theta-scheme: the double instantiation, the activation names and the registry
// entry. Real50 and Rational are instantiated in moreau_jean_real50.cpp and
// moreau_jean_rational.cpp (Boost.Multiprecision + Eigen is slow to compile).
#include "moreau_jean.hxx"

#include <nsh/schemes/sparse_moreau_jean.hpp>

namespace nsh {

const char* to_string(MoreauJeanActivation activation) {
  switch (activation) {
    case MoreauJeanActivation::position:
      return "position";
    case MoreauJeanActivation::position_velocity:
      return "position-velocity";
  }
  return "unknown";
}

template class MoreauJean<double>;

void register_moreau_jean(Registry& registry) {
  SchemeEntry entry;
  entry.name = "moreau-jean";
  entry.summary =
      "Moreau–Jean theta-scheme with an impulse LCP on an index set (Acary ZAMM 2016; Jean "
      "1999; Siconos MoreauJeanOSI)";
  entry.options = declared_options<MoreauJeanOptions>();
  set_factories<MoreauJean>(entry);
  set_sparse_factories<SparseMoreauJean>(entry, InexactScalars{});
  // Where the claims differ: the dissipation boundary theta = 1/(1+e), the Siconos index set.
  entry.representatives = {"moreau-jean", "moreau-jean:theta=7/10", "moreau-jean:theta=1",
                           "moreau-jean:activation=position"};
  registry.add(std::move(entry));
}

}  // namespace nsh
