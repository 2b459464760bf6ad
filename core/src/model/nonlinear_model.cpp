#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/model/nonlinear_model.hpp>

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

namespace nsh {
namespace {

// A model that returns the wrong size is a programming error of the model, not bad input; the
// public functions still say which quantity it was, so that a new model is quick to fix.
template <class Scalar>
void require_size(const char* what, const Matrix<Scalar>& A, Index rows, Index cols) {
  if (A.rows() != rows || A.cols() != cols)
    throw ModelError(what, fmt::format("the model returned a {}x{} matrix, expected {}x{}",
                                       A.rows(), A.cols(), rows, cols));
}

template <class Scalar>
void require_size(const char* what, const Vector<Scalar>& x, Index size) {
  if (x.size() != size)
    throw ModelError(what,
                     fmt::format("the model returned {} entries, expected {}", x.size(), size));
}

template <class Scalar>
void require_finite_at(const std::string& field, const Matrix<Scalar>& A, const std::string& at) {
  for (Index i = 0; i < A.rows(); ++i)
    for (Index j = 0; j < A.cols(); ++j)
      if (!is_finite(A(i, j)))
        throw ModelError(fmt::format("{}[{}][{}]", field, i, j),
                         "is " + format_scalar(A(i, j)) + " at " + at + ", must be finite");
}

template <class Scalar>
void require_finite_at(const std::string& field, const Vector<Scalar>& x, const std::string& at) {
  for (Index i = 0; i < x.size(); ++i)
    if (!is_finite(x(i)))
      throw ModelError(fmt::format("{}[{}]", field, i),
                       "is " + format_scalar(x(i)) + " at " + at + ", must be finite");
}

}  // namespace

template <class Scalar>
const Vector<Scalar>& NonlinearModel<Scalar>::friction_coefficient() const {
  static const Vector<Scalar> none;
  return none;
}

template <class Scalar>
void NonlinearModel<Scalar>::do_tangent_jacobian(const Vector<Scalar>&, Matrix<Scalar>& W_T) const {
  W_T.setZero(dofs(), 0);
}

template <class Scalar>
bool NonlinearModel<Scalar>::do_force_jacobians(const Scalar&, const Vector<Scalar>&,
                                                const Vector<Scalar>&, Matrix<Scalar>&,
                                                Matrix<Scalar>&) const {
  return false;
}

template <class Scalar>
bool NonlinearModel<Scalar>::do_gap_curvature(const Vector<Scalar>&, const Vector<Scalar>&,
                                              Vector<Scalar>&) const {
  return false;
}

template <class Scalar>
bool NonlinearModel<Scalar>::gap_curvature(const Vector<Scalar>& q, const Vector<Scalar>& v,
                                           Vector<Scalar>& kappa) const {
  if (q.size() != dofs() || v.size() != dofs())
    throw ModelError("q", fmt::format("gap curvature: expected {} coordinates and velocities, got "
                                      "{} and {}",
                                      dofs(), q.size(), v.size()));
  if (!do_gap_curvature(q, v, kappa)) return false;
  if (kappa.size() != contacts())
    throw ModelError("kappa", fmt::format("gap curvature: expected {} entries (one per contact), "
                                          "got {}",
                                          contacts(), kappa.size()));
  return true;
}

template <class Scalar>
bool NonlinearModel<Scalar>::force_jacobians(const Scalar& t, const Vector<Scalar>& q,
                                             const Vector<Scalar>& v, Matrix<Scalar>& K,
                                             Matrix<Scalar>& C) const {
  if (!do_force_jacobians(t, q, v, K, C)) return false;
  require_size<Scalar>("K = -df/dq", K, dofs(), dofs());
  require_size<Scalar>("C = -df/dv", C, dofs(), dofs());
  return true;
}

template <class Scalar>
bool has_friction(const NonlinearModel<Scalar>& model) {
  if (model.tangent_directions() == 0 || model.contacts() == 0) return false;
  const Vector<Scalar>& mu = model.friction_coefficient();
  for (Index a = 0; a < mu.size(); ++a)
    if (mu(a) > Scalar(0)) return true;
  return false;
}

template <class Scalar>
void force_jacobians_by_differences(const NonlinearModel<Scalar>& model, const Scalar& t,
                                    const Vector<Scalar>& q, const Vector<Scalar>& v,
                                    Matrix<Scalar>& K, Matrix<Scalar>& C,
                                    ForceDifferenceWorkspace<Scalar>& work) {
  if constexpr (is_exact_v<Scalar>) {
    throw ModelError("f", "numerical force Jacobians need a floating-point scalar (double or 50)");
  } else {
    using std::cbrt;
    const Index n = model.dofs();
    const Scalar root = cbrt(epsilon<Scalar>());
    K.resize(n, n);
    C.resize(n, n);
    // Column i of -df/dx from f at x +- s e_i: K from the coordinates, C from the velocities.
    for (int which = 0; which < 2; ++which) {
      const Vector<Scalar>& x = which == 0 ? q : v;
      Matrix<Scalar>& J = which == 0 ? K : C;
      work.point = x;
      for (Index i = 0; i < n; ++i) {
        const Scalar size =
            abs_value<Scalar>(x(i)) > Scalar(1) ? abs_value<Scalar>(x(i)) : Scalar(1);
        const Scalar up = x(i) + root * size;
        const Scalar down = x(i) - root * size;
        work.point(i) = up;
        if (which == 0)
          model.force(t, work.point, v, work.plus);
        else
          model.force(t, q, work.point, work.plus);
        work.point(i) = down;
        if (which == 0)
          model.force(t, work.point, v, work.minus);
        else
          model.force(t, q, work.point, work.minus);
        work.point(i) = x(i);
        work.plus -= work.minus;
        J.col(i) = work.plus * (Scalar(-1) / (up - down));
      }
    }
  }
}

template <class Scalar>
void NonlinearModel<Scalar>::mass(const Vector<Scalar>& q, Matrix<Scalar>& M) const {
  do_mass(q, M);
  require_size<Scalar>("M", M, dofs(), dofs());
}

template <class Scalar>
Matrix<Scalar> NonlinearModel<Scalar>::mass(const Vector<Scalar>& q) const {
  Matrix<Scalar> M;
  mass(q, M);
  return M;
}

template <class Scalar>
void NonlinearModel<Scalar>::force(const Scalar& t, const Vector<Scalar>& q,
                                   const Vector<Scalar>& v, Vector<Scalar>& f) const {
  do_force(t, q, v, f);
  require_size<Scalar>("f", f, dofs());
}

template <class Scalar>
Vector<Scalar> NonlinearModel<Scalar>::force(const Scalar& t, const Vector<Scalar>& q,
                                             const Vector<Scalar>& v) const {
  Vector<Scalar> f;
  force(t, q, v, f);
  return f;
}

template <class Scalar>
void NonlinearModel<Scalar>::external_force(const Scalar& t, const Vector<Scalar>& q,
                                            const Vector<Scalar>& v, Vector<Scalar>& f_ext) const {
  do_external_force(t, q, v, f_ext);
  require_size<Scalar>("f_ext", f_ext, dofs());
}

template <class Scalar>
Vector<Scalar> NonlinearModel<Scalar>::external_force(const Scalar& t, const Vector<Scalar>& q,
                                                      const Vector<Scalar>& v) const {
  Vector<Scalar> f_ext;
  external_force(t, q, v, f_ext);
  return f_ext;
}

template <class Scalar>
Scalar NonlinearModel<Scalar>::potential(const Vector<Scalar>& q) const {
  return do_potential(q);
}

template <class Scalar>
void NonlinearModel<Scalar>::gap(const Vector<Scalar>& q, Vector<Scalar>& g) const {
  do_gap(q, g);
  require_size<Scalar>("g", g, contacts());
}

template <class Scalar>
Vector<Scalar> NonlinearModel<Scalar>::gap(const Vector<Scalar>& q) const {
  Vector<Scalar> g;
  gap(q, g);
  return g;
}

template <class Scalar>
void NonlinearModel<Scalar>::normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const {
  do_normal_jacobian(q, W_N);
  require_size<Scalar>("W_N", W_N, dofs(), contacts());
}

template <class Scalar>
Matrix<Scalar> NonlinearModel<Scalar>::normal_jacobian(const Vector<Scalar>& q) const {
  Matrix<Scalar> W_N;
  normal_jacobian(q, W_N);
  return W_N;
}

template <class Scalar>
void NonlinearModel<Scalar>::tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const {
  do_tangent_jacobian(q, W_T);
  require_size<Scalar>("W_T", W_T, dofs(), contacts() * tangent_directions());
}

template <class Scalar>
Matrix<Scalar> NonlinearModel<Scalar>::tangent_jacobian(const Vector<Scalar>& q) const {
  Matrix<Scalar> W_T;
  tangent_jacobian(q, W_T);
  return W_T;
}

template <class Scalar>
void NonlinearModel<Scalar>::do_one_forms(const Vector<Scalar>&, Matrix<Scalar>& A) const {
  A.setZero(0, dofs());
}

template <class Scalar>
void NonlinearModel<Scalar>::do_distribution(const Vector<Scalar>&, Matrix<Scalar>& X) const {
  X.setIdentity(dofs(), dofs());
}

template <class Scalar>
void NonlinearModel<Scalar>::one_forms(const Vector<Scalar>& q, Matrix<Scalar>& A) const {
  do_one_forms(q, A);
  require_size<Scalar>("A", A, velocity_constraints(), dofs());
}

template <class Scalar>
Matrix<Scalar> NonlinearModel<Scalar>::one_forms(const Vector<Scalar>& q) const {
  Matrix<Scalar> A;
  one_forms(q, A);
  return A;
}

template <class Scalar>
void NonlinearModel<Scalar>::distribution(const Vector<Scalar>& q, Matrix<Scalar>& X) const {
  do_distribution(q, X);
  require_size<Scalar>("X", X, dofs(), dofs() - velocity_constraints());
}

template <class Scalar>
Matrix<Scalar> NonlinearModel<Scalar>::distribution(const Vector<Scalar>& q) const {
  Matrix<Scalar> X;
  distribution(q, X);
  return X;
}

template <class Scalar>
Scalar NonlinearModel<Scalar>::energy(const Vector<Scalar>& q, const Vector<Scalar>& v) const {
  return v.dot(mass(q) * v) / Scalar(2) + potential(q);
}

template <class Scalar>
Vector<Scalar> NonlinearModel<Scalar>::normal_velocity(const Vector<Scalar>& q,
                                                       const Vector<Scalar>& v) const {
  return normal_jacobian(q).transpose() * v;
}

template <class Scalar>
Vector<Scalar> NonlinearModel<Scalar>::tangent_velocity(const Vector<Scalar>& q,
                                                        const Vector<Scalar>& v) const {
  return tangent_jacobian(q).transpose() * v;
}

template <class Scalar>
void NonlinearModel<Scalar>::validate(const State<Scalar>& initial) const {
  const Index n = dofs();
  const Index m = contacts();
  const Index d = tangent_directions();
  if (n <= 0) throw ModelError("M", "the model has no degrees of freedom");
  if (d < 0 || d > 2)
    throw ModelError("W_T",
                     fmt::format("{} tangent directions per contact; 0, 1 or 2 expected", d));
  if (initial.q.size() != n)
    throw ModelError(
        "q0", fmt::format("expected {} entries (one per coordinate), got {}", n, initial.q.size()));
  if (initial.v.size() != n)
    throw ModelError(
        "v0", fmt::format("expected {} entries (one per coordinate), got {}", n, initial.v.size()));
  require_finite_at<Scalar>("q0", initial.q, "t0");
  require_finite_at<Scalar>("v0", initial.v, "t0");
  const std::string at = "q0 = " + format_vector(initial.q);

  const Matrix<Scalar> M = mass(initial.q);
  require_finite_at<Scalar>("M", M, at);
  const Scalar scale = max_abs(M);
  const Scalar symmetry_tol = tolerance<Scalar>(scale, Scalar(8));
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < i; ++j)
      if (abs_value<Scalar>(M(i, j) - M(j, i)) > symmetry_tol)
        throw ModelError(
            "M", fmt::format("must be symmetric, but at {} M[{}][{}] = {} and "
                             "M[{}][{}] = {}",
                             at, i, j, format_scalar(M(i, j)), j, i, format_scalar(M(j, i))));
  const Index pivot =
      first_indefinite_pivot<Scalar>(M, true, tolerance<Scalar>(scale, Scalar(16 * (n + 1))));
  if (pivot >= 0)
    throw ModelError("M", fmt::format("must be positive definite, but at {} elimination breaks "
                                      "down at pivot {} (diagonal entry M[{}][{}] = {})",
                                      at, pivot, pivot, pivot, format_scalar(M(pivot, pivot))));

  require_finite_at<Scalar>("f", force(initial.t, initial.q, initial.v), at);
  require_finite_at<Scalar>("f_ext", external_force(initial.t, initial.q, initial.v), at);
  const Scalar V = potential(initial.q);
  if (!is_finite(V))
    throw ModelError("V", "is " + format_scalar(V) + " at " + at + ", must be finite");
  require_finite_at<Scalar>("g", gap(initial.q), at);
  require_finite_at<Scalar>("W_N", normal_jacobian(initial.q), at);
  require_finite_at<Scalar>("W_T", tangent_jacobian(initial.q), at);
  if (velocity_constraints() < 0 || velocity_constraints() >= n)
    throw ModelError("A", fmt::format("the number of velocity constraints must be in [0, n) = [0, "
                                      "{}), got {}",
                                      n, velocity_constraints()));
  if (velocity_constraints() > 0) {
    require_finite_at<Scalar>("A", one_forms(initial.q), at);
    require_finite_at<Scalar>("X", distribution(initial.q), at);
  }

  const Vector<Scalar>& e = restitution();
  if (e.size() != m)
    throw ModelError("e",
                     fmt::format("expected {} entries (one per contact), got {}", m, e.size()));
  for (Index a = 0; a < m; ++a)
    if (!is_finite(e(a)) || e(a) < Scalar(0) || e(a) > Scalar(1))
      throw ModelError(fmt::format("e[{}]", a),
                       "restitution must be in [0, 1], got " + format_scalar(e(a)));
  const Vector<Scalar>& mu = friction_coefficient();
  if (d == 0 && mu.size() != 0)
    throw ModelError("mu", "friction coefficients given, but the model has no tangent directions");
  if (d > 0 && mu.size() != m)
    throw ModelError("mu",
                     fmt::format("expected {} entries (one per contact), got {}", m, mu.size()));
  for (Index a = 0; a < mu.size(); ++a)
    if (!is_finite(mu(a)) || mu(a) < Scalar(0))
      throw ModelError(fmt::format("mu[{}]", a),
                       "friction coefficient must be >= 0, got " + format_scalar(mu(a)));
}

template <class Scalar>
void LinearModelAdapter<Scalar>::do_mass(const Vector<Scalar>&, Matrix<Scalar>& M) const {
  M = model_.M;
}

template <class Scalar>
void LinearModelAdapter<Scalar>::do_force(const Scalar& t, const Vector<Scalar>& q,
                                          const Vector<Scalar>& v, Vector<Scalar>& f) const {
  f = model_.force(t) - model_.C * v - model_.K * q;
}

template <class Scalar>
void LinearModelAdapter<Scalar>::do_external_force(const Scalar& t, const Vector<Scalar>&,
                                                   const Vector<Scalar>& v,
                                                   Vector<Scalar>& f_ext) const {
  f_ext = model_.force(t) - model_.C * v;
}

template <class Scalar>
Scalar LinearModelAdapter<Scalar>::do_potential(const Vector<Scalar>& q) const {
  return q.dot(model_.K * q) / Scalar(2);
}

template <class Scalar>
void LinearModelAdapter<Scalar>::do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const {
  g = model_.gap(q);
}

template <class Scalar>
void LinearModelAdapter<Scalar>::do_normal_jacobian(const Vector<Scalar>&,
                                                    Matrix<Scalar>& W_N) const {
  W_N = model_.G;
}

template <class Scalar>
const Vector<Scalar>& LinearModelAdapter<Scalar>::friction_coefficient() const {
  static const Vector<Scalar> none;
  return model_.tangent_directions() == 0 ? none : model_.mu;
}

template <class Scalar>
void LinearModelAdapter<Scalar>::do_tangent_jacobian(const Vector<Scalar>&,
                                                     Matrix<Scalar>& W_T) const {
  if (model_.tangent_directions() == 0)
    W_T.setZero(model_.dofs(), 0);
  else
    W_T = model_.G_T;
}

template <class Scalar>
bool LinearModelAdapter<Scalar>::do_gap_curvature(const Vector<Scalar>&, const Vector<Scalar>&,
                                                  Vector<Scalar>& kappa) const {
  kappa = Vector<Scalar>::Zero(model_.contacts());
  return true;
}

template <class Scalar>
bool LinearModelAdapter<Scalar>::do_force_jacobians(const Scalar&, const Vector<Scalar>&,
                                                    const Vector<Scalar>&, Matrix<Scalar>& K,
                                                    Matrix<Scalar>& C) const {
  K = model_.K;
  C = model_.C;
  return true;
}

template <class Scalar>
Matrix<Scalar> central_difference_gradients(
    const std::function<Vector<Scalar>(const Vector<Scalar>&)>& phi, const Vector<Scalar>& q,
    const Scalar& step) {
  if (!(step > Scalar(0))) throw InputError("step", "must be > 0, got " + format_scalar(step));
  Matrix<Scalar> gradients;
  Vector<Scalar> shifted = q;
  for (Index i = 0; i < q.size(); ++i) {
    shifted(i) = q(i) + step;
    const Vector<Scalar> plus = phi(shifted);
    shifted(i) = q(i) - step;
    const Vector<Scalar> minus = phi(shifted);
    shifted(i) = q(i);
    if (i == 0) gradients.resize(q.size(), plus.size());
    gradients.row(i) = ((plus - minus) / (Scalar(2) * step)).transpose();
  }
  return gradients;
}

template <class Scalar>
Scalar force_split_residual(const NonlinearModel<Scalar>& model, const Scalar& t,
                            const Vector<Scalar>& q, const Vector<Scalar>& v, const Scalar& step) {
  const Index n = model.dofs();
  const Matrix<Scalar> grad_V = central_difference_gradients<Scalar>(
      [&](const Vector<Scalar>& x) { return Vector<Scalar>::Constant(1, model.potential(x)); }, q,
      step);
  // dM[k] = dM/dq_k.
  std::vector<Matrix<Scalar>> dM(n);
  Vector<Scalar> shifted = q;
  for (Index k = 0; k < n; ++k) {
    shifted(k) = q(k) + step;
    const Matrix<Scalar> plus = model.mass(shifted);
    shifted(k) = q(k) - step;
    dM[k] = (plus - model.mass(shifted)) / (Scalar(2) * step);
    shifted(k) = q(k);
  }
  Vector<Scalar> residual = model.force(t, q, v) - model.external_force(t, q, v) + grad_V.col(0);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j)
      for (Index k = 0; k < n; ++k)
        residual(i) += (dM[k](i, j) - dM[i](j, k) / Scalar(2)) * v(j) * v(k);
  return max_abs(residual);
}

#define NSH_INSTANTIATE(Scalar)                                                                   \
  template class NonlinearModel<Scalar>;                                                          \
  template class LinearModelAdapter<Scalar>;                                                      \
  template bool has_friction<Scalar>(const NonlinearModel<Scalar>&);                              \
  template void force_jacobians_by_differences<Scalar>(                                           \
      const NonlinearModel<Scalar>&, const Scalar&, const Vector<Scalar>&, const Vector<Scalar>&, \
      Matrix<Scalar>&, Matrix<Scalar>&, ForceDifferenceWorkspace<Scalar>&);                       \
  template Matrix<Scalar> central_difference_gradients<Scalar>(                                   \
      const std::function<Vector<Scalar>(const Vector<Scalar>&)>&, const Vector<Scalar>&,         \
      const Scalar&);                                                                             \
  template Scalar force_split_residual<Scalar>(const NonlinearModel<Scalar>&, const Scalar&,      \
                                               const Vector<Scalar>&, const Vector<Scalar>&,      \
                                               const Scalar&);
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh
