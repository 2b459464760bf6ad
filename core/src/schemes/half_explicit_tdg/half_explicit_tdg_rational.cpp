// Half-explicit time-discontinuous Galerkin scheme in exact rational arithmetic (body in
// half_explicit_tdg.hxx): the active-set Newton and the Lemke or enumeration fallback are exact,
// so G^T u_{n+1} = 0 holds exactly on a resting contact.
#include "half_explicit_tdg.hxx"

namespace nsh {
template class HalfExplicitTdg<Rational>;
template LcpResult<Rational> half_explicit_prox_newton(const Matrix<Rational>&,
                                                       const Vector<Rational>&,
                                                       const Vector<Rational>&, Index,
                                                       const LcpOptions<Rational>&, bool,
                                                       LcpMethod);
}  // namespace nsh
