#pragma once
// The impact equations of docs/theory.md §1 at one instant, with Newton's law on every
// contact of an index set (simultaneous impacts included):
//
//   M (v+ - v-) = G_I P,      U- = G_I^T v-,   U+ = G_I^T v+ = U- + W P,   W = G_I^T M^-1 G_I,
//   0 <= U+ + e o min(U-, 0)  _|_  P >= 0          (Moreau's impact LCP, componentwise on I).
//
// On an approaching contact (U- < 0) the law is Newton's  U+ = -e U-  whenever P > 0; on a
// contact of I that is already separating (U- >= 0) it is  0 <= U+ _|_ P >= 0, so that another
// contact's impulse can push it but never pull it. The energy change is
//   Delta K = 1/2 (U+ + U-)^T P  (Thomson-Tait),  = -(1-e)/(2(1+e)) P^T W P  for uniform e.
// Exact in Rational (Lemke or enumeration), so the seed-004 oracles hold with zero tolerance.

#include <nsh/lcp/lcp.hpp>
#include <nsh/model/linear_model.hpp>

#include <vector>

namespace nsh {

template <class Scalar>
struct ImpactResult {
  std::vector<Index> index_set;  ///< the contacts I that entered the LCP
  Vector<Scalar> impulse;        ///< P, m entries (zero outside I)
  Vector<Scalar> v_plus;         ///< post-impact generalized velocity
  Vector<Scalar> U_minus;        ///< G^T v-, m entries
  Vector<Scalar> U_plus;         ///< G^T v+, m entries
  Scalar kinetic_change{0};      ///< 1/2 (U+ + U-)^T P = K+ - K-
  LcpResult<Scalar> lcp;         ///< the LCP on I with its certificate (empty if I is empty)
};

/// Solve the impact LCP on `index_set` given the precomputed M^-1 G (n x m). Throws StepError if
/// the LCP solver does not certify its answer.
template <class Scalar>
ImpactResult<Scalar> solve_impact(const Matrix<Scalar>& G, const Matrix<Scalar>& Minv_G,
                                  const Vector<Scalar>& restitution, const Vector<Scalar>& v_minus,
                                  const std::vector<Index>& index_set,
                                  LcpMethod method = LcpMethod::lemke);

/// Convenience form: factorizes M (dense LDL^T) and uses the model's G and e.
template <class Scalar>
ImpactResult<Scalar> solve_impact(const LinearModel<Scalar>& model, const Vector<Scalar>& v_minus,
                                  const std::vector<Index>& index_set,
                                  LcpMethod method = LcpMethod::lemke);

}  // namespace nsh
