#include <nsh/detail/dense_lu.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/projection/polyhedron.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace nsh {

template <class Scalar>
PolyhedronProjection<Scalar>::PolyhedronProjection(Matrix<Scalar> A, Vector<Scalar> b)
    : A_(std::move(A)), b_(std::move(b)) {
  if (A_.cols() == 0) throw ModelError("set.A", "a polyhedron needs one coordinate or more");
  if (A_.rows() != b_.size())
    throw ModelError("set.b",
                     fmt::format("has {} entries, set.A has {} rows", b_.size(), A_.rows()));
  for (Index i = 0; i < A_.rows(); ++i) {
    for (Index j = 0; j < A_.cols(); ++j)
      if (!is_finite(A_(i, j)))
        throw ModelError(fmt::format("set.A[{}][{}]", i, j),
                         "is " + format_scalar(A_(i, j)) + ", must be finite");
    if (max_abs(A_.row(i)) == Scalar(0))
      throw ModelError(fmt::format("set.A[{}]", i), "is a zero row (an inequality 0 <= b)");
    if (!is_finite(b_(i)))
      throw ModelError(fmt::format("set.b[{}]", i),
                       "is " + format_scalar(b_(i)) + ", must be finite");
  }
  max_iterations_ = 20 * (A_.rows() + A_.cols()) + 100;
}

template <class Scalar>
std::string PolyhedronProjection<Scalar>::describe() const {
  std::string out = "polyhedron {x : A x <= b}, A = [";
  for (Index i = 0; i < A_.rows(); ++i)
    out += (i ? ", " : "") + format_vector(Vector<Scalar>(A_.row(i).transpose()));
  return out + "], b = " + format_vector(b_);
}

template <class Scalar>
Scalar PolyhedronProjection<Scalar>::scale() const {
  return max_abs(A_) + max_abs(b_);
}

template <class Scalar>
Scalar PolyhedronProjection<Scalar>::violation(const Vector<Scalar>& x) const {
  Scalar v(0);
  for (Index i = 0; i < A_.rows(); ++i) {
    const Scalar s = A_.row(i).dot(x) - b_(i);
    if (s > v) v = s;
  }
  return v;
}

template <class Scalar>
ProjectionResult<Scalar> PolyhedronProjection<Scalar>::project(const Vector<Scalar>& y) const {
  check_projection_input(y, dimension(), describe());
  const Index m = A_.rows(), n = A_.cols();
  ProjectionResult<Scalar> result;
  Vector<Scalar> x = y;
  Vector<Scalar> lambda = Vector<Scalar>::Zero(m);
  std::vector<Index> active;
  const Scalar tol = projection_tolerance(y, y, scale());
  std::vector<Scalar> row_scale(static_cast<std::size_t>(m));
  for (Index i = 0; i < m; ++i) row_scale[static_cast<std::size_t>(i)] = max_abs(A_.row(i));

  Index iteration = 0;
  bool done = false;
  while (!done) {
    // The most violated inequality, measured in units of x (s_i / |a_i|_inf).
    Index p = -1;
    Scalar worst = tol;
    for (Index i = 0; i < m; ++i) {
      if (std::find(active.begin(), active.end(), i) != active.end()) continue;
      const Scalar s = (A_.row(i).dot(x) - b_(i)) / row_scale[static_cast<std::size_t>(i)];
      if (s > worst) {
        worst = s;
        p = i;
      }
    }
    if (p < 0) break;
    const Vector<Scalar> ap = A_.row(p).transpose();
    // Steps for constraint p until it is active (full step) or proved infeasible.
    while (true) {
      if (++iteration > max_iterations_) {
        result.status = ProjectionStatus::max_iterations;
        result.message =
            fmt::format("active-set method stopped after {} iterations", iteration - 1);
        done = true;
        break;
      }
      const Index q = static_cast<Index>(active.size());
      Matrix<Scalar> N(n, q);
      for (Index j = 0; j < q; ++j)
        N.col(j) = A_.row(active[static_cast<std::size_t>(j)]).transpose();
      Vector<Scalar> r = Vector<Scalar>::Zero(q);
      Vector<Scalar> z = ap;
      if (q > 0) {
        detail::DenseLu<Scalar> lu;
        // The active normals are independent (a normal enters only with z != 0).
        if (!lu.factor(Matrix<Scalar>(N.transpose() * N),
                       tolerance<Scalar>(Scalar(max_abs(N) * max_abs(N)))))
          throw StepError("polyhedron projection: dependent active normals (round-off)");
        r = lu.solve_vector(Vector<Scalar>(N.transpose() * ap));
        z = ap - N * r;
      }
      const Scalar zz = detail::squared_norm<Scalar>(z);
      const bool z_zero = max_abs(z) <= tolerance<Scalar>(row_scale[static_cast<std::size_t>(p)]);
      // Partial (dual) step length.
      Index blocking = -1;
      Scalar t2(0);
      for (Index j = 0; j < q; ++j) {
        if (!(r(j) > Scalar(0))) continue;
        const Scalar t = lambda(active[static_cast<std::size_t>(j)]) / r(j);
        if (blocking < 0 || t < t2) {
          t2 = t;
          blocking = j;
        }
      }
      const Scalar s = A_.row(p).dot(x) - b_(p);
      if (z_zero && blocking < 0) {
        result.status = ProjectionStatus::infeasible;
        result.message = fmt::format(
            "the inequalities are inconsistent: row {} is violated by "
            "every point of the active rows' intersection",
            p);
        done = true;
        break;
      }
      const bool full = !z_zero && (blocking < 0 || s / zz <= t2);
      const Scalar t = full ? Scalar(s / zz) : t2;
      if (!z_zero) x -= t * z;
      for (Index j = 0; j < q; ++j) lambda(active[static_cast<std::size_t>(j)]) -= t * r(j);
      lambda(p) += t;
      if (full) {
        active.push_back(p);
        break;
      }
      const Index dropped = active[static_cast<std::size_t>(blocking)];
      lambda(dropped) = Scalar(0);
      active.erase(active.begin() + blocking);
    }
  }
  result.iterations = iteration;
  result.point = x;
  result.multipliers = lambda;
  finish_convex_projection(*this, y, result);
  return result;
}

template <class Scalar>
ProjectionCertificate<Scalar> PolyhedronProjection<Scalar>::certify(
    const Vector<Scalar>& y, const ProjectionResult<Scalar>& candidate) const {
  const Vector<Scalar>& p = candidate.point;
  check_projection_input(p, dimension(), describe());
  ProjectionCertificate<Scalar> c;
  c.kind = CertificateKind::kkt;
  c.feasibility = violation(p);
  const Index m = A_.rows();
  Vector<Scalar> lambda = candidate.multipliers;
  if (lambda.size() != m) lambda = Vector<Scalar>::Zero(m);
  const Scalar stationarity = max_abs(Vector<Scalar>(p - y + A_.transpose() * lambda));
  Scalar dual(0), complementarity(0);
  for (Index i = 0; i < m; ++i) {
    if (-lambda(i) > dual) dual = -lambda(i);
    const Scalar gap = abs_value<Scalar>(lambda(i) * (b_(i) - A_.row(i).dot(p)));
    if (gap > complementarity) complementarity = gap;
  }
  c.kkt_residual = std::max({stationarity, dual, complementarity});
  c.residual = std::max(c.kkt_residual, c.feasibility);
  c.tolerance = projection_tolerance(y, p, Scalar(scale() + max_abs(lambda)));
  c.accepted = c.residual <= c.tolerance;
  return c;
}

#define NSH_INSTANTIATE(Scalar) template class PolyhedronProjection<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh
