// Random-model properties of the Newmark family and the Krenk-Hogsberg scheme
// (nsh/schemes/newmark_family.hpp):
//  * the energy ledger identity and the algorithmic-energy identity are EXACT in Rational for
//    every member, law, activation and restitution (Chen family: C = 0, F constant, K SPD for
//    the algorithmic one; Krenk-Hogsberg: with damping);
//  * inside the claimed domain (double), D_k >= 0, W_contact <= 0, E_alg non-increasing.
#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/format.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/newmark_family.hpp>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace nsh {
namespace {

template <class Scalar>
Matrix<Scalar> int_matrix_of(const std::vector<int>& entries, Index rows, Index cols,
                             const Scalar& scale) {
  Matrix<Scalar> A(rows, cols);
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j)
      A(i, j) = Scalar(entries[static_cast<std::size_t>(i * cols + j)]) * scale;
  return A;
}

/// A random model near contact: M, K SPD, C = 0 or PSD, G of full column rank, per-contact e in
/// {0, 1/4, ..., 1}. G's top m x m block is strictly diagonally dominant (off-diagonal entries
/// in [-1/3, 1/3], at most two per column) so that it is nonsingular: with a rank-deficient G
/// (two opposite normals, say) the impulse LCP of a pinched body has no solution, which is a
/// correct StepError and not a property of the scheme.
template <class Scalar>
void generate(bool damped, LinearModel<Scalar>& model, State<Scalar>& state) {
  const Index n = *rc::gen::inRange<int>(1, 4);
  const Index m = *rc::gen::inRange<int>(1, static_cast<int>(n) + 1);
  auto ints = [](Index count, int lo, int hi) {
    return *rc::gen::container<std::vector<int>>(static_cast<std::size_t>(count),
                                                 rc::gen::inRange<int>(lo, hi + 1));
  };
  const Scalar one(1);
  const Matrix<Scalar> A = int_matrix_of<Scalar>(ints(n * n, -2, 2), n, n, one);
  const Matrix<Scalar> B = int_matrix_of<Scalar>(ints(n * n, -2, 2), n, n, one);
  const Matrix<Scalar> D = int_matrix_of<Scalar>(ints(n * n, -1, 1), n, n, one);
  model.M = A * A.transpose() + Matrix<Scalar>::Identity(n, n);
  model.K =
      B * B.transpose() + Scalar(*rc::gen::inRange<int>(1, 30)) * Matrix<Scalar>::Identity(n, n);
  model.C = damped ? Matrix<Scalar>(D * D.transpose() * (Scalar(*rc::gen::inRange<int>(0, 5)) / 4))
                   : Matrix<Scalar>::Zero(n, n);
  model.F = int_matrix_of<Scalar>(ints(n, -10, 10), n, 1, one);
  model.G = Matrix<Scalar>::Zero(n, m);
  const std::vector<int> g = ints(n * m, -2, 2);
  for (Index a = 0; a < m; ++a)
    for (Index i = 0; i < n; ++i)
      model.G(i, a) =
          i == a ? one : Scalar(g[static_cast<std::size_t>(i * m + a)]) / (i < m ? 6 : 2);
  model.e = Vector<Scalar>(m);
  for (Index a = 0; a < m; ++a) model.e(a) = Scalar(*rc::gen::inRange<int>(0, 5)) / 4;
  state.t = Scalar(0);
  state.q = int_matrix_of<Scalar>(ints(n, -5, 5), n, 1, one / 10);
  state.v = int_matrix_of<Scalar>(ints(n, -10, 10), n, 1, one / 5);
  const Matrix<Scalar> gaps = int_matrix_of<Scalar>(ints(m, -1, 3), m, 1, one / 20);
  model.w = gaps - model.G.transpose() * state.q;
  fill_defaults(model);
  model.validate();
}

const std::vector<std::string>& chen_members() {
  static const std::vector<std::string> specs{
      "newmark:beta=1/4,gamma=1/2",
      "newmark:beta=0.3025,gamma=0.6",
      "newmark:beta=0.3,gamma=0.45",
      "hht:alpha=-0.1",
      "hht:alpha=-1/3",
      "gen-alpha:rho=0",
      "gen-alpha:rho=0.5",
      "gen-alpha:rho=1",
      "gen-alpha:alpha_m=0,alpha_f=0.6",
      "gen-alpha:alpha_m=0.1,alpha_f=0.3,beta=0.3,gamma=0.6"};
  return specs;
}

const std::vector<std::string>& chen_decaying() {
  static const std::vector<std::string> specs{"newmark:beta=1/4,gamma=1/2",
                                              "newmark:beta=0.3025,gamma=0.6",
                                              "newmark:beta=0.5,gamma=0.9",
                                              "hht:alpha=-0.1",
                                              "hht:alpha=-1/3",
                                              "gen-alpha:rho=0",
                                              "gen-alpha:rho=0.5",
                                              "gen-alpha:rho=0.8",
                                              "gen-alpha:alpha_m=0.25,alpha_f=0.5"};
  return specs;
}

const std::vector<std::string>& kh_members() {
  static const std::vector<std::string> specs{"krenk-hogsberg:rho=0.5", "krenk-hogsberg:rho=0",
                                              "krenk-hogsberg:rho=0.9",
                                              "krenk-hogsberg:alpha_m=0.1,alpha_f=0.4"};
  return specs;
}

std::string options() {
  static const char* laws[] = {"smooth", "previous"};
  static const char* activations[] = {"position", "position-velocity"};
  static const char* methods[] = {"lemke", "enumeration"};
  return std::string(",impact=") + laws[*rc::gen::inRange<int>(0, 2)] +
         ",activation=" + activations[*rc::gen::inRange<int>(0, 2)] +
         ",lcp=" + methods[*rc::gen::inRange<int>(0, 2)];
}

void check_exact(const std::string& spec, bool algorithmic, const LinearModel<Rational>& model,
                 State<Rational> state) {
  auto scheme = Registry::builtin().make<Rational>(spec);
  const Rational h = Rational(*rc::gen::inRange<int>(1, 4)) / 20;
  scheme->initialize(model, state, h);
  StepSummary<Rational> s;
  for (int k = 0; k < 5; ++k) {
    scheme->step(state, s);
    RC_ASSERT(s.energy_identity_defect() == Rational(0));
    RC_ASSERT(s.has_algorithmic_energy == algorithmic);
    if (algorithmic)
      RC_ASSERT(s.E_alg_after - s.E_alg_before + s.algorithmic_dissipation - s.W_contact ==
                Rational(0));
  }
}

RC_GTEST_PROP(NewmarkFamilyProperty, IdentitiesExactInRationalChen, ()) {
  LinearModel<Rational> model;
  State<Rational> state;
  generate<Rational>(false, model, state);
  const std::string spec =
      chen_members()[*rc::gen::inRange<std::size_t>(0, chen_members().size())] + options();
  RC_TAG(spec.substr(0, spec.find(',')));
  check_exact(spec, true, model, state);
}

RC_GTEST_PROP(NewmarkFamilyProperty, IdentitiesExactInRationalKrenkHogsbergDamped, ()) {
  LinearModel<Rational> model;
  State<Rational> state;
  generate<Rational>(true, model, state);
  const std::string spec =
      kh_members()[*rc::gen::inRange<std::size_t>(0, kh_members().size())] + options();
  check_exact(spec, true, model, state);
}

void check_decay(const std::string& spec, const LinearModel<double>& model, State<double> state) {
  auto scheme = Registry::builtin().make<double>(spec);
  static const double steps[] = {0.005, 0.05, 0.3, 1.0};
  const double h = steps[*rc::gen::inRange<int>(0, 4)];
  const double scale =
      1 + model.energy(state.q, state.v) + std::abs(model.F.dot(state.q)) + model.F.squaredNorm();
  const double tol = 1e-10 * scale;
  scheme->initialize(model, state, h);
  StepSummary<double> s;
  bool impact = false;
  for (int k = 0; k < 80; ++k) {
    scheme->step(state, s);
    for (Index a : s.index_set) impact = impact || s.impulse(a) > 0;
    RC_ASSERT(s.has_algorithmic_energy);
    RC_ASSERT(s.algorithmic_dissipation >= -tol);
    RC_ASSERT(s.W_contact <= tol);
    RC_ASSERT(s.E_alg_after - s.E_alg_before <= tol);
    RC_ASSERT(std::abs(s.energy_identity_defect()) <= tol);
  }
  RC_CLASSIFY(impact, "with impacts");
}

RC_GTEST_PROP(NewmarkFamilyProperty, AlgorithmicEnergyDecaysInsideTheDomain, ()) {
  LinearModel<double> model;
  State<double> state;
  generate<double>(false, model, state);
  // impact=smooth with position-velocity: any e per contact.
  const std::string spec =
      chen_decaying()[*rc::gen::inRange<std::size_t>(0, chen_decaying().size())] +
      ",impact=smooth,activation=position-velocity";
  check_decay(spec, model, state);
}

RC_GTEST_PROP(NewmarkFamilyProperty, KrenkHogsbergDecaysWithDamping, ()) {
  LinearModel<double> model;
  State<double> state;
  generate<double>(true, model, state);
  const bool zero_e = *rc::gen::arbitrary<bool>();
  if (zero_e) model.e.setZero();
  const std::string spec = kh_members()[*rc::gen::inRange<std::size_t>(0, kh_members().size())] +
                           (zero_e ? ",impact=previous" : ",impact=smooth");
  check_decay(spec, model, state);
}

}  // namespace
}  // namespace nsh
