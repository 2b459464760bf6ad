#pragma once
// Event-driven reference solution of the linear model of docs/theory.md §1: the exact flow
// between events, events located to the precision of the scalar, Newton's impact law at the
// events, persistent contact decided by the acceleration-level LCP, and accumulation of impacts.
// This is the reference the harness measures the time-stepping schemes against (double and
// Real50; no Rational: event location and the flow need iteration and sin/cos).
//
// Smooth phase with closed set c (contacts in persistent contact, g_c = 0 and U_c = 0):
//   M a = f + G_c lambda_c,   f(t, q, v) = F + F_amplitude sin(omega t) - C v - K q,
//   G_c^T a = 0   =>   lambda_c = -W_c^-1 G_c^T M^-1 f,   W_c = G_c^T M^-1 G_c.
// This is a linear ODE X' = A_c X for the augmented state X = (q, v, 1, sin(omega t),
// cos(omega t)), whose flow is exp(A_c s) X. It is evaluated as the Taylor series
// X(s) = sum_k s^k A_c^k X(0) / k! on segments of length s <= 4 / rho, where rho bounds
// the spectral radius of A_c in the balanced norm (sqrt(lambda_max(M^-1 K)) + |M^-1 C| + omega),
// truncated where 4^k / k! < epsilon / 64 (and the segment halved until the series' last terms
// are below epsilon / 64 of its largest, an a posteriori check of rho): the exponential to the
// scalar's epsilon, with the particular solution of the constant and harmonic force included
// through the augmented state. The model may be dense or sparse (nsh/model/sparse_model.hpp); the
// flow keeps a sparse copy. The body is split by concept in core/src/schemes/event_driven/
// (root finding, Taylor flow, contact modes, accumulation, the flow's loop); its cost and work
// bound are in docs/event-driven-performance.md.
// (Scaling without squaring: each term is a sparse matrix-vector product, which is what makes
// the finite-element bar with 10^3-10^4 nodes affordable where a dense exp(A s) is not.)
// Every gap g_alpha(s) of an open contact and every multiplier lambda_alpha(s) of a closed one is
// then a polynomial in s on the segment; the first root is bracketed by sampling (with a check of
// each local minimum, so a grazing contact is not stepped over) and refined by safeguarded Newton
// to the scalar's precision. A monitor that starts at zero is deflated (its leading zero
// coefficients dropped), so a contact that just opened or closed is not found again at s = 0.
//
// Events:
//   impact          an open contact reaches g = 0 with U- < 0: the impact LCP of
//                   nsh/impact_lcp.hpp on every contact with g = 0 (simultaneous impacts),
//                   M(v+ - v-) = G P, 0 <= U+ + e min(U-, 0) _|_ P >= 0;
//   contact_closes  after an impact (or a grazing arrival) the contacts with g = 0, U = 0 solve
//                   the acceleration LCP 0 <= W_A lambda + G_A^T M^-1 f _|_ lambda >= 0; those
//                   with lambda > 0 join the closed set;
//   contact_opens   a closed contact's lambda(s) reaches 0 from above: it leaves the closed set
//                   (the rest are decided again by the acceleration LCP);
//   degenerate      a contact with g = 0, U = 0 whose multiplier AND relative acceleration are
//   mode            both zero to tolerance (a multiplier that has just vanished: there g'' =
//                   -W lambda = 0 too; a bar released or held with g'' = 0) is decided by the
//                   next derivative, as in Lotstedt's (SIAM J. Appl. Math. 42, 1982) and
//                   Pfeiffer-Glocker's (sec. 6.3) event logic: with the decided contacts
//                   closed and the degenerate set D open, the gap's Taylor coefficients g_k of
//                   the flow (k = 3, 4, ..., 8) pose 0 <= W_D z + g_k _|_ z >= 0; z > 0 keeps
//                   the contact closed (then lambda^(k-2) = -W^-1 k(k-1) g_k > 0), W_D z + g_k
//                   > 0 opens it. Zero tests: the scale tolerances below (velocity tolerance /
//                   t_ref^(k-1) for g_k, t_ref = 1 / rho), a coefficient decides only 16 times
//                   above its zero test, and the next segment's monitor of that contact starts
//                   at the deciding order, so the decision and the root search read the same
//                   sign and the mode cannot flip back and forth at the tolerance. Degenerate to
//                   order 8 (or rho = 0, constant acceleration): the trigger decides (an
//                   arriving gap closes, a vanishing multiplier opens) as before;
//   accumulation    after a bounce with U+ > 0 on a contact with e < 1 whose free acceleration
//                   g'' < 0 pushes it back, the remaining flights form the geometric series
//                   tau/(1 - e), tau = 2 U+ / |g''|. When that sum is below the time tolerance
//                   the accumulation point t + tau/(1 - e) is reported, the remaining bounces are
//                   replaced by the limit (U = 0, the velocity jump they sum to) and the contact
//                   closes: the bouncing ball reaches its accumulation time and rests, it never
//                   loops through infinitely many impacts.
//
// References: Pfeiffer & Glocker, Multibody Dynamics with Unilateral Contacts (1996), ch. 6-7
// (acceleration-level LCP for persistent contact); Acary & Brogliato, Numerical Methods for
// Nonsmooth Dynamical Systems (2008), ch. 7 (event-driven schemes, accumulations).

#include <nsh/impact_lcp.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/registry.hpp>
#include <nsh/scheme_options.hpp>
#include <nsh/schemes/scheme.hpp>

#include <memory>
#include <string>
#include <vector>

namespace nsh {

enum class EventKind { impact, contact_closes, contact_opens, accumulation };

/// "impact", "contact-closes", "contact-opens", "accumulation".
const char* to_string(EventKind kind);

/// One event of the reference solution, at contact `contact`.
template <class Scalar>
struct Event {
  Scalar t{0};  ///< event time (for accumulation: the accumulation point)
  EventKind kind{EventKind::impact};
  Index contact{0};    ///< alpha
  Scalar U_minus{0};   ///< local velocity U^alpha before the event
  Scalar U_plus{0};    ///< after the event
  Scalar impulse{0};   ///< P^alpha of the event (0 for closes/opens)
  Scalar E_before{0};  ///< 1/2 v^T M v + 1/2 q^T K q before the event
  Scalar E_after{0};   ///< after the event
};

template <class Scalar>
struct EventDrivenOptions {
  /// Relative tolerance of the event logic (zero gap, zero velocity, zero multiplier, the
  /// accumulation sum), times the problem's scale. Zero means 64 machine epsilons.
  Scalar tolerance{0};
  LcpMethod lcp_method{LcpMethod::lemke};
  /// A run that needs more events than this throws StepError instead of running forever.
  Index max_events{2000000};
  /// Work bound: the most series segments (each of length <= 4 / rho, rho the spectral bound
  /// below) a flow may take. advance_to() first estimates the segments of its interval,
  /// (t_target - t) rho / 4, and refuses an interval above this with an InputError naming the
  /// field that makes it infeasible (K or C for the stiffness or damping over mass, omega, or T);
  /// the count over the whole run is checked inside the loop (a StepError that says the time
  /// reached and the events so far). 10^7 segments are about 35 s of a 1-dof model in double
  /// and more for larger ones; raise it for long runs of stiff models
  /// (docs/event-driven-performance.md).
  Index max_segments{10000000};

  /// The options a spec sets (nsh/scheme_options.hpp); the bounds above are not spec options.
  /// The default texts are the initial values above.
  template <class V>
  void visit(V& v) {
    v("tolerance", tolerance, "0",
      "relative tolerance of the event logic times the problem scale, >= 0 (0: 64 epsilons)",
      as_written(at_least(0, ">= 0")));
    v("lcp", lcp_method, "lemke", "solver of the impact and acceleration LCPs",
      one_of(LcpMethod::lemke, LcpMethod::enumeration));
  }
};

/// The event-driven flow: holds the state, the closed set and the accumulated step quantities.
template <class Scalar>
class EventDrivenFlow {
 public:
  /// The model must be validated (the flow keeps its own sparse copy). The initial state must
  /// be admissible (every gap >= -tolerance); an impact at t0 (g = 0, U < 0) is processed at
  /// construction.
  EventDrivenFlow(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                  const EventDrivenOptions<Scalar>& options = {});
  /// The same on a sparse model (the finite-element bar at 10^4 elements).
  EventDrivenFlow(const SparseLinearModel<Scalar>& model, const State<Scalar>& initial,
                  const EventDrivenOptions<Scalar>& options = {});
  ~EventDrivenFlow();
  EventDrivenFlow(EventDrivenFlow&&) noexcept;
  EventDrivenFlow& operator=(EventDrivenFlow&&) noexcept;

  /// Advance exactly to t_target >= t (events in (t, t_target] included, so the state at
  /// t_target is post-impact). Events are appended to `events` if it is not null.
  void advance_to(const Scalar& t_target, std::vector<Event<Scalar>>* events = nullptr);

  const State<Scalar>& state() const;
  /// Contacts currently in persistent contact.
  const std::vector<Index>& closed_set() const;
  /// Events processed at construction (an impact or a resting contact at t0).
  const std::vector<Event<Scalar>>& initial_events() const;
  /// Series segments taken since construction, the work options.max_segments bounds (every
  /// event ends a segment, so this also bounds the events): a caller running the same case in
  /// another scalar budgets that run from this one's.
  Index segments() const;

  /// Quantities accumulated since the last reset_accumulators():
  Vector<Scalar> impulse() const;           ///< sum of impulses + integral of lambda dt (m)
  Vector<Scalar> external_impulse() const;  ///< integral of F - C v - K q dt (n)
  Scalar external_work() const;             ///< integral of v^T F dt
  Scalar damping_work() const;              ///< -integral of v^T C v dt
  Scalar impact_work() const;               ///< sum of 1/2 (U+ + U-)^T P
  std::vector<Index> touched() const;       ///< contacts with an impulse or closed meanwhile
  Vector<Scalar> last_U_minus() const;      ///< U- at each contact's last impact (else U at reset)
  bool posed_lcp() const;                   ///< an impact LCP was solved since the reset
  const LcpResult<Scalar>& last_lcp() const;
  void reset_accumulators();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Every event of the reference solution over [t0, T] (those at t0 first).
template <class Scalar>
std::vector<Event<Scalar>> compute_events(const LinearModel<Scalar>& model,
                                          const State<Scalar>& initial, const Scalar& T,
                                          const EventDrivenOptions<Scalar>& options = {});

/// The same on a sparse model.
template <class Scalar>
std::vector<Event<Scalar>> compute_events(const SparseLinearModel<Scalar>& model,
                                          const State<Scalar>& initial, const Scalar& T,
                                          const EventDrivenOptions<Scalar>& options = {});

/// The event-driven reference as a Scheme: step() samples the exact trajectory at
/// t_{k+1} = t0 + (k+1) h. The step's impulse is the sum of the impulses in (t_k, t_{k+1}]
/// plus the integral of the persistent-contact force; W_contact is the impact work
/// sum 1/2 (U+ + U-)^T P (persistent contact does no work), numerical_dissipation is zero:
/// E_after - E_before = W_ext + W_damp + W_contact up to round-off.
/// Options: tolerance (relative, 0 = 64 eps), lcp (lemke | enumeration).
template <class Scalar>
class EventDriven : public Scheme<Scalar> {
 public:
  explicit EventDriven(const SchemeSpec& spec);
  ~EventDriven() override;

  SchemeInfo info() const override;
  /// Steps sparse models natively (its own sparse copy of the flow's matrices).
  bool accepts_sparse() const override { return true; }

 private:
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_initialize(const SparseLinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override;
  template <class Model>
  void bind(const Model& model, const State<Scalar>& initial, const Scalar& h);

  SchemeSpec spec_;
  EventDrivenOptions<Scalar> options_;
  const LinearModel<Scalar>* model_{nullptr};
  const SparseLinearModel<Scalar>* sparse_model_{nullptr};
  std::unique_ptr<EventDrivenFlow<Scalar>> flow_;
  State<Scalar> initial_;
  Scalar t0_{0};
  Scalar h_{0};
  Index k_{0};
};

/// Registers "event-driven" (family "event-driven").
void register_event_driven(Registry& registry);

extern template class EventDrivenFlow<double>;
extern template class EventDrivenFlow<Real50>;
extern template class EventDriven<double>;
extern template class EventDriven<Real50>;
extern template std::vector<Event<double>> compute_events(const LinearModel<double>&,
                                                          const State<double>&, const double&,
                                                          const EventDrivenOptions<double>&);
extern template std::vector<Event<Real50>> compute_events(const LinearModel<Real50>&,
                                                          const State<Real50>&, const Real50&,
                                                          const EventDrivenOptions<Real50>&);
extern template std::vector<Event<double>> compute_events(const SparseLinearModel<double>&,
                                                          const State<double>&, const double&,
                                                          const EventDrivenOptions<double>&);
extern template std::vector<Event<Real50>> compute_events(const SparseLinearModel<Real50>&,
                                                          const State<Real50>&, const Real50&,
                                                          const EventDrivenOptions<Real50>&);

}  // namespace nsh
