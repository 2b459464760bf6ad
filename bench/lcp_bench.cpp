// Each one-step LCP solver (nsh/lcp/lcp.hpp) on random SPD Delassus matrices W = G^T M^-1 G
// (M = I, G a random m x m Gaussian matrix plus the identity, so W is SPD and moderately
// conditioned) with b = W z* - w* for a random complementary pair (about half the contacts
// active): m = 5, 20, 100; enumeration at m = 5 only (it tries up to 2^m index sets). Each solve
// runs in an LcpWorkspace as a scheme's step does (allocation-free for lemke and pgs). A solve
// that is not certified stops the benchmark with an error. Counter `iterations`: pivots
// (lemke), index sets (enumeration), sweeps (pgs) or Newton steps (fb, prox). See
// docs/benchmarks.md.
#include <nsh/scalar.hpp>

#include <nsh/lcp/lcp.hpp>
#include <nsh/lcp/workspace.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <string>

namespace {

struct Problem {
  nsh::Matrix<double> W;
  nsh::Vector<double> b;
};

Problem random_problem(nsh::Index m, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  nsh::Matrix<double> G(m, m);
  for (nsh::Index i = 0; i < m; ++i)
    for (nsh::Index j = 0; j < m; ++j) G(i, j) = normal(rng) / std::sqrt(double(m));
  G += nsh::Matrix<double>::Identity(m, m);
  Problem p;
  p.W = G.transpose() * G;
  nsh::Vector<double> z = nsh::Vector<double>::Zero(m), w = nsh::Vector<double>::Zero(m);
  for (nsh::Index i = 0; i < m; ++i) (uniform(rng) < 0.5 ? z(i) : w(i)) = uniform(rng) + 0.1;
  p.b = w - p.W * z;
  return p;
}

void BM_Lcp(benchmark::State& bench, nsh::LcpMethod method) {
  const nsh::Index m = bench.range(0);
  const Problem p = random_problem(m, 2026u + static_cast<unsigned>(m));
  nsh::LcpOptions<double> options;
  nsh::LcpWorkspace<double> workspace(m);
  nsh::LcpResult<double> result;
  for (auto _ : bench) {
    nsh::solve_lcp<double>(method, p.W, p.b, options, workspace, result);
    benchmark::DoNotOptimize(result.z.data());
  }
  if (!result.ok()) {
    bench.SkipWithError(
        ("not certified: " + std::string(nsh::to_string(result.status)) + " " + result.message)
            .c_str());
    return;
  }
  bench.counters["iterations"] = static_cast<double>(result.iterations);
  bench.counters["natural_map"] = result.certificate.natural_map;
}

BENCHMARK_CAPTURE(BM_Lcp, lemke, nsh::LcpMethod::lemke)
    ->Arg(5)
    ->Arg(20)
    ->Arg(100)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Lcp, pgs, nsh::LcpMethod::pgs)
    ->Arg(5)
    ->Arg(20)
    ->Arg(100)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Lcp, enumeration, nsh::LcpMethod::enumeration)
    ->Arg(5)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Lcp, fb, nsh::LcpMethod::fischer_burmeister)
    ->Arg(5)
    ->Arg(20)
    ->Arg(100)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Lcp, prox, nsh::LcpMethod::prox_newton)
    ->Arg(5)
    ->Arg(20)
    ->Arg(100)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
