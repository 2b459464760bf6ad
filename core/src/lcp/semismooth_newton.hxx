#pragma once
// Private to the LCP solvers: the globalised semismooth Newton iteration shared by the
// Fischer-Burmeister and the prox (augmented-Lagrangian) solvers. They differ only in the
// equation F(z) = 0 that characterises the LCP and in its generalised Jacobian.
//
//   d      solves J d = -F            (complete pivoting; a consistent singular J gives the
//                                      particular solution), else d = -J^T F if that fails
//                                      or is no descent direction for psi = |F|^2 / 2
//   Armijo psi(z + t d) <= psi(z) + sigma t grad^T d,  grad = J^T F,  t = 1, 1/2, 1/4, ...
//   stop   when the natural map ||min(z, Wz + b)||_inf meets the certificate tolerance.
// (De Luca, Facchinei, Kanzow, Math. Programming 75:407-439, 1996.)

#include <nsh/lcp/lcp.hpp>

#include "dense_solve.hxx"

#include <string>
#include <utility>

namespace nsh::detail {

/// Map has  void residual(const Vector& z, const Vector& w, Vector& F) const
/// and      void jacobian(const Vector& z, const Vector& w, Matrix& J) const.
template <class Scalar, class Map>
LcpResult<Scalar> semismooth_newton(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                                    const LcpOptions<Scalar>& options, LcpMethod method,
                                    const Map& map) {
  LcpResult<Scalar> result;
  result.method = method;
  const Index m = b.size();
  const char* name = to_string(method);

  // Workspace, allocated once.
  Vector<Scalar> z = Vector<Scalar>::Zero(m), w = b;
  Vector<Scalar> F(m), d(m), Wd(m), grad(m), z_trial(m), w_trial(m), F_trial(m);
  Matrix<Scalar> J(m, m);
  DenseSolveWorkspace<Scalar> ws;
  ws.resize(m);

  const Scalar sigma = Scalar(1) / 10000;  // Armijo's sufficient-decrease fraction
  const int max_halvings = 2 * std::numeric_limits<Scalar>::digits;  // t down to ~eps^2

  const std::string uncertified =
      std::string(name) + " stopped at a point that fails the certificate";
  auto finish = [&](LcpStatus status, std::string message) {
    result.z = z;
    certify_result<Scalar>(W, b, options, status, std::move(message), uncertified.c_str(), result);
    // Whatever stopped the iteration, a point that certifies is a solution.
    if (result.certificate.accepted) {
      result.status = LcpStatus::solved;
      result.message.clear();
    }
    return result;
  };

  auto merit = [](const Vector<Scalar>& v) { return Scalar(v.dot(v) / 2); };

  while (true) {
    if (natural_map_within(z, w, lcp_tolerance(W, b, z, options)))
      return finish(LcpStatus::solved, "");
    if (result.iterations >= options.max_iterations)
      return finish(LcpStatus::max_iterations, std::string(name) + " did not converge in " +
                                                   std::to_string(result.iterations) +
                                                   " Newton iterations");
    ++result.iterations;

    map.residual(z, w, F);
    const Scalar psi = merit(F);
    map.jacobian(z, w, J);
    grad.noalias() = J.transpose() * F;

    ws.a = J;
    ws.r = -F;
    const Scalar pivot_tolerance = tolerance<Scalar>(max_abs(J), Scalar(64 * (m + 1)));
    bool newton = solve_complete_pivoting(ws, m, pivot_tolerance, pivot_tolerance) !=
                  DenseSolveOutcome::inconsistent;
    if (newton) {
      d = ws.x;
      newton = grad.dot(d) < Scalar(0);
    }

    bool stepped = false;
    for (int attempt = 0; attempt < 2 && !stepped; ++attempt) {
      if (!newton || attempt == 1) d = -grad;
      const Scalar slope = grad.dot(d);
      if (!(slope < Scalar(0))) break;  // grad = 0: a stationary point of psi, not a solution
      Wd.noalias() = W * d;
      Scalar t(1);
      for (int k = 0; k <= max_halvings; ++k, t /= 2) {
        z_trial = z + t * d;
        w_trial = w + t * Wd;
        map.residual(z_trial, w_trial, F_trial);
        if (merit(F_trial) <= psi + sigma * t * slope) {
          stepped = true;
          break;
        }
      }
      if (!newton) break;  // the gradient already failed
    }
    if (!stepped)
      return finish(LcpStatus::uncertified,
                    std::string(name) + ": the line search found no decrease after " +
                        std::to_string(result.iterations) +
                        " iterations (stationary point of the merit function)");
    z = z_trial;
    w = b;
    w.noalias() += W * z;  // recomputed, so that round-off of w + t W d does not accumulate
  }
}

}  // namespace nsh::detail
