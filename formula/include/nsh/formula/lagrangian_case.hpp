#pragma once
// Case files of the "lagrangian" family: a nonlinear model (nsh/model/nonlinear_model.hpp) given by
// formulas, parsed and differentiated symbolically (GiNaC) at load time and compiled to
// straight-line code (nsh/formula/program.hpp) evaluated in double, Real50 and, where every
// formula is rational, exactly in Rational. The format, with an example, is in
// docs/nonlinear-models.md:
//
//   { "name": "pendulum", "family": "lagrangian",
//     "parameters": {"m": 1, "l": 2, "g": "981/100"},          // exact numbers, optional
//     "coordinates": ["theta"],                                // velocities: theta_dot
//     "kinetic_energy": "m*l^2*theta_dot^2/2",                 // or "M": [["m*l^2"]]
//     "potential": "-m*g*l*cos(theta)",                        // default 0
//     "forces": ["-theta_dot/10"],                             // f_ext(t, q, v), default 0
//     "gaps": ["theta + 1"],                                   // g(q) >= 0, optional
//     "tangents": [...], "mu": ...,                            // friction, optional
//     "one_forms": [[...]], "distribution": [[...]],           // A(q) v = 0, ker A, optional
//     "e": 0, "q0": [1], "v0": [0], "T": 5, "h": "1/100" }
//
// Derived: M = Hessian of the kinetic energy in the velocities (or the given M),
// f = forces - grad V - c(q, v) with c the gyroscopic force of M(q), W_N = gradients of the gaps,
// W_T = gradients of the tangents, and the force Jacobians K = -df/dq, C = -df/dv (for
// Moreau–Jean's iteration matrix). Every error is an InputError (ModelError for M) naming the
// field: "gaps[1]: unknown symbol 'z' (coordinates are x, y, phi; ...)".

#include <nsh/formula/program.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/model/nonlinear_model.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nsh::formula {

/// A lagrangian document after the symbolic work, independent of the scalar type.
struct CompiledLagrangian {
  std::string name;
  std::vector<std::string> coordinates;
  std::vector<std::string> velocities;
  Index contacts{0};
  Index tangent_directions{0};
  Index velocity_constraints{0};  ///< r, the rows of one_forms (0: holonomic)
  bool constant_mass{false};
  std::string mass_field;        ///< "M" or "kinetic_energy", for messages
  ProgramCode mass;              ///< n x n outputs, column-major
  ProgramCode force;             ///< f, n outputs
  ProgramCode external_force;    ///< f_ext, n outputs
  ProgramCode potential;         ///< V, 1 output
  ProgramCode gap;               ///< g, m outputs
  ProgramCode normal_jacobian;   ///< W_N, n x m outputs, column-major
  ProgramCode gap_curvature;     ///< v^T (d^2 g_a/dq^2) v, m outputs
  ProgramCode tangent_jacobian;  ///< W_T, n x m d outputs, column-major
  ProgramCode one_forms;         ///< A, r x n outputs, column-major (none when r = 0)
  ProgramCode distribution;      ///< X, n x (n - r) outputs, column-major (none when r = 0)
  ProgramCode stiffness;         ///< K = -df/dq, n x n outputs, column-major
  ProgramCode damping;           ///< C = -df/dv, n x n outputs, column-major
  /// The derived formulas as GiNaC prints them: ("M[0][0]", "m"), ("f[1]", "-g*m"), ...
  std::vector<std::pair<std::string, std::string>> derived;
};

/// Parse, check and differentiate a "lagrangian" document. With `rational`, refuse any formula
/// that is not rational (InputError naming it). Errors name the field.
CompiledLagrangian compile_lagrangian(const CaseDocument& document, bool rational);

template <class Scalar>
class FormulaModel final : public NonlinearModel<Scalar> {
 public:
  /// An empty model (no coordinates), so that a LagrangianCase can be declared before it is
  /// loaded; validate() refuses it.
  FormulaModel() = default;
  /// restitution: m entries; friction: m entries when tangent_directions > 0, else empty.
  FormulaModel(const CompiledLagrangian& compiled, Vector<Scalar> restitution,
               Vector<Scalar> friction);

  std::string name() const override { return name_; }
  Index dofs() const override { return static_cast<Index>(coordinates_.size()); }
  Index contacts() const override { return contacts_; }
  Index tangent_directions() const override { return tangent_directions_; }
  Index velocity_constraints() const override { return velocity_constraints_; }
  bool constant_mass() const override { return constant_mass_; }
  const Vector<Scalar>& restitution() const override { return restitution_; }
  const Vector<Scalar>& friction_coefficient() const override { return friction_; }

  /// True when Moreau–Jean's one-step energy identity E_{k+1} - E_k = W_ext + W_contact - D
  /// holds exactly on this model: M constant, K = -df/dq constant (V at most quadratic) and
  /// f_ext constant (read from the compiled formulas: none of them reads t, q or v), and no
  /// velocity constraints (their impulse A(q_{k+1})^T mu is not in the ledger). Otherwise the
  /// identity has a consistency defect and the energy inequality is not claimed.
  bool energy_identity_exact() const {
    return constant_mass_ && velocity_constraints_ == 0 && !stiffness_.code().reads_inputs() &&
           !external_force_.code().reads_inputs();
  }
  const std::vector<std::string>& coordinates() const { return coordinates_; }
  const std::vector<std::string>& velocities() const { return velocities_; }
  const std::vector<std::pair<std::string, std::string>>& derived_formulas() const {
    return derived_;
  }

 private:
  void do_mass(const Vector<Scalar>& q, Matrix<Scalar>& M) const override;
  void do_force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                Vector<Scalar>& f) const override;
  void do_external_force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                         Vector<Scalar>& f_ext) const override;
  Scalar do_potential(const Vector<Scalar>& q) const override;
  void do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const override;
  void do_normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const override;
  /// The symbolic second derivatives of the gaps along v: true.
  bool do_gap_curvature(const Vector<Scalar>& q, const Vector<Scalar>& v,
                        Vector<Scalar>& kappa) const override;
  void do_tangent_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_T) const override;
  void do_one_forms(const Vector<Scalar>& q, Matrix<Scalar>& A) const override;
  void do_distribution(const Vector<Scalar>& q, Matrix<Scalar>& X) const override;
  /// The symbolic derivatives of f (compiled like f): true.
  bool do_force_jacobians(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                          Matrix<Scalar>& K, Matrix<Scalar>& C) const override;

  /// Runs `program` at (t, q, v) into `out`; a formula without a real value there (division by
  /// zero, log of a negative number, overflow) throws ModelError naming its field and the state.
  void run(const Program<Scalar>& program, const Scalar& t, const Vector<Scalar>& q,
           const Vector<Scalar>* v, Scalar* out) const;

  std::string name_;
  std::vector<std::string> coordinates_, velocities_;
  Index contacts_{0}, tangent_directions_{0}, velocity_constraints_{0};
  bool constant_mass_{false};
  Program<Scalar> mass_, force_, external_force_, potential_, gap_, normal_jacobian_,
      gap_curvature_, tangent_jacobian_, one_forms_, distribution_, stiffness_, damping_;
  Vector<Scalar> restitution_, friction_;
  std::vector<std::pair<std::string, std::string>> derived_;
};

/// A lagrangian case: the model, the initial state, the horizon and an optional default h.
template <class Scalar>
struct LagrangianCase {
  FormulaModel<Scalar> model;
  State<Scalar> initial;
  Scalar T{1};
  std::optional<Scalar> h;
};

/// Load a "lagrangian" document into Scalar (double, Real50, or Rational when every formula is
/// rational) and validate the model at the initial state (M positive definite at q0, e in
/// [0, 1], mu >= 0, every formula finite there). Errors name the field.
template <class Scalar>
LagrangianCase<Scalar> load_lagrangian_case(const CaseDocument& document);

/// The same from a file path or a built-in case name (nsh::locate_case).
template <class Scalar>
LagrangianCase<Scalar> load_lagrangian_case(const std::string& name_or_path);

}  // namespace nsh::formula
