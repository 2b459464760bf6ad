// Prox / Alart-Curnier semismooth Newton for the friction problem (see
// nsh/friction/alart_curnier.hpp).

#include <nsh/friction/alart_curnier.hpp>

#include "lcp/dense_solve.hxx"

#include <limits>
#include <string>

namespace nsh {

namespace {

template <class Scalar>
Scalar root(const Scalar& x) {
  using std::sqrt;
  return Scalar(sqrt(x));
}

/// F(P) and its generalised Jacobian (see the header comment).
template <class Scalar>
struct AlartCurnierMap {
  const FrictionProblem<Scalar>& problem;
  Vector<Scalar> rN, rT;  // per contact

  Scalar tangent_norm(const Vector<Scalar>& y, Index first) const {
    const Index d = problem.tangent_dimension;
    if (d == 1) return abs_value<Scalar>(y(first));
    return root<Scalar>(y(first) * y(first) + y(first + 1) * y(first + 1));
  }

  void residual(const Vector<Scalar>& P, const Vector<Scalar>& U, Vector<Scalar>& F) const {
    const Index d = problem.tangent_dimension;
    for (Index a = 0; a < problem.contacts(); ++a) {
      const Index iN = problem.normal_index(a);
      const Index iT = iN + 1;
      const Scalar shifted = P(iN) - rN(a) * U(iN);
      F(iN) = shifted > Scalar(0) ? Scalar(rN(a) * U(iN)) : P(iN);
      const Scalar rho =
          problem.friction_coefficient(a) * (shifted > Scalar(0) ? shifted : Scalar(0));
      Scalar y[2];
      for (Index k = 0; k < d; ++k) y[k] = P(iT + k) - rT(a) * U(iT + k);
      const Scalar ny = d == 1 ? abs_value<Scalar>(y[0]) : root<Scalar>(y[0] * y[0] + y[1] * y[1]);
      for (Index k = 0; k < d; ++k)
        F(iT + k) = ny <= rho ? Scalar(rT(a) * U(iT + k)) : Scalar(P(iT + k) - rho * y[k] / ny);
    }
  }

  void jacobian(const Vector<Scalar>& P, const Vector<Scalar>& U, Matrix<Scalar>& J) const {
    const Index d = problem.tangent_dimension;
    const Index n = P.size();
    const Matrix<Scalar>& W = problem.W;
    J.setZero();
    for (Index a = 0; a < problem.contacts(); ++a) {
      const Index iN = problem.normal_index(a);
      const Index iT = iN + 1;
      const Scalar& mu = problem.friction_coefficient(a);
      const Scalar shifted = P(iN) - rN(a) * U(iN);
      if (shifted > Scalar(0)) {
        for (Index j = 0; j < n; ++j) J(iN, j) = rN(a) * W(iN, j);
      } else {
        J(iN, iN) = Scalar(1);
      }
      const Scalar rho = mu * (shifted > Scalar(0) ? shifted : Scalar(0));
      Scalar y[2];
      for (Index k = 0; k < d; ++k) y[k] = P(iT + k) - rT(a) * U(iT + k);
      const Scalar ny = d == 1 ? abs_value<Scalar>(y[0]) : root<Scalar>(y[0] * y[0] + y[1] * y[1]);
      if (ny <= rho) {
        for (Index k = 0; k < d; ++k)
          for (Index j = 0; j < n; ++j) J(iT + k, j) = rT(a) * W(iT + k, j);
        continue;
      }
      // F_T = P_T - rho y / |y|:  dF_T = E_T - (rho / |y|)(I - yhat yhat^T) dy - yhat drho,
      // dy = E_T - r_T W_T.,  drho = mu e_N^T where P_N > 0.
      Scalar yhat[2];
      for (Index k = 0; k < d; ++k) yhat[k] = y[k] / ny;
      const Scalar ratio = rho / ny;
      for (Index k = 0; k < d; ++k) {
        for (Index j = 0; j < n; ++j) {
          Scalar projected(0);  // ((I - yhat yhat^T) dy)(k, j)
          for (Index l = 0; l < d; ++l) {
            const Scalar dy = (iT + l == j ? Scalar(1) : Scalar(0)) - rT(a) * W(iT + l, j);
            const Scalar p = (k == l ? Scalar(1) : Scalar(0)) - yhat[k] * yhat[l];
            projected += p * dy;
          }
          J(iT + k, j) = (iT + k == j ? Scalar(1) : Scalar(0)) - ratio * projected;
        }
        if (shifted > Scalar(0))  // drho = mu (e_N - r_N W_N.)
          for (Index j = 0; j < n; ++j)
            J(iT + k, j) -= yhat[k] * mu * ((iN == j ? Scalar(1) : Scalar(0)) - rN(a) * W(iN, j));
      }
    }
  }
};

}  // namespace

template <class Scalar>
FrictionResult<Scalar> solve_friction_alart_curnier(const FrictionProblem<Scalar>& problem,
                                                    const FrictionOptions<Scalar>& options) {
  const Index n = problem.b.size();
  const Index m = problem.contacts();
  const Index d = problem.tangent_dimension;
  FrictionResult<Scalar> result;
  result.method = FrictionMethod::alart_curnier;
  result.P = Vector<Scalar>::Zero(n);

  AlartCurnierMap<Scalar> map{problem, Vector<Scalar>(m), Vector<Scalar>(m)};
  for (Index a = 0; a < m; ++a) {
    const Index iN = problem.normal_index(a);
    Scalar trace(0);
    for (Index k = 0; k < d; ++k) trace += problem.W(iN + 1 + k, iN + 1 + k);
    if (!(problem.W(iN, iN) > Scalar(0)) || !(trace > Scalar(0))) {
      certify_friction_result(problem, options, FrictionStatus::singular,
                              "alart-curnier needs W_NN > 0 and tr W_TT > 0 for r, but contact " +
                                  std::to_string(a) + " has a zero diagonal",
                              result);
      return result;
    }
    map.rN(a) = options.prox_scale / problem.W(iN, iN);
    map.rT(a) = options.prox_scale * Scalar(d) / trace;
  }

  Vector<Scalar> P = result.P, U = problem.b;
  Vector<Scalar> F(n), step(n), grad(n), P_trial(n), U_trial(n), F_trial(n), Wstep(n);
  Matrix<Scalar> J(n, n);
  detail::DenseSolveWorkspace<Scalar> ws;
  ws.resize(n);
  const Scalar sigma = Scalar(1) / 10000;  // Armijo's sufficient-decrease fraction
  const int max_halvings = 2 * std::numeric_limits<Scalar>::digits;
  auto merit = [](const Vector<Scalar>& v) { return Scalar(v.dot(v) / 2); };

  auto finish = [&](FrictionStatus status, std::string message) {
    result.P = P;
    certify_friction_result(problem, options, status, std::move(message), result);
    return result;
  };

  while (true) {
    if (certify(problem, P, options.relative_tolerance).accepted)
      return finish(FrictionStatus::solved, "");
    if (result.iterations >= options.newton_iterations)
      return finish(FrictionStatus::max_iterations, "alart-curnier did not converge in " +
                                                        std::to_string(result.iterations) +
                                                        " Newton steps");
    ++result.iterations;
    map.residual(P, U, F);
    const Scalar psi = merit(F);
    map.jacobian(P, U, J);
    grad.noalias() = J.transpose() * F;

    ws.a = J;
    ws.r = -F;
    const Scalar pivot_tolerance = tolerance<Scalar>(max_abs(J), Scalar(64 * (n + 1)));
    bool newton = detail::solve_complete_pivoting(ws, n, pivot_tolerance, pivot_tolerance) !=
                  detail::DenseSolveOutcome::inconsistent;
    if (newton) {
      step = ws.x;
      newton = grad.dot(step) < Scalar(0);
    }
    bool stepped = false;
    for (int attempt = 0; attempt < 2 && !stepped; ++attempt) {
      if (!newton || attempt == 1) step = -grad;
      const Scalar slope = grad.dot(step);
      if (!(slope < Scalar(0))) break;  // stationary point of the merit function
      Wstep.noalias() = problem.W * step;
      Scalar t(1);
      for (int k = 0; k <= max_halvings; ++k, t /= 2) {
        P_trial = P + t * step;
        U_trial = U + t * Wstep;
        map.residual(P_trial, U_trial, F_trial);
        if (merit(F_trial) <= psi + sigma * t * slope) {
          stepped = true;
          break;
        }
      }
      if (!newton) break;
    }
    if (!stepped)
      return finish(FrictionStatus::uncertified,
                    "alart-curnier: the line search found no decrease after " +
                        std::to_string(result.iterations) +
                        " Newton steps (stationary point of |F|^2 / 2)");
    P = P_trial;
    U = local_velocity(problem, P);  // recomputed: no drift of U + t W step
  }
}

#define NSH_INSTANTIATE_FRICTION_ALART_CURNIER(Scalar)                                         \
  template FrictionResult<Scalar> solve_friction_alart_curnier(const FrictionProblem<Scalar>&, \
                                                               const FrictionOptions<Scalar>&);

NSH_INSTANTIATE_FRICTION_ALART_CURNIER(double)
NSH_INSTANTIATE_FRICTION_ALART_CURNIER(Real50)

}  // namespace nsh
