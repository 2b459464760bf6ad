#pragma once
// The interface every time-stepping scheme implements, built-in or a user's own: the scheme
// kit (in the manner of Drake's IntegratorBase::DoStep).
//
// The public `initialize` and `step` are not virtual. `initialize` checks h and binds the
// model, then calls the scheme's `do_initialize` (factorize the iteration matrix, precompute
// Delassus operators, set up history such as the Newmark family's acceleration-like
// variable). `step` keeps the state before the step, calls the scheme's `do_step`, and then
// derives every field of the StepSummary that is a function of (model, state before, state
// after) itself — t_before, t_after, h, the gaps and local velocities before and after, the
// tangent directions d and the tangential velocities U_T = G_T^T v before and after (empty
// when d = 0), and the energies E_before and E_after (for a nonlinear model g(q),
// W_N(q)^T v, W_T(q)^T v and 1/2 v^T M(q) v + V(q)) — so that no property reads a number the
// scheme could have got wrong or made up where the states let nsh recompute it
// (docs/adding-a-scheme.md). The scheme records only what it alone knows: the index set, the
// impulses, the Newton velocity, the external impulse, the LCP result and the ledger terms it
// claims (nsh/impulse_step.hpp records the first four for the usual impulse LCP).
//
// The model must outlive the scheme's use. `step` must not allocate on the double path once
// the summary has been sized by a first step. A state or a ledger that leaves the finite range
// stops the step with a StepError naming the quantity and the time (never a silent inf/NaN).

#include <nsh/model/linear_model.hpp>
#include <nsh/step_summary.hpp>

#include <map>
#include <string>

namespace nsh {

template <class Scalar>
struct SparseLinearModel;
template <class Scalar>
class NonlinearModel;

/// What the shared property suite needs to know about a scheme to decide what applies.
struct SchemeInfo {
  std::string family;      ///< "moreau-jean", "newmark", "event-driven", "penalty2", ... (a label)
  std::string spec;        ///< canonical spec with every option, e.g. "moreau-jean:theta=1/2,..."
  int smooth_order{1};     ///< order of accuracy in smooth phases (for observed_order)
  bool impulse_lcp{true};  ///< contacts enter through an impulse LCP with an index set
  bool algorithmic_energy{false};  ///< fills E_alg_* and algorithmic_dissipation
  bool momentum_conserving{true};  ///< external_impulse is the exact momentum balance of a step
  /// Steps models with Coulomb friction (LinearModel::has_friction(): records the tangential
  /// impulse and carries the tangential work in W_contact). A scheme that leaves it false is
  /// refused a frictional model by initialize (ModelError naming mu), and the property suite
  /// draws frictional models and holds it to the friction properties only when it is true.
  bool friction{false};
  /// Steps through each impact as an event (an event-driven integrator): an accumulation of
  /// impacts costs one event each, where a time-stepping scheme takes it in one step. The
  /// property suite then leaves out the designed cases with more impacts in a step than
  /// CaseDomain::max_designed_impacts (nsh/properties/generators.hpp).
  bool resolves_every_impact{false};
  /// The exact parameters the scheme steps with, resolved from its options (theta; alpha_m,
  /// alpha_f, beta, gamma, rho; kappa, ...), as decimal or fraction text that parses exactly:
  /// claims read these instead of re-deriving them from the spec.
  std::map<std::string, std::string> parameters;
};

/// The kit's products of one step of a linear model (dense or sparse), handed to
/// Scheme::do_complete_ledger: M v and K q at both ends of the step, the products E_before and
/// E_after were formed from (for a sparse model M^T v and K^T q, the same numbers for a
/// symmetric M and K). A ledger term that is a quadratic form of the jump, such as
/// ||v_{k+1} - v_k||_M^2 = (v_{k+1} - v_k)^T (M v_{k+1} - M v_k), costs O(n) from them instead
/// of two more products. Valid only during that call.
template <class Scalar>
struct EnergyProducts {
  const State<Scalar>& before;                      ///< the state at t_k
  const State<Scalar>& after;                       ///< the state at t_{k+1}
  const Vector<Scalar>& mass_velocity_before;       ///< M v_k
  const Vector<Scalar>& mass_velocity_after;        ///< M v_{k+1}
  const Vector<Scalar>& stiffness_position_before;  ///< K q_k
  const Vector<Scalar>& stiffness_position_after;   ///< K q_{k+1}
};

template <class Scalar>
class Scheme {
 public:
  virtual ~Scheme() = default;

  virtual SchemeInfo info() const = 0;

  /// Bind to a validated model and a step size h > 0 from the initial state. A model with
  /// friction (has_friction()) is refused with a ModelError naming mu unless info().friction.
  void initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial, const Scalar& h);
  /// The same on a sparse model; schemes that cannot step one natively refuse with SpecError
  /// (accepts_sparse() is false) and the caller steps the dense copy instead.
  void initialize(const SparseLinearModel<Scalar>& model, const State<Scalar>& initial,
                  const Scalar& h);
  virtual bool accepts_sparse() const { return false; }
  /// The same on a nonlinear model (nsh/model/nonlinear_model.hpp, the lagrangian family): the kit
  /// derives gaps g(q), U_N = W_N(q)^T v, U_T = W_T(q)^T v and E(q, v) from the model. Schemes
  /// that do not step one refuse with SpecError naming the scheme (accepts_nonlinear() is
  /// false); a frictional nonlinear model (has_friction) follows the rule of the linear one.
  void initialize(const NonlinearModel<Scalar>& model, const State<Scalar>& initial,
                  const Scalar& h);
  virtual bool accepts_nonlinear() const { return false; }

  /// Advance `state` from t_k to t_{k+1} = t_k + h and describe the step in `summary`.
  /// Throws StepError if the step cannot be completed with a certified one-step solve, or if
  /// the new state or the step's ledger is not finite.
  void step(State<Scalar>& state, StepSummary<Scalar>& summary);
  /// step, and set summary.recorded to the fields do_step wrote (nsh/recorded_fields.hpp): what
  /// step does in a debug build, available in every build to tests.
  void step_recording_fields(State<Scalar>& state, StepSummary<Scalar>& summary);

  /// The step size bound by initialize.
  const Scalar& step_size() const { return h_; }

 protected:
  virtual void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                             const Scalar& h) = 0;
  virtual void do_initialize(const SparseLinearModel<Scalar>& model, const State<Scalar>& initial,
                             const Scalar& h);
  virtual void do_initialize(const NonlinearModel<Scalar>& model, const State<Scalar>& initial,
                             const Scalar& h);
  /// Advance the state and record what only the scheme knows (see the header comment).
  virtual void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) = 0;
  /// True while do_step runs on the very state (bit for bit) the last step of this scheme
  /// produced, so that products of it the scheme kept from that step are still valid; false on
  /// the first step, after initialize, after a step that threw, and on a state the caller edited.
  bool continues_last_step() const { return continues_; }
  /// Called after do_step and the kit's derivation on a linear model (dense or sparse, not a
  /// nonlinear one), with the products of the energies: a scheme whose ledger needs
  /// ||[v]||_M^2 or ||[q]||_K^2 records that term here instead of in do_step (the kit
  /// notes what it writes as it notes do_step's writes). The default records nothing.
  virtual void do_complete_ledger(const EnergyProducts<Scalar>& products,
                                  StepSummary<Scalar>& summary) {
    (void)products;
    (void)summary;
  }

 private:
  template <bool RecordFields>
  void advance(State<Scalar>& state, StepSummary<Scalar>& summary);
  void derive(const State<Scalar>& before, const State<Scalar>& after, bool continues,
              StepSummary<Scalar>& summary);
  void derive_nonlinear(const State<Scalar>& before, const State<Scalar>& after, bool continues,
                        StepSummary<Scalar>& summary);
  Scalar nonlinear_energy(const State<Scalar>& x);
  void bind(const LinearModel<Scalar>* dense, const SparseLinearModel<Scalar>* sparse,
            const NonlinearModel<Scalar>* nonlinear, const Scalar& h);

  const LinearModel<Scalar>* dense_{nullptr};
  const SparseLinearModel<Scalar>* sparse_{nullptr};
  const NonlinearModel<Scalar>* nonlinear_{nullptr};
  Scalar h_{0};
  State<Scalar> before_;   // the state at t_k, kept by step()
  Vector<Scalar> work_n_;  // M(q) v of a nonlinear model's energy
  // M v and K q of the states before and after the step (linear models): the after pair of one
  // step is the before pair of the next when it continues (swapped, not recomputed).
  Vector<Scalar> mass_velocity_before_, mass_velocity_after_;
  Vector<Scalar> stiffness_position_before_, stiffness_position_after_;
  Matrix<Scalar> mass_;                                // M(q) of a nonlinear model's energy
  Matrix<Scalar> normal_jacobian_, tangent_jacobian_;  // W_N(q), W_T(q) of a nonlinear model
  Scalar energy_after_{0};    // E of the last state produced, E_before of the next step...
  State<Scalar> last_after_;  // ...if the next step starts from exactly that state
  Vector<Scalar> gap_after_, velocity_after_;  // G^T q + w and G^T v of last_after_ (linear)
  bool has_last_{false};
  bool continues_{false};  // the step under way starts from last_after_ (continues_last_step)
};

extern template class Scheme<double>;
extern template class Scheme<Real50>;
extern template class Scheme<Rational>;

}  // namespace nsh
