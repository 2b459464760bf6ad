// One Moreau–Jean step on the impacting bar (nsh/cases/bar.hpp), moving into the wall so that
// the contact at node 0 is active: the sparse scheme (nsh/schemes/sparse_moreau_jean.hpp) at
// N = 10^3 (to set beside the dense step), 10^4, 10^5, 10^6 elements and the dense MoreauJean at n
// = 10, 100, 1000 degrees of freedom. Per-step wall time; the counter `active` is the fraction of
// timed steps with an active contact (1 = every step posed the impulse LCP). Also the one-time
// initialize (the factorization of M^ and the precomputed M^-1 G). See docs/benchmarks.md.
#include <nsh/scalar.hpp>

#include <nsh/cases/bar.hpp>
#include <nsh/detail/sparse_ldlt.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/moreau_jean.hpp>
#include <nsh/schemes/sparse_moreau_jean.hpp>

#include <benchmark/benchmark.h>

namespace {

using nsh::cases::BarMass;

// h = 10^-4 for every size: the contact lasts 2 L / c = 2, i.e. 2 * 10^4 steps; a run that
// gets near the end of it starts again from the initial state (outside the timed region).
constexpr double kStep = 1e-4;
constexpr double kRestart = 1.9;

BarMass mass_of(const benchmark::State& state) {
  return state.range(1) == 0 ? BarMass::lumped : BarMass::consistent;
}

// theta in hundredths (the third argument): 50 is the midpoint rule, whose ledger has no
// numerical dissipation to form; 100 forms it every step.
nsh::SchemeSpec spec_of(const benchmark::State& state) {
  return nsh::SchemeSpec::parse("moreau-jean:theta=" + std::to_string(state.range(2)) + "/100");
}

template <class Scheme, class Model>
void run_steps(benchmark::State& bench, Scheme& scheme, const Model& model,
               const nsh::State<double>& initial) {
  nsh::State<double> state = initial;
  scheme.initialize(model, state, kStep);
  nsh::StepSummary<double> summary;
  scheme.step(state, summary);  // sizes the summary
  std::int64_t active = 0, steps = 0;
  for (auto _ : bench) {
    scheme.step(state, summary);
    benchmark::DoNotOptimize(state.v.data());
    ++steps;
    if (!summary.index_set.empty()) ++active;
    if (state.t > kRestart) {
      bench.PauseTiming();
      state = initial;
      bench.ResumeTiming();
    }
  }
  bench.counters["active"] = static_cast<double>(active) / static_cast<double>(steps);
  bench.counters["dofs"] = static_cast<double>(model.dofs());
  bench.SetItemsProcessed(steps);
}

void BM_SparseMoreauJeanStep(benchmark::State& bench) {
  const auto bar = nsh::cases::make_sparse_bar<double>(bench.range(0), mass_of(bench));
  nsh::SparseMoreauJean<double> scheme(spec_of(bench));
  run_steps(bench, scheme, bar.model, bar.initial);
}
BENCHMARK(BM_SparseMoreauJeanStep)
    ->ArgNames({"N", "consistent", "theta_percent"})
    ->Args({1000, 0, 50})
    ->Args({1000, 0, 100})
    ->Args({10000, 0, 50})
    ->Args({10000, 1, 50})
    ->Args({100000, 0, 50})
    ->Args({100000, 0, 100})
    ->Args({100000, 1, 50})
    ->Args({1000000, 0, 50})
    ->Unit(benchmark::kMicrosecond);

// The bare linear algebra of one sparse Moreau–Jean step, what issue 17 sets the step beside
// ("within 3x of the bare cost"): the products the free velocity needs (K (q + h theta v), and
// C v when C has entries), one solve with the prefactored M^ (nsh/detail/sparse_ldlt.hpp, the
// scheme's own), the one-contact impulse LCP (a scalar: z = max(0, -U_free / W)) with its
// velocity update, and q_{k+1} = q_k + h v_{k+theta}. No ledger, no index set, no checks: a
// step cannot cost less. It walks the step benchmark's trajectory (the same state, restarted
// at the same time): on the initial state alone (q = 0, v = -1, K v = 0) the right-hand side is
// almost all zeros, which the triangular sweeps skip.
void BM_SparseMoreauJeanBareLinearAlgebra(benchmark::State& bench) {
  const auto bar = nsh::cases::make_sparse_bar<double>(bench.range(0), mass_of(bench));
  const auto& model = bar.model;
  const nsh::SparseMoreauJean<double> scheme(spec_of(bench));
  const double theta = scheme.theta(), h = kStep, htheta = h * theta;
  nsh::SparseMatrix<double> iteration = model.M;
  iteration += htheta * model.C;
  iteration += (htheta * htheta) * model.K;
  nsh::detail::SparseLdlt<double> ldlt;
  if (ldlt.compute(iteration) != -1) {
    bench.SkipWithError("M^ is not positive definite");
    return;
  }
  const nsh::Matrix<double> minv_g = ldlt.solve(nsh::Matrix<double>(model.G));
  const double W = model.G.col(0).dot(minv_g.col(0));
  const auto K = model.K.transpose();  // the scheme's products of exactly symmetric matrices
  const auto C = model.C.transpose();
  const nsh::Index n = model.dofs();
  nsh::Vector<double> q = bar.initial.q, v = bar.initial.v, work(n), rhs(n), v_free(n);
  double t = 0;
  for (auto _ : bench) {
    work = q;
    work += htheta * v;
    if (model.C.nonZeros() > 0)
      rhs.noalias() = C * v;
    else
      rhs.setZero();
    rhs.noalias() += K * work;
    rhs -= model.F;
    rhs *= -h;
    ldlt.solve(rhs, v_free);
    v_free += v;
    const double U_free = model.G.col(0).dot(v_free);
    const double impulse = U_free < 0 ? -U_free / W : 0.0;
    v_free += impulse * minv_g.col(0);
    q += (h * (1 - theta)) * v + (h * theta) * v_free;
    v.swap(v_free);
    benchmark::DoNotOptimize(v.data());
    t += h;
    if (t > kRestart) {
      bench.PauseTiming();
      q = bar.initial.q;
      v = bar.initial.v;
      t = 0;
      bench.ResumeTiming();
    }
  }
  bench.counters["dofs"] = static_cast<double>(n);
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_SparseMoreauJeanBareLinearAlgebra)
    ->ArgNames({"N", "consistent", "theta_percent"})
    ->Args({1000, 0, 50})
    ->Args({1000, 0, 100})
    ->Args({10000, 0, 50})
    ->Args({100000, 0, 50})
    ->Args({100000, 0, 100})
    ->Unit(benchmark::kMicrosecond);

void BM_SparseMoreauJeanInitialize(benchmark::State& bench) {
  const auto bar = nsh::cases::make_sparse_bar<double>(bench.range(0), mass_of(bench));
  for (auto _ : bench) {
    nsh::SparseMoreauJean<double> scheme(nsh::SchemeSpec::parse("moreau-jean"));
    scheme.initialize(bar.model, bar.initial, kStep);
    benchmark::DoNotOptimize(scheme.delassus().data());
  }
}
BENCHMARK(BM_SparseMoreauJeanInitialize)
    ->ArgNames({"N", "consistent"})
    ->Args({10000, 0})
    ->Args({100000, 0})
    ->Args({1000000, 0})
    ->Unit(benchmark::kMillisecond);

// Dense: n = N + 1 degrees of freedom.
void BM_DenseMoreauJeanStep(benchmark::State& bench) {
  const auto bar = nsh::cases::make_bar<double>(bench.range(0) - 1, mass_of(bench));
  nsh::MoreauJean<double> scheme(nsh::Registry::builtin().resolve("moreau-jean"));
  run_steps(bench, scheme, bar.model, bar.initial);
}
BENCHMARK(BM_DenseMoreauJeanStep)
    ->ArgNames({"n", "consistent"})
    ->Args({10, 0})
    ->Args({100, 0})
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
