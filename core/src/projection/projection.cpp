#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/projection/projection.hpp>

#include <fmt/format.h>

namespace nsh {

const char* to_string(ProjectionStatus status) {
  switch (status) {
    case ProjectionStatus::unique:
      return "unique";
    case ProjectionStatus::tie:
      return "tie";
    case ProjectionStatus::uncertified:
      return "uncertified";
    case ProjectionStatus::infeasible:
      return "infeasible";
    case ProjectionStatus::max_iterations:
      return "max_iterations";
  }
  return "?";
}

const char* to_string(CertificateKind kind) {
  switch (kind) {
    case CertificateKind::variational_inequality:
      return "variational_inequality";
    case CertificateKind::kkt:
      return "kkt";
    case CertificateKind::nearest_point:
      return "nearest_point";
  }
  return "?";
}

template <class Scalar>
Scalar projection_tolerance(const Vector<Scalar>& y, const Vector<Scalar>& p,
                            const Scalar& set_scale) {
  const Scalar scale = Scalar(1) + max_abs(y) + max_abs(p) + set_scale;
  return tolerance<Scalar>(scale * scale, Scalar(64) * Scalar(y.size() + 1));
}

template <class Scalar>
void check_projection_input(const Vector<Scalar>& y, Index n, const std::string& set) {
  if (y.size() != n)
    throw InputError("y",
                     fmt::format("projection onto {} needs {} entries, got {}", set, n, y.size()));
  for (Index i = 0; i < n; ++i)
    if (!is_finite(y(i)))
      throw InputError(fmt::format("y[{}]", i), "is " + format_scalar(y(i)) + ", must be finite");
}

template <class Scalar>
void finish_convex_result(ProjectionResult<Scalar>& result, const std::string& set) {
  result.nearest = {result.point};
  if (result.status == ProjectionStatus::infeasible ||
      result.status == ProjectionStatus::max_iterations)
    return;
  if (result.certificate.accepted) {
    result.status = ProjectionStatus::unique;
  } else {
    result.status = ProjectionStatus::uncertified;
    result.message = "projection onto " + set + " fails its " + to_string(result.certificate.kind) +
                     " certificate: residual " + format_scalar(result.certificate.residual) +
                     " > tolerance " + format_scalar(result.certificate.tolerance);
  }
}

#define NSH_INSTANTIATE_PROJECTION(S)                                                \
  template S projection_tolerance(const Vector<S>&, const Vector<S>&, const S&);     \
  template void check_projection_input(const Vector<S>&, Index, const std::string&); \
  template void finish_convex_result(ProjectionResult<S>&, const std::string&);
NSH_INSTANTIATE_PROJECTION(double)
NSH_INSTANTIATE_PROJECTION(Real50)
NSH_INSTANTIATE_PROJECTION(Rational)
#undef NSH_INSTANTIATE_PROJECTION

}  // namespace nsh
