// The views between NonholonomicModel and NonlinearModel (nsh/nonholonomic/nonlinear_adapter.hpp).
#include <nsh/error.hpp>
#include <nsh/nonholonomic/nonlinear_adapter.hpp>

#include <fmt/format.h>

namespace nsh {

template <class Scalar>
NonholonomicModelAdapter<Scalar>::NonholonomicModelAdapter(const NonholonomicModel<Scalar>& model)
    : model_(model), restitution_(Vector<Scalar>::Ones(model.inequalities())) {
  if (!model_.constant_mass())
    throw ModelError("M", "the nonlinear view of the nonholonomic model '" + model_.name() +
                              "' needs a constant mass matrix (it provides no gyroscopic force)");
}

template <class Scalar>
void NonholonomicModelAdapter<Scalar>::do_mass(const Vector<Scalar>& q, Matrix<Scalar>& M) const {
  M = model_.mass(q);
}

template <class Scalar>
void NonholonomicModelAdapter<Scalar>::do_force(const Scalar&, const Vector<Scalar>& q,
                                                const Vector<Scalar>&, Vector<Scalar>& f) const {
  f = -model_.potential_gradient(q);
}

template <class Scalar>
void NonholonomicModelAdapter<Scalar>::do_external_force(const Scalar&, const Vector<Scalar>&,
                                                         const Vector<Scalar>&,
                                                         Vector<Scalar>& f_ext) const {
  f_ext.setZero(model_.dofs());
}

template <class Scalar>
Scalar NonholonomicModelAdapter<Scalar>::do_potential(const Vector<Scalar>& q) const {
  return model_.potential(q);
}

template <class Scalar>
void NonholonomicModelAdapter<Scalar>::do_gap(const Vector<Scalar>& q, Vector<Scalar>& g) const {
  g = model_.gap(q);
}

template <class Scalar>
void NonholonomicModelAdapter<Scalar>::do_normal_jacobian(const Vector<Scalar>& q,
                                                          Matrix<Scalar>& W_N) const {
  W_N = model_.normal_jacobian(q);
}

template <class Scalar>
void NonholonomicModelAdapter<Scalar>::do_one_forms(const Vector<Scalar>& q,
                                                    Matrix<Scalar>& A) const {
  A = model_.one_forms(q);
}

template <class Scalar>
void NonholonomicModelAdapter<Scalar>::do_distribution(const Vector<Scalar>& q,
                                                       Matrix<Scalar>& X) const {
  X = model_.distribution(q);
}

template <class Scalar>
NonholonomicView<Scalar>::NonholonomicView(const NonlinearModel<Scalar>& model, Scalar t)
    : model_(model), t_(t) {
  if (!model_.constant_mass())
    throw ModelError("M", "the nonholonomic view of '" + model_.name() +
                              "' needs a constant mass matrix (the potential gradient is read "
                              "from the force at v = 0)");
}

template <class Scalar>
std::string NonholonomicView<Scalar>::coordinate_name(Index i) const {
  return fmt::format("q{}", i);
}

template <class Scalar>
std::string NonholonomicView<Scalar>::inequality_name(Index j) const {
  return fmt::format("g_N[{}]", j);
}

template <class Scalar>
Matrix<Scalar> NonholonomicView<Scalar>::do_mass(const Vector<Scalar>& q) const {
  return model_.mass(q);
}

template <class Scalar>
Scalar NonholonomicView<Scalar>::do_potential(const Vector<Scalar>& q) const {
  return model_.potential(q);
}

template <class Scalar>
Vector<Scalar> NonholonomicView<Scalar>::do_potential_gradient(const Vector<Scalar>& q) const {
  // f = f_ext - grad V - c(q, v) and c(q, 0) = 0.
  const Vector<Scalar> rest = Vector<Scalar>::Zero(model_.dofs());
  return model_.external_force(t_, q, rest) - model_.force(t_, q, rest);
}

template <class Scalar>
Matrix<Scalar> NonholonomicView<Scalar>::do_one_forms(const Vector<Scalar>& q) const {
  return model_.one_forms(q);
}

template <class Scalar>
Matrix<Scalar> NonholonomicView<Scalar>::do_distribution(const Vector<Scalar>& q) const {
  return model_.distribution(q);
}

template <class Scalar>
Vector<Scalar> NonholonomicView<Scalar>::do_inequality(const Vector<Scalar>& q) const {
  return -model_.gap(q);
}

template <class Scalar>
Matrix<Scalar> NonholonomicView<Scalar>::do_inequality_gradient(const Vector<Scalar>& q) const {
  return -model_.normal_jacobian(q);
}

template <class Scalar>
const NonholonomicModel<Scalar>& nonholonomic_model_of(
    const NonlinearModel<Scalar>& model, std::unique_ptr<NonholonomicModel<Scalar>>& storage) {
  if (const auto* adapter = dynamic_cast<const NonholonomicModelAdapter<Scalar>*>(&model))
    return adapter->nonholonomic_model();
  storage = std::make_unique<NonholonomicView<Scalar>>(model);
  return *storage;
}

template class NonholonomicModelAdapter<double>;
template class NonholonomicModelAdapter<Real50>;
template class NonholonomicView<double>;
template class NonholonomicView<Real50>;
template const NonholonomicModel<double>& nonholonomic_model_of<double>(
    const NonlinearModel<double>&, std::unique_ptr<NonholonomicModel<double>>&);
template const NonholonomicModel<Real50>& nonholonomic_model_of<Real50>(
    const NonlinearModel<Real50>&, std::unique_ptr<NonholonomicModel<Real50>>&);

}  // namespace nsh
