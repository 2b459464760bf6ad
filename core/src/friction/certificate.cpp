// Certificate and predicates of the one-step friction problem (see
// nsh/friction/certificate.hpp). Nothing here calls a solver.

#include <nsh/friction/certificate.hpp>

#include <nsh/error.hpp>

#include <string>

namespace nsh {

namespace {

template <class Scalar>
Scalar max_of(const Scalar& a, const Scalar& b) {
  return a > b ? a : b;
}

/// The Euclidean norm of the d tangential entries starting at row `first`. d = 1 is |x| in every
/// scalar; d = 2 needs sqrt, which Rational lacks (callers reject that combination first).
template <class Scalar>
Scalar tangent_norm(const Vector<Scalar>& x, Index first, Index d) {
  if (d == 1) return abs_value<Scalar>(x(first));
  if constexpr (has_transcendentals_v<Scalar>) {
    using std::sqrt;
    return Scalar(sqrt(x(first) * x(first) + x(first + 1) * x(first + 1)));
  } else {
    throw InputError("tangent_dimension", "d = 2 needs a square root, which Rational lacks");
  }
}

template <class Scalar>
Scalar tangent_dot(const Vector<Scalar>& x, const Vector<Scalar>& y, Index first, Index d) {
  Scalar s(0);
  for (Index k = 0; k < d; ++k) s += x(first + k) * y(first + k);
  return s;
}

void check_dimension(Index d) {
  if (d != 1 && d != 2)
    throw InputError("tangent_dimension",
                     "must be 1 (planar) or 2 (spatial), got " + std::to_string(d));
}

template <class Scalar>
void check_exact_dimension(Index d) {
  if constexpr (is_exact_v<Scalar>) {
    if (d != 1)
      throw InputError("tangent_dimension",
                       "d = 2 needs the norm of P_T and U_T (a square root): Rational handles "
                       "d = 1 only, use double or 50");
  }
}

/// The number of contacts of a contact-major vector, or InputError naming `field`.
template <class Scalar>
Index contacts_of(const Vector<Scalar>& x, Index d, const char* field) {
  if (x.size() % (1 + d) != 0)
    throw InputError(field, "has size " + std::to_string(x.size()) +
                                ", not a multiple of 1 + d = " + std::to_string(1 + d));
  return x.size() / (1 + d);
}

template <class Scalar>
Scalar product_tolerance(const Scalar& tol, const Vector<Scalar>& P, const Vector<Scalar>& U) {
  return tol * (Scalar(1) + max_abs(P) + max_abs(U));
}

/// Projection of the d entries of y starting at `first` onto the disk of radius rho >= 0,
/// written into out at the same rows.
template <class Scalar>
void project_disk(const Vector<Scalar>& y, Index first, Index d, const Scalar& rho,
                  Vector<Scalar>& out) {
  const Scalar norm = tangent_norm(y, first, d);
  if (norm <= rho) {
    for (Index k = 0; k < d; ++k) out(first + k) = y(first + k);
  } else {
    for (Index k = 0; k < d; ++k) out(first + k) = rho * y(first + k) / norm;
  }
}

}  // namespace

template <class Scalar>
Scalar friction_tolerance(const FrictionProblem<Scalar>& problem, const Vector<Scalar>& P,
                          const Scalar& relative_tolerance) {
  if constexpr (is_exact_v<Scalar>) {
    (void)problem, (void)P, (void)relative_tolerance;
    return Scalar(0);
  } else {
    Scalar relative = relative_tolerance;
    if (relative == Scalar(0)) relative = Scalar(64 * problem.b.size()) * epsilon<Scalar>();
    const Scalar scale = max_of(max_abs(problem.W), max_abs(problem.b));
    return relative * scale * (Scalar(1) + max_abs(P));
  }
}

template <class Scalar>
FrictionCertificate<Scalar> certify(const FrictionProblem<Scalar>& problem, const Vector<Scalar>& P,
                                    const Scalar& relative_tolerance) {
  const Index d = problem.tangent_dimension;
  check_dimension(d);
  check_exact_dimension<Scalar>(d);
  if (P.size() != problem.b.size())
    throw InputError("P", "has size " + std::to_string(P.size()) + " but b has size " +
                              std::to_string(problem.b.size()));
  FrictionCertificate<Scalar> c;
  const Vector<Scalar> U = local_velocity(problem, P);
  c.tolerance = friction_tolerance(problem, P, relative_tolerance);
  c.product_tolerance = product_tolerance(c.tolerance, P, U);
  const Scalar wscale = max_abs(problem.W);
  // A zero diagonal leaves 1 / W_ii undefined; any r > 0 has the same zero set, so take
  // 1 / max|W| there (1 for W = 0).
  auto inverse = [&](const Scalar& diagonal) {
    if (diagonal > Scalar(0)) return Scalar(Scalar(1) / diagonal);
    return wscale > Scalar(0) ? Scalar(Scalar(1) / wscale) : Scalar(1);
  };

  Vector<Scalar> prox(P.size()), y(P.size());
  for (Index a = 0; a < problem.contacts(); ++a) {
    const Index iN = problem.normal_index(a);
    const Index iT = problem.tangent_index(a, 0);
    const Scalar& mu = problem.friction_coefficient(a);
    const Scalar& PN = P(iN);
    const Scalar& UN = U(iN);

    // Prox map.
    const Scalar rN = inverse(problem.W(iN, iN));
    Scalar trace(0);
    for (Index k = 0; k < d; ++k) trace += problem.W(iT + k, iT + k);
    const Scalar rT = inverse(Scalar(trace / d));
    const Scalar shifted = PN - rN * UN;
    prox(iN) = shifted > Scalar(0) ? shifted : Scalar(0);
    for (Index k = 0; k < d; ++k) y(iT + k) = P(iT + k) - rT * U(iT + k);
    const Scalar rho = mu * (PN > Scalar(0) ? PN : Scalar(0));
    project_disk(y, iT, d, rho, prox);
    for (Index k = 0; k <= d; ++k)
      c.prox_residual = max_of(c.prox_residual, abs_value<Scalar>(P(iN + k) - prox(iN + k)));

    // Cone and normal complementarity.
    const Scalar PT = tangent_norm(P, iT, d);
    c.cone_feasibility = max_of(c.cone_feasibility, Scalar(PT - mu * PN));
    c.cone_feasibility = max_of(c.cone_feasibility, Scalar(-PN));
    c.normal_feasibility = max_of(c.normal_feasibility, Scalar(-UN));
    c.normal_complementarity =
        max_of(c.normal_complementarity, abs_value<Scalar>(PN < UN ? PN : UN));

    // Tangential law by class.
    const Scalar UT = tangent_norm(U, iT, d);
    const Scalar work = tangent_dot(P, U, iT, d);
    c.friction_work = a == 0 ? work : max_of(c.friction_work, work);
    if (PN <= c.tolerance) {
      ++c.separated;
    } else if (PT >= mu * PN - c.tolerance) {
      ++c.sliding;
      c.dissipation_defect = max_of(c.dissipation_defect, abs_value<Scalar>(work + mu * PN * UT));
    } else {
      ++c.sticking;
      c.stick_velocity = max_of(c.stick_velocity, UT);
    }
  }
  c.accepted = c.prox_residual <= c.tolerance && c.cone_feasibility <= c.tolerance &&
               c.normal_feasibility <= c.tolerance && c.normal_complementarity <= c.tolerance &&
               c.stick_velocity <= c.tolerance && c.dissipation_defect <= c.product_tolerance &&
               c.friction_work <= c.product_tolerance;
  return c;
}

template <class Scalar>
FrictionVerdict<Scalar> coulomb_cone(const Vector<Scalar>& P, const Vector<Scalar>& mu,
                                     Index tangent_dimension, const Scalar& tolerance) {
  const Index d = tangent_dimension;
  check_dimension(d);
  const Index m = contacts_of(P, d, "P");
  if (mu.size() != m)
    throw InputError("friction_coefficient", "has size " + std::to_string(mu.size()) +
                                                 " but P has " + std::to_string(m) + " contacts");
  FrictionVerdict<Scalar> verdict;
  for (Index a = 0; a < m; ++a) {
    const Index iN = a * (1 + d);
    const Scalar& PN = P(iN);
    const Scalar squared = tangent_dot(P, P, iN + 1, d);
    const Scalar radius = mu(a) * PN + tolerance;
    Scalar defect(0);
    bool holds = true;
    if (PN < -tolerance) {
      holds = false;
      defect = -PN;
    } else if (radius < Scalar(0) || squared > radius * radius) {
      holds = false;
      defect = squared - mu(a) * mu(a) * PN * PN;
    }
    if (!holds) return {false, a, defect};
  }
  return verdict;
}

template <class Scalar>
FrictionVerdict<Scalar> maximal_dissipation(const Vector<Scalar>& P, const Vector<Scalar>& U,
                                            const Vector<Scalar>& mu, Index tangent_dimension,
                                            const Scalar& tolerance) {
  const Index d = tangent_dimension;
  check_dimension(d);
  check_exact_dimension<Scalar>(d);
  const Index m = contacts_of(P, d, "P");
  if (U.size() != P.size())
    throw InputError("U", "has size " + std::to_string(U.size()) + " but P has size " +
                              std::to_string(P.size()));
  if (mu.size() != m)
    throw InputError("friction_coefficient", "has size " + std::to_string(mu.size()) +
                                                 " but P has " + std::to_string(m) + " contacts");
  const Scalar products = product_tolerance(tolerance, P, U);
  for (Index a = 0; a < m; ++a) {
    const Index iN = a * (1 + d);
    const Index iT = iN + 1;
    const Scalar& PN = P(iN);
    if (PN <= tolerance) continue;  // separated: no tangential law to check
    const Scalar PT = tangent_norm(P, iT, d);
    const Scalar UT = tangent_norm(U, iT, d);
    if (PT < mu(a) * PN - tolerance) {
      if (UT > tolerance) return {false, a, UT};  // declared stick, but slipping
    } else {
      const Scalar defect = abs_value<Scalar>(tangent_dot(P, U, iT, d) + mu(a) * PN * UT);
      if (defect > products) return {false, a, defect};
    }
  }
  return {};
}

template <class Scalar>
FrictionVerdict<Scalar> friction_work_nonpositive(const Vector<Scalar>& P, const Vector<Scalar>& U,
                                                  Index tangent_dimension,
                                                  const Scalar& tolerance) {
  const Index d = tangent_dimension;
  check_dimension(d);
  const Index m = contacts_of(P, d, "P");
  if (U.size() != P.size())
    throw InputError("U", "has size " + std::to_string(U.size()) + " but P has size " +
                              std::to_string(P.size()));
  const Scalar products = product_tolerance(tolerance, P, U);
  for (Index a = 0; a < m; ++a) {
    const Scalar work = tangent_dot(P, U, a * (1 + d) + 1, d);
    if (work > products) return {false, a, work};
  }
  return {};
}

#define NSH_INSTANTIATE_FRICTION_CERTIFICATE(Scalar)                                              \
  template Scalar friction_tolerance(const FrictionProblem<Scalar>&, const Vector<Scalar>&,       \
                                     const Scalar&);                                              \
  template FrictionCertificate<Scalar> certify(const FrictionProblem<Scalar>&,                    \
                                               const Vector<Scalar>&, const Scalar&);             \
  template FrictionVerdict<Scalar> coulomb_cone(const Vector<Scalar>&, const Vector<Scalar>&,     \
                                                Index, const Scalar&);                            \
  template FrictionVerdict<Scalar> maximal_dissipation(                                           \
      const Vector<Scalar>&, const Vector<Scalar>&, const Vector<Scalar>&, Index, const Scalar&); \
  template FrictionVerdict<Scalar> friction_work_nonpositive(                                     \
      const Vector<Scalar>&, const Vector<Scalar>&, Index, const Scalar&);

NSH_INSTANTIATE_FRICTION_CERTIFICATE(double)
NSH_INSTANTIATE_FRICTION_CERTIFICATE(Real50)
NSH_INSTANTIATE_FRICTION_CERTIFICATE(Rational)

}  // namespace nsh
