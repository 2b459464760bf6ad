#pragma once
// The buffers of one Moreau–Jean step on a nonlinear model (nsh/schemes/moreau_jean.hpp,
// core/src/schemes/moreau_jean/moreau_jean_nonlinear_step.hxx): the linear step's buffers plus
// M(q_k), the force and its Jacobians, the iteration matrix and its factorization, and the
// Jacobians at the prediction with their Delassus operators. Sized once by size(); the step
// recomputes them in place, so that the scheme itself allocates nothing per frictionless double
// step (a model's own evaluation may: FormulaModel's programs do).

#include <nsh/detail/moreau_jean_workspace.hpp>
#include <nsh/model/nonlinear_model.hpp>
#include <nsh/scalar.hpp>

#include <Eigen/LU>

namespace nsh::detail {

template <class Scalar>
struct MoreauJeanNonlinearWorkspace {
  MoreauJeanWorkspace<Scalar> base;   ///< v_free, v_next, q_next, gaps, U_k, the index set, ...
  Matrix<Scalar> mass;                ///< M(q_k)
  Matrix<Scalar> stiffness, damping;  ///< K = -df/dq, C = -df/dv at (t_{k+1}, q_k, v_k)
  Matrix<Scalar> iteration;           ///< M(q_k) + h theta C + h^2 theta^2 K
  Eigen::PartialPivLU<Matrix<Scalar>> iteration_lu;
  Matrix<Scalar> normal_jacobian_k;              ///< W_N(q_k), for U_k and the index set
  Matrix<Scalar> normal_jacobian;                ///< W_N(q*), q* = q_k + h/2 v_k
  Matrix<Scalar> tangent_jacobian;               ///< W_T(q*)
  Matrix<Scalar> minv_g, delassus;               ///< iteration^-1 W_N(q*), W_N^T iteration^-1 W_N
  Matrix<Scalar> local, minv_h, delassus_local;  ///< H = [W_N^a, W_T^a..] contact-major (friction)
  Vector<Scalar> force_k, force_next;            ///< f(t_k, q_k, v_k), f(t_{k+1}, q_k, v_k)
  Vector<Scalar> external_k,
      external_next;                ///< f_ext at (t_k, q_k, v_k), (t_{k+1}, q_{k+1}, v_{k+1})
  Vector<Scalar> prediction;        ///< q* = q_k + h/2 v_k
  Vector<Scalar> tangential_theta;  ///< W_T(q*)^T v_{k+theta}
  Vector<Scalar> impulse, tangential_impulse;  ///< m, m d (friction)
  ForceDifferenceWorkspace<Scalar> differences;

  void size(Index n, Index m, Index d) {
    base.size(n, m);
    for (Matrix<Scalar>* A : {&mass, &stiffness, &damping, &iteration}) A->setZero(n, n);
    for (Matrix<Scalar>* A : {&normal_jacobian_k, &normal_jacobian, &minv_g}) A->setZero(n, m);
    tangent_jacobian.setZero(n, m * d);
    delassus.setZero(m, m);
    local.setZero(n, m * (1 + d));
    minv_h.setZero(n, m * (1 + d));
    delassus_local.setZero(m * (1 + d), m * (1 + d));
    for (Vector<Scalar>* v : {&force_k, &force_next, &external_k, &external_next, &prediction,
                              &differences.point, &differences.plus, &differences.minus})
      v->setZero(n);
    tangential_theta.setZero(m * d);
    impulse.setZero(m);
    tangential_impulse.setZero(m * d);
    iteration_lu = Eigen::PartialPivLU<Matrix<Scalar>>(n);
  }
};

}  // namespace nsh::detail
