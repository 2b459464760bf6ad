// The step-for-step comparison of a scheme stepping a sparse model with the same scheme stepping
// the dense one, and the random models both are compared on; shared by
// core/tests/sparse_moreau_jean_test.cpp, core/tests/sparse_newmark_test.cpp (random models) and
// cases/tests/sparse_moreau_jean_bar_test.cpp (the finite-element bar).
#pragma once

#include <nsh/model/sparse_model.hpp>
#include <nsh/schemes/scheme.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

namespace nsh::sparse_step_test {

/// A random system: n dofs, m contacts, SPD M, PSD K and C, gaps near zero; with `harmonic`, a
/// force F + F_amplitude sin(3 t).
template <class S = double>
LinearModel<S> random_model_for_sparse(std::mt19937& rng, Index n, Index m, bool harmonic = false) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto random = [&](Index r, Index c) {
    Matrix<S> A(r, c);
    for (Index i = 0; i < r; ++i)
      for (Index j = 0; j < c; ++j) A(i, j) = S(u(rng));
    return A;
  };
  LinearModel<S> model;
  model.name = "random";
  const Matrix<S> A = random(n, n), B = random(n, n), D = random(n, n);
  model.M = A * A.transpose() + Matrix<S>::Identity(n, n);
  model.K = S(10) * B * B.transpose();
  model.C = S(1) / 2 * D * D.transpose();
  model.F = random(n, 1);
  model.G = random(n, m);
  model.w = S(1) / 20 * random(m, 1);
  model.e = Vector<S>(m);
  for (Index a = 0; a < m; ++a) model.e(a) = S(0.5 * (u(rng) + 1.0));
  if (harmonic) {
    model.F_amplitude = S(2) * random(n, 1);
    model.omega = S(3);
  }
  fill_defaults(model);
  model.validate();
  return model;
}

template <class S = double>
State<S> random_state(std::mt19937& rng, Index n) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  State<S> s{S(0), Vector<S>(n), Vector<S>(n)};
  for (Index i = 0; i < n; ++i) {
    s.q(i) = S(0.1 * u(rng));
    s.v(i) = S(u(rng));
  }
  return s;
}

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

/// A chain of n unit masses with springs of stiffness 50 (and one to the ground when `grounded`,
/// so that K is positive definite), gravity, contact 0 under the bottom mass and contact 1 far
/// above the top one.
inline SparseLinearModel<double> chain(Index n, bool grounded) {
  SparseLinearModel<double> model;
  model.name = "chain";
  model.M.resize(n, n);
  model.K.resize(n, n);
  std::vector<Eigen::Triplet<double>> m_entries, k_entries;
  for (Index i = 0; i < n; ++i) m_entries.emplace_back(i, i, 1.0);
  for (Index i = 0; i + 1 < n; ++i) {
    k_entries.emplace_back(i, i, 50.0);
    k_entries.emplace_back(i + 1, i + 1, 50.0);
    k_entries.emplace_back(i, i + 1, -50.0);
    k_entries.emplace_back(i + 1, i, -50.0);
  }
  if (grounded) k_entries.emplace_back(n - 1, n - 1, 50.0);
  model.M.setFromTriplets(m_entries.begin(), m_entries.end());
  model.K.setFromTriplets(k_entries.begin(), k_entries.end());
  model.G = Matrix<double>::Zero(n, 2);
  model.G(0, 0) = 1.0;
  model.G(n - 1, 1) = 1.0;
  model.w = Vector<double>(2);
  model.w << 0.0, 10.0;
  model.e = Vector<double>::Constant(2, 0.5);
  model.F = Vector<double>::Constant(n, -9.81);
  fill_defaults(model);
  model.validate();
  return model;
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
/// energy scale, the algorithmic energy's too where the dense run has one); floors 10^-3.
template <class S>
Comparison compare(const LinearModel<S>& dense, Scheme<S>& dense_scheme,
                   const SparseLinearModel<S>& sparse, Scheme<S>& sparse_scheme,
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
    if (sa.has_algorithmic_energy != sb.has_algorithmic_energy) worst = std::max<S>(worst, S(1));
    if (sa.has_algorithmic_energy)
      for (const auto& [x, y] :
           {std::pair{sa.E_alg_before, sb.E_alg_before}, std::pair{sa.E_alg_after, sb.E_alg_after},
            std::pair{sa.algorithmic_dissipation, sb.algorithmic_dissipation}})
        worst = std::max<S>(worst, abs(x - y) / std::max<S>({energy_scale, abs(x)}));
    if (sb.t_after != sa.t_after || b.t != a.t) worst = std::max<S>(worst, S(1));
    if (resynchronize) b = a;
  }
  c.worst = static_cast<double>(worst);
  return c;
}

}  // namespace nsh::sparse_step_test
