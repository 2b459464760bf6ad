#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/impact_lcp.hpp>

#include <fmt/format.h>
#include <Eigen/Cholesky>

namespace nsh {

template <class Scalar>
ImpactResult<Scalar> solve_impact(const Matrix<Scalar>& G, const Matrix<Scalar>& Minv_G,
                                  const Vector<Scalar>& restitution, const Vector<Scalar>& v_minus,
                                  const std::vector<Index>& index_set, LcpMethod method) {
  const Index m = G.cols();
  const Index k = static_cast<Index>(index_set.size());
  ImpactResult<Scalar> out;
  out.index_set = index_set;
  out.impulse = Vector<Scalar>::Zero(m);
  out.U_minus = G.transpose() * v_minus;
  out.v_plus = v_minus;
  out.U_plus = out.U_minus;
  if (k == 0) return out;
  Matrix<Scalar> W(k, k);
  Vector<Scalar> b(k);
  for (Index i = 0; i < k; ++i) {
    const Index a = index_set[i];
    for (Index j = 0; j < k; ++j) W(i, j) = G.col(a).dot(Minv_G.col(index_set[j]));
    const Scalar U = out.U_minus(a);
    // Newton's law only on an approaching contact; a separating one may only be pushed.
    b(i) = U < Scalar(0) ? Scalar(U + restitution(a) * U) : U;
  }
  out.lcp = solve_lcp<Scalar>(method, W, b);
  if (!out.lcp.ok())
    throw StepError(fmt::format("impact LCP on {} contacts not certified ({}): {}", k,
                                to_string(out.lcp.status), out.lcp.message));
  for (Index i = 0; i < k; ++i) {
    const Index a = index_set[i];
    out.impulse(a) = out.lcp.z(i);
    out.v_plus += Minv_G.col(a) * out.lcp.z(i);
  }
  out.U_plus = G.transpose() * out.v_plus;
  out.kinetic_change = (out.U_plus + out.U_minus).dot(out.impulse) / Scalar(2);
  return out;
}

template <class Scalar>
ImpactResult<Scalar> solve_impact(const LinearModel<Scalar>& model, const Vector<Scalar>& v_minus,
                                  const std::vector<Index>& index_set, LcpMethod method) {
  Eigen::LDLT<Matrix<Scalar>> ldlt(model.M);
  const Matrix<Scalar> Minv_G = ldlt.solve(model.G);
  return solve_impact<Scalar>(model.G, Minv_G, model.e, v_minus, index_set, method);
}

#define NSH_INSTANTIATE_IMPACT(S)                                                                \
  template ImpactResult<S> solve_impact(const Matrix<S>&, const Matrix<S>&, const Vector<S>&,    \
                                        const Vector<S>&, const std::vector<Index>&, LcpMethod); \
  template ImpactResult<S> solve_impact(const LinearModel<S>&, const Vector<S>&,                 \
                                        const std::vector<Index>&, LcpMethod);
NSH_INSTANTIATE_IMPACT(double)
NSH_INSTANTIATE_IMPACT(Real50)
NSH_INSTANTIATE_IMPACT(Rational)
#undef NSH_INSTANTIATE_IMPACT

}  // namespace nsh
