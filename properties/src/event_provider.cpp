// The "event-driven" property provider: the claims of the event-driven reference (claims.cpp)
// judged on its events, not on grid steps.
//
// Why a provider of its own: an impact inside (t_k, t_{k+1}] is followed by exact flow up to
// t_{k+1}, so the step-level predicates of predicates.hpp (U_{k+1} = -e U_k, one LCP per step)
// do not describe the reference. The same property names mean here:
//   newton_restitution        at every impact event with P^a > tol: U^a+ = -e^a min(U^a-, 0)
//   signorini_complementarity at every impact: 0 <= U+ + e min(U-, 0) _|_ P >= 0; a contact
//                             closes with U = 0; every gap at every grid point is >= -tol
//   impact_work_nonpositive   at every impact instant (simultaneous impacts summed):
//                             E+ - E- = 1/2 (U+ + U-)^T P, and <= 0 where every contact with
//                             P > 0 approaches (U- <= 0, Thomson-Tait); accumulations dissipate
//   energy_conservation       e = 1, C = 0, F constant: H = 1/2 v^T M v + 1/2 q^T K q - F^T q
//                             is the same at every grid point and across every impact
//   double_vs_real50          event-aware (see compare_traces below)
// This provider is registered before the built-in scheme provider, so it owns the specs of the
// event-driven family (the reference and the mutant:ed-* of nsh/properties/mutants.hpp) and
// checks these five properties on them; every other shared property falls through to the
// scheme provider, where event-driven claims nothing.
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>
#include <nsh/properties/check.hpp>
#include <nsh/properties/check_engine.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/properties/generators.hpp>
#include <nsh/properties/mutants.hpp>
#include <nsh/properties/predicates.hpp>
#include <nsh/properties/runner.hpp>

#include <fmt/format.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>

namespace nsh::properties {
namespace {

using Values = std::vector<std::pair<std::string, std::string>>;

const std::vector<std::string>& event_properties() {
  static const std::vector<std::string> names{"newton_restitution", "signorini_complementarity",
                                              "impact_work_nonpositive", "energy_conservation",
                                              "double_vs_real50"};
  return names;
}

const PropertyDescription& energy_conservation_description() {
  static const PropertyDescription d{
      "energy_conservation",
      "H = 1/2 v^T M v + 1/2 q^T K q - F^T q is constant along the trajectory (every grid "
      "point) and across every impact",
      "e = 1, C = 0, F constant (no harmonic force): an exact flow with elastic impacts",
      "1024 (n+m+1)(n+1)(steps+events+1) eps times the scale of the energy terms"};
  return d;
}

/// The event-level statement shown in a verdict (the listing keeps the step-level one).
std::string event_statement(const std::string& property) {
  if (property == "newton_restitution")
    return "at every impact event with P^a > tol: U^a+ = -e^a min(U^a-, 0)";
  if (property == "signorini_complementarity")
    return "at every impact 0 <= U+ + e min(U-, 0) _|_ P >= 0, a contact closes with U = 0, "
           "g >= -tol at every grid point";
  if (property == "impact_work_nonpositive")
    return "at every impact instant E+ - E- = 1/2 (U+ + U-)^T P, <= 0 where U- <= 0 on every "
           "contact with P > 0; accumulations dissipate";
  if (property == "energy_conservation") return energy_conservation_description().statement;
  return "event-aware: same events (kind, contact) at times within the event-location "
         "tolerance, same U-, U+, P, E at them; same states at grid points farther than that "
         "tolerance from every event";
}

bool event_family(const std::string& spec) {
  try {
    const SchemeSpec parsed = SchemeSpec::parse(spec);
    if (!Registry::builtin().contains(parsed.name())) return false;
    return Registry::builtin().make<double>(spec)->info().family == "event-driven";
  } catch (const InputError&) {
    return false;
  }
}

struct Scales {
  double v{1}, p{1}, g{1}, e{1}, ops{1};
  double a{1};  ///< bound of a gap's acceleration, |G| |M^-1| n |f|
};

/// Velocity, impulse, gap and energy scales of a run, and the rounding-step count.
Scales scales_of(const LinearModel<double>& model, const EventTrace<double>& trace) {
  Scales s;
  double vmax = 0, qmax = 0, umax = 0, pmax = 0;
  for (const auto& x : trace.grid) {
    vmax = std::max(vmax, max_abs(x.v));
    qmax = std::max(qmax, max_abs(x.q));
  }
  for (const auto& ev : trace.events) {
    umax = std::max({umax, std::abs(ev.U_minus), std::abs(ev.U_plus)});
    pmax = std::max(pmax, std::abs(ev.impulse));
  }
  const double G = max_abs(model.G);
  const auto positive = [](double x) { return x > 0 ? x : 1.0; };
  s.v = positive(umax + G * vmax);
  s.p = positive(pmax + max_abs(model.M) * vmax);
  // A resting contact's gap is a difference of terms of size |U| T and |a| T^2 over the span.
  const double span = trace.grid.back().t - trace.grid.front().t;
  double mass = model.M(0, 0);
  for (Index i = 1; i < model.dofs(); ++i) mass = std::min(mass, model.M(i, i));
  const double force = max_abs(model.F) + max_abs(model.F_amplitude) + max_abs(model.K) * qmax +
                       max_abs(model.C) * vmax;
  s.g = positive(G * qmax + max_abs(model.w) + G * (vmax * span + force / mass * span * span));
  // H = E - F^T q: F^T q is rounded at |F| times the position scale of the gaps.
  s.e = positive(max_abs(model.M) * vmax * vmax + max_abs(model.K) * qmax * qmax +
                 max_abs(model.F) * (qmax + s.g) + s.v * s.p +
                 max_abs(model.M) * vmax * force / mass * span);
  const double n = static_cast<double>(model.dofs());
  const double m = static_cast<double>(model.contacts());
  s.ops = 1024 * (n + m + 1) * (n + 1);
  // M^-1, not 1/min M_ii: a coupled mass (M = I + 16 ones) has M_ii = 17 and |M^-1| = 1.
  const Matrix<double> inverse =
      model.M.ldlt().solve(Matrix<double>::Identity(model.dofs(), model.dofs()));
  s.a = positive(G * max_abs(inverse) * n * force);
  return s;
}

Judgement broken(std::string detail, Values values) {
  Judgement j;
  j.holds = false;
  j.detail = std::move(detail);
  j.values = std::move(values);
  return j;
}

std::string txt(double x) {
  return format_scalar(x);
}

double restitution(const LinearModel<double>& model, Index a) {
  return a < model.e.size() ? model.e(a) : 0.0;
}

Judgement newton_at_events(const LinearModel<double>& model, const EventTrace<double>& trace) {
  const Scales s = scales_of(model, trace);
  const double vtol = tolerance<double>(s.v, s.ops), ptol = tolerance<double>(s.p, s.ops);
  for (const auto& ev : trace.events) {
    if (ev.kind != EventKind::impact || !(ev.impulse > ptol)) continue;
    const double e = restitution(model, ev.contact);
    const double target = -e * std::min(ev.U_minus, 0.0);
    if (std::abs(ev.U_plus - target) > vtol)
      return broken(fmt::format("impact at t = {} on contact {}: P = {} > 0 but U+ = {} != "
                                "-e min(U-, 0) = {}",
                                format_short(ev.t), ev.contact, format_short(ev.impulse),
                                format_short(ev.U_plus), format_short(target)),
                    {{"t", txt(ev.t)},
                     {"contact", std::to_string(ev.contact)},
                     {"U-", txt(ev.U_minus)},
                     {"U+", txt(ev.U_plus)},
                     {"e", txt(e)},
                     {"P", txt(ev.impulse)},
                     {"tolerance", txt(vtol)}});
  }
  return {};
}

Judgement signorini_at_events(const LinearModel<double>& model, const EventTrace<double>& trace) {
  const Scales s = scales_of(model, trace);
  const double vtol = tolerance<double>(s.v, s.ops), ptol = tolerance<double>(s.p, s.ops);
  const double gtol = tolerance<double>(s.g, s.ops);
  for (const auto& ev : trace.events) {
    if (ev.kind == EventKind::contact_closes && std::abs(ev.U_plus) > vtol)
      return broken(fmt::format("contact {} closes at t = {} with U = {} != 0", ev.contact,
                                format_short(ev.t), format_short(ev.U_plus)),
                    {{"t", txt(ev.t)}, {"U", txt(ev.U_plus)}, {"tolerance", txt(vtol)}});
    if (ev.kind != EventKind::impact) continue;
    const double w = ev.U_plus + restitution(model, ev.contact) * std::min(ev.U_minus, 0.0);
    const double P = ev.impulse;
    if (P < -ptol || w < -vtol || std::abs(P * w) > ptol * std::abs(w) + vtol * std::abs(P))
      return broken(fmt::format("impact at t = {} on contact {} breaks 0 <= U+ + e min(U-, 0) = "
                                "{} _|_ P = {} >= 0",
                                format_short(ev.t), ev.contact, format_short(w), format_short(P)),
                    {{"t", txt(ev.t)},
                     {"U-", txt(ev.U_minus)},
                     {"U+", txt(ev.U_plus)},
                     {"P", txt(P)},
                     {"velocity tolerance", txt(vtol)},
                     {"impulse tolerance", txt(ptol)}});
  }
  for (std::size_t k = 0; k < trace.grid.size(); ++k) {
    const Vector<double> g = model.gap(trace.grid[k].q);
    for (Index a = 0; a < g.size(); ++a)
      if (g(a) < -gtol)
        return broken(fmt::format("grid point {} (t = {}): contact {} penetrates, g = {}", k,
                                  format_short(trace.grid[k].t), a, format_short(g(a))),
                      {{"t", txt(trace.grid[k].t)},
                       {fmt::format("g[{}]", a), txt(g(a))},
                       {"tolerance", txt(gtol)}});
  }
  return {};
}

Judgement impact_work_at_events(const LinearModel<double>& model, const EventTrace<double>& trace) {
  const Scales s = scales_of(model, trace);
  const double vtol = tolerance<double>(s.v, s.ops), ptol = tolerance<double>(s.p, s.ops);
  const double etol = tolerance<double>(s.e, s.ops);
  const auto& evs = trace.events;
  for (std::size_t i = 0; i < evs.size();) {
    const EventKind kind = evs[i].kind;
    if (kind != EventKind::impact && kind != EventKind::accumulation) {
      ++i;
      continue;
    }
    // One impact instant: the consecutive events of that kind at the same time.
    std::size_t j = i;
    double W = 0;
    bool approaching = true;
    while (j < evs.size() && evs[j].kind == kind && evs[j].t == evs[i].t) {
      W += (evs[j].U_plus + evs[j].U_minus) * evs[j].impulse / 2;
      approaching = approaching && (evs[j].impulse <= ptol || evs[j].U_minus <= vtol);
      ++j;
    }
    const double dE = evs[i].E_after - evs[i].E_before;
    Values values{{"t", txt(evs[i].t)},
                  {"kind", to_string(kind)},
                  {"E+ - E-", txt(dE)},
                  {"1/2 (U+ + U-)^T P", txt(W)},
                  {"tolerance", txt(etol)}};
    if (kind == EventKind::impact && std::abs(dE - W) > etol)
      return broken(fmt::format("impact at t = {}: E+ - E- = {} but 1/2 (U+ + U-)^T P = {}",
                                format_short(evs[i].t), format_short(dE), format_short(W)),
                    values);
    if ((kind == EventKind::accumulation || approaching) && dE > etol)
      return broken(fmt::format("{} at t = {} gains energy: E+ - E- = {} > 0", to_string(kind),
                                format_short(evs[i].t), format_short(dE)),
                    values);
    i = j;
  }
  return {};
}

Judgement energy_conserved(const LinearModel<double>& model, const EventTrace<double>& trace) {
  const Scales s = scales_of(model, trace);
  const double ops = s.ops * static_cast<double>(trace.grid.size() + trace.events.size() + 1);
  const double etol = tolerance<double>(s.e, ops);
  const auto H = [&](const State<double>& x) { return model.energy(x.q, x.v) - model.F.dot(x.q); };
  const double H0 = H(trace.grid.front());
  for (std::size_t k = 1; k < trace.grid.size(); ++k) {
    const double dH = H(trace.grid[k]) - H0;
    if (std::abs(dH) > etol)
      return broken(fmt::format("grid point {} (t = {}): H - H_0 = {} != 0", k,
                                format_short(trace.grid[k].t), format_short(dH)),
                    {{"H_0", txt(H0)},
                     {"H", txt(H(trace.grid[k]))},
                     {"H - H_0", txt(dH)},
                     {"tolerance", txt(etol)}});
  }
  for (const auto& ev : trace.events)
    if (ev.kind == EventKind::impact && std::abs(ev.E_after - ev.E_before) > etol)
      return broken(fmt::format("elastic impact at t = {} changes E by {}", format_short(ev.t),
                                format_short(ev.E_after - ev.E_before)),
                    {{"E-", txt(ev.E_before)}, {"E+", txt(ev.E_after)}, {"tolerance", txt(etol)}});
  return {};
}

/// What a double run of the reference resolves: its scales, its gap tolerance, the time
/// rounding, the grazing speed below which an event velocity has no reliable digit, and the
/// window within which Real50 impacts belong to a double accumulation.
struct Resolution {
  Scales scales;
  double gap{0}, time_round{0}, grazing{0}, accumulation_window{0};
  /// max over contacts of |M^-1 G_a|_inf / W_aa: the generalized velocity an impulse moves per
  /// unit of the local velocity it changes (the grid's share of an event's location error).
  double velocity_per_local{0};

  /// Where an event of approach speed |U-| is located: a root of g is found to a gap error, i.e.
  /// to a time error of that over the speed (a grazing one only to sqrt(gtol)), plus the rounding
  /// of t itself.
  double tau(double speed) const {
    speed = std::abs(speed);
    return (speed > grazing ? gap / speed : std::sqrt(gap)) + time_round;
  }
};

Resolution resolution_of(const LinearModel<double>& model, const EventTrace<double>& d) {
  Resolution out;
  out.scales = scales_of(model, d);
  const Scales& s = out.scales;
  const double eps = epsilon<double>();
  out.gap = tolerance<double>(s.g, s.ops);
  double t_scale = 1;
  for (const auto& x : d.grid) t_scale = std::max(t_scale, std::abs(x.t));
  out.time_round = tolerance<double>(t_scale, s.ops);
  // An event velocity U is known to a * tau = a gtol / |U| (the event is located to a gap error,
  // i.e. a time error gtol / |U|, during which the gap's acceleration, up to a, changes U): it has
  // no reliable digit below sqrt(a gtol), which makes such an impact grazing (a near-tie).
  out.grazing = std::max(std::sqrt(eps) * s.v, std::sqrt(s.a * out.gap));
  out.accumulation_window = 1024 * 1024 * 64 * eps * t_scale;
  const Matrix<double> Minv_G = model.M.ldlt().solve(model.G);
  for (Index a = 0; a < model.G.cols(); ++a) {
    const double W = model.G.col(a).dot(Minv_G.col(a));
    if (W > 0)
      out.velocity_per_local =
          std::max(out.velocity_per_local, max_abs(Vector<double>(Minv_G.col(a))) / W);
  }
  return out;
}

/// The grid steps the Real50 run needs for compare_traces: it stops at the double run's first
/// grazing impact (item 3), so nothing past that impact plus the largest matching window is
/// read. A Zeno cluster's slow impacts, which Real50 resolves into many more events than double
/// before it sees the accumulation, were most of the property's cost.
int steps_compared(const Resolution& r, const EventTrace<double>& d, double h, int steps) {
  for (const auto& ev : d.events)
    if (ev.kind == EventKind::impact && std::abs(ev.U_minus) <= r.grazing) {
      const double window = r.gap / r.grazing + r.time_round + r.accumulation_window;
      const double needed = std::ceil((ev.t + window - d.grid.front().t) / h) + 1;
      return needed < static_cast<double>(steps) ? static_cast<int>(needed) : steps;
    }
  return steps;
}

/// True when `events` has an impact on `contact` within that impact's location tolerance of t,
/// times `factor` (the run's amplification of its errors, compare_traces item 5; 1 without).
template <class Scalar>
bool impact_near(const std::vector<Event<Scalar>>& events, Index contact, double t,
                 const Resolution& r, double factor = 1) {
  return std::any_of(events.begin(), events.end(), [&](const Event<Scalar>& e) {
    return e.kind == EventKind::impact && e.contact == contact &&
           std::abs(scalar_cast<double>(e.t) - t) <= factor * r.tau(scalar_cast<double>(e.U_minus));
  });
}

/// True when the impacts simultaneous with `a` (double) and with `b` (its Real50 match) differ
/// only by contacts whose impact the other run places within that impact's location tolerance
/// tau_c = gap tolerance / |U_c-| of a's time: simultaneity is decided to the gap's rounding
/// (two contacts that close 5e-8 apart at 9e-7 m/s, with 4e-14 of gap between them, are one
/// simultaneous impact in double and two in Real50), and a simultaneous impact splits its
/// impulse between its contacts, so U and P legitimately differ from there on. A sibling the
/// other run does not have near a's time is no tie: the comparison goes on and finds it.
bool simultaneity_tie(const std::vector<Event<double>>& d, const std::vector<Event<Real50>>& r,
                      const Event<double>& a, const Event<Real50>& b, const Resolution& res) {
  const auto siblings = [](const auto& events, const auto& event) {
    std::vector<Index> out;
    for (const auto& e : events)
      if (e.kind == EventKind::impact && e.t == event.t && e.contact != event.contact)
        out.push_back(e.contact);
    std::sort(out.begin(), out.end());
    return out;
  };
  const std::vector<Index> in_d = siblings(d, a), in_r = siblings(r, b);
  if (in_d == in_r) return false;
  for (Index c : in_d)
    if (std::find(in_r.begin(), in_r.end(), c) == in_r.end() && !impact_near(r, c, a.t, res))
      return false;
  for (Index c : in_r)
    if (std::find(in_d.begin(), in_d.end(), c) == in_d.end() && !impact_near(d, c, a.t, res))
      return false;
  return true;
}

/// True when the double impact `a` and the Real50 impact `b` it meets instead of its match are
/// an order tie: two contacts that close within their location tolerances of each other, each
/// run impacting both of them there (double a's contact then b's, Real50 the other way round,
/// or one simultaneous impact in one of them). Which comes first is decided by rounding, and the
/// impulses differ from there on (found by the 10^5-case run of seed 7, shard 0: two impacts
/// 2e-15 apart, tau = 2.8e-8). With a factor > 1 the tolerances are the amplified ones of a run
/// that amplifies its own errors (compare_traces, item 5): its impacts drift by that much, and
/// two contacts' impacts that close within the drift swap order (the 10^5-case run of seed 7,
/// shard 8: 7e-6 apart against tau = 1.2e-7, where 16 eps in v0 moves U by 1e-6).
bool order_tie(const std::vector<Event<double>>& d, const std::vector<Event<Real50>>& r,
               const Event<double>& a, const Event<Real50>& b, const Resolution& res,
               double factor = 1) {
  if (a.kind != EventKind::impact || b.kind != EventKind::impact || a.contact == b.contact)
    return false;
  const double tb = scalar_cast<double>(b.t);
  const double tau_b = res.tau(scalar_cast<double>(b.U_minus));
  return std::abs(tb - a.t) <= factor * (res.tau(a.U_minus) + tau_b) &&
         impact_near(r, a.contact, a.t, res, factor) && impact_near(d, b.contact, tb, res, factor);
}

/// A matched impact of the comparison: its contact, its double time, the time offset of the
/// double impact from its Real50 match, and their difference in U+.
struct MatchedImpact {
  Index contact{0};
  double t{0}, offset{0}, U_plus_difference{0};
};

/// The window within which an impact must meet its Real50 match when the previous matched event
/// was an impact on the same contact (a contact bouncing: no other event between them). The two
/// runs then differ by a time shift (the previous offset) and a residual whose gap on this
/// contact is zero at the previous impact (both runs are at their own root there) and whose
/// local velocity is the observed difference in U+; over the flight of length s that residual
/// moves the gap by s dU+ (to first order; twice that covers the curvature), so the impact comes
/// s dU+ / |U-| later or earlier, plus its own location tolerance tau. Without it, a run of many
/// slow impacts reads as a late event: in the 10^5-case run (seed 7, shard 4;
/// docs/data/false-alarm-seed7-shard4.json, docs/coverage.md) a grid point re-reads the gap from
/// the positions after 368 bounces, which relocates the 369th impact 8.4e-13 s early (a gap
/// error of 1.3e-14 at |U-| = 0.0157), leaves 6.3e-10 in U+, and each of the next 1070 flights
/// adds 1.7e-12 s: 2.0e-9 at the end, against tau = 1.96e-9. Each impact is still held to its
/// own tau around what the previous one carries, so a late event is caught where it happens.
double consecutive_impact_window(const MatchedImpact& previous, const Event<double>& a, double tau,
                                 double grazing) {
  if (a.kind != EventKind::impact || a.contact != previous.contact) return tau;
  const double flight = a.t - previous.t;
  const double speed = std::max(std::abs(a.U_minus), grazing);
  return std::abs(previous.offset) + tau +
         2 * flight * std::abs(previous.U_plus_difference) / speed;
}

/// The relative perturbation of the initial velocity in the conditioning run: a few roundings.
constexpr double conditioning_perturbation = 16;  // in eps

/// The initial state with v_i scaled by 1 +- 16 eps (alternating signs): position and gaps
/// untouched, so the perturbed state is as admissible as the original.
State<double> perturbed_initial(const State<double>& x0) {
  State<double> out = x0;
  const double eps = epsilon<double>();
  for (Index i = 0; i < out.v.size(); ++i)
    out.v(i) *= 1 + (i % 2 == 0 ? 1 : -1) * conditioning_perturbation * eps;
  return out;
}

/// The twin run of Amplification and the size of its initial perturbation, in v and in U.
struct PerturbedRun {
  std::function<const EventTrace<double>&()> run;  ///< runs on the first call; may throw
  double size_v{0}, size_U{0};
};

/// How much the run's dynamics has amplified an initial error by time t, measured against its
/// perturbed twin p (the same scheme in double from perturbed_initial, run on the first
/// question): the largest |q_d - q_p| + |v_d - v_p| over the grid points up to t away from both
/// runs' events (2 tau), over the perturbation's size in v, and the largest difference in U-
/// or U+ over the events up to t while both runs have the same events (kind, contact), over its
/// size in U. The run's own errors (rounding, impacts' location) are made along the way, each
/// amplified from where it is made, so by no more than this (linearized, as if made at t0).
/// Where p's events differ from d's (a tie the perturbation decided otherwise), the grid
/// points next to them are skipped like d's and the event part stops.
class Amplification {
 public:
  Amplification(const Resolution& resolution, const EventTrace<double>& d, const PerturbedRun& twin,
                double tau_max)
      : resolution_(resolution), d_(d), twin_(twin), tau_max_(tau_max) {}

  /// At least 1; the twin runs, and the envelopes below are built, on the first call.
  double by(double t) {
    if (!measured_) measure();
    // Both lists are running maxima in time order: the last entry at or before t.
    const auto upto = [t](const std::vector<double>& growth, const std::vector<double>& times) {
      const auto after = std::upper_bound(times.begin(), times.end(), t);
      return after == times.begin() ? 1.0
                                    : growth[static_cast<std::size_t>(after - times.begin() - 1)];
    };
    return std::max(upto(grid_, grid_times_), upto(events_, event_times_));
  }

 private:
  // grid_[j], events_[i]: the largest growth measured up to grid point j, up to event i (at
  // least 1), at the times grid_times_[j], event_times_[i].
  void measure() {
    measured_ = true;
    // v0 = 0: nothing perturbed, nothing measured. A twin that cannot run measures nothing
    // either: the unamplified tolerance then stands (a refusal would hide the failing check).
    if (!(twin_.size_v > 0)) return;
    const EventTrace<double>* twin = nullptr;
    try {
      twin = &twin_.run();
    } catch (const StepError&) {
      return;
    }
    const EventTrace<double>& p = *twin;
    std::vector<double> times;
    double tau_p = tau_max_;
    for (const auto* trace : {&d_, &p})
      for (const auto& ev : trace->events) {
        times.push_back(ev.t);
        tau_p = std::max(tau_p, resolution_.tau(ev.U_minus));
      }
    for (std::size_t j = 0; j < d_.grid.size() && j < p.grid.size(); ++j) {
      const double tj = d_.grid[j].t;
      double spread = 0;
      if (std::none_of(times.begin(), times.end(),
                       [&](double te) { return std::abs(te - tj) <= 2 * tau_p; }))
        for (Index i = 0; i < d_.grid[j].q.size(); ++i)
          spread = std::max(spread, std::abs(d_.grid[j].q(i) - p.grid[j].q(i)) +
                                        std::abs(d_.grid[j].v(i) - p.grid[j].v(i)));
      grid_.push_back(std::max(grid_.empty() ? 1.0 : grid_.back(), spread / twin_.size_v));
      grid_times_.push_back(tj);
    }
    if (twin_.size_U > 0)
      for (std::size_t i = 0; i < d_.events.size() && i < p.events.size(); ++i) {
        const Event<double>& a = d_.events[i];
        const Event<double>& b = p.events[i];
        if (a.kind != b.kind || a.contact != b.contact) break;
        const double growth =
            std::max(std::abs(a.U_minus - b.U_minus), std::abs(a.U_plus - b.U_plus)) / twin_.size_U;
        events_.push_back(std::max(events_.empty() ? 1.0 : events_.back(), growth));
        event_times_.push_back(a.t);
      }
  }

  const Resolution& resolution_;
  const EventTrace<double>& d_;
  const PerturbedRun& twin_;
  double tau_max_;
  bool measured_{false};
  std::vector<double> grid_, events_, grid_times_, event_times_;
};

/// double_vs_real50, event-aware. A double and a Real50 run can place one event on different
/// sides of a grid point (the event times differ by the double's location error), so a plain
/// grid comparison sees an O(|[v]|) difference there. The comparison instead
///  1. matches the events in order: same kind and contact, times within the event-location
///     tolerance tau = gap tolerance / |U-| + time rounding (a root of g is located to a gap
///     error, i.e. to a time error of that over the approach speed; an impact that follows an
///     impact on the same contact is held to tau around what that one carries,
///     consecutive_impact_window), U-, U+, P and E within the
///     double tolerances plus what the location error allows (U changes by a tau). Real50 impacts
///     at a contact that double summarized by an accumulation (the accumulation threshold is 1024
///     time tolerances, precision-dependent) are absorbed when they lie within that window of the
///     double accumulation;
///  2. compares the states at the grid points farther than tau from every event of either run;
///  3. stops (and holds) at the first structural mismatch that is a near-tie: a grazing impact
///     (|U-| <= max(sqrt(eps) |U|, sqrt(a gtol)): an event velocity is known to a tau, a the
///     gap's acceleration bound, so it has no reliable digit below sqrt(a gtol)), a contact-mode
///     decision (closes/opens) one run takes and the other does not (the acceleration LCP's b
///     within rounding of zero: the random models hit exact ties such as g'' = 0), or an
///     accumulation next to an event of the other run. Impacts with |U-| above that threshold must
///     always match: a late or early impact fails (except within tau of the horizon, where one run
///     may place it just past the end);
///  4. stops (and holds) at a matched impact whose simultaneous companions differ between the
///     runs only by impacts the other run places within their location tolerance
///     (simultaneity_tie: found by the 300-case run of seed 1, a Zeno cluster of three contacts),
///     and at an unmatched impact that meets, instead of its match, an impact of the other run on
///     another contact within their location tolerances, both runs impacting both contacts there
///     (order_tie: found by the 10^5-case run of seed 7).
///  5. holds a grid point to its rounding and the impacts' location error, the errors the run
///     makes, times how much the run's dynamics has amplified an error by then, where that
///     exceeds 1, and an event's time, U and P likewise: the same scheme in double from an
///     initial velocity perturbed by a few roundings (`perturbed`, run only when an
///     unamplified tolerance is exceeded) measures it (Amplification). A double run can match
///     Real50 no closer: two contacts rattling, e = 1 against e = 1/2, amplify 1e-15 in v0 to
///     1.3e-8 in U within 0.077 s (the 10^5-case run of seed 7, shard 1; docs/coverage.md),
///     where the double and Real50 runs differed by 2.6e-9 against 5.4e-10 of rounding and
///     location error. Item 4's order tie is asked again at the amplified location tolerances:
///     the drift reorders two contacts' impacts that close within it (shard 8, where 16 eps in
///     v0 moves U by 1e-6 within 0.027 s). A grid point between a matched pair's two times is
///     not compared (it sees the jump in one run only).
Judgement compare_traces(const Resolution& resolution, const EventTrace<double>& d,
                         const EventTrace<Real50>& r, const PerturbedRun& perturbed) {
  const Scales& s = resolution.scales;
  const double eps = epsilon<double>();
  const double vtol = tolerance<double>(s.v, s.ops), ptol = tolerance<double>(s.p, s.ops);
  const double gtol = resolution.gap, grazing = resolution.grazing;
  const double time_round = resolution.time_round;
  const auto tau_of = [&](const Event<double>& ev) { return resolution.tau(ev.U_minus); };
  const double accumulation_window = resolution.accumulation_window;
  const double t_end = d.grid.back().t;
  // The times around which grid points are not compared: every event of either run, and the
  // span between a matched pair's two times (a grid point between them sees the jump in one
  // run and not yet in the other; an amplified match can be many tau apart).
  std::vector<std::pair<double, double>> event_spans;
  const auto at = [&](double t) { event_spans.emplace_back(t, t); };
  double stop_at = std::numeric_limits<double>::infinity();
  std::size_t j = 0;
  const auto& R = r.events;
  double tau_max = time_round;
  for (const auto& ev : d.events) tau_max = std::max(tau_max, tau_of(ev));
  tau_max = std::max(tau_max, accumulation_window);
  Amplification amplified(resolution, d, perturbed, tau_max);
  // The last matched event, when it is an impact: what the next impact on the same contact
  // inherits (consecutive_impact_window).
  std::optional<MatchedImpact> previous;
  for (std::size_t i = 0; i < d.events.size() && stop_at == std::numeric_limits<double>::infinity();
       ++i) {
    const Event<double>& a = d.events[i];
    const double tau = tau_of(a);
    at(a.t);
    if (a.kind == EventKind::accumulation)
      while (j < R.size() && R[j].contact == a.contact && R[j].kind == EventKind::impact &&
             scalar_cast<double>(R[j].t) <= a.t + accumulation_window) {
        at(scalar_cast<double>(R[j].t));
        ++j;
      }
    const double window = a.kind == EventKind::accumulation ? accumulation_window
                          : previous ? consecutive_impact_window(*previous, a, tau, grazing)
                                     : tau;
    const bool same = j < R.size() && R[j].kind == a.kind && R[j].contact == a.contact;
    const double offset = same ? std::abs(scalar_cast<double>(R[j].t) - a.t) : 0.0;
    // A time error grows with the run's amplification of its errors (item 5).
    const bool matched = same && (offset <= window || offset <= window * amplified.by(a.t));
    if (!matched) {
      const bool near_other = std::any_of(R.begin(), R.end(), [&](const Event<Real50>& b) {
        return std::abs(scalar_cast<double>(b.t) - a.t) <= tau;
      });
      // A contact-mode decision the precisions take differently is a near-tie of the
      // acceleration LCP (its b within rounding of 0, e.g. an exact g'' = 0 of the data).
      const bool mode = a.kind == EventKind::contact_closes || a.kind == EventKind::contact_opens;
      const bool mode_r = j < R.size() && (R[j].kind == EventKind::contact_closes ||
                                           R[j].kind == EventKind::contact_opens);
      // An event within tau of the horizon may fall just past it in the other run.
      const bool horizon = std::abs(a.t - t_end) <= tau;
      const bool tie = (a.kind == EventKind::impact && std::abs(a.U_minus) <= grazing) || mode ||
                       mode_r || horizon || (a.kind == EventKind::accumulation && near_other) ||
                       (j < R.size() && order_tie(d.events, R, a, R[j], resolution));
      // The same tie at the drift the run's amplification of its errors allows (item 5): asked
      // only here, where the comparison would otherwise fail, so the twin runs only then.
      if (tie || (j < R.size() && order_tie(d.events, R, a, R[j], resolution, amplified.by(a.t)))) {
        // Held up to the first event either run has unmatched (Real50's may come first).
        stop_at = (j < R.size() ? std::min(a.t, scalar_cast<double>(R[j].t)) : a.t) - tau;
        break;
      }
      Values values{{"double event", fmt::format("{} contact {} at t = {}", to_string(a.kind),
                                                 a.contact, txt(a.t))},
                    {"tau", txt(tau)},
                    {"amplification of an initial error", txt(amplified.by(a.t))}};
      if (j < R.size())
        values.push_back(
            {"Real50 event", fmt::format("{} contact {} at t = {}", to_string(R[j].kind),
                                         R[j].contact, format_scalar(R[j].t))});
      return broken(fmt::format("event {} ({} on contact {} at t = {}) has no Real50 match", i,
                                to_string(a.kind), a.contact, format_short(a.t)),
                    std::move(values));
    }
    const Event<Real50>& b = R[j];
    event_spans.emplace_back(std::min(a.t, scalar_cast<double>(b.t)),
                             std::max(a.t, scalar_cast<double>(b.t)));
    previous.reset();
    if (a.kind == EventKind::impact)
      previous = MatchedImpact{a.contact, a.t, a.t - scalar_cast<double>(b.t),
                               a.U_plus - scalar_cast<double>(b.U_plus)};
    if (a.kind == EventKind::impact &&
        (std::abs(a.U_minus) <= grazing || simultaneity_tie(d.events, R, a, b, resolution))) {
      stop_at = a.t - tau;
      break;
    }
    const double dU = std::max(std::abs(a.U_minus - scalar_cast<double>(b.U_minus)),
                               std::abs(a.U_plus - scalar_cast<double>(b.U_plus)));
    const double dP = std::abs(a.impulse - scalar_cast<double>(b.impulse));
    // Each event starts from the state the previous ones rounded: the error grows with i. Its
    // time is known to tau, during which U changes by up to a tau, and P with it (P is the
    // impulse that reverses U: up to twice the impulse per unit of velocity, p / v).
    const double grow = static_cast<double>(i + 1);
    const double located = a.kind == EventKind::impact ? s.a * tau : 0.0;
    const double U_tol = grow * vtol + located, P_tol = grow * ptol + 2 * (s.p / s.v) * located;
    const auto exceeds = [&](double factor) { return dU > factor * U_tol || dP > factor * P_tol; };
    if (a.kind != EventKind::accumulation && exceeds(1) && exceeds(amplified.by(a.t)))
      return broken(fmt::format("event {} ({} on contact {} at t = {}): double and Real50 differ "
                                "by {} in U, {} in P",
                                i, to_string(a.kind), a.contact, format_short(a.t),
                                format_short(dU), format_short(dP)),
                    {{"U- (double)", txt(a.U_minus)},
                     {"U- (Real50)", format_scalar(b.U_minus)},
                     {"U+ (double)", txt(a.U_plus)},
                     {"U+ (Real50)", format_scalar(b.U_plus)},
                     {"P (double)", txt(a.impulse)},
                     {"P (Real50)", format_scalar(b.impulse)},
                     {"amplification of an initial error", txt(amplified.by(a.t))}});
    ++j;
  }
  if (stop_at == std::numeric_limits<double>::infinity())
    for (; j < R.size(); ++j) {
      // Real50 events double does not have: only a grazing impact or the tail an accumulation
      // absorbed (past the horizon of the double's list) may remain.
      const Event<Real50>& b = R[j];
      const double speed = std::abs(scalar_cast<double>(b.U_minus));
      const double tb = scalar_cast<double>(b.t);
      if (speed > grazing && std::abs(tb - t_end) <= gtol / speed + time_round) {
        at(tb);  // the last grid point is then not compared
        continue;
      }
      const bool mode_b = b.kind == EventKind::contact_closes || b.kind == EventKind::contact_opens;
      if ((b.kind == EventKind::impact && speed <= grazing) || mode_b) {
        stop_at = scalar_cast<double>(b.t) - std::sqrt(gtol);
        break;
      }
      return broken(fmt::format("Real50 event {} ({} on contact {} at t = {}) has no double match",
                                j, to_string(b.kind), b.contact, format_scalar(b.t)),
                    {{"Real50 U-", format_scalar(b.U_minus)}});
    }
  // What an impact's location error leaves in the state after it. The root of the gap is
  // found to the gap's rounding, a few eps g (4: the root finder's bracket and the gap's own
  // evaluation), i.e. to a time error 4 eps g / |U-|, during which the gap's acceleration (up
  // to a) changes U-; the reversal (1 + e <= 2 times U-) carries that into v as an impulse
  // error, |M^-1 G| / W_aa per unit of U, and the position drifts by that velocity error over
  // the time since. (Not the event check's tau, which is a tolerance for locating an event,
  // not the run's actual error: 2e5 times too large here.) 170 elastic impacts at
  // |U-| = 0.0157, a five-hundredth of the velocity scale, left 1.7e-9 in v (seed 3,
  // docs/data/false-alarm-seed3-micro-bounces.json) against a rounding tolerance of 8e-10; this
  // term adds 1.7e-8 there, and without it that case fails.
  const auto carried = [&](double t) {
    double sum = 0;
    for (const auto& ev : d.events)
      if (ev.kind == EventKind::impact && ev.t < t && ev.U_minus != 0)
        sum += 2 * s.a * (4 * eps * s.g / std::abs(ev.U_minus)) * resolution.velocity_per_local *
               (1 + (t - ev.t));
    return sum;
  };
  for (std::size_t k = 0; k < d.grid.size() && k < r.grid.size(); ++k) {
    const double t = d.grid[k].t;
    if (t >= stop_at) break;
    if (std::any_of(event_spans.begin(), event_spans.end(), [&](const auto& span) {
          return t >= span.first - 2 * tau_max && t <= span.second + 2 * tau_max;
        }))
      continue;
    const State<double>& x = d.grid[k];
    const State<Real50> y = r.grid[k];
    double diff = 0;
    for (Index i = 0; i < x.q.size(); ++i)
      diff = std::max(diff, std::abs(x.q(i) - scalar_cast<double>(y.q(i))) +
                                std::abs(x.v(i) - scalar_cast<double>(y.v(i))));
    const double rounding = 1024 * static_cast<double>(k + 1 + d.events.size()) *
                            static_cast<double>(x.q.size() + 1) * eps *
                            (1 + max_abs(x.q) + max_abs(x.v));
    const double located = carried(t);
    if (diff <= rounding + located) continue;
    const double growth = amplified.by(t);
    const double tol = (rounding + located) * growth;
    if (diff > tol)
      return broken(fmt::format("grid point {} (t = {}), away from every event: |q_d - q_50| + "
                                "|v_d - v_50| = {}",
                                k, format_short(t), format_short(diff)),
                    {{"difference", txt(diff)},
                     {"tolerance", txt(tol)},
                     {"of which the impacts' location", txt(located)},
                     {"amplification of an initial error", txt(growth)}});
  }
  return {};
}

/// The Real50 run of a case is budgeted from its double run: it resolves the same events, so
/// it needs a small multiple of the double run's flow segments (its series' tail test shortens
/// segments to 50 digits; more where it splits what double merges, e.g. a Zeno cluster's tail,
/// cut by steps_compared), and at most reference_budget_cap. Unbudgeted, it ran at the flow's
/// bound of 10^7 segments: a case whose double run chatters through 2.8 million impacts in
/// three steps (seed 7, shard 0 of the 10^5-case run; docs/coverage.md) held a shard for over
/// two hours; 65536 of its Real50 segments took 313 s, so the cap of 8192 is about 40 s of it,
/// four times what the largest of that shard's other 1076 Real50 runs needed (927 double
/// segments, 0.3 s). Over budget the case is refused, counted and shown like any refused case.
constexpr Index reference_budget_factor = 16;
constexpr Index reference_budget_floor = 4096;
constexpr Index reference_budget_cap = 8192;
/// The double runs of a check case: a run that chatters (e = 1 micro-bounces of a contact that
/// starts at rest just open, millions of impacts) is refused after 65536 segments, about a
/// second, instead of running to the flow's bound of 10^7 (17 s for one case of the late-event
/// mutant; a minute for one of the 10^5-case run). The largest of 1076 healthy runs of shard 0
/// needed 927.
constexpr Index double_run_budget = 65536;
Index reference_segments_budget(Index double_segments) {
  return std::min(reference_budget_factor * double_segments + reference_budget_floor,
                  reference_budget_cap);
}

/// The coverage classes of a run (CaseOutcome::exercised, as the scheme provider's `classify`
/// names them, plus the event kinds only an event-driven run has): "impact", "impact with
/// e > 0", "simultaneous impacts" (two or more impacts at one instant), "persistent contact"
/// (a contact closes), "accumulation"; double_vs_real50 adds "tolerance amplified" (evaluate).
std::vector<std::string> classify_events(const LinearModel<double>& model,
                                         const std::vector<Event<double>>& events) {
  std::vector<std::string> out;
  const auto add = [&](const char* what) {
    if (std::find(out.begin(), out.end(), what) == out.end()) out.push_back(what);
  };
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event<double>& ev = events[i];
    if (ev.kind == EventKind::impact && ev.impulse > 0) {
      add("impact");
      if (ev.contact < model.e.size() && model.e(ev.contact) > 0) add("impact with e > 0");
      if (i > 0 && events[i - 1].kind == EventKind::impact && events[i - 1].t == ev.t &&
          events[i - 1].impulse > 0)
        add("simultaneous impacts");
    }
    if (ev.kind == EventKind::contact_closes) add("persistent contact");
    if (ev.kind == EventKind::accumulation) add("accumulation");
  }
  return out;
}

/// Run the spec on the case and judge the property; StepError/ModelError/InputError (an
/// inadmissible initial state, a refused step) mean the case is not evaluated.
CaseOutcome evaluate(const std::string& spec, const std::string& property, const GeneratedCase& c) {
  return refusing([&](CaseOutcome& out) {
    const LinearModel<double> model = model_cast<double>(c.model);
    const State<double> x0 = state_cast<double>(c.initial);
    EventTrace<double> trace;
    try {
      trace = trace_events<double>(spec, model, x0, scalar_cast<double>(c.h), c.steps,
                                   double_run_budget);
    } catch (const StepError& e) {
      throw StepError(
          fmt::format("the double run (budgeted at {} flow segments; docs/limits.md) "
                      "stopped: {}",
                      double_run_budget, e.what()));
    }
    out.exercised = classify_events(model, trace.events);
    if (property == "newton_restitution") {
      out.judgement = newton_at_events(model, trace);
    } else if (property == "signorini_complementarity") {
      out.judgement = signorini_at_events(model, trace);
    } else if (property == "impact_work_nonpositive") {
      out.judgement = impact_work_at_events(model, trace);
    } else if (property == "energy_conservation") {
      out.judgement = energy_conserved(model, trace);
    } else {
      const Resolution resolution = resolution_of(model, trace);
      const int steps = steps_compared(resolution, trace, scalar_cast<double>(c.h), c.steps);
      const Index budget = reference_segments_budget(trace.segments);
      EventTrace<Real50> exact;
      try {
        exact =
            trace_events<Real50>(spec, model_cast<Real50>(c.model), state_cast<Real50>(c.initial),
                                 scalar_cast<Real50>(c.h), steps, budget);
      } catch (const StepError& e) {
        throw StepError(
            // The budget is said, not blamed: the run may stop for another reason.
            fmt::format("the Real50 reference run (budgeted at {} flow segments: min({} x the "
                        "double run's {} + {}, {}); docs/limits.md) stopped: {}",
                        budget, reference_budget_factor, trace.segments, reference_budget_floor,
                        reference_budget_cap, e.what()));
      }
      const State<double> x0_perturbed = perturbed_initial(x0);
      const Vector<double> dv0 = x0_perturbed.v - x0.v;
      std::optional<EventTrace<double>> twin;
      PerturbedRun perturbed;
      perturbed.size_v = max_abs(dv0);
      perturbed.size_U = max_abs(Vector<double>(model.G.transpose() * dv0));
      perturbed.run = [&]() -> const EventTrace<double>& {
        if (!twin)
          twin = trace_events<double>(spec, model, x0_perturbed, scalar_cast<double>(c.h), steps,
                                      double_run_budget);
        return *twin;
      };
      out.judgement = compare_traces(resolution, trace, exact, perturbed);
      // The twin runs only where the run's own error model was exceeded, so a pass with it
      // rests on the widened tolerance (or, when an event's time alone exceeded its window and
      // a near-tie then held the comparison there, on that tie): counted (`--stats`).
      if (twin && out.judgement.holds) out.exercised.push_back("tolerance amplified");
    }
  });
}

class EventPropertyProvider : public PropertyProvider {
 public:
  std::string name() const override { return "event-driven"; }
  bool handles_scheme(const std::string& spec) const override { return event_family(spec); }
  // The scheme provider already lists event-driven and the mutant:ed-* (registry schemes).
  std::vector<std::string> schemes() const override { return {}; }

  std::vector<PropertyDescription> properties() const override {
    std::vector<PropertyDescription> out;
    for (const auto& p : event_properties())
      out.push_back(p == "energy_conservation" ? energy_conservation_description() : describe(p));
    return out;
  }

  std::string canonical(const std::string& spec) const override {
    return Registry::builtin().resolve(spec).str();
  }

  bool applies(const std::string& spec, const std::string& property) const override {
    return event_family(spec) && std::find(event_properties().begin(), event_properties().end(),
                                           property) != event_properties().end();
  }

  bool claims(const std::string& spec, const std::string& property) const override {
    return claim_of(spec, property).has_value();
  }

  CaseOutcome evaluate_case(const std::string& spec, const std::string& property,
                            const GeneratedCase& c) const override {
    return evaluate(spec, property, c);
  }

  bool shards_cases() const override { return true; }

  Verdict check(const std::string& spec, const std::string& property,
                const CheckOptions& options) const override {
    Verdict v;
    v.scheme = canonical(spec);
    v.property = property;
    v.statement = event_statement(property);
    if (!applies(spec, property)) {
      v.outcome = Outcome::not_applicable;
      v.note = "not an event-level property of the event-driven family";
      return v;
    }
    const std::optional<Claim> claim = claim_of(spec, property);
    if (!claim && !options.force) {
      v.outcome = Outcome::not_claimed;
      v.note = "not claimed by " + v.scheme;
      return v;
    }
    // --force checks on every model the generators make (narrowed by --restitution), not on
    // the claim's domain, as the scheme provider does (runner.cpp, case_domain).
    CaseDomain domain = claim && !options.force ? claim->cases : CaseDomain{};
    if (options.restitution) {
      const Rational lo = parse_rational(options.restitution->lo, "restitution");
      const Rational hi = parse_rational(options.restitution->hi, "restitution");
      if (lo < 0 || hi > 1 || lo > hi)
        throw InputError("restitution", options.restitution->lo + ":" + options.restitution->hi +
                                            " is not a range inside [0, 1]");
      domain.e_lo = std::max(domain.e_lo, lo);
      domain.e_hi = std::min(domain.e_hi, hi);
      if (domain.e_lo > domain.e_hi) {
        v.outcome = Outcome::not_claimed;
        v.note = "nothing checked: the restitution range " + options.restitution->lo + ":" +
                 options.restitution->hi + " does not meet the claim's domain (" + claim->domain +
                 "); --force checks outside it";
        return v;
      }
    }
    // The reference refuses a penetrating initial state (flow.hxx): draw none; and it resolves
    // every impact, so the perpetual micro-bounces of the designed set are left out.
    domain.admissible_initial_state = true;
    domain.max_designed_impacts = kMaxDesignedImpactsResolved;
    if (claim) v.statement += "  [claimed: " + claim->domain + "]";
    const auto fail_with = [&](const GeneratedCase& c, const CaseOutcome& out,
                               const std::string& how) {
      v.outcome = Outcome::fail;
      v.note = how;
      Counterexample x;
      x.values = out.judgement.values;
      x.values.insert(x.values.begin(), {"what", out.judgement.detail});
      x.values.insert(x.values.begin() + 1, {"case", c.origin});
      GeneratedCase named = c;
      named.model.name = "counterexample";
      x.case_file = case_file_text(named);
      x.simulate_hint = fmt::format("nsh simulate FILE --scheme '{}' --h {} --T {}", v.scheme,
                                    format_scalar(c.h), format_scalar(c.horizon()));
      x.command =
          fmt::format("nsh check --scheme '{}' --property {} --cases {} --seed {}{}", v.scheme,
                      property, options.cases, options.seed, shard_suffix(options));
      v.counterexample = std::move(x);
      return v;
    };
    // Designed cases (resting contacts, grazing arrivals, springs pushing off a wall), then
    // random cases, deterministic in the seed, shrunk by rapidcheck; a shard evaluates its
    // share of them (each event-driven case is a whole run with its root finding: the
    // provider's share of a 10^5-case run is most of its time) and counts it, refused or not.
    CaseSearch<GeneratedCase> search;
    search.id = "nsh_check/" + v.scheme + "/" + property;
    search.designed = designed_cases(domain);
    search.draw = [domain] { return *gen_case(domain); };
    search.evaluate = [scheme = v.scheme, &property](const GeneratedCase& c) {
      return evaluate(scheme, property, c);
    };
    search.count_refused = true;
    // One evaluation is a whole event-driven run (double_vs_real50: two, one in 50 digits, up
    // to seconds): a shrink of 1000 of them ran for more than a quarter of an hour.
    search.max_shrink_evaluations = 100;
    const SearchResult<GeneratedCase> found = search_cases(search, options);
    v.cases_run = found.cases_run;
    v.failing_case = found.failing_index;
    switch (found.end) {
      case SearchEnd::designed_failure:
        return fail_with(*found.failing, found.outcome, "designed search found a counterexample");
      case SearchEnd::random_failure:
        return fail_with(*found.failing, found.outcome, random_failure_note(found));
      case SearchEnd::rapidcheck_failure:
        v.outcome = Outcome::fail;
        v.note = "rapidcheck failure: " + found.rapidcheck_message;
        return v;
      case SearchEnd::rapidcheck_error:
        v.outcome = Outcome::fail;
        v.note = "rapidcheck error: " + found.rapidcheck_message;
        return v;
      case SearchEnd::passed:
        break;
    }
    // What the judged random cases exercised (`nsh check --stats`, the coverage minimums of
    // whole_run_failure), then the refused cases (the provider's count, kept in cases_run),
    // so that a run whose every case was refused is no pass, whole or merged from shards.
    // By name after the first entry, as a merge of shares lists them (add_coverage).
    std::map<std::string, int> classes = found.coverage;
    if (found.refused > 0) classes["refused"] = found.refused;
    for (const auto& [reason, count] : found.refusals) classes[refused_prefix + reason] = count;
    v.coverage.emplace_back(evaluated_key(true), found.random_judged);
    for (const auto& [what, count] : classes) v.coverage.emplace_back(what, count);
    v.outcome = Outcome::pass;
    fails_whole_run(v, options);
    return v;
  }

 private:
  std::optional<Claim> claim_of(const std::string& spec, const std::string& property) const {
    if (!applies(spec, property)) return std::nullopt;
    return find_claim(Registry::builtin().make<double>(spec)->info(), property);
  }
};

}  // namespace

void register_event_properties() {
  register_provider(std::make_shared<EventPropertyProvider>());
}

}  // namespace nsh::properties
