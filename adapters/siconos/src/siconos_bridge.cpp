// Compiled as C++17 (adapters/siconos/CMakeLists.txt): see siconos_bridge.hpp.
#include "siconos_bridge.hpp"

#include <siconos/kernel/SiconosKernel.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
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

// Siconos 4.4 throws Siconos::exception (SiconosException.hpp, THROW_EXCEPTION): a
// std::exception whose what() is "std::exception", its message a boost::error_info beside the
// source file and line it was thrown from. Both are what a user needs to see.
std::string siconos_message(const Siconos::exception& e) {
  const std::string* message = boost::get_error_info<Siconos::exception::extra_message>(e);
  std::string out = message ? *message : std::string("(Siconos gave no message)");
  const char* const* file = boost::get_error_info<boost::throw_file>(e);
  const int* line = boost::get_error_info<boost::throw_line>(e);
  if (file && line) {
    const std::string path(*file);
    out += " [" + path.substr(path.find_last_of('/') + 1) + ":" + std::to_string(*line) + "]";
  }
  return out;
}

// Siconos writes diagnostics to std::cout, some unconditionally (EventDriven::advanceToEvent
// prints two lines at each event NewMarkAlphaOSI detects; EventDriven::updateIndexSet displays
// the Interaction before it throws), which would land in the middle of `nsh simulate`'s table.
// While Siconos runs, std::cout writes into a buffer: dropped after a call that returns, its
// last lines appended to the error of a call that throws. (nsh runs cases in parallel in forked
// processes, cli/src/process_pool.cpp, never in threads, so the swap is not raced.)
class CapturedOutput {
 public:
  CapturedOutput() : saved_(std::cout.rdbuf(buffer_.rdbuf())) {}
  ~CapturedOutput() { std::cout.rdbuf(saved_); }
  CapturedOutput(const CapturedOutput&) = delete;
  CapturedOutput& operator=(const CapturedOutput&) = delete;

  // The last few lines Siconos printed, or nothing.
  std::string tail() const {
    constexpr std::size_t kTail = 600;
    std::string text = buffer_.str();
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    if (text.empty()) return "";
    if (text.size() > kTail) text = "..." + text.substr(text.size() - kTail);
    return "; Siconos printed: " + text;
  }

 private:
  std::ostringstream buffer_;
  std::streambuf* saved_;
};

template <class F>
void guarded(const char* what, F&& f) {
  const CapturedOutput output;
  const std::string where = std::string("Siconos ") + what + ": ";
  try {
    f();
  } catch (const Siconos::exception& e) {
    throw std::runtime_error(where + siconos_message(e) + output.tail());
  } catch (const std::exception& e) {
    throw std::runtime_error(where + e.what() + output.tail());
  } catch (...) {
    throw std::runtime_error(where + "an exception of unknown type" + output.tail());
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

// g = H q + b as a LagrangianScleronomousR, for NewMarkAlphaOSI: its computeFreeOutput
// (NewMarkAlphaOSI.cpp, Siconos 4.4, `if(relationSubType == ScleronomousR)`) fills the right-hand
// side of its three LCPs only for scleronomous relations; for a LagrangianLinearTIR (subtype
// LinearTIR) it leaves them zero, so every impact LCP has the solution 0 and the event at the
// impact recurs forever at the same time. Siconos' own NewMarkAlphaOSI example
// (siconos-tutorials, RockingBlockED_NewMarkAlpha.cpp) uses LagrangianScleronomousR relations.
// The Jacobian is H (constant), its time derivative zero.
class LinearGapRelation : public LagrangianScleronomousR {
 public:
  LinearGapRelation(SP::SimpleMatrix H, SP::SiconosVector b) : H_(std::move(H)), b_(std::move(b)) {
    _jachq.reset(new SimpleMatrix(*H_));
  }

  void initialize(Interaction&) override {
    _jachq.reset(new SimpleMatrix(*H_));
    _dotjachq.reset(new SimpleMatrix(H_->size(0), H_->size(1)));
    _dotjachq->zero();
  }
  void computeh(const BlockVector& q, BlockVector&, SiconosVector& y) override {
    for (unsigned a = 0; a < y.size(); ++a) {
      double gap = (*b_)(a);
      for (unsigned i = 0; i < q.size(); ++i) gap += (*H_)(a, i) * q.getValue(i);
      y(a) = gap;
    }
  }
  void computeJachq(const BlockVector&, BlockVector&) override {}
  void computeDotJachq(const BlockVector&, BlockVector&, const BlockVector&) override {}

 private:
  SP::SimpleMatrix H_;
  SP::SiconosVector b_;
};

// NewMarkAlphaOSI(rho_inf, false) with two repairs of Siconos 4.4, both needed for any model with
// stiffness or damping (docs/siconos.md):
// - NewMarkAlphaOSI::computeW negates the dynamical system's own K and C in place
//   (`K = d->K(); if(K) *K *= -1.0;`, likewise C) each time it builds W, i.e. at
//   initialization and at every Newton iteration: the residual M a + C v + K q - F then uses
//   +K and -K on alternate iterations and the Newton iteration never converges. The integrator
//   is given back the DS's K and C after each call (W is built with the right signs).
// - EventDriven::newtonSolve loops `while(1 != 0)`, past its maximum number of iterations with a
//   warning only: a Newton iteration that does not converge hangs. Past kMaxNewtonIterations on
//   one interval the step fails instead, naming the interval.
class NewMarkAlphaKeepingKC : public NewMarkAlphaOSI {
 public:
  static constexpr int kMaxNewtonIterations = 1000;

  explicit NewMarkAlphaKeepingKC(double rho) : NewMarkAlphaOSI(rho, false) {}

  void initializeWorkVectorsForDS(double t, SP::DynamicalSystem ds) override {
    const KeptMatrices kept(ds);
    NewMarkAlphaOSI::initializeWorkVectorsForDS(t, ds);
  }

  void prepareNewtonIteration(double time) override {
    const std::pair<double, double> interval{simulation()->startingTime(), time};
    if (interval != interval_) {
      interval_ = interval;
      iterations_ = 0;
    }
    if (++iterations_ > kMaxNewtonIterations) {
      std::ostringstream message;
      message.precision(17);
      message << "NewMarkAlphaOSI's Newton iteration did not converge in " << kMaxNewtonIterations
              << " iterations on [" << interval.first << ", " << interval.second
              << "] (EventDriven::newtonSolve would iterate without end)";
      throw std::runtime_error(message.str());
    }
    std::vector<KeptMatrices> kept;
    DynamicalSystemsGraph::VIterator dsi, dsend;
    for (std::tie(dsi, dsend) = _dynamicalSystemsGraph->vertices(); dsi != dsend; ++dsi)
      if (checkOSI(dsi)) kept.emplace_back(_dynamicalSystemsGraph->bundle(*dsi));
    NewMarkAlphaOSI::prepareNewtonIteration(time);
  }

 private:
  // The DS's K and C, put back when the copy goes out of scope.
  class KeptMatrices {
   public:
    explicit KeptMatrices(const SP::DynamicalSystem& ds)
        : ds_(std::dynamic_pointer_cast<LagrangianLinearTIDS>(ds)) {
      if (ds_ && ds_->K()) K_.reset(new SimpleMatrix(*ds_->K()));
      if (ds_ && ds_->C()) C_.reset(new SimpleMatrix(*ds_->C()));
    }
    KeptMatrices(KeptMatrices&&) = default;
    ~KeptMatrices() {
      if (K_) *ds_->K() = *K_;
      if (C_) *ds_->C() = *C_;
    }

   private:
    SP::LagrangianLinearTIDS ds_;
    SP::SimpleMatrix K_, C_;
  };

  std::pair<double, double> interval_{0, 0};
  int iterations_{0};
};

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
  std::string contacts_report() const;
};

namespace {

// As Siconos' BouncingBallED example sets it up: LsodarOSI integrates the smooth flow between
// events (its root finder locates the gaps' zeros), EventDriven solves an impact LCP at each
// impact and an acceleration LCP for the contact forces of the closed contacts. LsodarOSI sets
// the interactions' levels itself (output 0..2, input 1..2) when simulation->initialize() runs.
// With NewMarkAlphaOSI, as Siconos' RockingBlockED_NewMarkAlpha example sets it up, EventDriven
// needs a third LCP, at position level (SICONOS_OSNSP_ED_SMOOTH_POS), for the contact forces
// inside each Newton iteration: EventDriven::insertIntegrator makes room for three problems, and
// EventDriven::initOSNS calls setInputOutputLevel on the third without checking that it was
// inserted, which is the segfault of a set-up with two (docs/siconos.md).
SP::Simulation event_driven_simulation(SP::NonSmoothDynamicalSystem nsds, SP::TimeDiscretisation td,
                                       const Options& options) {
  SP::EventDriven simulation(new EventDriven(nsds, td));
  const bool newmark = options.integrator == Options::Integrator::newmark_alpha;
  if (newmark) {
    simulation->insertIntegrator(SP::OneStepIntegrator(new NewMarkAlphaKeepingKC(options.rho)));
  } else {
    SP::LsodarOSI osi(new LsodarOSI());
    osi->setTol(1, options.rtol, options.atol);
    simulation->insertIntegrator(osi);
  }
  simulation->insertNonSmoothProblem(SP::OneStepNSProblem(new LCP(SICONOS_LCP_LEMKE)),
                                     SICONOS_OSNSP_ED_IMPACT);
  simulation->insertNonSmoothProblem(SP::OneStepNSProblem(new LCP(SICONOS_LCP_LEMKE)),
                                     SICONOS_OSNSP_ED_SMOOTH_ACC);
  if (newmark)
    simulation->insertNonSmoothProblem(SP::OneStepNSProblem(new LCP(SICONOS_LCP_LEMKE)),
                                       SICONOS_OSNSP_ED_SMOOTH_POS);
  return simulation;
}

}  // namespace

Simulation::Simulation(const LinearSystem& s, const Options& options) : impl_(new Impl) {
  Impl& x = *impl_;
  const bool event_driven = options.integrator == Options::Integrator::event_driven ||
                            options.integrator == Options::Integrator::newmark_alpha;
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
      SP::Relation relation;
      if (options.integrator == Options::Integrator::newmark_alpha)
        relation.reset(new LinearGapRelation(H, b));
      else
        relation.reset(new LagrangianLinearTIR(H, b));
      SP::NonSmoothLaw law(new NewtonImpactNSL(s.e[static_cast<std::size_t>(a)]));
      SP::Interaction inter(new Interaction(law, relation));
      nsds->link(inter, x.ds);
      x.contact_of[inter.get()] = a;
      x.interactions.push_back(inter);
    }
    // For EventDriven the grid t0 + k h is a set of time events: each nsh step ends on one.
    SP::TimeDiscretisation td(new TimeDiscretisation(s.t0, s.h));
    if (event_driven) {
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
  x.event_driven = event_driven;
  x.t0 = s.t0;
  x.h = s.h;
}

Simulation::~Simulation() = default;

void Simulation::step() {
  Impl& x = *impl_;
  try {
    guarded("step", [&] {
      if (x.event_driven)
        x.step_event_driven();
      else
        x.step_time_stepping();
    });
  } catch (const std::runtime_error& e) {
    if (!x.event_driven) throw;
    throw std::runtime_error(e.what() + x.contacts_report());
  }
}

// EventDriven's checks (updateIndexSet, updateIndexSetsWithDoubleCondition) throw on the values
// of the contacts' outputs and multipliers, which their messages do not give: the first few
// contacts of index set 1 with y(0..2) and lambda(1..2), as Siconos left them.
std::string Simulation::Impl::contacts_report() const {
  constexpr int kShown = 4;
  std::ostringstream out;
  out.precision(6);
  int shown = 0;
  for (std::size_t a = 0; a < interactions.size() && shown < kShown; ++a) {
    const Interaction& inter = *interactions[a];
    if (!inter.y(0) || (*inter.y(0))(0) > 1e-6) continue;
    out << (shown++ == 0 ? "; closed contacts at Siconos' time " : "; ")
        << (shown == 1 ? std::to_string(simulation->startingTime()) + ": " : "") << "contact " << a
        << ": y(0) = " << (*inter.y(0))(0) << ", y(1) = " << (*inter.y(1))(0)
        << ", y(2) = " << (*inter.y(2))(0) << ", lambda(1) = " << (*inter.lambda(1))(0)
        << ", lambda(2) = " << (*inter.lambda(2))(0);
  }
  return out.str();
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
