// Block projected Gauss-Seidel on the Coulomb cone (see nsh/friction/pgs.hpp).

#include <nsh/friction/pgs.hpp>

#include <string>

namespace nsh {

template <class Scalar>
FrictionResult<Scalar> solve_friction_pgs(const FrictionProblem<Scalar>& problem,
                                          const FrictionOptions<Scalar>& options) {
  using std::sqrt;
  const Index n = problem.b.size();
  const Index m = problem.contacts();
  const Index d = problem.tangent_dimension;
  const Matrix<Scalar>& W = problem.W;
  FrictionResult<Scalar> result;
  result.method = FrictionMethod::pgs;
  result.P = Vector<Scalar>::Zero(n);

  // Step lengths: 1 / W_NN and 1 / lambda_max(W_TT) (closed form of a 2 x 2 symmetric block).
  Vector<Scalar> normal_step(m), tangent_step(m);
  for (Index a = 0; a < m; ++a) {
    const Index iN = problem.normal_index(a);
    Scalar lambda = W(iN + 1, iN + 1);
    if (d == 2) {
      const Scalar mean = (W(iN + 1, iN + 1) + W(iN + 2, iN + 2)) / 2;
      const Scalar half = (W(iN + 1, iN + 1) - W(iN + 2, iN + 2)) / 2;
      lambda = mean + Scalar(sqrt(half * half + W(iN + 1, iN + 2) * W(iN + 1, iN + 2)));
    }
    if (!(W(iN, iN) > Scalar(0)) || !(lambda > Scalar(0))) {
      certify_friction_result(problem, options, FrictionStatus::singular,
                              "pgs needs W_NN > 0 and W_TT != 0, but contact " + std::to_string(a) +
                                  " has a zero diagonal block",
                              result);
      return result;
    }
    normal_step(a) = Scalar(1) / W(iN, iN);
    tangent_step(a) = Scalar(1) / lambda;
  }

  Vector<Scalar>& P = result.P;
  Vector<Scalar> U = problem.b;  // W P + b, kept current through every block update
  const Scalar unchanged = tolerance<Scalar>(Scalar(1), Scalar(16));
  while (true) {
    if (certify(problem, P, options.relative_tolerance).accepted) break;
    if (result.iterations >= options.max_iterations) {
      certify_friction_result(
          problem, options, FrictionStatus::max_iterations,
          "pgs did not converge in " + std::to_string(result.iterations) + " sweeps", result);
      return result;
    }
    ++result.iterations;
    for (Index a = 0; a < m; ++a) {
      const Index iN = problem.normal_index(a);
      for (Index pass = 0; pass < options.local_iterations; ++pass) {
        Scalar change(0), size(0);
        // Normal: the exact minimiser along P_N with everything else frozen.
        {
          Scalar value = P(iN) - U(iN) * normal_step(a);
          if (value < Scalar(0)) value = Scalar(0);
          const Scalar delta = value - P(iN);
          if (delta != Scalar(0)) {
            P(iN) = value;
            U += W.col(iN) * delta;
          }
          change += abs_value<Scalar>(delta);
          size += abs_value<Scalar>(value);
        }
        // Tangential: a projected gradient step onto the disk of radius mu P_N.
        {
          const Scalar rho = problem.friction_coefficient(a) * P(iN);
          Scalar y[2];
          Scalar squared(0);
          for (Index k = 0; k < d; ++k) {
            y[k] = P(iN + 1 + k) - U(iN + 1 + k) * tangent_step(a);
            squared += y[k] * y[k];
          }
          const Scalar norm = d == 1 ? abs_value<Scalar>(y[0]) : Scalar(sqrt(squared));
          for (Index k = 0; k < d; ++k) {
            const Scalar value = norm <= rho ? y[k] : Scalar(rho * y[k] / norm);
            const Scalar delta = value - P(iN + 1 + k);
            if (delta != Scalar(0)) {
              P(iN + 1 + k) = value;
              U += W.col(iN + 1 + k) * delta;
            }
            change += abs_value<Scalar>(delta);
            size += abs_value<Scalar>(value);
          }
        }
        if (change <= unchanged * size) break;
      }
    }
    U = local_velocity(problem, P);  // once per sweep: the block updates' round-off is dropped
  }
  certify_friction_result(problem, options, FrictionStatus::solved, "", result);
  return result;
}

#define NSH_INSTANTIATE_FRICTION_PGS(Scalar)                                         \
  template FrictionResult<Scalar> solve_friction_pgs(const FrictionProblem<Scalar>&, \
                                                     const FrictionOptions<Scalar>&);

NSH_INSTANTIATE_FRICTION_PGS(double)
NSH_INSTANTIATE_FRICTION_PGS(Real50)

}  // namespace nsh
