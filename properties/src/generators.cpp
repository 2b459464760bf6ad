// Generators of valid linear models near contact, and the designed searches
// (nsh/properties/generators.hpp).
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/properties/generators.hpp>

#include <fmt/format.h>

#include <ostream>

namespace nsh::properties {
namespace {

Rational frac(long p, long q) {
  return Rational(p) / Rational(q);
}

Rational restitution_in(const CaseDomain& d, int choice, int numerator) {
  if (d.e_lo == d.e_hi) return d.e_lo;
  switch (choice) {
    case 0:
      return d.e_lo;
    case 1:
      return d.e_hi;
    case 2:
      return (d.e_lo + d.e_hi) / 2;
    default:
      return d.e_lo + (d.e_hi - d.e_lo) * frac(numerator, 16);
  }
}

}  // namespace

std::string case_file_text(const GeneratedCase& c) {
  return write_linear_case<Rational>(c.model.name, c.model, c.initial, c.horizon(), c.h);
}

void showValue(const GeneratedCase& c, std::ostream& os) {
  os << c.origin << ", " << c.steps << " step(s) of h = " << format_scalar(c.h);
  if (c.spec_override) os << ", scheme " << *c.spec_override;
  os << "\n" << case_file_text(c);
}

GeneratedCase build_case(const CaseRecipe& r, const CaseDomain& domain) {
  const int d = domain.friction ? r.tangent_dimension % 3 : 0;
  const int m = d == 0 ? r.contacts : std::max(1, std::min(r.contacts, r.dofs / (1 + d)));
  const int n = std::max(r.dofs, m * (1 + d));
  auto at = [](const std::vector<int>& v, std::size_t i) { return i < v.size() ? v[i] : 0; };
  GeneratedCase c;
  c.origin = "random";
  LinearModel<Rational>& model = c.model;
  model.name = "generated";
  Matrix<Rational> B(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = Rational(at(r.mass_factor, std::size_t(i * n + j)));
  model.M = B.transpose() * B + Rational(1 + r.mass_shift) * Matrix<Rational>::Identity(n, n);

  static const int stiffness_scales[] = {1, 4, 16, 100};
  const int rank = domain.stiffness_spd ? n : std::min(r.stiffness_rank, n);
  Matrix<Rational> A = Matrix<Rational>::Zero(n, n);
  for (int i = 0; i < rank; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = Rational(at(r.stiffness_factor, std::size_t(i * n + j)));
  model.K = Rational(stiffness_scales[r.stiffness_scale % 4]) * (A.transpose() * A);
  if (domain.stiffness_spd) model.K += Matrix<Rational>::Identity(n, n);

  Matrix<Rational> D = Matrix<Rational>::Zero(n, n);
  if (domain.damping)
    for (int i = 0; i < std::min(r.damping_rank, n); ++i)
      for (int j = 0; j < n; ++j) D(i, j) = Rational(at(r.damping_factor, std::size_t(i * n + j)));
  model.C = D.transpose() * D / Rational(8);

  model.G = Matrix<Rational>::Zero(n, m);
  for (int a = 0; a < m; ++a) model.G(a, a) = Rational(1);
  for (int i = m; i < n; ++i)
    for (int a = 0; a < m; ++a)
      model.G(i, a) = Rational(at(r.coupling, std::size_t((i - m) * m + a)));

  model.F = Vector<Rational>(n);
  for (int i = 0; i < n; ++i) model.F(i) = Rational(at(r.force, std::size_t(i)));
  Vector<Rational> load(m);
  for (int a = 0; a < m; ++a) load(a) = Rational(at(r.load, std::size_t(a)));
  model.F -= model.G * load;

  model.e = Vector<Rational>(m);
  for (int a = 0; a < m; ++a)
    model.e(a) =
        restitution_in(domain, domain.uniform_e ? r.restitution_choice : r.restitution_choice + a,
                       at(r.restitution_numerator, domain.uniform_e ? 0 : std::size_t(a)));

  // Gaps and local velocities per contact; the free coordinates (rows >= m) are arbitrary.
  Vector<Rational> gap(m), U(m);
  for (int a = 0; a < m; ++a) {
    const int detail = at(r.state_detail, std::size_t(a));
    switch (at(r.state_kind, std::size_t(a)) % 6) {
      case 0:
        gap(a) = 0;
        U(a) = 0;
        break;  // resting
      case 1:
        gap(a) = 0;
        U(a) = -frac(1, 64 >> std::min(detail, 3));
        break;  // grazing
      case 2:   // penetrating, approaching (just open and approaching when admissible)
        gap(a) = frac(1, 1024 >> (2 * std::min(detail, 2)));
        if (!domain.admissible_initial_state) gap(a) = -gap(a);
        U(a) = -frac(detail, 64);
        break;
      case 3:  // penetrating, separating (just open and separating when admissible)
        gap(a) = domain.admissible_initial_state ? frac(detail, 1024) : -frac(detail, 1024);
        U(a) = frac(1 + detail % 2, 64);
        break;
      case 4:
        gap(a) = frac(1 + detail, 16);
        U(a) = -Rational(1 + detail);
        break;  // approaching
      default:
        gap(a) = Rational(1 + detail);
        U(a) = Rational(detail - 1);
        break;  // far
    }
  }
  c.initial.t = 0;
  c.initial.q = Vector<Rational>::Zero(n);
  c.initial.v = Vector<Rational>::Zero(n);
  for (int i = m; i < n; ++i) {
    c.initial.q(i) = Rational(at(r.q_free, std::size_t(i - m)));
    c.initial.v(i) = Rational(at(r.v_free, std::size_t(i - m)));
  }
  // G = [I; N]: G^T x = x_top + N^T x_bottom, so the top block sets U exactly.
  const Vector<Rational> Uq = model.G.transpose() * c.initial.q;
  const Vector<Rational> Uv = model.G.transpose() * c.initial.v;
  for (int a = 0; a < m; ++a) c.initial.v(a) = U(a) - (Uv(a) - c.initial.v(a));
  model.w = gap - Uq;
  model.F_amplitude = Vector<Rational>::Zero(n);
  model.omega = 0;

  model.G_T = Matrix<Rational>::Zero(n, m * d);
  model.mu = Vector<Rational>::Zero(d == 0 ? 0 : m);
  for (int a = 0; a < m && d > 0; ++a) {
    for (int j = 0; j < d; ++j) model.G_T(m + a * d + j, a * d + j) = Rational(1);
    model.mu(a) = frac(at(r.friction_numerator, std::size_t(a)), 4);
    if (model.e(a) > domain.friction_e_hi) model.e(a) = domain.friction_e_hi;
  }
  if (d > 0 && domain.friction_pure_impulse) {
    model.F.setZero();
    model.K.setZero();
    model.C.setZero();
  }

  static const Rational steps_h[] = {frac(1, 64), frac(1, 16), frac(1, 128), frac(1, 8),
                                     frac(1, 1024)};
  c.h = steps_h[r.step_choice % 5];
  c.steps = std::max(1, std::min(r.steps, domain.max_steps));
  return c;
}

rc::Gen<CaseRecipe> gen_recipe(const CaseDomain& domain) {
  return rc::gen::exec([domain] {
    CaseRecipe r;
    r.dofs = *rc::gen::inRange(1, domain.max_dofs + 1);
    r.contacts = *rc::gen::inRange(1, std::min(domain.max_contacts, r.dofs) + 1);
    const std::size_t n = std::size_t(r.dofs), m = std::size_t(r.contacts);
    auto ints = [](std::size_t count, int lo, int hi) {
      return *rc::gen::container<std::vector<int>>(count, rc::gen::inRange(lo, hi + 1));
    };
    r.mass_shift = *rc::gen::inRange(0, 4);
    r.mass_factor = ints(n * n, -2, 2);
    r.stiffness_rank = *rc::gen::inRange(0, r.dofs + 1);
    r.stiffness_scale = *rc::gen::inRange(0, 4);
    r.stiffness_factor = ints(n * n, -2, 2);
    r.damping_rank = domain.damping ? *rc::gen::inRange(0, r.dofs + 1) : 0;
    r.damping_factor = ints(n * n, -2, 2);
    r.coupling = ints((n - m) * m, -2, 2);
    r.force = ints(n, -8, 8);
    r.load = ints(m, 0, 8);
    r.state_kind = ints(m, 0, 5);
    r.state_detail = ints(m, 0, 3);
    r.q_free = ints(n - m, -2, 2);
    r.v_free = ints(n - m, -2, 2);
    r.restitution_choice = *rc::gen::inRange(0, 5);
    r.restitution_numerator = ints(m, 0, 16);
    r.step_choice = *rc::gen::inRange(0, 5);
    r.steps = *rc::gen::inRange(1, domain.max_steps + 1);
    // Drawn last and only with friction, so that a frictionless domain draws what it drew before.
    if (domain.friction) {
      r.tangent_dimension = *rc::gen::inRange(0, 3);
      r.friction_numerator = ints(m, 0, 8);
    }
    return r;
  });
}

rc::Gen<GeneratedCase> gen_case(const CaseDomain& domain) {
  return rc::gen::map(gen_recipe(domain),
                      [domain](const CaseRecipe& r) { return build_case(r, domain); });
}

std::vector<Rational> restitution_samples(const Rational& lo, const Rational& hi) {
  std::vector<Rational> out{lo};
  for (const Rational& e : {frac(1, 5), frac(1, 2), Rational(1), hi})
    if (e >= lo && e <= hi && std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
  return out;
}

namespace {

GeneratedCase one_dof(const std::string& origin, const Rational& mass, const Rational& stiffness,
                      const Rational& force, const Rational& e, const Rational& q0,
                      const Rational& v0, const Rational& h, int steps, const Rational& w = 0) {
  GeneratedCase c;
  c.origin = origin;
  c.model.name = "designed";
  c.model.M = Matrix<Rational>::Constant(1, 1, mass);
  c.model.K = Matrix<Rational>::Constant(1, 1, stiffness);
  c.model.C = Matrix<Rational>::Zero(1, 1);
  c.model.F = Vector<Rational>::Constant(1, force);
  c.model.F_amplitude = Vector<Rational>::Zero(1);
  c.model.G = Matrix<Rational>::Constant(1, 1, Rational(1));
  c.model.w = Vector<Rational>::Constant(1, w);
  c.model.e = Vector<Rational>::Constant(1, e);
  c.initial.t = 0;
  c.initial.q = Vector<Rational>::Constant(1, q0);
  c.initial.v = Vector<Rational>::Constant(1, v0);
  c.h = h;
  c.steps = steps;
  return c;
}

}  // namespace

std::vector<GeneratedCase> designed_cases(const CaseDomain& domain) {
  std::vector<GeneratedCase> out;
  const Rational gravity = frac(981, 100);
  for (const Rational& e : restitution_samples(domain.e_lo, domain.e_hi)) {
    const std::string es = format_scalar(e);
    // docs/theory.md §2.4: resting contact under gravity, approaching at a small speed delta.
    for (long k = 1; k <= 6 && !domain.stiffness_spd; ++k) {
      Rational delta(1);
      for (long i = 0; i < k; ++i) delta /= 10;
      for (const Rational& h : {frac(1, 100), frac(1, 10)}) {
        if (domain.max_designed_impacts > 0 && e == 1 &&
            h * gravity / (2 * delta) > domain.max_designed_impacts)
          continue;
        out.push_back(one_dof(fmt::format("designed: resting contact under gravity, e = {}, "
                                          "delta = {}, h = {} (docs/theory.md §2.4)",
                                          es, format_scalar(delta), format_scalar(h)),
                              1, 0, -gravity, e, 0, -delta, h, 1));
      }
    }
    // docs/theory.md §2.4: slightly penetrated contact separating slowly under gravity.
    if (!domain.stiffness_spd && !domain.admissible_initial_state)
      out.push_back(
          one_dof(fmt::format("designed: penetrated contact separating slowly, e = {} "
                              "(docs/theory.md §2.4: g_k = -1/1000, U_k = 1/50, h = 1/100)",
                              es),
                  1, 0, -gravity, e, -frac(1, 1000), frac(1, 50), frac(1, 100), 1));
    // docs/theory.md §3.4: a spring pushing away from the wall slows the approach during the step.
    out.push_back(one_dof(fmt::format("designed: spring pushing away from the wall, e = {} "
                                      "(docs/theory.md §3.4: K = 50, F = 50, q = 1/1000, v = -1)",
                                      es),
                          1, 50, 50, e, frac(1, 1000), -1, frac(1, 100), 1));
  }
  // A free oscillator far from its stop: energy growth of theta < 1/2 without contact.
  out.push_back(one_dof("designed: free oscillator far from the stop", 1, 4, 0, domain.e_lo, 1, 0,
                        frac(1, 10), 10, 100));
  for (GeneratedCase& c : designed_friction_cases(domain)) out.push_back(std::move(c));
  return out;
}

namespace {

/// q = (x_N, x_T): one contact with G_N = e_1, G_T = e_2 and the given mass, force, e, mu.
GeneratedCase planar_contact(const std::string& origin, const Matrix<Rational>& M,
                             const Vector<Rational>& F, const Rational& e, const Rational& mu,
                             const Vector<Rational>& v0, const Rational& h, int steps) {
  GeneratedCase c;
  c.origin = origin;
  c.model.name = "designed";
  c.model.M = M;
  c.model.K = Matrix<Rational>::Zero(2, 2);
  c.model.C = Matrix<Rational>::Zero(2, 2);
  c.model.F = F;
  c.model.F_amplitude = Vector<Rational>::Zero(2);
  c.model.G = Matrix<Rational>::Zero(2, 1);
  c.model.G(0, 0) = 1;
  c.model.G_T = Matrix<Rational>::Zero(2, 1);
  c.model.G_T(1, 0) = 1;
  c.model.w = Vector<Rational>::Zero(1);
  c.model.e = Vector<Rational>::Constant(1, e);
  c.model.mu = Vector<Rational>::Constant(1, mu);
  c.initial.t = 0;
  c.initial.q = Vector<Rational>::Zero(2);
  c.initial.v = v0;
  c.h = h;
  c.steps = steps;
  return c;
}

Vector<Rational> pair(const Rational& a, const Rational& b) {
  Vector<Rational> x(2);
  x << a, b;
  return x;
}

}  // namespace

std::vector<GeneratedCase> designed_friction_cases(const CaseDomain& domain) {
  std::vector<GeneratedCase> out;
  if (!domain.friction) return out;
  const Matrix<Rational> unit = Matrix<Rational>::Identity(2, 2);
  const Rational e_hi = std::min(domain.e_hi, domain.friction_e_hi);
  if (domain.e_lo > e_hi) return out;
  for (const Rational& e : restitution_samples(domain.e_lo, e_hi)) {
    const std::string es = format_scalar(e);
    if (e == 1) {
      // Kane–Levinson (docs/theory.md §9.2): the impact sticks with P = (4, 2) and Delta K = +1.
      Matrix<Rational> M(2, 2);
      M << 3, 2, 2, 2;
      out.push_back(planar_contact(
          "designed: Kane–Levinson impact, M = [[3, 2], [2, 2]], U- = (-1, 1), mu = 1/2, e = 1 "
          "(docs/theory.md §9.2: Delta K = +1)",
          M, pair(0, 0), e, frac(1, 2), pair(-1, 1), frac(1, 100), 1));
    }
    if (!domain.friction_pure_impulse) {
      // docs/theory.md §9.2: the sliding block (m = 1, g = 10, mu = 1/2, v0 = 1, h = 1/10).
      out.push_back(planar_contact(
          fmt::format("designed: sliding block, e = {}, mu = 1/2, v0 = 1 (docs/theory.md §9.2)",
                      es),
          unit, pair(-10, 0), e, frac(1, 2), pair(0, 1), frac(1, 10), 4));
      // A slip of 1/10000 stopped by stick within the step while a tangential force -1 pushes
      // back: Delta E - W_ext = u0 ((1 - theta) h f - u0 / 2) > 0 for every theta < 1
      // (docs/theory.md §9.1), the tangential work (1 - theta) U_T,k P_T > 0.
      out.push_back(planar_contact(
          fmt::format("designed: slip stopped by stick under a reversing force, e = {}, mu = 1, "
                      "u0 = 1/10000, h = 1/100 (docs/theory.md §9.1)",
                      es),
          unit, pair(-10, -1), e, Rational(1), pair(0, frac(1, 10000)), frac(1, 100), 1));
    }
  }
  return out;
}

}  // namespace nsh::properties
