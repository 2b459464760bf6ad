#include <nsh/scalar.hpp>

#include <nsh/cases/coulomb_oscillator.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>

#include <fmt/format.h>
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <cmath>

namespace nsh::cases {
namespace {

// A slide ends after at most R0 / (2 Phi / k) + 1 half cycles; beyond this many the data is
// refused rather than tabulated.
constexpr int max_phases = 10000;

}  // namespace

template <class Scalar>
CoulombOscillator<Scalar> CoulombOscillator<Scalar>::from_case(const LinearModel<Scalar>& model,
                                                               const State<Scalar>& initial) {
  using std::atan2;
  using std::sqrt;
  const Index n = model.dofs(), m = model.contacts();
  if (m < 1) throw InputError("G", "the Coulomb oscillator needs at least one contact, got none");
  if (model.tangent_directions() != 1)
    throw InputError("G_T", fmt::format("the Coulomb oscillator needs d = 1 tangent direction "
                                        "per contact, got {}",
                                        model.tangent_directions()));
  if (max_abs(model.C) != Scalar(0)) throw InputError("C", "must be zero (no damping)");
  if (model.has_harmonic_force()) throw InputError("F_amplitude", "must be zero (constant forces)");
  // The sliding coordinate: the one diagonal entry of K, which must be its only entry.
  Index j = -1;
  for (Index i = 0; i < n; ++i)
    if (model.K(i, i) != Scalar(0)) {
      if (j >= 0)
        throw InputError("K", fmt::format("must act on one coordinate only (k e_j e_j^T), but "
                                          "K[{}][{}] and K[{}][{}] are both nonzero",
                                          j, j, i, i));
      j = i;
    }
  if (j < 0) throw InputError("K", "must have one positive diagonal entry (the spring), got K = 0");
  if (!(model.K(j, j) > Scalar(0)))
    throw InputError(
        "K", fmt::format("K[{}][{}] = {} must be positive", j, j, format_scalar(model.K(j, j))));
  for (Index a = 0; a < n; ++a)
    for (Index b = 0; b < n; ++b)
      if ((a != j || b != j) && model.K(a, b) != Scalar(0))
        throw InputError("K", fmt::format("K[{}][{}] = {} must be zero (the spring acts on "
                                          "coordinate {} only)",
                                          a, b, format_scalar(model.K(a, b)), j));
  for (Index i = 0; i < n; ++i)
    if (i != j && (model.M(i, j) != Scalar(0) || model.M(j, i) != Scalar(0)))
      throw InputError("M", fmt::format("M[{}][{}] = {} must be zero (the sliding coordinate {} "
                                        "must be decoupled in the mass matrix)",
                                        i, j, format_scalar(model.M(i, j)), j));
  for (Index a = 0; a < m; ++a) {
    if (model.G(j, a) != Scalar(0))
      throw InputError("G", fmt::format("G[{}][{}] = {} must be zero (the normals must not "
                                        "involve the sliding coordinate {})",
                                        j, a, format_scalar(model.G(j, a)), j));
    for (Index i = 0; i < n; ++i)
      if ((i == j) != (model.G_T(i, a) != Scalar(0)))
        throw InputError("G_T", fmt::format("G_T[{}][{}] = {}: every contact must slide along "
                                            "coordinate {} only (G_T column = c e_{}, c != 0)",
                                            i, a, format_scalar(model.G_T(i, a)), j, j));
  }
  const Scalar scale =
      max_abs(model.G) * (max_abs(initial.q) + max_abs(initial.v)) + max_abs(model.w) + Scalar(1);
  const Vector<Scalar> gap = model.gap(initial.q);
  const Vector<Scalar> U_N = model.local_velocity(initial.v);
  for (Index a = 0; a < m; ++a)
    if (abs_value<Scalar>(gap(a)) > tolerance<Scalar>(scale) ||
        abs_value<Scalar>(U_N(a)) > tolerance<Scalar>(scale))
      throw InputError("G", fmt::format("contact {} is not closed at t0 (gap {}, normal velocity "
                                        "{})",
                                        a, format_scalar(gap(a)), format_scalar(U_N(a))));

  CoulombOscillator out;
  out.initial_ = initial;
  out.coordinate_ = j;
  out.mass_ = model.M(j, j);
  out.stiffness_ = model.K(j, j);
  out.omega_ = sqrt(out.stiffness_ / out.mass_);
  out.force_ = model.F(j);
  // The normal problem: G(j, :) = 0 and M decoupled on j, so neither the spring nor friction
  // (along e_j) enters G^T M^-1 (...): lambda_N solves W_NN lambda_N = -G^T M^-1 F.
  Eigen::LDLT<Matrix<Scalar>> ldlt(model.M);
  const Matrix<Scalar> Minv_G = ldlt.solve(model.G);
  const Vector<Scalar> Minv_F = ldlt.solve(model.F);
  const Matrix<Scalar> W = model.G.transpose() * Minv_G;
  Eigen::FullPivLU<Matrix<Scalar>> lu(W);
  if (lu.rank() < m)
    throw InputError("G", fmt::format("the normals are dependent (G^T M^-1 G has rank {} < {}): "
                                      "the normal forces are not determined",
                                      lu.rank(), m));
  out.normal_forces_ = lu.solve(-(model.G.transpose() * Minv_F));
  out.friction_force_ = Scalar(0);
  for (Index a = 0; a < m; ++a) {
    if (!(out.normal_forces_(a) > Scalar(0)))
      throw InputError("F", fmt::format("contact {} is not pressed (normal force {} <= 0): it "
                                        "would open, and the closed form assumes it stays closed",
                                        a, format_scalar(out.normal_forces_(a))));
    out.friction_force_ += abs_value<Scalar>(model.G_T(j, a)) * model.mu(a) * out.normal_forces_(a);
  }
  if (!(out.friction_force_ > Scalar(0)))
    throw InputError("mu",
                     "the supports have no friction (Phi = sum |c_a| mu_a lambda_N = 0): "
                     "a free oscillator never stops, use the oscillator's closed form");
  out.other_acceleration_ = Minv_F + Minv_G * out.normal_forces_;
  out.other_acceleration_(j) = Scalar(0);

  const Scalar k = out.stiffness_, w = out.omega_, Phi = out.friction_force_;
  const Scalar velocity_tol = tolerance<Scalar>(max_abs(initial.v) + Scalar(1));
  Scalar t = initial.t, x = initial.q(j), v = initial.v(j);
  if (abs_value<Scalar>(v) <= velocity_tol) v = Scalar(0);
  for (int count = 0; count < max_phases; ++count) {
    Phase phase;
    phase.start = t;
    phase.position = x;
    phase.velocity = v;
    Scalar s(0);
    if (v != Scalar(0)) {
      s = v > Scalar(0) ? Scalar(1) : Scalar(-1);
    } else {
      const Scalar net = out.force_ - k * x;  // spring and load on a body at rest
      if (abs_value<Scalar>(net) <= Phi) {
        phase.mode = Mode::stick;
        phase.centre = x;
        out.phases_.push_back(phase);
        return out;
      }
      s = net > Scalar(0) ? Scalar(1) : Scalar(-1);
    }
    phase.mode = s > Scalar(0) ? Mode::slide_positive : Mode::slide_negative;
    phase.centre = (out.force_ - s * Phi) / k;
    const Scalar a = x - phase.centre, b = v / w;
    const Scalar R = sqrt(a * a + b * b);
    // From rest s a < 0 (the net force points along s): half a period exactly.
    const Scalar theta =
        v == Scalar(0) ? boost::math::constants::pi<Scalar>() : Scalar(atan2(s * b, s * a));
    phase.end = t + theta / w;
    out.phases_.push_back(phase);
    t = *phase.end;
    x = phase.centre + s * R;
    v = Scalar(0);
    // At the stop F_x - k x = s (Phi - k R): stick iff k R <= 2 Phi.
    if (k * R <= Scalar(2) * Phi) {
      Phase stick;
      stick.start = t;
      stick.mode = Mode::stick;
      stick.position = x;
      stick.centre = x;
      out.phases_.push_back(stick);
      return out;
    }
  }
  throw InputError("q0", fmt::format("the Coulomb oscillator slides more than {} times before it "
                                     "sticks (amplitude / (2 Phi / k) too large)",
                                     max_phases));
}

template <class Scalar>
State<Scalar> CoulombOscillator<Scalar>::state(const Scalar& t) const {
  using std::cos;
  using std::sin;
  if (t < phases_.front().start)
    throw InputError("t", "time " + format_scalar(t) +
                              " is before t0 = " + format_scalar(phases_.front().start));
  // The last phase that starts at or before t.
  const auto after =
      std::upper_bound(phases_.begin(), phases_.end(), t,
                       [](const Scalar& time, const Phase& p) { return time < p.start; });
  const Phase& p = *(after - 1);
  const Scalar elapsed = t - initial_.t;
  State<Scalar> s;
  s.t = t;
  s.q = initial_.q + initial_.v * elapsed + other_acceleration_ * (elapsed * elapsed / Scalar(2));
  s.v = initial_.v + other_acceleration_ * elapsed;
  const Index j = coordinate_;
  if (p.mode == Mode::stick) {
    s.q(j) = p.position;
    s.v(j) = Scalar(0);
    return s;
  }
  const Scalar tau = t - p.start;
  const Scalar a = p.position - p.centre, b = p.velocity / omega_;
  const Scalar c = cos(omega_ * tau), sn = sin(omega_ * tau);
  s.q(j) = p.centre + a * c + b * sn;
  s.v(j) = omega_ * (b * c - a * sn);
  return s;
}

template class CoulombOscillator<double>;
template class CoulombOscillator<Real50>;

}  // namespace nsh::cases
