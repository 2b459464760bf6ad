#include <nsh/scalar.hpp>

#include <nsh/cases/bar.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

namespace nsh::cases {

namespace {

template <class Scalar>
using Entries = std::vector<Eigen::Triplet<Scalar>>;

// The assembled entries of M and K (duplicates summed by whoever reads them), after checking N
// and the parameters.
template <class Scalar>
void assemble_bar(Index elements, BarMass mass, const BarParameters<Scalar>& p, Entries<Scalar>& M,
                  Entries<Scalar>& K) {
  if (elements < 1)
    throw InputError("N", fmt::format("the bar needs N >= 1 elements, got {}", elements));
  if (!(p.length > Scalar(0)) || !(p.youngs_modulus > Scalar(0)) || !(p.density > Scalar(0)) ||
      !(p.area > Scalar(0)))
    throw InputError("bar", "length, Young's modulus, density and area must be > 0");
  // Each entry in one rounding from the parameters (E A N / L, rho A L / (c N)), not through a
  // rounded h_e = L / N: with unit parameters the entries are then the correctly rounded N,
  // 1/(2N), 1/(3N), 1/(6N) in every floating-point type, as the exact case files hold them.
  const Scalar N(elements);
  const Scalar k = p.youngs_modulus * p.area * N / p.length;
  const Scalar total_mass = p.density * p.area * p.length;
  const Scalar half = total_mass / (Scalar(2) * N), third = total_mass / (Scalar(3) * N),
               sixth = total_mass / (Scalar(6) * N);
  for (Index i = 0; i < elements; ++i) {
    K.emplace_back(i, i, k);
    K.emplace_back(i + 1, i + 1, k);
    K.emplace_back(i, i + 1, -k);
    K.emplace_back(i + 1, i, -k);
    if (mass == BarMass::lumped) {
      M.emplace_back(i, i, half);
      M.emplace_back(i + 1, i + 1, half);
    } else {
      M.emplace_back(i, i, third);
      M.emplace_back(i + 1, i + 1, third);
      M.emplace_back(i, i + 1, sixth);
      M.emplace_back(i + 1, i, sixth);
    }
  }
}

template <class Scalar>
std::string bar_name(Index elements, BarMass mass) {
  return fmt::format("impacting-bar-{}-{}", elements,
                     mass == BarMass::lumped ? "lumped" : "consistent");
}

// Everything but M, C and K: node 0 against the wall, every node moving at -v0.
template <class Model, class Case, class Scalar>
void finish_bar(Case& c, Index n, const BarParameters<Scalar>& p) {
  Model& model = c.model;
  model.F = Vector<Scalar>::Zero(n);
  model.G = Matrix<Scalar>::Zero(n, 1);
  model.G(0, 0) = Scalar(1);
  model.w = Vector<Scalar>::Constant(1, p.gap);
  model.e = Vector<Scalar>::Constant(1, p.restitution);
  fill_defaults(model);
  model.validate();
  c.initial.t = Scalar(0);
  c.initial.q = Vector<Scalar>::Zero(n);
  c.initial.v = Vector<Scalar>::Constant(n, -p.speed);
  c.T = p.horizon;
}

}  // namespace

template <class Scalar>
LinearCase<Scalar> make_bar(Index elements, BarMass mass, const BarParameters<Scalar>& p) {
  Entries<Scalar> M, K;
  assemble_bar(elements, mass, p, M, K);
  const Index n = elements + 1;
  LinearCase<Scalar> c;
  c.model.name = bar_name<Scalar>(elements, mass);
  c.model.M = Matrix<Scalar>::Zero(n, n);
  c.model.K = Matrix<Scalar>::Zero(n, n);
  for (const auto& t : M) c.model.M(t.row(), t.col()) += t.value();
  for (const auto& t : K) c.model.K(t.row(), t.col()) += t.value();
  finish_bar<LinearModel<Scalar>>(c, n, p);
  return c;
}

template <class Scalar>
SparseLinearCase<Scalar> make_sparse_bar(Index elements, BarMass mass,
                                         const BarParameters<Scalar>& p) {
  Entries<Scalar> M, K;
  assemble_bar(elements, mass, p, M, K);
  const Index n = elements + 1;
  SparseLinearCase<Scalar> c;
  c.model.name = bar_name<Scalar>(elements, mass);
  c.model.M.resize(n, n);
  c.model.K.resize(n, n);
  c.model.M.setFromTriplets(M.begin(), M.end());
  c.model.K.setFromTriplets(K.begin(), K.end());
  finish_bar<SparseLinearModel<Scalar>>(c, n, p);
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
template SparseLinearCase<double> make_sparse_bar(Index, BarMass, const BarParameters<double>&);
template SparseLinearCase<Real50> make_sparse_bar(Index, BarMass, const BarParameters<Real50>&);
template double bar_wave_speed(const BarParameters<double>&);
template Real50 bar_wave_speed(const BarParameters<Real50>&);
template double bar_contact_duration(const BarParameters<double>&);
template Real50 bar_contact_duration(const BarParameters<Real50>&);
template double bar_exit_velocity(const BarParameters<double>&);
template Real50 bar_exit_velocity(const BarParameters<Real50>&);
template Rational bar_exit_velocity(const BarParameters<Rational>&);

}  // namespace nsh::cases
