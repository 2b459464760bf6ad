#include <nsh/scalar.hpp>

#include <nsh/cases/bar.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

#include <fmt/format.h>

#include <cmath>

namespace nsh::cases {

template <class Scalar>
LinearCase<Scalar> make_bar(Index elements, BarMass mass, const BarParameters<Scalar>& p) {
  if (elements < 1)
    throw InputError("N", fmt::format("the bar needs N >= 1 elements, got {}", elements));
  if (!(p.length > Scalar(0)) || !(p.youngs_modulus > Scalar(0)) || !(p.density > Scalar(0)) ||
      !(p.area > Scalar(0)))
    throw InputError("bar", "length, Young's modulus, density and area must be > 0");
  const Index n = elements + 1;
  const Scalar he = p.length / Scalar(elements);
  const Scalar k = p.youngs_modulus * p.area / he;
  const Scalar me = p.density * p.area * he;
  LinearCase<Scalar> c;
  LinearModel<Scalar>& model = c.model;
  model.name = fmt::format("impacting-bar-{}-{}", elements,
                           mass == BarMass::lumped ? "lumped" : "consistent");
  model.M = Matrix<Scalar>::Zero(n, n);
  model.K = Matrix<Scalar>::Zero(n, n);
  for (Index i = 0; i < elements; ++i) {
    model.K(i, i) += k;
    model.K(i + 1, i + 1) += k;
    model.K(i, i + 1) -= k;
    model.K(i + 1, i) -= k;
    if (mass == BarMass::lumped) {
      model.M(i, i) += me / Scalar(2);
      model.M(i + 1, i + 1) += me / Scalar(2);
    } else {
      model.M(i, i) += me / Scalar(3);
      model.M(i + 1, i + 1) += me / Scalar(3);
      model.M(i, i + 1) += me / Scalar(6);
      model.M(i + 1, i) += me / Scalar(6);
    }
  }
  model.C = Matrix<Scalar>::Zero(n, n);
  model.F = Vector<Scalar>::Zero(n);
  model.G = Matrix<Scalar>::Zero(n, 1);
  model.G(0, 0) = Scalar(1);
  model.w = Vector<Scalar>::Constant(1, p.gap);
  model.e = Vector<Scalar>::Constant(1, p.restitution);
  model.validate();
  c.initial.t = Scalar(0);
  c.initial.q = Vector<Scalar>::Zero(n);
  c.initial.v = Vector<Scalar>::Constant(n, -p.speed);
  c.T = p.horizon;
  return c;
}

template <class Scalar>
Scalar bar_wave_speed(const BarParameters<Scalar>& p) {
  using std::sqrt;
  return sqrt(p.youngs_modulus / p.density);
}

template <class Scalar>
Scalar bar_contact_duration(const BarParameters<Scalar>& p) {
  return Scalar(2) * p.length / bar_wave_speed(p);
}

template <class Scalar>
Scalar bar_exit_velocity(const BarParameters<Scalar>& p) {
  return p.speed;
}

template LinearCase<double> make_bar(Index, BarMass, const BarParameters<double>&);
template LinearCase<Real50> make_bar(Index, BarMass, const BarParameters<Real50>&);
template LinearCase<Rational> make_bar(Index, BarMass, const BarParameters<Rational>&);
template double bar_wave_speed(const BarParameters<double>&);
template Real50 bar_wave_speed(const BarParameters<Real50>&);
template double bar_contact_duration(const BarParameters<double>&);
template Real50 bar_contact_duration(const BarParameters<Real50>&);
template double bar_exit_velocity(const BarParameters<double>&);
template Real50 bar_exit_velocity(const BarParameters<Real50>&);
template Rational bar_exit_velocity(const BarParameters<Rational>&);

}  // namespace nsh::cases
