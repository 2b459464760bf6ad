#include <nsh/detail/dense_lu.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/projection/half_space.hpp>

#include <fmt/format.h>

namespace nsh {

template <class Scalar>
HalfSpaceProjection<Scalar>::HalfSpaceProjection(Vector<Scalar> a, Scalar beta)
    : a_(std::move(a)), beta_(std::move(beta)) {
  if (a_.size() == 0)
    throw ModelError("set.a", "the normal of a half-space needs one entry or more");
  for (Index i = 0; i < a_.size(); ++i)
    if (!is_finite(a_(i)))
      throw ModelError(fmt::format("set.a[{}]", i),
                       "is " + format_scalar(a_(i)) + ", must be finite");
  if (max_abs(a_) == Scalar(0))
    throw ModelError("set.a", "is the zero vector; a half-space a^T x <= b needs a != 0");
  if (!is_finite(beta_))
    throw ModelError("set.b", "is " + format_scalar(beta_) + ", must be finite");
}

template <class Scalar>
std::string HalfSpaceProjection<Scalar>::describe() const {
  return "half-space {x : " + format_vector(a_) + "^T x <= " + format_scalar(beta_) + "}";
}

template <class Scalar>
Scalar HalfSpaceProjection<Scalar>::violation(const Vector<Scalar>& x) const {
  const Scalar s = detail::dot<Scalar>(a_, x) - beta_;
  return s > Scalar(0) ? s : Scalar(0);
}

template <class Scalar>
ProjectionResult<Scalar> HalfSpaceProjection<Scalar>::project(const Vector<Scalar>& y) const {
  check_projection_input(y, dimension(), describe());
  ProjectionResult<Scalar> result;
  const Scalar s = detail::dot<Scalar>(a_, y) - beta_;
  result.point = y;
  if (s > Scalar(0)) result.point -= (s / detail::squared_norm<Scalar>(a_)) * a_;
  finish_convex_projection(*this, y, result);
  return result;
}

template <class Scalar>
ProjectionCertificate<Scalar> HalfSpaceProjection<Scalar>::certify(
    const Vector<Scalar>& y, const ProjectionResult<Scalar>& candidate) const {
  const Vector<Scalar>& p = candidate.point;
  check_projection_input(p, dimension(), describe());
  const Vector<Scalar> r = y - p;
  const Scalar aa = detail::squared_norm<Scalar>(a_);
  const Scalar ra = detail::dot<Scalar>(r, a_);
  // Boundary foot point f = p + (beta - a^T p)/(a^T a) a: r^T (f - p) = r^T a (beta - a^T p) / a^T
  // a.
  const Scalar vi = ra * (beta_ - detail::dot<Scalar>(a_, p)) / aa;
  const Scalar vi_residual = vi > Scalar(0) ? vi : Scalar(0);
  // Recession directions -a and +-t_j, t_j = a_k e_j - a_j e_k.
  Scalar recession = -ra;
  Index k = 0;
  for (Index i = 1; i < a_.size(); ++i)
    if (abs_value(a_(i)) > abs_value(a_(k))) k = i;
  for (Index j = 0; j < a_.size(); ++j) {
    if (j == k) continue;
    const Scalar rt = abs_value<Scalar>(a_(k) * r(j) - a_(j) * r(k));
    if (rt > recession) recession = rt;
  }
  const Scalar recession_residual = recession > Scalar(0) ? recession : Scalar(0);
  const Scalar scale = max_abs(a_) + abs_value(beta_);
  return vi_certificate<Scalar>(*this, y, p, vi_residual, recession_residual, scale);
}

template <class Scalar>
std::optional<LinearInequalities<Scalar>> HalfSpaceProjection<Scalar>::inequalities() const {
  LinearInequalities<Scalar> out{Matrix<Scalar>(1, a_.size()), Vector<Scalar>(1)};
  out.A.row(0) = a_.transpose();
  out.b(0) = beta_;
  return out;
}

#define NSH_INSTANTIATE(Scalar) template class HalfSpaceProjection<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh
