#pragma once
// Projection providers: the Euclidean projection P_C(y) = argmin_{z in C} |y - z| onto a closed
// set C, returned with a certificate computed after the fact from (y, p) alone (docs/theory.md §6,
// seed 004 [F4]). A step that uses a projection completes only if the certificate is accepted
// ("zero-residual certificate": exactly zero in Rational).
//
// Certificates:
//  * variational inequality (convex sets): p = P_C(y) iff p in C and (y - p)^T (z - p) <= 0 for
//    every z in C. The provider reports vi_residual = max over a certificate set of
//    (y - p)^T (z - p) (for box, half-space and ball the sup over all of C, in closed form) and
//    recession_residual = max over recession directions d of C of (y - p)^T d (an unbounded
//    set needs y - p in the polar of its recession cone);
//  * KKT (polyhedron {x : A x <= b}): p = y - A^T lambda, lambda >= 0, A p <= b,
//    lambda_i (b - A p)_i = 0;
//  * nearest point (finite sets, which are not convex): |y - p|^2 <= |y - z|^2 for every z in C.
//    The variational inequality is *not* a certificate there (seed 004: C = {-1, 1}, y = 1/2,
//    p = 1, z = -1 gives (y - p)(z - p) = 1 > 0 although p is the nearest point).
//
// A finite set may have several nearest points (y = 0 for C = {-1, 1}): the result lists them
// all and its status is `tie`, so a caller asking for a unique projection sees the tie.

#include <nsh/scalar.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nsh {

enum class ProjectionStatus {
  unique,         ///< certified, and the nearest point is unique
  tie,            ///< several nearest points (nonconvex set); `nearest` lists every one
  uncertified,    ///< the candidate fails its certificate
  infeasible,     ///< the set is empty (inconsistent inequalities)
  max_iterations  ///< the active-set method stopped before it certified a point
};

const char* to_string(ProjectionStatus status);

enum class CertificateKind { variational_inequality, kkt, nearest_point };

const char* to_string(CertificateKind kind);

template <class Scalar>
struct ProjectionCertificate {
  CertificateKind kind{CertificateKind::variational_inequality};
  /// The value judged: max of the components below that belong to `kind` (>= 0 when p in C).
  Scalar residual{0};
  /// max over the certificate set of (y - p)^T (z - p); for a finite set over its points.
  Scalar vi_residual{0};
  /// max over the recession directions d of C of (y - p)^T d (0 for bounded sets).
  Scalar recession_residual{0};
  /// Polyhedron: max of |p - y + A^T lambda|_inf, max(0, -min lambda), max |lambda_i s_i|.
  Scalar kkt_residual{0};
  /// Finite set: max over z in C of |y - p|^2 - |y - z|^2.
  Scalar nearest_residual{0};
  /// How far p is from C (0 iff p in C): max constraint violation, in units of x.
  Scalar feasibility{0};
  Scalar tolerance{0};  ///< residual <= tolerance accepts; zero in Rational
  bool accepted{false};
};

template <class Scalar>
struct ProjectionResult {
  Vector<Scalar> point;                 ///< p; for a tie the first nearest point
  std::vector<Vector<Scalar>> nearest;  ///< every nearest point ({p} for a convex set)
  Vector<Scalar> multipliers;           ///< polyhedron: lambda with p = y - A^T lambda
  Scalar distance_squared{0};           ///< |y - p|^2
  ProjectionStatus status{ProjectionStatus::uncertified};
  ProjectionCertificate<Scalar> certificate;
  Index iterations{0};  ///< active-set iterations (polyhedron)
  std::string message;  ///< what went wrong, for a status other than unique
  bool ok() const { return status == ProjectionStatus::unique; }
};

/// C = {x : A x <= b}, the form a polyhedral provider can hand to a penalty scheme
/// (gap g = b - A x >= 0, gradient -A^T).
template <class Scalar>
struct LinearInequalities {
  Matrix<Scalar> A;
  Vector<Scalar> b;
};

template <class Scalar>
class ProjectionProvider {
 public:
  virtual ~ProjectionProvider() = default;
  /// "box", "half-space", "ball", "polyhedron", "finite".
  virtual std::string kind() const = 0;
  /// The set in words and numbers, for messages.
  virtual std::string describe() const = 0;
  virtual Index dimension() const = 0;
  virtual bool convex() const = 0;
  /// 0 iff x in C; otherwise a positive measure of the violation.
  virtual Scalar violation(const Vector<Scalar>& x) const = 0;
  /// The projection of y with its certificate. Throws InputError naming "y" on a wrong size.
  virtual ProjectionResult<Scalar> project(const Vector<Scalar>& y) const = 0;
  /// The certificate of `candidate` (its point and multipliers) as a projection of y,
  /// recomputed from the data alone.
  virtual ProjectionCertificate<Scalar> certify(
      const Vector<Scalar>& y, const ProjectionResult<Scalar>& candidate) const = 0;
  /// C as {x : A x <= b} if it is a polyhedron (box, half-space, polyhedron).
  virtual std::optional<LinearInequalities<Scalar>> inequalities() const { return std::nullopt; }
  virtual std::unique_ptr<ProjectionProvider<Scalar>> clone() const = 0;
};

/// |a - b|^2, in every scalar.
template <class Scalar>
Scalar squared_distance(const Vector<Scalar>& a, const Vector<Scalar>& b) {
  Scalar s(0);
  for (Index i = 0; i < a.size(); ++i) s += (a(i) - b(i)) * (a(i) - b(i));
  return s;
}

/// The tolerance of a certificate of squared-length units at y and p for a set of scale `set_scale`
/// (the largest magnitude in its data): 64 n epsilon (1 + |y| + |p| + set_scale)^2, zero in
/// Rational.
template <class Scalar>
Scalar projection_tolerance(const Vector<Scalar>& y, const Vector<Scalar>& p,
                            const Scalar& set_scale);

/// Throws InputError("y", ...) unless y has `n` finite entries.
template <class Scalar>
void check_projection_input(const Vector<Scalar>& y, Index n, const std::string& set);

/// Fill status/message of a convex provider's result from its certificate.
template <class Scalar>
void finish_convex_result(ProjectionResult<Scalar>& result, const std::string& set);

/// Completes a convex provider's projection of y once result.point is set: |y - p|^2, the
/// certificate recomputed from (y, p) by set.certify, and the status.
template <class Scalar>
void finish_convex_projection(const ProjectionProvider<Scalar>& set, const Vector<Scalar>& y,
                              ProjectionResult<Scalar>& result) {
  result.distance_squared = squared_distance(y, result.point);
  result.certificate = set.certify(y, result);
  finish_convex_result(result, set.describe());
}

/// The variational-inequality certificate of p as the projection of y onto a convex set whose
/// residuals the provider has in closed form (vi_residual: the sup over C of (y - p)^T (z - p);
/// recession_residual: over its recession directions): residual = max(feasibility of p,
/// vi_residual, recession_residual), accepted iff residual <= projection_tolerance(y, p,
/// set_scale). The residuals are taken as given (a provider decides whether to clamp at 0).
template <class Scalar>
ProjectionCertificate<Scalar> vi_certificate(const ProjectionProvider<Scalar>& set,
                                             const Vector<Scalar>& y, const Vector<Scalar>& p,
                                             const Scalar& vi_residual,
                                             const Scalar& recession_residual,
                                             const Scalar& set_scale) {
  ProjectionCertificate<Scalar> c;
  c.kind = CertificateKind::variational_inequality;
  c.feasibility = set.violation(p);
  c.vi_residual = vi_residual;
  c.recession_residual = recession_residual;
  c.residual = c.feasibility;
  if (c.vi_residual > c.residual) c.residual = c.vi_residual;
  if (c.recession_residual > c.residual) c.residual = c.recession_residual;
  c.tolerance = projection_tolerance(y, p, set_scale);
  c.accepted = c.residual <= c.tolerance;
  return c;
}

}  // namespace nsh
