#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/projection/box.hpp>

#include <fmt/format.h>

namespace nsh {

template <class Scalar>
BoxProjection<Scalar>::BoxProjection(std::vector<std::optional<Scalar>> lower,
                                     std::vector<std::optional<Scalar>> upper)
    : lower_(std::move(lower)), upper_(std::move(upper)) {
  if (lower_.empty()) throw ModelError("set.lower", "a box needs at least one coordinate");
  if (lower_.size() != upper_.size())
    throw ModelError("set.upper",
                     fmt::format("has {} entries, set.lower has {}", upper_.size(), lower_.size()));
  for (std::size_t i = 0; i < lower_.size(); ++i) {
    if (lower_[i] && !is_finite(*lower_[i]))
      throw ModelError(fmt::format("set.lower[{}]", i),
                       "is " + format_scalar(*lower_[i]) + ", must be finite (omit it for -inf)");
    if (upper_[i] && !is_finite(*upper_[i]))
      throw ModelError(fmt::format("set.upper[{}]", i),
                       "is " + format_scalar(*upper_[i]) + ", must be finite (omit it for +inf)");
    if (lower_[i] && upper_[i] && *lower_[i] > *upper_[i])
      throw ModelError(fmt::format("set.upper[{}]", i),
                       "is " + format_scalar(*upper_[i]) + ", below set.lower[" +
                           std::to_string(i) + "] = " + format_scalar(*lower_[i]) +
                           " (the box would be empty)");
  }
}

template <class Scalar>
BoxProjection<Scalar> BoxProjection<Scalar>::interval(const Scalar& lo, const Scalar& hi) {
  return BoxProjection({lo}, {hi});
}

template <class Scalar>
BoxProjection<Scalar> BoxProjection<Scalar>::half_line(const Scalar& lo) {
  return BoxProjection({lo}, {std::nullopt});
}

template <class Scalar>
BoxProjection<Scalar> BoxProjection<Scalar>::box(const Vector<Scalar>& lo,
                                                 const Vector<Scalar>& hi) {
  std::vector<std::optional<Scalar>> l, u;
  for (Index i = 0; i < lo.size(); ++i) l.emplace_back(lo(i));
  for (Index i = 0; i < hi.size(); ++i) u.emplace_back(hi(i));
  return BoxProjection(std::move(l), std::move(u));
}

template <class Scalar>
std::string BoxProjection<Scalar>::describe() const {
  std::string out = dimension() == 1 ? "interval " : "box ";
  for (std::size_t i = 0; i < lower_.size(); ++i) {
    if (i) out += " x ";
    out += (lower_[i] ? "[" + format_scalar(*lower_[i]) : std::string("(-inf")) + ", " +
           (upper_[i] ? format_scalar(*upper_[i]) + "]" : std::string("+inf)"));
  }
  return out;
}

template <class Scalar>
Scalar BoxProjection<Scalar>::scale() const {
  Scalar s(0);
  for (std::size_t i = 0; i < lower_.size(); ++i) {
    if (lower_[i] && abs_value(*lower_[i]) > s) s = abs_value(*lower_[i]);
    if (upper_[i] && abs_value(*upper_[i]) > s) s = abs_value(*upper_[i]);
  }
  return s;
}

template <class Scalar>
Scalar BoxProjection<Scalar>::violation(const Vector<Scalar>& x) const {
  Scalar v(0);
  for (std::size_t i = 0; i < lower_.size(); ++i) {
    const Index j = static_cast<Index>(i);
    if (lower_[i] && *lower_[i] - x(j) > v) v = *lower_[i] - x(j);
    if (upper_[i] && x(j) - *upper_[i] > v) v = x(j) - *upper_[i];
  }
  return v;
}

template <class Scalar>
ProjectionResult<Scalar> BoxProjection<Scalar>::project(const Vector<Scalar>& y) const {
  check_projection_input(y, dimension(), describe());
  ProjectionResult<Scalar> result;
  result.point = y;
  for (std::size_t i = 0; i < lower_.size(); ++i) {
    const Index j = static_cast<Index>(i);
    if (lower_[i] && result.point(j) < *lower_[i]) result.point(j) = *lower_[i];
    if (upper_[i] && result.point(j) > *upper_[i]) result.point(j) = *upper_[i];
  }
  finish_convex_projection(*this, y, result);
  return result;
}

template <class Scalar>
ProjectionCertificate<Scalar> BoxProjection<Scalar>::certify(
    const Vector<Scalar>& y, const ProjectionResult<Scalar>& candidate) const {
  const Vector<Scalar>& p = candidate.point;
  check_projection_input(p, dimension(), describe());
  // sup over the box of r^T (z - p) = sum_i sup over [l_i, u_i] of r_i (z_i - p_i).
  Scalar vi(0), recession(0);
  for (std::size_t i = 0; i < lower_.size(); ++i) {
    const Index j = static_cast<Index>(i);
    const Scalar r = y(j) - p(j);
    if (r > Scalar(0)) {
      if (upper_[i])
        vi += r * (*upper_[i] - p(j));
      else if (r > recession)
        recession = r;
    } else if (r < Scalar(0)) {
      if (lower_[i])
        vi += r * (*lower_[i] - p(j));
      else if (-r > recession)
        recession = -r;
    }
  }
  return vi_certificate<Scalar>(*this, y, p, vi, recession, scale());
}

template <class Scalar>
std::optional<LinearInequalities<Scalar>> BoxProjection<Scalar>::inequalities() const {
  Index rows = 0;
  for (std::size_t i = 0; i < lower_.size(); ++i) rows += (lower_[i] ? 1 : 0) + (upper_[i] ? 1 : 0);
  LinearInequalities<Scalar> out{Matrix<Scalar>::Zero(rows, dimension()),
                                 Vector<Scalar>::Zero(rows)};
  Index r = 0;
  for (std::size_t i = 0; i < lower_.size(); ++i) {
    const Index j = static_cast<Index>(i);
    if (lower_[i]) {  // -x_i <= -l_i
      out.A(r, j) = Scalar(-1);
      out.b(r++) = -*lower_[i];
    }
    if (upper_[i]) {  // x_i <= u_i
      out.A(r, j) = Scalar(1);
      out.b(r++) = *upper_[i];
    }
  }
  return out;
}

#define NSH_INSTANTIATE(Scalar) template class BoxProjection<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh
