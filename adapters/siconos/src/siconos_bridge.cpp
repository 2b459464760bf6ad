// Compiled as C++17 (adapters/siconos/CMakeLists.txt): see siconos_bridge.hpp.
#include "siconos_bridge.hpp"

#include <siconos/kernel/SiconosKernel.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
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

// EventDriven::initialize() throws on a gap below -TOL_ED (2.2e-12 in Siconos 4.4) with an
// exception whose what() says only "std::exception": the bridge says which contact, and why.
void refuse_penetration(const LinearSystem& s, double tolerance) {
  for (int a = 0; a < s.m; ++a) {
    double gap = s.w[static_cast<std::size_t>(a)];
    for (int i = 0; i < s.n; ++i)
      gap += s.G[static_cast<std::size_t>(a * s.n + i)] * s.q0[static_cast<std::size_t>(i)];
    if (gap < -tolerance) {
      std::ostringstream message;
      message << "EventDriven starts only from gaps >= -TOL_ED = " << -tolerance << "; contact "
              << a << " has gap " << gap;
      throw std::runtime_error(message.str());
    }
  }
}

// Lsodar's default of 500 internal steps per call fails (istate = -1, "excess work") on stiff
// or fast cases at rtol = 1e-10 within one nsh step; raised, those cases are stepped rather than
// refused. Lsodar's work arrays exist only after initialize(): setting it before fails an
// assertion (boost::shared_array, null).
void allow_long_integrations(::Simulation& simulation) {
  for (const SP::OneStepIntegrator& osi : *simulation.oneStepIntegrators())
    if (auto lsodar = std::dynamic_pointer_cast<LsodarOSI>(osi)) lsodar->setMaxNstep(100000);
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
  bool event_driven{false};
  double t0{0}, h{0};
  long steps{0};  // nsh steps taken: the step ends at t0 + (steps + 1) h, a time event of td
  int impacts{0};

  void step_time_stepping();
  void step_event_driven();
  void read_state();
};

namespace {

// As Siconos' BouncingBallED example sets it up: LsodarOSI integrates the smooth flow between
// events (its root finder locates the gaps' zeros), EventDriven solves an impact LCP at each
// impact and an acceleration LCP for the contact forces of the closed contacts. LsodarOSI sets
// the interactions' levels itself (output 0..2, input 1..2) when simulation->initialize() runs.
SP::Simulation event_driven_simulation(SP::NonSmoothDynamicalSystem nsds, SP::TimeDiscretisation td,
                                       const Options& options) {
  SP::LsodarOSI osi(new LsodarOSI());
  osi->setTol(1, options.rtol, options.atol);
  SP::EventDriven simulation(new EventDriven(nsds, td));
  simulation->insertIntegrator(osi);
  simulation->insertNonSmoothProblem(SP::OneStepNSProblem(new LCP(SICONOS_LCP_LEMKE)),
                                     SICONOS_OSNSP_ED_IMPACT);
  simulation->insertNonSmoothProblem(SP::OneStepNSProblem(new LCP(SICONOS_LCP_LEMKE)),
                                     SICONOS_OSNSP_ED_SMOOTH_ACC);
  return simulation;
}

}  // namespace

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
    // For EventDriven the grid t0 + k h is a set of time events: each nsh step ends on one.
    SP::TimeDiscretisation td(new TimeDiscretisation(s.t0, s.h));
    if (options.integrator == Options::Integrator::event_driven) {
      SP::Simulation simulation = event_driven_simulation(nsds, td, options);
      refuse_penetration(s, std::static_pointer_cast<EventDriven>(simulation)->toleranceED());
      x.simulation = simulation;
      x.simulation->initialize();
      allow_long_integrations(*simulation);
      return;
    }
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
      allow_long_integrations(*simulation);
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
  x.event_driven = options.integrator == Options::Integrator::event_driven;
  x.t0 = s.t0;
  x.h = s.h;
}

Simulation::~Simulation() = default;

void Simulation::step() {
  Impl& x = *impl_;
  guarded("step", [&] {
    if (x.event_driven)
      x.step_event_driven();
    else
      x.step_time_stepping();
  });
}

void Simulation::Impl::read_state() {
  const SiconosVector& q_now = *ds->q();
  const SiconosVector& v_now = *ds->velocity();
  for (int i = 0; i < n; ++i) {
    q[static_cast<std::size_t>(i)] = q_now(static_cast<unsigned>(i));
    v[static_cast<std::size_t>(i)] = v_now(static_cast<unsigned>(i));
  }
}

void Simulation::Impl::step_time_stepping() {
  simulation->advanceToEvent();  // TimeStepping: computeOneStep
  read_state();
  for (std::size_t a = 0; a < interactions.size(); ++a)
    impulse[a] = interactions[a]->lambda(level)->getValue(0);
  index_set.clear();
  // The index set as the step used it (Siconos updates it in nextStep, for the next step).
  if (SP::InteractionsGraph graph = simulation->indexSet(level)) {
    InteractionsGraph::VIterator vi, vend;
    for (std::tie(vi, vend) = graph->vertices(); vi != vend; ++vi)
      index_set.push_back(contact_of.at(graph->bundle(*vi).get()));
    std::sort(index_set.begin(), index_set.end());
  }
  simulation->processEvents();  // TimeStepping: nextStep
}

// Events are processed until the simulation's time is the grid point t0 + (k + 1) h, a time
// event of the TimeDiscretisation, so no event past it is touched. At each impact (a
// non-smooth event) the impact LCP on index set 1 gives lambda(1), the impulse of that impact;
// the step's impulse is their sum.
void Simulation::Impl::step_event_driven() {
  // Siconos' EventsManager rounds event times to its tick; a Zeno accumulation is cut by
  // Siconos itself (the impulses fall to round-off), this bound only stops a runaway.
  constexpr int kMaxEventsPerStep = 100000;
  const double t_end = t0 + static_cast<double>(steps + 1) * h;
  std::fill(impulse.begin(), impulse.end(), 0.0);
  std::vector<bool> impacted(interactions.size(), false);
  impacts = 0;
  SP::EventsManager events = simulation->eventsManager();
  for (int count = 0; simulation->startingTime() < t_end - 1e-9 * h; ++count) {
    if (count == kMaxEventsPerStep)
      throw std::runtime_error("more than 100000 events in one step, from t = " +
                               std::to_string(t_end - h));
    if (events->needsIntegration()) simulation->advanceToEvent();
    const bool impact = events->nextEvent()->getType() == NS_EVENT;
    simulation->processEvents();
    if (!impact) continue;
    ++impacts;
    SP::InteractionsGraph graph = simulation->indexSet(1);
    if (!graph) continue;
    InteractionsGraph::VIterator vi, vend;
    for (std::tie(vi, vend) = graph->vertices(); vi != vend; ++vi) {
      const int a = contact_of.at(graph->bundle(*vi).get());
      impulse[static_cast<std::size_t>(a)] +=
          interactions[static_cast<std::size_t>(a)]->lambda(1)->getValue(0);
      impacted[static_cast<std::size_t>(a)] = true;
    }
  }
  ++steps;
  read_state();
  index_set.clear();
  for (std::size_t a = 0; a < impacted.size(); ++a)
    if (impacted[a]) index_set.push_back(static_cast<int>(a));
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
int Simulation::impacts() const {
  return impl_->impacts;
}

}  // namespace nsh::siconos_bridge
