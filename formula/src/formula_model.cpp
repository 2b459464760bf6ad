// The nonlinear model of a lagrangian case file, and its loader.
#include "document_fields.hpp"

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/formula/lagrangian_case.hpp>
#include <nsh/model/linear_model.hpp>

#include <fmt/format.h>
#include <Eigen/LU>

namespace nsh::formula {
namespace {

using json = nlohmann::json;

// One number for every contact, or one per contact.
template <class Scalar>
Vector<Scalar> per_contact(const json& root, const std::string& key, Index m) {
  const json& node = detail::document_field(root, key);
  if (node.is_null()) return Vector<Scalar>::Zero(m);
  if (!node.is_array()) return Vector<Scalar>::Constant(m, case_number<Scalar>(node, key));
  Vector<Scalar> x = case_vector<Scalar>(node, key);
  if (x.size() != m)
    throw InputError(
        key, fmt::format("expected one number or {} (one per contact), got {}", m, x.size()));
  return x;
}

}  // namespace

template <class Scalar>
FormulaModel<Scalar>::FormulaModel(const CompiledLagrangian& compiled, Vector<Scalar> restitution,
                                   Vector<Scalar> friction)
    : name_(compiled.name),
      coordinates_(compiled.coordinates),
      velocities_(compiled.velocities),
      contacts_(compiled.contacts),
      tangent_directions_(compiled.tangent_directions),
      velocity_constraints_(compiled.velocity_constraints),
      constant_mass_(compiled.constant_mass),
      mass_(compiled.mass),
      force_(compiled.force),
      external_force_(compiled.external_force),
      potential_(compiled.potential),
      gap_(compiled.gap),
      normal_jacobian_(compiled.normal_jacobian),
      gap_curvature_(compiled.gap_curvature),
      tangent_jacobian_(compiled.tangent_jacobian),
      one_forms_(compiled.one_forms),
      distribution_(compiled.distribution),
      stiffness_(compiled.stiffness),
      damping_(compiled.damping),
      restitution_(std::move(restitution)),
      friction_(std::move(friction)),
      derived_(compiled.derived) {}

template <class Scalar>
void FormulaModel<Scalar>::run(const Program<Scalar>& program, const Scalar& t,
                               const Vector<Scalar>& q, const Vector<Scalar>* v,
                               Scalar* out) const {
  const Index n = dofs();
  if (q.size() != n)
    throw ModelError("q", fmt::format("expected {} coordinates, got {}", n, q.size()));
  if (v && v->size() != n)
    throw ModelError("v", fmt::format("expected {} velocities, got {}", n, v->size()));
  std::vector<Scalar> inputs(static_cast<std::size_t>(1 + 2 * n), Scalar(0));
  inputs[0] = t;
  for (Index i = 0; i < n; ++i) {
    inputs[1 + i] = q(i);
    if (v) inputs[1 + n + i] = (*v)(i);
  }
  const EvaluationFailure failure = program.evaluate(inputs.data(), out);
  if (failure.output >= 0) {
    std::string at = "q = " + format_vector(q);
    if (v) at += ", v = " + format_vector(*v) + ", t = " + format_scalar(t);
    throw ModelError(program.output_field(failure.output),
                     "has no real value at " + at + " (" + failure.reason + ")");
  }
}

template <class Scalar>
void FormulaModel<Scalar>::do_mass(const Vector<Scalar>& q, Matrix<Scalar>& M) const {
  M.resize(dofs(), dofs());
  run(mass_, Scalar(0), q, nullptr, M.data());
}

template <class Scalar>
void FormulaModel<Scalar>::do_force(const Scalar& t, const Vector<Scalar>& q,
                                    const Vector<Scalar>& v, Vector<Scalar>& f) const {
  f.resize(dofs());
  run(force_, t, q, &v, f.data());
}

template <class Scalar>
void FormulaModel<Scalar>::do_external_force(const Scalar& t, const Vector<Scalar>& q,
                                             const Vector<Scalar>& v, Vector<Scalar>& f_ext) const {
  f_ext.resize(dofs());
  run(external_force_, t, q, &v, f_ext.data());
}

template <class Scalar>
Scalar FormulaModel<Scalar>::do_potential(const Vector<Scalar>& q) const {
  Scalar V(0);
  run(potential_, Scalar(0), q, nullptr, &V);
  return V;
}

template <class Scalar>
void FormulaModel<Scalar>::do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const {
  g.resize(contacts_);
  run(gap_, Scalar(0), q, nullptr, g.data());
}

template <class Scalar>
void FormulaModel<Scalar>::do_normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const {
  W_N.resize(dofs(), contacts_);
  run(normal_jacobian_, Scalar(0), q, nullptr, W_N.data());
}

template <class Scalar>
bool FormulaModel<Scalar>::do_gap_curvature(const Vector<Scalar>& q, const Vector<Scalar>& v,
                                            Vector<Scalar>& kappa) const {
  kappa.resize(contacts_);
  run(gap_curvature_, Scalar(0), q, &v, kappa.data());
  return true;
}

template <class Scalar>
void FormulaModel<Scalar>::do_tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const {
  W_T.resize(dofs(), contacts_ * tangent_directions_);
  run(tangent_jacobian_, Scalar(0), q, nullptr, W_T.data());
}

template <class Scalar>
void FormulaModel<Scalar>::do_one_forms(const Vector<Scalar>& q, Matrix<Scalar>& A) const {
  A.resize(velocity_constraints_, dofs());
  if (velocity_constraints_ > 0) run(one_forms_, Scalar(0), q, nullptr, A.data());
}

template <class Scalar>
void FormulaModel<Scalar>::do_distribution(const Vector<Scalar>& q, Matrix<Scalar>& X) const {
  if (velocity_constraints_ == 0) {
    X = Matrix<Scalar>::Identity(dofs(), dofs());
    return;
  }
  X.resize(dofs(), dofs() - velocity_constraints_);
  run(distribution_, Scalar(0), q, nullptr, X.data());
}

template <class Scalar>
bool FormulaModel<Scalar>::do_force_jacobians(const Scalar& t, const Vector<Scalar>& q,
                                              const Vector<Scalar>& v, Matrix<Scalar>& K,
                                              Matrix<Scalar>& C) const {
  K.resize(dofs(), dofs());
  run(stiffness_, t, q, &v, K.data());
  C.resize(dofs(), dofs());
  run(damping_, t, q, &v, C.data());
  return true;
}

namespace {

// The velocity constraints at q0 (docs/nonlinear-models.md "Velocity constraints"): X spans
// ker A (A X = 0, X of full column rank), v0 satisfies A(q0) v0 = 0 at the accuracy of decimal
// data (4096 double epsilons relative, in every scalar, as the nonholonomic family), and is then
// replaced by its M-orthogonal projection onto ker A(q0), so that in Real50 the constraint holds
// to 50 digits although cos(phi0) or "0.3" are not exact.
template <class Scalar>
void require_velocity_constraints(const FormulaModel<Scalar>& model, State<Scalar>& initial) {
  const Index n = model.dofs();
  const std::string at = "q0 = " + format_vector(initial.q);
  const Matrix<Scalar> A = model.one_forms(initial.q);
  const Matrix<Scalar> X = model.distribution(initial.q);
  const Scalar basis_residual = max_abs(Matrix<Scalar>(A * X));
  if (basis_residual > tolerance<Scalar>(max_abs(A) * max_abs(X) * Scalar(n), Scalar(64)))
    throw ModelError("distribution", "is not in the kernel of one_forms: at " + at + ", |A X| = " +
                                         format_scalar(basis_residual) + " (must be 0)");
  const Matrix<Scalar> gram = X.transpose() * X;
  if (first_indefinite_pivot<Scalar>(gram, true,
                                     tolerance<Scalar>(max_abs(gram), Scalar(16 * (n + 1)))) >= 0)
    throw ModelError("distribution", "its columns are not independent at " + at +
                                         ": they must be a basis of "
                                         "ker A(q0), of dimension n - r");
  // Every scheme of a nonholonomic system starts inside the admissible set, as the catalogue's
  // (nonholonomic_model.cpp): the DLA needs it, and a penetrated start of Moreau–Jean would be
  // another system (the disk outside its table).
  const Vector<Scalar> g = model.gap(initial.q);
  for (Index j = 0; j < g.size(); ++j)
    if (g(j) < Scalar(0))
      throw ModelError("q0", fmt::format("is outside the admissible set: gaps[{}](q0) = {} < 0 "
                                         "(a system with velocity constraints starts where every "
                                         "gap is >= 0)",
                                         j, format_scalar(Scalar(g(j)))));
  const Scalar residual = max_abs(Vector<Scalar>(A * initial.v));
  const Scalar scale = max_abs(A) * max_abs(initial.v) * Scalar(n);
  if (residual > Scalar(tolerance<double>(1.0, 4096.0)) * scale)
    throw ModelError("v0", "does not satisfy the velocity constraints (one_forms): |A(q0) v0| = " +
                               format_scalar(residual) + " for v0 = " + format_vector(initial.v));
  const Matrix<Scalar> M = model.mass(initial.q);
  const Matrix<Scalar> metric = X.transpose() * M * X;
  const Vector<Scalar> reduced = metric.partialPivLu().solve(X.transpose() * (M * initial.v));
  initial.v = X * reduced;
}

}  // namespace

template <class Scalar>
LagrangianCase<Scalar> load_lagrangian_case(const CaseDocument& document) {
  const CompiledLagrangian compiled = compile_lagrangian(document, is_exact_v<Scalar>);
  const json& root = document.root;
  const Index m = compiled.contacts;
  Vector<Scalar> e = per_contact<Scalar>(root, "e", m);
  Vector<Scalar> mu;
  if (compiled.tangent_directions > 0) mu = per_contact<Scalar>(root, "mu", m);
  for (Index a = 0; a < m; ++a) {
    if (e(a) < Scalar(0) || e(a) > Scalar(1))
      throw ModelError(fmt::format("e[{}]", a),
                       "restitution must be in [0, 1], got " + format_scalar(e(a)));
    if (mu.size() && mu(a) < Scalar(0))
      throw ModelError(fmt::format("mu[{}]", a),
                       "friction coefficient must be >= 0, got " + format_scalar(mu(a)));
  }
  FormulaModel<Scalar> model(compiled, std::move(e), std::move(mu));

  State<Scalar> initial;
  initial.t = detail::document_has_field(root, "t0")
                  ? case_number<Scalar>(detail::document_field(root, "t0"), "t0")
                  : Scalar(0);
  initial.q = case_vector<Scalar>(detail::document_field(root, "q0"), "q0");
  initial.v = case_vector<Scalar>(detail::document_field(root, "v0"), "v0");
  const Index n = model.dofs();
  if (initial.q.size() != n)
    throw InputError(
        "q0", fmt::format("expected {} entries (one per coordinate), got {}", n, initial.q.size()));
  if (initial.v.size() != n)
    throw InputError(
        "v0", fmt::format("expected {} entries (one per coordinate), got {}", n, initial.v.size()));
  // The specific fields first (a log of a negative number in the potential is named
  // "potential", not "f"), then every hypothesis of the model at q0.
  model.potential(initial.q);
  model.external_force(initial.t, initial.q, initial.v);
  model.gap(initial.q);
  model.normal_jacobian(initial.q);
  model.tangent_jacobian(initial.q);
  if (model.velocity_constraints() > 0) require_velocity_constraints(model, initial);
  try {
    model.validate(initial);
  } catch (const ModelError& error) {
    if (compiled.mass_field == "kinetic_energy" && error.field() == "M")
      throw ModelError(
          "kinetic_energy",
          std::string("its Hessian in the velocities, the mass matrix M, ") + (error.what() + 3));
    throw;
  }

  Scalar T = case_number<Scalar>(detail::document_field(root, "T"), "T");
  if (T < initial.t)
    throw InputError("T",
                     "horizon " + format_scalar(T) + " is before t0 = " + format_scalar(initial.t));
  std::optional<Scalar> h;
  if (detail::document_has_field(root, "h")) {
    const Scalar step = case_number<Scalar>(detail::document_field(root, "h"), "h");
    if (!(step > Scalar(0)))
      throw InputError("h", "step size must be > 0, got " + format_scalar(step));
    h = step;
  }
  return LagrangianCase<Scalar>{std::move(model), std::move(initial), std::move(T), std::move(h)};
}

template <class Scalar>
LagrangianCase<Scalar> load_lagrangian_case(const std::string& name_or_path) {
  return load_lagrangian_case<Scalar>(read_case_file(locate_case(name_or_path)));
}

#define NSH_INSTANTIATE(Scalar)                                                      \
  template class FormulaModel<Scalar>;                                               \
  template LagrangianCase<Scalar> load_lagrangian_case<Scalar>(const CaseDocument&); \
  template LagrangianCase<Scalar> load_lagrangian_case<Scalar>(const std::string&);
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh::formula
