#pragma once
// The interface every time-stepping scheme implements, built-in or a user's own.
//
// A scheme is stateful: `initialize` binds it to a model and a step size (factorizes the
// iteration matrix, precomputes Delassus operators, sets up any history such as the Newmark
// family's acceleration-like variable), then each `step` advances the mechanical state by h and
// fills a StepSummary. The model must outlive the scheme's use. `step` must not allocate on the
// double path once the summary has been sized by a first step.

#include <nsh/model.hpp>
#include <nsh/step_summary.hpp>

#include <string>

namespace nsh {

/// What the shared property suite needs to know about a scheme to decide what applies.
struct SchemeInfo {
  std::string family;      ///< "moreau-jean", "newmark", "event-driven", "penalty2", ...
  std::string spec;        ///< canonical spec with every option, e.g. "moreau-jean:theta=1/2,..."
  int smooth_order{1};     ///< order of accuracy in smooth phases (for observed_order)
  bool impulse_lcp{true};  ///< contacts enter through an impulse LCP with an index set
  bool algorithmic_energy{false};  ///< fills E_alg_* and algorithmic_dissipation
  bool momentum_conserving{true};  ///< external_impulse is the exact momentum balance of a step
};

template <class Scalar>
class Scheme {
 public:
  virtual ~Scheme() = default;

  virtual SchemeInfo info() const = 0;

  /// Bind to a validated model and a step size h > 0 from the initial state.
  virtual void initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                          const Scalar& h) = 0;

  /// Advance `state` from t_k to t_{k+1} = t_k + h and describe the step in `summary`.
  /// Throws StepError if the step cannot be completed with a certified one-step solve.
  virtual void step(State<Scalar>& state, StepSummary<Scalar>& summary) = 0;
};

}  // namespace nsh
