// The event-driven reference (nsh/schemes/event_driven.hpp) on the sparse impacting bar through
// its first contact: EventDrivenFlow from t = 0 (node 0 at the wall, the bar moving into it) to
// t = 2.5 (the contact lasts about 2 L / c = 2), lumped mass, N = 100, 1000 and 2000 elements
// in double, N = 100 and 300 in Real50. One iteration each (a run is a second at N = 2000). N =
// 10^4 is registered only when the environment variable NSH_BENCH_LONG is set. Counter `events`:
// the events of the run. See docs/benchmarks.md and docs/event-driven-performance.md.
#include <nsh/scalar.hpp>

#include <nsh/cases/bar.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <vector>

namespace {

template <class Scalar>
void BM_EventDrivenBarFirstContact(benchmark::State& bench) {
  const auto bar = nsh::cases::make_sparse_bar<Scalar>(bench.range(0), nsh::cases::BarMass::lumped);
  std::size_t events = 0;
  for (auto _ : bench) {
    nsh::EventDrivenFlow<Scalar> flow(bar.model, bar.initial);
    std::vector<nsh::Event<Scalar>> log;
    flow.advance_to(Scalar(5) / 2, &log);
    events = log.size() + flow.initial_events().size();
    benchmark::DoNotOptimize(flow.state().v.data());
  }
  bench.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_EventDrivenBarFirstContact<double>)
    ->ArgName("N")
    ->Arg(100)
    ->Arg(1000)
    ->Arg(2000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
// The 50-digit mode: about 65 series terms per segment instead of 34, each a Real50 operation.
BENCHMARK(BM_EventDrivenBarFirstContact<nsh::Real50>)
    ->ArgName("N")
    ->Arg(100)
    ->Arg(300)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// Registered at static initialization, before benchmark_main parses the command line.
[[maybe_unused]] const bool long_registered = [] {
  if (std::getenv("NSH_BENCH_LONG") != nullptr)
    benchmark::RegisterBenchmark("BM_EventDrivenBarFirstContact<double>",
                                 BM_EventDrivenBarFirstContact<double>)
        ->ArgName("N")
        ->Arg(10000)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
