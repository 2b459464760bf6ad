// Prox / augmented-Lagrangian semismooth Newton (see nsh/lcp/prox_newton.hpp).

#include <nsh/lcp/prox_newton.hpp>

#include "semismooth_newton.hxx"

#include <string>

namespace nsh {

namespace {

template <class Scalar>
struct ProxMap {
  const Matrix<Scalar>& W;
  const Vector<Scalar>& r;

  void residual(const Vector<Scalar>& z, const Vector<Scalar>& w, Vector<Scalar>& F) const {
    for (Index i = 0; i < z.size(); ++i) {
      const Scalar shifted = z(i) - r(i) * w(i);
      F(i) = shifted > Scalar(0) ? Scalar(r(i) * w(i)) : z(i);
    }
  }

  void jacobian(const Vector<Scalar>& z, const Vector<Scalar>& w, Matrix<Scalar>& J) const {
    for (Index i = 0; i < z.size(); ++i) {
      const bool active = z(i) - r(i) * w(i) > Scalar(0);
      for (Index j = 0; j < z.size(); ++j)
        J(i, j) = active ? Scalar(r(i) * W(i, j)) : Scalar(i == j ? 1 : 0);
    }
  }
};

}  // namespace

template <class Scalar>
LcpResult<Scalar> solve_lcp_prox_newton(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                        const LcpOptions<Scalar>& options) {
  const Index m = b.size();
  Vector<Scalar> r(m);
  for (Index i = 0; i < m; ++i) {
    if (!(W(i, i) > Scalar(0))) {
      LcpResult<Scalar> result;
      result.method = LcpMethod::prox_newton;
      result.z = Vector<Scalar>::Zero(m);
      certify_result<Scalar>(W, b, options, LcpStatus::singular,
                             "prox needs W_ii > 0 for r_i = prox_scale / W_ii, but W[" +
                                 std::to_string(i) + "][" + std::to_string(i) + "] is not positive",
                             "", result);
      // z = 0 may solve it all the same (b >= 0).
      if (result.certificate.accepted) {
        result.status = LcpStatus::solved;
        result.message.clear();
      }
      return result;
    }
    r(i) = options.prox_scale / W(i, i);
  }
  const ProxMap<Scalar> map{W, r};
  return detail::semismooth_newton(W, b, options, LcpMethod::prox_newton, map);
}

template LcpResult<double> solve_lcp_prox_newton(const Matrix<double>&, const Vector<double>&,
                                                 const LcpOptions<double>&);
template LcpResult<Real50> solve_lcp_prox_newton(const Matrix<Real50>&, const Vector<Real50>&,
                                                 const LcpOptions<Real50>&);

}  // namespace nsh
