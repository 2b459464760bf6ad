#pragma once
// The two views between the nonholonomic interface (nonholonomic_model.hpp) and nsh's nonlinear
// model interface (nsh/model/nonlinear_model.hpp), so that the schemes of the kit step nonholonomic
// models and the nonholonomic algorithms read any NonlinearModel with velocity constraints
// (docs/nonholonomic.md "One model interface"):
//
//   NonholonomicModelAdapter   a NonholonomicModel seen as a NonlinearModel: contacts = the p
//                              inequalities with g_N = -g, W_N = -grad g, restitution 1 (the
//                              continuous jump is an elastic reflection, docs/theory.md §5), no
//                              friction; f = -grad V (constant mass: no gyroscopic force),
//                              f_ext = 0; A(q) and X(q) forwarded (r = velocity_constraints()).
//   NonholonomicView           a NonlinearModel seen as a NonholonomicModel: g = -g_N,
//                              grad g = -W_N, grad V = f_ext - f at v = 0 (exact for a constant
//                              mass, where the gyroscopic force vanishes), A and X forwarded.
//
// Both hold a reference: the viewed model must outlive the view. Double and Real50.

#include <nsh/model/nonlinear_model.hpp>
#include <nsh/nonholonomic/nonholonomic_model.hpp>

#include <memory>

namespace nsh {

template <class Scalar>
class NonholonomicModelAdapter final : public NonlinearModel<Scalar> {
 public:
  /// ModelError "M" unless the model's mass is constant (the view provides no gyroscopic force).
  explicit NonholonomicModelAdapter(const NonholonomicModel<Scalar>& model);

  const NonholonomicModel<Scalar>& nonholonomic_model() const { return model_; }
  std::string name() const override { return model_.name(); }
  Index dofs() const override { return model_.dofs(); }
  Index contacts() const override { return model_.inequalities(); }
  bool constant_mass() const override { return true; }
  Index velocity_constraints() const override { return model_.velocity_constraints(); }
  const Vector<Scalar>& restitution() const override { return restitution_; }

 private:
  void do_mass(const Vector<Scalar>& q, Matrix<Scalar>& M) const override;
  void do_force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                Vector<Scalar>& f) const override;
  void do_external_force(const Scalar& t, const Vector<Scalar>& q, const Vector<Scalar>& v,
                         Vector<Scalar>& f_ext) const override;
  Scalar do_potential(const Vector<Scalar>& q) const override;
  void do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const override;
  void do_normal_jacobian(const Vector<Scalar>& q, Matrix<Scalar>& W_N) const override;
  void do_one_forms(const Vector<Scalar>& q, Matrix<Scalar>& A) const override;
  void do_distribution(const Vector<Scalar>& q, Matrix<Scalar>& X) const override;

  const NonholonomicModel<Scalar>& model_;
  Vector<Scalar> restitution_;
};

template <class Scalar>
class NonholonomicView final : public NonholonomicModel<Scalar> {
 public:
  /// ModelError "M" unless the model's mass is constant.
  explicit NonholonomicView(const NonlinearModel<Scalar>& model, Scalar t = Scalar(0));

  std::string name() const override { return model_.name(); }
  Index dofs() const override { return model_.dofs(); }
  Index velocity_constraints() const override { return model_.velocity_constraints(); }
  Index inequalities() const override { return model_.contacts(); }
  bool constant_mass() const override { return true; }
  std::string coordinate_name(Index i) const override;
  std::string inequality_name(Index j) const override;

 private:
  Matrix<Scalar> do_mass(const Vector<Scalar>& q) const override;
  Scalar do_potential(const Vector<Scalar>& q) const override;
  Vector<Scalar> do_potential_gradient(const Vector<Scalar>& q) const override;
  Matrix<Scalar> do_one_forms(const Vector<Scalar>& q) const override;
  Matrix<Scalar> do_distribution(const Vector<Scalar>& q) const override;
  Vector<Scalar> do_inequality(const Vector<Scalar>& q) const override;
  Matrix<Scalar> do_inequality_gradient(const Vector<Scalar>& q) const override;

  const NonlinearModel<Scalar>& model_;
  Scalar t_;
};

/// The nonholonomic model behind `model`: the adapted one when `model` is a
/// NonholonomicModelAdapter (its names and exact flow kept), else a NonholonomicView of it,
/// kept alive in `storage`. ModelError "M" for a configuration-dependent mass.
template <class Scalar>
const NonholonomicModel<Scalar>& nonholonomic_model_of(
    const NonlinearModel<Scalar>& model, std::unique_ptr<NonholonomicModel<Scalar>>& storage);

extern template class NonholonomicModelAdapter<double>;
extern template class NonholonomicModelAdapter<Real50>;
extern template class NonholonomicView<double>;
extern template class NonholonomicView<Real50>;

}  // namespace nsh
