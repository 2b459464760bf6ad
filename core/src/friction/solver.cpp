// Names, dispatch, fallback and the common result step of the friction solvers (see
// nsh/friction/solver.hpp).

#include <nsh/friction/solver.hpp>

#include <nsh/error.hpp>
#include <nsh/friction/alart_curnier.hpp>
#include <nsh/friction/lemke.hpp>
#include <nsh/friction/pgs.hpp>

#include <string>
#include <utility>

namespace nsh {

const char* to_string(FrictionStatus status) {
  switch (status) {
    case FrictionStatus::solved:
      return "solved";
    case FrictionStatus::uncertified:
      return "uncertified";
    case FrictionStatus::no_solution:
      return "no_solution";
    case FrictionStatus::max_iterations:
      return "max_iterations";
    case FrictionStatus::singular:
      return "singular";
  }
  return "unknown";
}

const char* to_string(FrictionMethod method) {
  switch (method) {
    case FrictionMethod::lemke:
      return "lemke";
    case FrictionMethod::alart_curnier:
      return "alart-curnier";
    case FrictionMethod::pgs:
      return "pgs";
  }
  return "unknown";
}

FrictionMethod parse_friction_method(const std::string& name) {
  for (FrictionMethod method :
       {FrictionMethod::lemke, FrictionMethod::alart_curnier, FrictionMethod::pgs}) {
    if (name == to_string(method)) return method;
  }
  throw SpecError("friction", "unknown friction method '" + name +
                                  "'; known methods: lemke, alart-curnier, pgs");
}

template <class Scalar>
void certify_friction_result(const FrictionProblem<Scalar>& problem,
                             const FrictionOptions<Scalar>& options, FrictionStatus status,
                             std::string message, FrictionResult<Scalar>& result) {
  result.U = local_velocity(problem, result.P);
  result.certificate = certify(problem, result.P, options.relative_tolerance);
  if (result.certificate.accepted) {
    // Whatever stopped the method, a point that certifies is a solution.
    status = FrictionStatus::solved;
    message.clear();
  } else if (status == FrictionStatus::solved) {
    status = FrictionStatus::uncertified;
    message = std::string(to_string(result.method)) + " stopped at a point that fails the " +
              "friction certificate";
  }
  result.status = status;
  result.message = std::move(message);
}

template <class Scalar>
FrictionResult<Scalar> solve_friction(FrictionMethod method, const FrictionProblem<Scalar>& problem,
                                      const FrictionOptions<Scalar>& options) {
  problem.validate();
  if (options.max_iterations < 1)
    throw InputError("max_iterations",
                     "must be >= 1, got " + std::to_string(options.max_iterations));
  if (options.newton_iterations < 1)
    throw InputError("newton_iterations",
                     "must be >= 1, got " + std::to_string(options.newton_iterations));
  if (!(options.prox_scale > Scalar(0))) throw InputError("prox_scale", "must be > 0");
  if (options.relative_tolerance < Scalar(0))
    throw InputError("relative_tolerance", "must be >= 0");
  // pgs also runs as alart-curnier's fallback.
  if (options.local_iterations < 1)
    throw InputError("local_iterations",
                     "must be >= 1, got " + std::to_string(options.local_iterations));
  if (method == FrictionMethod::lemke) {
    if (problem.tangent_dimension != 1)
      throw SpecError("friction",
                      "method 'lemke' solves d = 1 (the LCP form) only; for d = 2 "
                      "use 'alart-curnier' or 'pgs'");
    return solve_friction_lemke(problem, options);
  }
  if constexpr (is_exact_v<Scalar>) {
    throw SpecError("friction", std::string("method '") + to_string(method) +
                                    "' is iterative and has no exact (rational) version; use "
                                    "'lemke' (d = 1)");
  } else {
    if (method == FrictionMethod::pgs) return solve_friction_pgs(problem, options);
    FrictionResult<Scalar> newton = solve_friction_alart_curnier(problem, options);
    if (newton.ok() || !options.fallback) return newton;
    FrictionResult<Scalar> pgs = solve_friction_pgs(problem, options);
    pgs.fell_back = true;
    const std::string why = "alart-curnier failed (" + std::string(to_string(newton.status)) +
                            ": " + newton.message + "); answered by pgs";
    pgs.message = pgs.message.empty() ? why : why + "; " + pgs.message;
    return pgs;
  }
}

template <class Scalar>
void record_normal_part(const FrictionResult<Scalar>& result, Index contacts, Index block,
                        LcpResult<Scalar>& record) {
  record.z.resize(contacts);
  record.w.resize(contacts);
  for (Index i = 0; i < contacts; ++i) {
    record.z(i) = result.P(i * block);
    record.w(i) = result.U(i * block);
  }
  record.iterations = result.iterations;
  record.certificate.natural_map = result.certificate.normal_complementarity;
  record.certificate.feasibility = result.certificate.normal_feasibility;
  record.certificate.tolerance = result.certificate.tolerance;
  record.message = result.message;
}

#define NSH_INSTANTIATE_FRICTION_SOLVER(Scalar)                                                  \
  template void record_normal_part(const FrictionResult<Scalar>&, Index, Index,                  \
                                   LcpResult<Scalar>&);                                          \
  template void certify_friction_result(const FrictionProblem<Scalar>&,                          \
                                        const FrictionOptions<Scalar>&, FrictionStatus,          \
                                        std::string, FrictionResult<Scalar>&);                   \
  template FrictionResult<Scalar> solve_friction(FrictionMethod, const FrictionProblem<Scalar>&, \
                                                 const FrictionOptions<Scalar>&);

NSH_INSTANTIATE_FRICTION_SOLVER(double)
NSH_INSTANTIATE_FRICTION_SOLVER(Real50)
NSH_INSTANTIATE_FRICTION_SOLVER(Rational)

}  // namespace nsh
