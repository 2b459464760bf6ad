// Fischer-Burmeister semismooth Newton (see nsh/lcp/fischer_burmeister.hpp).

#include <nsh/lcp/fischer_burmeister.hpp>

#include "semismooth_newton.hxx"

#include <cmath>

namespace nsh {

namespace {

template <class Scalar>
Scalar hypotenuse(const Scalar& a, const Scalar& b) {
  using std::sqrt;
  return Scalar(sqrt(a * a + b * b));
}

template <class Scalar>
struct FischerBurmeisterMap {
  const Matrix<Scalar>& W;

  void residual(const Vector<Scalar>& z, const Vector<Scalar>& w, Vector<Scalar>& F) const {
    for (Index i = 0; i < z.size(); ++i) F(i) = hypotenuse(z(i), w(i)) - z(i) - w(i);
  }

  void jacobian(const Vector<Scalar>& z, const Vector<Scalar>& w, Matrix<Scalar>& J) const {
    using std::sqrt;
    const Scalar at_origin = Scalar(1) / Scalar(sqrt(Scalar(2))) - Scalar(1);
    for (Index i = 0; i < z.size(); ++i) {
      const Scalar r = hypotenuse(z(i), w(i));
      Scalar da = at_origin, db = at_origin;
      if (r > Scalar(0)) {
        da = z(i) / r - Scalar(1);
        db = w(i) / r - Scalar(1);
      }
      for (Index j = 0; j < z.size(); ++j) J(i, j) = db * W(i, j);
      J(i, i) += da;
    }
  }
};

}  // namespace

template <class Scalar>
LcpResult<Scalar> solve_lcp_fischer_burmeister(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                               const LcpOptions<Scalar>& options) {
  const FischerBurmeisterMap<Scalar> map{W};
  return detail::semismooth_newton(W, b, options, LcpMethod::fischer_burmeister, map);
}

template LcpResult<double> solve_lcp_fischer_burmeister(const Matrix<double>&,
                                                        const Vector<double>&,
                                                        const LcpOptions<double>&);
template LcpResult<Real50> solve_lcp_fischer_burmeister(const Matrix<Real50>&,
                                                        const Vector<Real50>&,
                                                        const LcpOptions<Real50>&);

}  // namespace nsh
