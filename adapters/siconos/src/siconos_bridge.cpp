// Compiled as C++17 (adapters/siconos/CMakeLists.txt): see siconos_bridge.hpp.
#include "siconos_bridge.hpp"

#include <siconos/kernel/SiconosKernel.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace nsh::siconos_bridge {
namespace {

// LagrangianLinearTIDS with nsh's force F + F_amplitude sin(omega t). Siconos evaluates F_ext at
// t_k and t_{k+1} and weights them by theta (MoreauJeanOSI), exactly the F_{k+theta} of
// docs/theory.md §2.1, so overriding computeFExt is all the harmonic force needs.
class ForcedLinearDS : public LagrangianLinearTIDS {
 public:
  ForcedLinearDS(SP::SiconosVector q0, SP::SiconosVector v0, SP::SiconosMatrix M,
                 SP::SiconosMatrix K, SP::SiconosMatrix C, std::vector<double> F,
                 std::vector<double> amplitude, double omega)
      : LagrangianLinearTIDS(q0, v0, M, K, C),
        constant_(std::move(F)),
        amplitude_(std::move(amplitude)),
        omega_(omega) {
    const auto n = static_cast<unsigned>(constant_.size());
    SP::SiconosVector f(new SiconosVector(n));
    for (unsigned i = 0; i < n; ++i) (*f)(i) = constant_[i];
    setFExtPtr(f);
    harmonic_ = false;
    for (double a : amplitude_) harmonic_ = harmonic_ || a != 0.0;
    if (harmonic_) _hasConstantFExt = false;
  }

  void computeFExt(double time) override {
    if (!harmonic_) return;
    const double s = std::sin(omega_ * time);
    for (std::size_t i = 0; i < constant_.size(); ++i)
      (*_fExt)(static_cast<unsigned>(i)) = constant_[i] + amplitude_[i] * s;
  }

 private:
  std::vector<double> constant_, amplitude_;
  double omega_;
  bool harmonic_{false};
};

SP::SiconosVector vector_of(const std::vector<double>& x) {
  SP::SiconosVector out(new SiconosVector(static_cast<unsigned>(x.size())));
  for (std::size_t i = 0; i < x.size(); ++i) (*out)(static_cast<unsigned>(i)) = x[i];
  return out;
}

SP::SiconosMatrix matrix_of(const std::vector<double>& row_major, int n) {
  SP::SiconosMatrix out(new SimpleMatrix(static_cast<unsigned>(n), static_cast<unsigned>(n)));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      (*out)(static_cast<unsigned>(i), static_cast<unsigned>(j)) =
          row_major[static_cast<std::size_t>(i * n + j)];
  return out;
}

template <class F>
void guarded(const char* what, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("Siconos ") + what + ": " + e.what());
  } catch (...) {
    throw std::runtime_error(std::string("Siconos ") + what + ": an exception of unknown type");
  }
}

}  // namespace

struct Simulation::Impl {
  SP::LagrangianLinearTIDS ds;
  std::vector<SP::Interaction> interactions;
  std::map<const Interaction*, int> contact_of;
  SP::Simulation simulation;
  std::vector<double> q, v, impulse;
  std::vector<int> index_set;
  int n{0};
  unsigned level{1};  // the OSI's input/output level: 1 MoreauJeanOSI, 0 SchatzmanPaoliOSI
};

Simulation::Simulation(const LinearSystem& s, const Options& options) : impl_(new Impl) {
  Impl& x = *impl_;
  x.n = s.n;
  const bool schatzman_paoli = options.integrator == Options::Integrator::schatzman_paoli;
  x.level = schatzman_paoli ? 0 : 1;
  // SchatzmanPaoliOSI is a two-step scheme. Its own start-up
  // (SchatzmanPaoliOSI::initializeDynamicalSystem) takes the DS's initial state as q_{k-1} and
  // sets q_k = q_{k-1} + h v0. To make that start-up end at nsh's state (q_k = q0 at t0), the
  // DS starts from q0 - h v0: q_{k-1} = q0 - h v0, q_k = q0 (docs/siconos.md).
  std::vector<double> q_start = s.q0;
  if (schatzman_paoli)
    for (std::size_t i = 0; i < q_start.size(); ++i) q_start[i] -= s.h * s.v0[i];
  guarded("model", [&] {
    x.ds.reset(new ForcedLinearDS(vector_of(q_start), vector_of(s.v0), matrix_of(s.M, s.n),
                                  matrix_of(s.K, s.n), matrix_of(s.C, s.n), s.F, s.F_amplitude,
                                  s.omega));
    // The horizon only bounds hasNextEvent(); nsh decides when to stop.
    SP::NonSmoothDynamicalSystem nsds(new NonSmoothDynamicalSystem(s.t0, s.t0 + 1e12 * s.h));
    nsds->insertDynamicalSystem(x.ds);
    for (int a = 0; a < s.m; ++a) {
      SP::SimpleMatrix H(new SimpleMatrix(1, static_cast<unsigned>(s.n)));
      for (int i = 0; i < s.n; ++i)
        (*H)(0, static_cast<unsigned>(i)) = s.G[static_cast<std::size_t>(a * s.n + i)];
      SP::SiconosVector b(new SiconosVector(1));
      (*b)(0) = s.w[static_cast<std::size_t>(a)];
      SP::Relation relation(new LagrangianLinearTIR(H, b));
      SP::NonSmoothLaw law(new NewtonImpactNSL(s.e[static_cast<std::size_t>(a)]));
      SP::Interaction inter(new Interaction(law, relation));
      nsds->link(inter, x.ds);
      x.contact_of[inter.get()] = a;
      x.interactions.push_back(inter);
    }
    SP::TimeDiscretisation td(new TimeDiscretisation(s.t0, s.h));
    if (options.integrator == Options::Integrator::d1_minus_linear) {
      // As Siconos' BouncingBallD1MinusLinear example sets it up: TimeSteppingD1Minus with two
      // LCPs, the impacts at velocity level and the contact forces at acceleration level.
      SP::OneStepIntegrator osi(new D1MinusLinearOSI());
      SP::TimeSteppingD1Minus simulation(new TimeSteppingD1Minus(nsds, td, 2));
      simulation->insertIntegrator(osi);
      simulation->insertNonSmoothProblem(SP::OneStepNSProblem(new LCP(SICONOS_LCP_LEMKE)),
                                         SICONOS_OSNSP_TS_VELOCITY);
      simulation->insertNonSmoothProblem(SP::OneStepNSProblem(new LCP(SICONOS_LCP_LEMKE)),
                                         SICONOS_OSNSP_TS_VELOCITY + 1);
      x.simulation = simulation;
      x.simulation->initialize();
      return;
    }
    SP::OneStepIntegrator osi;
    if (schatzman_paoli)
      osi.reset(new SchatzmanPaoliOSI(options.theta));
    else
      osi.reset(std::isnan(options.gamma) ? new MoreauJeanOSI(options.theta)
                                          : new MoreauJeanOSI(options.theta, options.gamma));
    SP::OneStepNSProblem lcp(new LCP(SICONOS_LCP_LEMKE));
    x.simulation.reset(new TimeStepping(nsds, td, osi, lcp));
    x.simulation->initialize();
  });
  x.q = s.q0;
  x.v = s.v0;
  x.impulse.assign(static_cast<std::size_t>(s.m), 0.0);
}

Simulation::~Simulation() = default;

void Simulation::step() {
  Impl& x = *impl_;
  guarded("step", [&] {
    x.simulation->advanceToEvent();  // TimeStepping: computeOneStep
    const SiconosVector& q = *x.ds->q();
    const SiconosVector& v = *x.ds->velocity();
    for (int i = 0; i < x.n; ++i) {
      x.q[static_cast<std::size_t>(i)] = q(static_cast<unsigned>(i));
      x.v[static_cast<std::size_t>(i)] = v(static_cast<unsigned>(i));
    }
    for (std::size_t a = 0; a < x.interactions.size(); ++a)
      x.impulse[a] = x.interactions[a]->lambda(x.level)->getValue(0);
    x.index_set.clear();
    // The index set as the step used it (Siconos updates it in nextStep, for the next step).
    if (SP::InteractionsGraph graph = x.simulation->indexSet(x.level)) {
      InteractionsGraph::VIterator vi, vend;
      for (std::tie(vi, vend) = graph->vertices(); vi != vend; ++vi)
        x.index_set.push_back(x.contact_of.at(graph->bundle(*vi).get()));
      std::sort(x.index_set.begin(), x.index_set.end());
    }
    x.simulation->processEvents();  // TimeStepping: nextStep
  });
}

const std::vector<double>& Simulation::q() const {
  return impl_->q;
}
const std::vector<double>& Simulation::v() const {
  return impl_->v;
}
const std::vector<double>& Simulation::impulse() const {
  return impl_->impulse;
}
const std::vector<int>& Simulation::index_set() const {
  return impl_->index_set;
}

}  // namespace nsh::siconos_bridge
