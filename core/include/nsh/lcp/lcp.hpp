#pragma once
// The one-step linear complementarity problem and its certificate (docs/theory.md §7):
//
//   LCP(W, b):  z >= 0,  w = W z + b >= 0,  z^T w = 0.
//
// Every solver has the same interface, `solve(W, b, options) -> LcpResult`, and every result
// carries a certificate computed from (W, b, z) alone, after the solve, by `certify`. A solver
// never reports `solved` unless the certificate is within tolerance: an answer that cannot be
// certified comes back as `uncertified`, and a step that gets it throws StepError.

#include <nsh/scalar.hpp>

#include <string>
#include <type_traits>

namespace nsh {

enum class LcpStatus {
  solved,          ///< certified: natural-map residual within tolerance
  uncertified,     ///< the solver returned a point that fails the certificate
  no_solution,     ///< proved: Lemke ended on a secondary ray, or enumeration found nothing
  max_iterations,  ///< iterative solver stopped before convergence
  singular         ///< a pivot or a linear system was singular where the method needs it not
};

const char* to_string(LcpStatus status);

enum class LcpMethod { enumeration, lemke, pgs, fischer_burmeister, prox_newton };

const char* to_string(LcpMethod method);
/// "enumeration", "lemke", "pgs", "fb", "prox" -> method. Throws SpecError listing them.
LcpMethod parse_lcp_method(const std::string& name);

/// Every residual of docs/theory.md §7, computed from (W, b, z) after the solve.
template <class Scalar>
struct LcpCertificate {
  Scalar natural_map{0};         ///< ||min(z, w)||_inf (zero iff z solves the LCP)
  Scalar siconos_error{0};       ///< ||z - max(0, z - w)||_2 / ||b||_2 (lcp_compute_error), double
  Scalar fischer_burmeister{0};  ///< ||Phi_FB(z, w)||_inf, Phi_i = sqrt(z_i^2 + w_i^2) - z_i - w_i
  Scalar feasibility{0};         ///< max(0, -min z, -min w)
  Scalar complementarity{0};     ///< max_i |z_i w_i|
  Scalar tolerance{0};           ///< the tolerance the natural map was judged against
  bool accepted{false};          ///< natural_map <= tolerance
};

template <class Scalar>
struct LcpOptions {
  Index max_iterations{10000};
  /// Relative tolerance on the natural map, times the problem scale max(|W|, |b|) * (1 + |z|).
  /// Zero (the default) means 4096 machine epsilons; in Rational every tolerance is zero.
  Scalar relative_tolerance{0};
  /// Prox parameter r_i = prox_scale / W_ii (MBSim uses 1 / W_ii).
  Scalar prox_scale{1};
};

template <class Scalar>
struct LcpResult {
  Vector<Scalar> z;  ///< the unknown (impulses)
  Vector<Scalar> w;  ///< W z + b (local velocities after the step, Newton-shifted)
  LcpStatus status{LcpStatus::uncertified};
  LcpMethod method{LcpMethod::lemke};
  Index iterations{0};  ///< pivots (Lemke), index sets tried (enumeration), sweeps
  LcpCertificate<Scalar> certificate;
  std::string message;  ///< what went wrong, for a failed status
  bool ok() const { return status == LcpStatus::solved; }
};

/// The tolerance used for certification of LCP(W, b) at z.
template <class Scalar>
Scalar lcp_tolerance(const Matrix<Scalar>& W, const Vector<Scalar>& b, const Vector<Scalar>& z,
                     const LcpOptions<Scalar>& options);

/// Compute every residual of the certificate for z (w is recomputed as W z + b).
template <class Scalar>
LcpCertificate<Scalar> certify(const Matrix<Scalar>& W, const Vector<Scalar>& b,
                               const Vector<Scalar>& z, const LcpOptions<Scalar>& options);

/// A read-only view of W or b that binds a whole matrix or a block of a larger buffer without a
/// copy (the workspace solve of nsh/lcp/workspace.hpp takes the active block in place).
template <class Scalar>
using MatrixView = Eigen::Ref<const Matrix<Scalar>>;
template <class Scalar>
using VectorView = Eigen::Ref<const Vector<Scalar>>;

/// lcp_tolerance and certify on views; Scalar is taken from z and options, so a block binds.
template <class Scalar>
Scalar lcp_tolerance(const std::type_identity_t<MatrixView<Scalar>>& W,
                     const std::type_identity_t<VectorView<Scalar>>& b, const Vector<Scalar>& z,
                     const LcpOptions<Scalar>& options);
template <class Scalar>
LcpCertificate<Scalar> certify(const std::type_identity_t<MatrixView<Scalar>>& W,
                               const std::type_identity_t<VectorView<Scalar>>& b,
                               const Vector<Scalar>& z, const LcpOptions<Scalar>& options);

/// ||min(z, w)||_inf <= tolerance, the certificate's acceptance test on a given w: the
/// stopping rule of the iterative solvers and enumeration's test of an index set.
template <class Scalar>
bool natural_map_within(const Vector<Scalar>& z, const Vector<Scalar>& w, const Scalar& tolerance) {
  for (Index i = 0; i < z.size(); ++i) {
    const Scalar natural = z(i) < w(i) ? z(i) : w(i);
    if (abs_value(natural) > tolerance) return false;
  }
  return true;
}

/// The last act of every solver: w = W z + b and the certificate from result.z (already sized
/// like b), then status and message, except that a `solved` whose certificate is not accepted
/// comes back `uncertified` with `uncertified_message`: no solver reports `solved` unchecked.
template <class Scalar>
void certify_result(const std::type_identity_t<MatrixView<Scalar>>& W,
                    const std::type_identity_t<VectorView<Scalar>>& b,
                    const LcpOptions<Scalar>& options, LcpStatus status, std::string message,
                    const char* uncertified_message, LcpResult<Scalar>& result);

/// Solve with the named method. W must be square with b of matching size (InputError if not).
template <class Scalar>
LcpResult<Scalar> solve_lcp(LcpMethod method, const Matrix<Scalar>& W, const Vector<Scalar>& b,
                            const LcpOptions<Scalar>& options = {});

}  // namespace nsh
