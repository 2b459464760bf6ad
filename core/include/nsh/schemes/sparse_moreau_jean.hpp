#pragma once
// The Moreau–Jean theta-scheme of nsh/schemes/moreau_jean.hpp on a SparseLinearModel: the same
// equations, theta, index-set rules and StepSummary ledger, with the iteration matrix factorized
// sparsely, for the finite-element bar at 10^4–10^6 degrees of freedom (docs/case-files.md).
//
// Sources: as MoreauJean (Acary, ZAMM 96(5):585–603, 2016, Sect. 3; Jean, CMAME 177, 1999);
// the elimination below is the one of moreau_jean.hpp, term by term.
//
// One step from (t_k, q_k, v_k), x_{k+theta} = (1-theta) x_k + theta x_{k+1}:
//
//   M (v_{k+1} - v_k) + h C v_{k+theta} + h K q_{k+theta} - h F_{k+theta} = G P_{k+1}
//   q_{k+1} = q_k + h v_{k+theta},   U_{k+1} = G^T v_{k+1}
//   alpha not in I : P^alpha_{k+1} = 0
//   alpha in I     : 0 <= U^alpha_{k+1} + e^alpha U^alpha_k  _|_  P^alpha_{k+1} >= 0
//
//   activation=position           I = { alpha : g^alpha_k + h/2 U^alpha_k <= 0 }
//   activation=position-velocity  I = { alpha : g^alpha_k + h/2 U^alpha_k <= 0 and U^alpha_k <= 0 }
//
// What is computed where:
//   initialize  M^ = M + h theta C + h^2 theta^2 K (sparse, SPD for a valid model) factorized
//               once by a simplicial LDL^T with the AMD fill-reducing ordering (tridiagonal
//               for the bar: no fill); M^-1 G (n x m, dense) and W = G^T M^-1 G (m x m)
//               precomputed, G is constant.
//   step        v_free = v_k + M^-1 [ -h C v_k - h K (q_k + h theta v_k) + h F_{k+theta} ]
//               (three sparse products and ONE sparse solve), then the LCP on the active
//               block of W, b_I = G_I^T v_free + e_I o U_{k,I}, and v_{k+1} = v_free + M^-1 G_I
//               P_I (one axpy of a precomputed column per active contact). The ledger costs
//               seven more sparse products (E_k, E_{k+1}, W_damp, the jump terms), all O(nnz).
//               Products with G use a sparse copy of G (the bar's G is one unit column), so a
//               step is O(nnz(L) + nnz(M, C, K) + n + k^3) for k active contacts.
//
// Energy ledger (docs/theory.md §2.2–2.3), as MoreauJean:
//   W_ext = h v_{k+theta}^T F_{k+theta},  W_damp = -h v_{k+theta}^T C v_{k+theta},
//   W_contact = U_{k+theta}^T P_{k+1},
//   numerical_dissipation = (theta - 1/2)(||v_{k+1} - v_k||_M^2 + ||q_{k+1} - q_k||_K^2),
//   E_{k+1} - E_k = W_ext + W_damp + W_contact - numerical_dissipation  (to round-off).
//
// Not a registered Scheme: Scheme<Scalar>::initialize takes a dense LinearModel, and a dense
// copy of the models this class is for does not fit. It is driven directly (initialize, then
// step), by the benchmarks of bench/ and by core/tests/sparse_moreau_jean_test.cpp, which checks
// it step for step against the dense MoreauJean on models small enough for both.
//
// Allocation: on the double path `step` allocates nothing once the summary has been sized by a
// first step, for lcp=lemke and lcp=pgs (the LDL^T solve is done by hand into preallocated
// vectors, because Eigen's SimplicialLDLT::solve permutes in place through a temporary mask;
// the LCP runs in an LcpWorkspace as in MoreauJean). enumeration, fb and prox allocate inside
// their solve. double and Real50 (no Rational: Eigen's sparse LDL^T is not exercised there).

#include <nsh/detail/moreau_jean_workspace.hpp>
#include <nsh/detail/sparse_ldlt.hpp>
#include <nsh/lcp/lcp.hpp>
#include <nsh/lcp/workspace.hpp>
#include <nsh/model/linear_model.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/moreau_jean.hpp>
#include <nsh/step_summary.hpp>

#include <vector>

namespace nsh {

/// The options of SparseMoreauJean without a spec string.
template <class Scalar>
struct SparseMoreauJeanOptions {
  Scalar theta{Scalar(1) / 2};  ///< in [0, 1]
  MoreauJeanActivation activation{MoreauJeanActivation::position_velocity};
  LcpMethod lcp_method{LcpMethod::lemke};
  LcpOptions<Scalar> lcp_options{};
};

template <class Scalar>
class SparseMoreauJean : public Scheme<Scalar> {
 public:
  /// Throws InputError naming "theta" for a theta outside [0, 1] or not finite.
  explicit SparseMoreauJean(const SparseMoreauJeanOptions<Scalar>& options = {});
  /// From the spec of the dense scheme, "moreau-jean[:theta=..,activation=..,lcp=..]", parsed by
  /// MoreauJean's own constructor (same defaults, same SpecError messages naming the option).
  explicit SparseMoreauJean(const SchemeSpec& spec);

  /// The same scheme as MoreauJean (same spec, same claims), stepping the sparse model; a
  /// dense model is stepped through its sparse copy. initialize (the kit's) takes a model
  /// validated by the caller (SparseLinearModel::validate) and h > 0; it throws InputError
  /// naming "h", "q0" or the model field with the wrong shape, StepError if M^ has a
  /// non-positive pivot (the model was not valid). step describes the step exactly as
  /// MoreauJean's does; InputError naming "q" or "v" for a state of the wrong size.
  SchemeInfo info() const override { return info_; }
  bool accepts_sparse() const override { return true; }

  const Scalar& theta() const { return theta_; }
  MoreauJeanActivation activation() const { return activation_; }
  LcpMethod lcp_method() const { return lcp_method_; }
  const Scalar& h() const { return h_; }
  /// M^-1 G and G^T M^-1 G as precomputed by initialize.
  const Matrix<Scalar>& minv_g() const { return minv_g_; }
  const Matrix<Scalar>& delassus() const { return delassus_; }

 private:
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_initialize(const SparseLinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override;
  /// numerical_dissipation from the kit's products (no product with M or K of its own).
  void do_complete_ledger(const EnergyProducts<Scalar>& products,
                          StepSummary<Scalar>& summary) override;

  SchemeInfo info_;
  SparseLinearModel<Scalar> owned_;  // the sparse copy of a dense model

  Scalar theta_{Scalar(1) / 2};
  MoreauJeanActivation activation_{MoreauJeanActivation::position_velocity};
  LcpMethod lcp_method_{LcpMethod::lemke};
  LcpOptions<Scalar> lcp_options_;

  // Bound by initialize.
  const SparseLinearModel<Scalar>* model_{nullptr};
  Scalar h_{0};
  bool harmonic_{false};
  /// M, C and K equal their transposes entry by entry: their products are then taken as
  /// A^T x, row by row (exactly_symmetric in nsh/model/sparse_model.hpp).
  bool symmetric_{false};
  detail::SparseLdlt<Scalar> ldlt_;  // of M + h theta C + h^2 theta^2 K
  SparseMatrix<Scalar> g_sparse_;    // G's nonzeros, for the O(nnz) contact products
  Matrix<Scalar> minv_g_;            // M^-1 G, n x m
  Matrix<Scalar> delassus_;          // G^T M^-1 G, m x m

  // Workspace, sized by initialize: the step's (shared with MoreauJean) and the solve's.
  detail::MoreauJeanWorkspace<Scalar> work_;
};

extern template class SparseMoreauJean<double>;
extern template class SparseMoreauJean<Real50>;

}  // namespace nsh
