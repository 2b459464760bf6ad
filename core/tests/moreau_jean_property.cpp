// docs/theory.md §2.3: the Moreau–Jean one-step identity
//   E_{k+1} - E_k = W_ext + W_damp + W_contact - (theta - 1/2)(||[v]||_M^2 + ||[q]||_K^2)
// holds EXACTLY in rational arithmetic, for any theta in [0, 1], any e, C, K, F and either
// index rule, on random small systems near contact.
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/moreau_jean.hpp>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace nsh {
namespace {

Rational fraction(int numerator, int denominator) {
  return Rational(numerator) / denominator;
}

Matrix<Rational> int_matrix(const std::vector<int>& entries, Index rows, Index cols) {
  Matrix<Rational> A(rows, cols);
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j) A(i, j) = entries[static_cast<std::size_t>(i * cols + j)];
  return A;
}

/// det(A) by exact elimination (A small and square).
Rational determinant(Matrix<Rational> A) {
  const Index n = A.rows();
  Rational det(1);
  for (Index k = 0; k < n; ++k) {
    Index p = k;
    while (p < n && A(p, k) == 0) ++p;
    if (p == n) return Rational(0);
    if (p != k) {
      A.row(p).swap(A.row(k));
      det = -det;
    }
    det *= A(k, k);
    for (Index i = k + 1; i < n; ++i) A.row(i) -= (A(i, k) / A(k, k)) * A.row(k);
  }
  return det;
}

RC_GTEST_PROP(MoreauJeanProperty, EnergyIdentityIsExactInRational, ()) {
  const Index n = *rc::gen::inRange<int>(1, 4);
  const Index m = *rc::gen::inRange<int>(1, static_cast<int>(n) + 1);  // m <= n: full rank G
  auto ints = [](std::size_t count, int lo, int hi) {
    return *rc::gen::container<std::vector<int>>(count, rc::gen::inRange<int>(lo, hi + 1));
  };
  const std::size_t nn = static_cast<std::size_t>(n * n), nm = static_cast<std::size_t>(n * m);

  LinearModel<Rational> model;
  const Matrix<Rational> A = int_matrix(ints(nn, -2, 2), n, n);
  const Matrix<Rational> B = int_matrix(ints(nn, -2, 2), n, n);
  const Matrix<Rational> D = int_matrix(ints(nn, -1, 1), n, n);
  model.M = A * A.transpose() + Matrix<Rational>::Identity(n, n);
  model.K = B * B.transpose() * fraction(*rc::gen::inRange<int>(0, 20), 1);
  model.C = D * D.transpose() * fraction(*rc::gen::inRange<int>(0, 4), 4);
  model.F = int_matrix(ints(static_cast<std::size_t>(n), -10, 10), n, 1);
  model.G = int_matrix(ints(nm, -2, 2), n, m);
  RC_PRE(determinant(model.G.transpose() * model.G) != Rational(0));
  model.e = Vector<Rational>(m);
  for (Index a = 0; a < m; ++a) model.e(a) = fraction(*rc::gen::inRange<int>(0, 5), 4);

  // A state near contact: target gaps in [-1/10, 1/10], velocities of either sign.
  State<Rational> state;
  state.q = int_matrix(ints(static_cast<std::size_t>(n), -5, 5), n, 1) * fraction(1, 10);
  state.v = int_matrix(ints(static_cast<std::size_t>(n), -10, 10), n, 1) * fraction(1, 5);
  // Bias towards impacts: the first contact approaches (U^0 <= 0), most gaps are closed.
  if ((model.G.col(0).transpose() * state.v)(0) > 0) state.v = -state.v;
  const Matrix<Rational> gaps = int_matrix(ints(static_cast<std::size_t>(m), -3, 1), m, 1);
  model.w = gaps * fraction(1, 20) - model.G.transpose() * state.q;
  fill_defaults(model);
  model.validate();

  static const char* thetas[] = {"0", "1/4", "1/3", "1/2", "1/2", "3/5", "2/3", "1"};
  const std::string theta = thetas[*rc::gen::inRange<int>(0, 8)];
  const std::string activation = *rc::gen::element<std::string>("position", "position-velocity");
  const std::string lcp = *rc::gen::element<std::string>("lemke", "enumeration");
  const std::string spec =
      "moreau-jean:theta=" + theta + ",activation=" + activation + ",lcp=" + lcp;
  const Rational h = fraction(1, *rc::gen::element<int>(10, 20, 50));
  RC_TAG(activation);

  MoreauJean<Rational> scheme(Registry::builtin().resolve(spec));
  scheme.initialize(model, state, h);
  StepSummary<Rational> s;
  bool any_impulse = false;
  for (int k = 0; k < 3; ++k) {
    const Rational E = model.energy(state.q, state.v);
    scheme.step(state, s);
    RC_ASSERT(s.E_before == E);
    RC_ASSERT(s.E_after == model.energy(state.q, state.v));
    // Recompute the ledger independently of the scheme's own fields where it is cheap.
    RC_ASSERT(s.gap_after == model.gap(state.q));
    RC_ASSERT(s.velocity_after == model.local_velocity(state.v));
    RC_ASSERT(s.energy_identity_defect() == Rational(0));
    RC_ASSERT(s.lcp.ok());
    RC_ASSERT(s.lcp.certificate.natural_map == Rational(0));
    // Second line of docs/theory.md §2.3: W_contact = sum (1 - theta (1 + e)) U_k P (Newton law).
    Rational contact(0);
    for (Index a = 0; a < m; ++a)
      contact += (Rational(1) - scheme.theta() * (Rational(1) + model.e(a))) *
                 s.velocity_newton(a) * s.impulse(a);
    RC_ASSERT(s.W_contact == contact);
    for (Index a = 0; a < m; ++a) {
      bool in_set = false;
      for (Index b : s.index_set) in_set = in_set || a == b;
      RC_ASSERT(s.impulse(a) >= Rational(0));
      if (!in_set) RC_ASSERT(s.impulse(a) == Rational(0));
      // Newton's law on the active contacts: U_{k+1} + e U_k >= 0, complementary to P.
      if (in_set) {
        const Rational shifted = s.velocity_after(a) + model.e(a) * s.velocity_newton(a);
        RC_ASSERT(shifted >= Rational(0));
        RC_ASSERT(shifted * s.impulse(a) == Rational(0));
      }
      any_impulse = any_impulse || s.impulse(a) > Rational(0);
    }
  }
  RC_CLASSIFY(any_impulse, "impact");
}

}  // namespace
}  // namespace nsh
