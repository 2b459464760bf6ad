// The step-for-step comparison of the sparse Moreau–Jean scheme with the dense one, shared by
// core/tests/sparse_moreau_jean_test.cpp (random models) and
// cases/tests/sparse_moreau_jean_bar_test.cpp (the finite-element bar).
#pragma once

#include <nsh/model/sparse_model.hpp>
#include <nsh/schemes/moreau_jean.hpp>
#include <nsh/schemes/sparse_moreau_jean.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace nsh::sparse_mj_test {

template <class S>
S inf_norm(const Vector<S>& x) {
  using std::abs;
  S best(0);
  for (Index i = 0; i < x.size(); ++i) best = std::max<S>(best, abs(x(i)));
  return best;
}

template <class S>
S relative(const Vector<S>& a, const Vector<S>& b, const S& floor) {
  return inf_norm<S>(Vector<S>(a - b)) / std::max<S>(floor, inf_norm<S>(b));
}

struct Comparison {
  double worst{0};             ///< largest relative difference of any compared field
  int contact_steps{0};        ///< steps of the dense run with an active contact
  bool same_index_sets{true};  ///< the index sets agreed at every step
};

/// Runs the dense scheme on `dense` and the sparse one on `sparse` from `initial` for `steps`
/// steps of h (with `resynchronize`, each sparse step starts from the dense run's state, so that
/// only one step's round-off separates them), and measures how far apart they are: q and v
/// (relative to the step's largest |q|, |v|), the impulse, gaps, local velocities and external
/// impulse (each relative to its own largest entry), every ledger term (relative to the step's
/// energy scale); floors 10^-3.
template <class S>
Comparison compare(const LinearModel<S>& dense, MoreauJean<S>& dense_scheme,
                   const SparseLinearModel<S>& sparse, SparseMoreauJean<S>& sparse_scheme,
                   const State<S>& initial, const S& h, int steps, bool resynchronize = false) {
  using std::abs;
  State<S> a = initial, b = initial;
  dense_scheme.initialize(dense, a, h);
  sparse_scheme.initialize(sparse, b, h);
  StepSummary<S> sa, sb;
  Comparison c;
  S worst(0);
  const S floor = S(1e-3);
  for (int k = 0; k < steps; ++k) {
    dense_scheme.step(a, sa);
    sparse_scheme.step(b, sb);
    if (!sa.index_set.empty()) ++c.contact_steps;
    if (sa.index_set != sb.index_set) c.same_index_sets = false;
    const S state_scale = std::max<S>({floor, inf_norm<S>(a.q), inf_norm<S>(a.v)});
    worst = std::max<S>(worst, inf_norm<S>(Vector<S>(a.q - b.q)) / state_scale);
    worst = std::max<S>(worst, inf_norm<S>(Vector<S>(a.v - b.v)) / state_scale);
    worst = std::max<S>(worst, relative<S>(sb.impulse, sa.impulse, floor));
    worst = std::max<S>(worst, relative<S>(sb.gap_after, sa.gap_after, floor));
    worst = std::max<S>(worst, relative<S>(sb.velocity_after, sa.velocity_after, floor));
    worst = std::max<S>(worst, relative<S>(sb.external_impulse, sa.external_impulse, floor));
    const S energy_scale = std::max<S>({floor, abs(sa.E_before), abs(sa.E_after), abs(sa.W_ext),
                                        abs(sa.W_damp), abs(sa.W_contact)});
    for (const auto& [x, y] :
         {std::pair{sa.E_before, sb.E_before}, std::pair{sa.E_after, sb.E_after},
          std::pair{sa.W_ext, sb.W_ext}, std::pair{sa.W_damp, sb.W_damp},
          std::pair{sa.W_contact, sb.W_contact},
          std::pair{sa.numerical_dissipation, sb.numerical_dissipation}})
      worst = std::max<S>(worst, abs(x - y) / energy_scale);
    if (sb.t_after != sa.t_after || b.t != a.t) worst = std::max<S>(worst, S(1));
    if (resynchronize) b = a;
  }
  c.worst = static_cast<double>(worst);
  return c;
}

}  // namespace nsh::sparse_mj_test
