// Projected Gauss-Seidel (see nsh/lcp/pgs.hpp).

#include <nsh/lcp/pgs.hpp>

#include <string>

namespace nsh {

template <class Scalar>
LcpResult<Scalar> solve_lcp_pgs(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                const LcpOptions<Scalar>& options) {
  LcpResult<Scalar> result;
  result.method = LcpMethod::pgs;
  const Index m = b.size();
  result.z = Vector<Scalar>::Zero(m);
  result.w = b;

  auto finish = [&](LcpStatus status, std::string message) {
    result.w = b;
    result.w.noalias() += W * result.z;
    result.certificate = certify(W, b, result.z, options);
    if (status == LcpStatus::solved && !result.certificate.accepted) {
      status = LcpStatus::uncertified;
      message = "PGS converged to a point that fails the certificate";
    }
    result.status = status;
    result.message = std::move(message);
    return result;
  };

  for (Index i = 0; i < m; ++i)
    if (!(W(i, i) > Scalar(0)))
      return finish(LcpStatus::singular, "PGS needs W_ii > 0, but W[" + std::to_string(i) + "][" +
                                             std::to_string(i) + "] is not positive");

  Vector<Scalar>& z = result.z;
  Vector<Scalar>& w = result.w;
  while (true) {
    // The natural map of the current z decides convergence (same test as the certificate).
    w = b;
    w.noalias() += W * z;
    const Scalar tol = lcp_tolerance(W, b, z, options);
    bool converged = true;
    for (Index i = 0; i < m && converged; ++i) {
      const Scalar natural = z(i) < w(i) ? z(i) : w(i);
      if (abs_value(natural) > tol) converged = false;
    }
    if (converged) return finish(LcpStatus::solved, "");
    if (result.iterations >= options.max_iterations)
      return finish(LcpStatus::max_iterations,
                    "PGS did not converge in " + std::to_string(result.iterations) + " sweeps");
    for (Index i = 0; i < m; ++i) {
      Scalar wi = b(i);
      for (Index j = 0; j < m; ++j) wi += W(i, j) * z(j);
      Scalar zi = z(i) - wi / W(i, i);
      z(i) = zi > Scalar(0) ? zi : Scalar(0);
    }
    ++result.iterations;
  }
}

template LcpResult<double> solve_lcp_pgs(const Matrix<double>&, const Vector<double>&,
                                         const LcpOptions<double>&);
template LcpResult<Real50> solve_lcp_pgs(const Matrix<Real50>&, const Vector<Real50>&,
                                         const LcpOptions<Real50>&);

}  // namespace nsh
