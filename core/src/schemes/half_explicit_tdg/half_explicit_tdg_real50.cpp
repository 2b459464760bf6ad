// Half-explicit time-discontinuous Galerkin scheme in 50-digit floating point (body in
// half_explicit_tdg.hxx).
#include "half_explicit_tdg.hxx"

namespace nsh {
template class HalfExplicitTdg<Real50>;
template LcpResult<Real50> half_explicit_prox_newton(const Matrix<Real50>&, const Vector<Real50>&,
                                                     const Vector<Real50>&, Index,
                                                     const LcpOptions<Real50>&, bool, LcpMethod);
}  // namespace nsh
