#pragma once
// Solvers of the one-step friction problem (nsh/friction/problem.hpp, docs/friction.md): one
// interface, `solve_friction(method, problem, options) -> FrictionResult`, and every result
// carries the certificate of nsh/friction/certificate.hpp computed from (W, b, mu, P) after the
// solve. No solver reports `solved` unless that certificate is accepted.
//
//   lemke           d = 1 only: the Stewart-Trinkle / Anitescu-Potra LCP (nsh/friction/lemke.hpp)
//                   solved by the project's lexicographic Lemke; exact in Rational.
//   alart_curnier   d = 1, 2: prox / Alart-Curnier semismooth Newton with an Armijo line search
//                   (nsh/friction/alart_curnier.hpp); double and Real50. When it fails and
//                   `fallback` is set, projected Gauss-Seidel runs from scratch and its answer
//                   is returned with `fell_back` set and Newton's failure in `message`.
//   pgs             d = 1, 2: block projected Gauss-Seidel on the Coulomb cone
//                   (nsh/friction/pgs.hpp); double and Real50.

#include <nsh/friction/certificate.hpp>
#include <nsh/lcp/lcp.hpp>

#include <string>

namespace nsh {

enum class FrictionStatus {
  solved,          ///< certified
  uncertified,     ///< the solver stopped at a point that fails the certificate
  no_solution,     ///< Lemke ended on a secondary ray
  max_iterations,  ///< the iteration limit was reached before the certificate held
  singular         ///< a zero diagonal entry of W where the method divides by it
};

const char* to_string(FrictionStatus status);

enum class FrictionMethod { lemke, alart_curnier, pgs };

const char* to_string(FrictionMethod method);
/// "lemke", "alart-curnier", "pgs" -> method. Throws SpecError listing them.
FrictionMethod parse_friction_method(const std::string& name);

template <class Scalar>
struct FrictionOptions {
  /// Sweeps (pgs), pivots (lemke).
  Index max_iterations{10000};
  /// Newton steps (alart_curnier); it converges in a few where it converges at all, and the
  /// pgs fallback takes over the rest.
  Index newton_iterations{200};
  /// Relative tolerance of the certificate; 0 means 64 n epsilons (certificate.hpp).
  Scalar relative_tolerance{0};
  /// Prox parameters of the Newton map: r_N = prox_scale / W_NN, r_T = prox_scale d / tr W_TT.
  Scalar prox_scale{1};
  /// alart_curnier: on failure, run pgs and return its answer.
  bool fallback{true};
  /// pgs: passes of the local (one-contact) projection per contact and sweep.
  Index local_iterations{20};
};

template <class Scalar>
struct FrictionResult {
  Vector<Scalar> P;  ///< the local impulse, contact-major [N, T..]
  Vector<Scalar> U;  ///< W P + b (normal rows Newton-shifted, tangential rows U_T+)
  FrictionStatus status{FrictionStatus::uncertified};
  FrictionMethod method{FrictionMethod::lemke};  ///< the method that produced P
  Index iterations{0};                           ///< of that method
  bool fell_back{false};                         ///< alart_curnier failed and pgs answered
  FrictionCertificate<Scalar> certificate;
  std::string message;  ///< what went wrong (or, after a fallback, why Newton was left)
  bool ok() const { return status == FrictionStatus::solved; }
};

/// Validate (InputError naming the field) and solve with the named method. SpecError for a
/// method that cannot do the problem: lemke with d = 2, an iterative method in Rational.
template <class Scalar>
FrictionResult<Scalar> solve_friction(FrictionMethod method, const FrictionProblem<Scalar>& problem,
                                      const FrictionOptions<Scalar>& options = {});

/// The last act of every solver: U, the certificate, then the status: `solved` needs the
/// certificate; a point that certifies is `solved` whatever stopped the iteration.
template <class Scalar>
void certify_friction_result(const FrictionProblem<Scalar>& problem,
                             const FrictionOptions<Scalar>& options, FrictionStatus status,
                             std::string message, FrictionResult<Scalar>& result);

/// How a scheme records its friction step as the step's LCP (StepSummary::lcp), so that the
/// impulse-LCP properties judge its normal part: z = P_N and w = U_N of each of the `contacts`
/// solved contacts (`block` = 1 + d rows each), the iterations, the message, and the friction
/// certificate's normal residuals as the LCP certificate's. Moreau–Jean and the half-explicit
/// TDG both record this way; the status, method and acceptance stay the caller's.
template <class Scalar>
void record_normal_part(const FrictionResult<Scalar>& result, Index contacts, Index block,
                        LcpResult<Scalar>& record);

}  // namespace nsh
