// Names, certificate and dispatch of the one-step LCP solvers (docs/theory.md §7).

#include <nsh/lcp/lcp.hpp>

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/lcp/enumeration.hpp>
#include <nsh/lcp/fischer_burmeister.hpp>
#include <nsh/lcp/lemke.hpp>
#include <nsh/lcp/pgs.hpp>
#include <nsh/lcp/prox_newton.hpp>
#include <nsh/lcp/workspace.hpp>

#include <cmath>
#include <string>
#include <utility>

namespace nsh {

const char* to_string(LcpStatus status) {
  switch (status) {
    case LcpStatus::solved:
      return "solved";
    case LcpStatus::uncertified:
      return "uncertified";
    case LcpStatus::no_solution:
      return "no_solution";
    case LcpStatus::max_iterations:
      return "max_iterations";
    case LcpStatus::singular:
      return "singular";
  }
  return "unknown";
}

const char* to_string(LcpMethod method) {
  switch (method) {
    case LcpMethod::enumeration:
      return "enumeration";
    case LcpMethod::lemke:
      return "lemke";
    case LcpMethod::pgs:
      return "pgs";
    case LcpMethod::fischer_burmeister:
      return "fb";
    case LcpMethod::prox_newton:
      return "prox";
  }
  return "unknown";
}

LcpMethod parse_lcp_method(const std::string& name) {
  for (LcpMethod method : {LcpMethod::enumeration, LcpMethod::lemke, LcpMethod::pgs,
                           LcpMethod::fischer_burmeister, LcpMethod::prox_newton}) {
    if (name == to_string(method)) return method;
  }
  throw SpecError(
      "lcp", "unknown LCP method '" + name + "'; known methods: enumeration, lemke, pgs, fb, prox");
}

template <class Scalar>
Scalar lcp_tolerance(const Matrix<Scalar>& W, const Vector<Scalar>& b, const Vector<Scalar>& z,
                     const LcpOptions<Scalar>& options) {
  return lcp_tolerance<Scalar>(MatrixView<Scalar>(W), VectorView<Scalar>(b), z, options);
}

template <class Scalar>
Scalar lcp_tolerance(const std::type_identity_t<MatrixView<Scalar>>& W,
                     const std::type_identity_t<VectorView<Scalar>>& b, const Vector<Scalar>& z,
                     const LcpOptions<Scalar>& options) {
  if constexpr (is_exact_v<Scalar>) {
    // Exact arithmetic certifies exactly: a residual of 1e-30 is a wrong answer there.
    (void)W, (void)b, (void)z, (void)options;
    return Scalar(0);
  } else {
    Scalar relative = options.relative_tolerance;
    if (relative == Scalar(0)) relative = Scalar(4096) * epsilon<Scalar>();
    Scalar scale = max_abs(W);
    Scalar b_scale = max_abs(b);
    if (b_scale > scale) scale = b_scale;
    return relative * scale * (Scalar(1) + max_abs(z));
  }
}

namespace {

// sqrt where it exists; for Rational through double, since the two residuals that need it are
// informational (acceptance is judged on the exact natural map).
template <class Scalar>
Scalar informational_root(const Scalar& x) {
  if constexpr (is_exact_v<Scalar>) {
    return Scalar(std::sqrt(scalar_cast<double>(x)));
  } else {
    using std::sqrt;
    return Scalar(sqrt(x));
  }
}

}  // namespace

template <class Scalar>
LcpCertificate<Scalar> certify(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                               const Vector<Scalar>& z, const LcpOptions<Scalar>& options) {
  return certify<Scalar>(MatrixView<Scalar>(W), VectorView<Scalar>(b), z, options);
}

template <class Scalar>
LcpCertificate<Scalar> certify(const std::type_identity_t<MatrixView<Scalar>>& W,
                               const std::type_identity_t<VectorView<Scalar>>& b,
                               const Vector<Scalar>& z, const LcpOptions<Scalar>& options) {
  LcpCertificate<Scalar> c;
  const Index m = b.size();
  Scalar siconos_squared(0);
  Scalar b_squared(0);
  for (Index i = 0; i < m; ++i) {
    Scalar w = b(i);
    for (Index j = 0; j < m; ++j) w += W(i, j) * z(j);
    const Scalar& zi = z(i);

    const Scalar natural = zi < w ? zi : w;  // min(z_i, w_i)
    if (abs_value(natural) > c.natural_map) c.natural_map = abs_value(natural);

    // Siconos' lcp_compute_error: z - max(0, z - w), summed in squares, over ||b||_2.
    Scalar shifted = zi - w;
    if (shifted < Scalar(0)) shifted = Scalar(0);
    const Scalar projection_defect = zi - shifted;
    siconos_squared += projection_defect * projection_defect;
    b_squared += b(i) * b(i);

    const Scalar fb = informational_root<Scalar>(zi * zi + w * w) - zi - w;
    if (abs_value(fb) > c.fischer_burmeister) c.fischer_burmeister = abs_value(fb);

    if (-zi > c.feasibility) c.feasibility = -zi;
    if (-w > c.feasibility) c.feasibility = -w;
    const Scalar product = abs_value<Scalar>(zi * w);
    if (product > c.complementarity) c.complementarity = product;
  }
  c.siconos_error = informational_root<Scalar>(siconos_squared);
  // Siconos normalises only when ||b|| exceeds DBL_EPSILON; the same threshold in every scalar
  // keeps the number comparable with Siconos' output.
  const Scalar b_norm = informational_root<Scalar>(b_squared);
  if (b_norm > Scalar(std::numeric_limits<double>::epsilon())) c.siconos_error /= b_norm;
  c.tolerance = lcp_tolerance<Scalar>(W, b, z, options);
  c.accepted = c.natural_map <= c.tolerance;
  return c;
}

template <class Scalar>
void certify_result(const std::type_identity_t<MatrixView<Scalar>>& W,
                    const std::type_identity_t<VectorView<Scalar>>& b,
                    const LcpOptions<Scalar>& options, LcpStatus status, std::string message,
                    const char* uncertified_message, LcpResult<Scalar>& result) {
  result.w = b;
  result.w.noalias() += W * result.z;
  result.certificate = certify<Scalar>(W, b, result.z, options);
  if (status == LcpStatus::solved && !result.certificate.accepted) {
    status = LcpStatus::uncertified;
    message = uncertified_message;
  }
  result.status = status;
  result.message = std::move(message);
}

namespace {

template <class Scalar>
void validate_lcp(const MatrixView<Scalar>& W, const VectorView<Scalar>& b) {
  if (W.rows() != W.cols())
    throw InputError(
        "W", "must be square, got " + std::to_string(W.rows()) + " x " + std::to_string(W.cols()));
  if (b.size() != W.rows())
    throw InputError("b", "has size " + std::to_string(b.size()) + " but W is " +
                              std::to_string(W.rows()) + " x " + std::to_string(W.cols()));
  for (Index i = 0; i < W.rows(); ++i)
    for (Index j = 0; j < W.cols(); ++j)
      if (!is_finite(W(i, j)))
        throw InputError("W[" + std::to_string(i) + "][" + std::to_string(j) + "]",
                         "is not finite: " + format_scalar(W(i, j)));
  for (Index i = 0; i < b.size(); ++i)
    if (!is_finite(b(i)))
      throw InputError("b[" + std::to_string(i) + "]", "is not finite: " + format_scalar(b(i)));
}

}  // namespace

template <class Scalar>
LcpResult<Scalar> solve_lcp(LcpMethod method, const Matrix<Scalar>& W, const Vector<Scalar>& b,
                            const LcpOptions<Scalar>& options) {
  validate_lcp<Scalar>(W, b);
  switch (method) {
    case LcpMethod::enumeration:
      return solve_lcp_enumeration(W, b, options);
    case LcpMethod::lemke:
      return solve_lcp_lemke(W, b, options);
    default:
      break;
  }
  if constexpr (is_exact_v<Scalar>) {
    // The iterative methods converge only in the limit (and FB needs a sqrt): in exact
    // arithmetic their answer could never be certified.
    throw SpecError("lcp", std::string("method '") + to_string(method) +
                               "' is iterative and has no exact (rational) version; use "
                               "'lemke' or 'enumeration'");
  } else {
    switch (method) {
      case LcpMethod::pgs:
        return solve_lcp_pgs(W, b, options);
      case LcpMethod::fischer_burmeister:
        return solve_lcp_fischer_burmeister(W, b, options);
      case LcpMethod::prox_newton:
        return solve_lcp_prox_newton(W, b, options);
      default:
        break;
    }
  }
  throw SpecError("lcp", "unknown LCP method");
}

template <class Scalar>
void solve_lcp(LcpMethod method, const std::type_identity_t<MatrixView<Scalar>>& W,
               const std::type_identity_t<VectorView<Scalar>>& b, const LcpOptions<Scalar>& options,
               LcpWorkspace<Scalar>& workspace, LcpResult<Scalar>& result) {
  validate_lcp<Scalar>(W, b);
  if (method == LcpMethod::lemke) return solve_lcp_lemke<Scalar>(W, b, options, workspace, result);
  if constexpr (!is_exact_v<Scalar>) {
    if (method == LcpMethod::pgs) return solve_lcp_pgs<Scalar>(W, b, options, workspace, result);
  }
  // The other methods have no workspace form: the allocating solve, same answer. The pooled
  // vectors go back first, so that the pool stays whole.
  workspace.size_result(result, 0);
  result = solve_lcp<Scalar>(method, Matrix<Scalar>(W), Vector<Scalar>(b), options);
}

#define NSH_INSTANTIATE_LCP(Scalar)                                                                \
  template Scalar lcp_tolerance(const Matrix<Scalar>&, const Vector<Scalar>&,                      \
                                const Vector<Scalar>&, const LcpOptions<Scalar>&);                 \
  template LcpCertificate<Scalar> certify(const Matrix<Scalar>&, const Vector<Scalar>&,            \
                                          const Vector<Scalar>&, const LcpOptions<Scalar>&);       \
  template Scalar lcp_tolerance<Scalar>(const MatrixView<Scalar>&, const VectorView<Scalar>&,      \
                                        const Vector<Scalar>&, const LcpOptions<Scalar>&);         \
  template LcpCertificate<Scalar> certify<Scalar>(                                                 \
      const MatrixView<Scalar>&, const VectorView<Scalar>&, const Vector<Scalar>&,                 \
      const LcpOptions<Scalar>&);                                                                  \
  template void certify_result<Scalar>(const MatrixView<Scalar>&, const VectorView<Scalar>&,       \
                                       const LcpOptions<Scalar>&, LcpStatus, std::string,          \
                                       const char*, LcpResult<Scalar>&);                           \
  template LcpResult<Scalar> solve_lcp(LcpMethod, const Matrix<Scalar>&, const Vector<Scalar>&,    \
                                       const LcpOptions<Scalar>&);                                 \
  template void solve_lcp<Scalar>(LcpMethod, const MatrixView<Scalar>&, const VectorView<Scalar>&, \
                                  const LcpOptions<Scalar>&, LcpWorkspace<Scalar>&,                \
                                  LcpResult<Scalar>&);

NSH_INSTANTIATE_LCP(double)
NSH_INSTANTIATE_LCP(Real50)
NSH_INSTANTIATE_LCP(Rational)

}  // namespace nsh
