// Projected Gauss-Seidel (see nsh/lcp/pgs.hpp).

#include <nsh/lcp/pgs.hpp>

#include <string>

namespace nsh {

namespace {

/// PGS into result.z and result.w, which have size m.
template <class Scalar>
void pgs(const MatrixView<Scalar>& W, const VectorView<Scalar>& b,
         const LcpOptions<Scalar>& options, LcpResult<Scalar>& result) {
  result.method = LcpMethod::pgs;
  result.iterations = 0;
  const Index m = b.size();
  result.z.setZero();
  result.w = b;

  auto finish = [&](LcpStatus status, std::string message) {
    certify_result<Scalar>(W, b, options, status, std::move(message),
                           "PGS converged to a point that fails the certificate", result);
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
    if (natural_map_within(z, w, lcp_tolerance<Scalar>(W, b, z, options)))
      return finish(LcpStatus::solved, "");
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

}  // namespace

template <class Scalar>
LcpResult<Scalar> solve_lcp_pgs(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                const LcpOptions<Scalar>& options) {
  LcpResult<Scalar> result;
  result.z.resize(b.size());
  result.w.resize(b.size());
  pgs<Scalar>(W, b, options, result);
  return result;
}

template <class Scalar>
void solve_lcp_pgs(const std::type_identity_t<MatrixView<Scalar>>& W,
                   const std::type_identity_t<VectorView<Scalar>>& b,
                   const LcpOptions<Scalar>& options, LcpWorkspace<Scalar>& workspace,
                   LcpResult<Scalar>& result) {
  workspace.size_result(result, b.size());
  pgs<Scalar>(W, b, options, result);
}

#define NSH_INSTANTIATE_PGS(Scalar)                                                         \
  template LcpResult<Scalar> solve_lcp_pgs(const Matrix<Scalar>&, const Vector<Scalar>&,    \
                                           const LcpOptions<Scalar>&);                      \
  template void solve_lcp_pgs<Scalar>(const MatrixView<Scalar>&, const VectorView<Scalar>&, \
                                      const LcpOptions<Scalar>&, LcpWorkspace<Scalar>&,     \
                                      LcpResult<Scalar>&);

NSH_INSTANTIATE_PGS(double)
NSH_INSTANTIATE_PGS(Real50)

}  // namespace nsh
