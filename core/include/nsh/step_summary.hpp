#pragma once
// What one step of a scheme reports: everything a property needs to judge the step without
// looking inside the scheme. Each ledger term is the scheme's own discrete definition (the one
// its energy theorem uses), computed from the step's end states and impulses, so that the
// balance  E_after - E_before = W_ext + W_damp + W_contact - numerical_dissipation  is a check
// of the dynamics, not a restatement of it.

#include <nsh/lcp/lcp.hpp>
#include <nsh/scalar.hpp>

#include <cstdint>
#include <vector>

namespace nsh {

template <class Scalar>
struct StepSummary {
  Index step{0};       ///< k + 1: the index of the state this step produced
  Scalar t_before{0};  ///< t_k
  Scalar t_after{0};   ///< t_{k+1} = t_k + h
  Scalar h{0};         ///< step size

  std::vector<Index> index_set;    ///< contacts alpha that entered the impulse LCP this step
  Vector<Scalar> impulse;          ///< P_{k+1}, m entries, zero outside index_set
  Vector<Scalar> gap_before;       ///< g_k = G^T q_k + w
  Vector<Scalar> gap_after;        ///< g_{k+1}
  Vector<Scalar> velocity_before;  ///< U_k = G^T v_k
  Vector<Scalar> velocity_after;   ///< U_{k+1} = G^T v_{k+1}
  /// The pre-impact local velocity the scheme's Newton law uses: U_k for Moreau's law, the
  /// smooth end velocity U~_{k+1} = G^T v~_{k+1} for the Newmark family's 'smooth' law.
  Vector<Scalar> velocity_newton;
  /// The external impulse the scheme's momentum equation uses over the step, n entries
  /// (Moreau-Jean: h F_{k+theta}): momentum_balance checks c^T M [v] = c^T external_impulse.
  Vector<Scalar> external_impulse;
  /// Contact impulse applied along G this step besides `impulse`, m entries or empty (zero):
  /// a known force that is no unknown of the step's last LCP, such as half-explicit-tdg's
  /// h/2 lambda_1 of its forecast stage (docs/half-explicit-tdg.md). momentum_balance adds it.
  Vector<Scalar> forecast_impulse;

  /// Coulomb friction (docs/friction.md): d = LinearModel::tangent_directions() of the model
  /// the step ran on (0 frictionless, then the three vectors below are empty). The kit derives
  /// the tangential velocities from the states; the scheme records the tangential impulse.
  Index tangent_directions{0};
  /// P_T,{k+1}, m d entries, contact-major (contact alpha at alpha d .. alpha d + d - 1), zero
  /// outside index_set.
  Vector<Scalar> tangential_impulse;
  Vector<Scalar> tangential_velocity_before;  ///< U_T,k = G_T^T v_k
  Vector<Scalar> tangential_velocity_after;   ///< U_T,{k+1} = G_T^T v_{k+1}
  /// The tangential counterpart of forecast_impulse (m d entries, contact-major, or empty):
  /// applied along G_T besides tangential_impulse; momentum_balance adds it.
  Vector<Scalar> forecast_tangential_impulse;

  LcpResult<Scalar> lcp;  ///< the impulse LCP on index_set, with its certificate
  bool lcp_solved{true};  ///< false only if index_set was empty (no LCP was posed)

  // Energy ledger of the step (docs/theory.md §2.2 / §3.2).
  Scalar E_before{0};  ///< 1/2 v_k^T M v_k + 1/2 q_k^T K q_k
  Scalar E_after{0};   ///< same at k + 1
  Scalar W_ext{0};     ///< external work, e.g. h v_{k+theta}^T F_{k+theta}
  Scalar W_damp{0};    ///< damping work, e.g. -h v_{k+theta}^T C v_{k+theta} (<= 0)
  /// contact/impact work, e.g. U_{k+theta}^T P_{k+1}; with friction it includes the
  /// tangential term U_T,{k+theta}^T P_T,{k+1} (docs/theory.md §9.1)
  Scalar W_contact{0};
  /// Numerical dissipation D of the scheme's identity (Moreau-Jean:
  /// (theta - 1/2)(||[v]||_M^2 + ||[q]||_K^2)), so that
  /// E_after - E_before = W_ext + W_damp + W_contact - numerical_dissipation exactly.
  Scalar numerical_dissipation{0};

  /// Schemes with an algorithmic energy (Newmark family, docs/theory.md §3.2): E_alg before, after,
  /// whose balance is E_alg_after - E_alg_before = -algorithmic_dissipation + W_contact.
  bool has_algorithmic_energy{false};
  Scalar E_alg_before{0};
  Scalar E_alg_after{0};
  Scalar algorithmic_dissipation{0};
  /// The acceleration-like variable a_k and a_{k+1} of a scheme that carries one (the Newmark
  /// family), n entries each (empty otherwise): algorithmic_energy_decay recomputes E_alg from
  /// them, the states and the scheme's parameters instead of trusting E_alg_before/after.
  Vector<Scalar> acceleration_like_before;
  Vector<Scalar> acceleration_like_after;

  /// Regularized (penalty) contact, e.g. penalty2: the potential energy stored in the contact
  /// springs before and after the step, V = 1/2 kappa sum_alpha min(0, g_alpha)^2 (zero for
  /// rigid contact), the dashpot's work and the spring's discrete work defect, so that
  ///   W_contact = (stored_energy_before - stored_energy_after) + W_dashpot
  ///               - stored_energy_dissipation.
  bool has_stored_energy{false};
  Scalar stored_energy_before{0};
  Scalar stored_energy_after{0};
  Scalar W_dashpot{0};
  Scalar stored_energy_dissipation{0};

  /// The fields do_step wrote this step, a mask of RecordedField bits (nsh/recorded_fields.hpp):
  /// probed by the kit in debug builds only; every bit set otherwise.
  std::uint32_t recorded{~std::uint32_t{0}};

  /// The defect of the scheme's exact one-step identity, as the scheme computes it (the
  /// energy_identity property recomputes it independently from the fields above).
  Scalar energy_identity_defect() const {
    return (E_after - E_before) - (W_ext + W_damp + W_contact - numerical_dissipation);
  }
};

}  // namespace nsh
