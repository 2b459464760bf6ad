#include <nsh/scalar.hpp>

#include <nsh/cases/friction.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/friction/solver.hpp>

#include <fmt/format.h>
#include <Eigen/Cholesky>

namespace nsh::cases {
namespace {

template <class Scalar>
Scalar sign_of(typename PersistentContact<Scalar>::Mode mode) {
  using Mode = typename PersistentContact<Scalar>::Mode;
  return mode == Mode::slide_positive ? Scalar(1) : Scalar(-1);
}

// The local data of the single contact: W = B^T M^-1 B, f = B^T M^-1 F, and M^-1 B.
template <class Scalar>
struct LocalData {
  Matrix<Scalar> Minv_B;  // n x 2
  Matrix<Scalar> W;       // 2 x 2
  Vector<Scalar> f;       // 2
  Vector<Scalar> Minv_F;  // n
  Scalar mu{0};
};

}  // namespace

template <class Scalar>
PersistentContact<Scalar> PersistentContact<Scalar>::from_case(const LinearModel<Scalar>& model,
                                                               const State<Scalar>& initial) {
  if (model.contacts() != 1)
    throw InputError("G", fmt::format("the persistent-contact closed form needs one contact, "
                                      "got {}",
                                      model.contacts()));
  if (model.tangent_directions() != 1)
    throw InputError("G_T", fmt::format("the persistent-contact closed form needs d = 1 tangent "
                                        "direction, got {}",
                                        model.tangent_directions()));
  if (max_abs(model.K) != Scalar(0)) throw InputError("K", "must be zero (constant forces)");
  if (max_abs(model.C) != Scalar(0)) throw InputError("C", "must be zero (constant forces)");
  if (model.has_harmonic_force()) throw InputError("F_amplitude", "must be zero (constant forces)");
  const Scalar scale =
      max_abs(model.G) * (max_abs(initial.q) + max_abs(initial.v)) + max_abs(model.w) + Scalar(1);
  const Scalar gap = model.gap(initial.q)(0);
  const Scalar normal_velocity = model.local_velocity(initial.v)(0);
  if (abs_value<Scalar>(gap) > tolerance<Scalar>(scale) ||
      abs_value<Scalar>(normal_velocity) > tolerance<Scalar>(scale))
    throw InputError("G", "the contact is not closed at t0 (gap " + format_scalar(gap) +
                              ", normal velocity " + format_scalar(normal_velocity) + ")");
  LocalData<Scalar> data;
  Matrix<Scalar> B(model.dofs(), 2);
  B.col(0) = model.G.col(0);
  B.col(1) = model.G_T.col(0);
  Eigen::LDLT<Matrix<Scalar>> ldlt(model.M);
  data.Minv_B = ldlt.solve(B);
  data.Minv_F = ldlt.solve(model.F);
  data.W = B.transpose() * data.Minv_B;
  data.f = B.transpose() * data.Minv_F;
  data.mu = model.mu(0);
  const Scalar velocity_tol = tolerance<Scalar>(max_abs(initial.v) + Scalar(1));
  const Scalar force_tol =
      tolerance<Scalar>(max_abs(data.f) * (max_abs(data.W) + Scalar(1)) + Scalar(1));

  PersistentContact out;
  State<Scalar> at = initial;
  for (int phases = 0; phases < 8; ++phases) {
    Phase phase;
    phase.start = at.t;
    phase.initial = at;
    Scalar U_T = model.tangential_velocity(at.v)(0);
    if (abs_value<Scalar>(U_T) <= velocity_tol) U_T = Scalar(0);
    const auto slide = [&](Mode mode) {
      const Scalar s = sign_of<Scalar>(mode);
      const Scalar denominator = data.W(0, 0) - s * data.mu * data.W(0, 1);
      if (!(denominator > Scalar(0)))
        throw InputError("G_T",
                         "the sliding contact's normal force is not determined "
                         "(W_NN - s mu W_NT <= 0: Painleve's case)");
      Phase p = phase;
      p.mode = mode;
      p.normal_force = -data.f(0) / denominator;
      p.tangential_force = -s * data.mu * p.normal_force;
      return p;
    };
    const auto tangential_acceleration = [&](const Phase& p) {
      return data.W(1, 0) * p.normal_force + data.W(1, 1) * p.tangential_force + data.f(1);
    };
    if (U_T != Scalar(0)) {
      phase = slide(U_T > Scalar(0) ? Mode::slide_positive : Mode::slide_negative);
    } else {
      // Stick if the forces that keep both local accelerations zero lie in the cone.
      const Scalar det = data.W(0, 0) * data.W(1, 1) - data.W(0, 1) * data.W(1, 0);
      bool stuck = false;
      if (det != Scalar(0)) {
        const Scalar lambda_N = (-data.f(0) * data.W(1, 1) + data.f(1) * data.W(0, 1)) / det;
        const Scalar lambda_T = (-data.f(1) * data.W(0, 0) + data.f(0) * data.W(1, 0)) / det;
        if (lambda_N > Scalar(0) && abs_value<Scalar>(lambda_T) <= data.mu * lambda_N + force_tol) {
          phase.mode = Mode::stick;
          phase.normal_force = lambda_N;
          phase.tangential_force = lambda_T;
          stuck = true;
        }
      }
      if (!stuck) {
        // Start to slide in the one direction whose acceleration agrees with it.
        std::optional<Phase> chosen;
        for (Mode mode : {Mode::slide_positive, Mode::slide_negative}) {
          const Phase p = slide(mode);
          if (sign_of<Scalar>(mode) * tangential_acceleration(p) > Scalar(0)) {
            if (chosen)
              throw InputError("G_T",
                               "the contact at rest may start to slide either way (the "
                               "closed form is not unique)");
            chosen = p;
          }
        }
        if (!chosen)
          throw InputError("G_T",
                           "the contact at rest can neither stick nor slide (no "
                           "consistent friction force)");
        phase = *chosen;
      }
    }
    if (!(phase.normal_force > Scalar(0)))
      throw InputError("F", "the contact is not pressed (normal force " +
                                format_scalar(phase.normal_force) +
                                " <= 0): it would open, and the closed form assumes it stays "
                                "closed");
    phase.acceleration = data.Minv_F + data.Minv_B.col(0) * phase.normal_force +
                         data.Minv_B.col(1) * phase.tangential_force;
    const Scalar a_T = tangential_acceleration(phase);
    if (phase.mode != Mode::stick && U_T != Scalar(0) &&
        sign_of<Scalar>(phase.mode) * a_T < Scalar(0)) {
      // The slide decelerates: it ends when U_T reaches 0.
      const Scalar duration = -U_T / a_T;
      phase.end = phase.start + duration;
      out.phases_.push_back(phase);
      at.t = *phase.end;
      at.q = phase.initial.q + phase.initial.v * duration +
             phase.acceleration * (duration * duration / Scalar(2));
      at.v = phase.initial.v + phase.acceleration * duration;
      continue;
    }
    out.phases_.push_back(phase);
    return out;
  }
  throw InputError("G_T", "the persistent-contact closed form found more than 8 phases");
}

template <class Scalar>
State<Scalar> PersistentContact<Scalar>::state(const Scalar& t) const {
  if (t < phases_.front().start)
    throw InputError("t", "time " + format_scalar(t) +
                              " is before t0 = " + format_scalar(phases_.front().start));
  std::size_t i = 0;
  while (phases_[i].end && t >= *phases_[i].end && i + 1 < phases_.size()) ++i;
  const Phase& p = phases_[i];
  const Scalar tau = t - p.start;
  State<Scalar> s;
  s.t = t;
  s.q = p.initial.q + p.initial.v * tau + p.acceleration * (tau * tau / Scalar(2));
  s.v = p.initial.v + p.acceleration * tau;
  return s;
}

template <class Scalar>
std::optional<Scalar> PersistentContact<Scalar>::stick_time() const {
  for (const Phase& p : phases_)
    if (p.mode != Mode::stick && p.end) return p.end;
  return std::nullopt;
}

template <class Scalar>
FrictionalImpact<Scalar> frictional_impact(const LinearModel<Scalar>& model,
                                           const Vector<Scalar>& v_minus,
                                           const std::vector<Index>& index_set) {
  const Index d = model.tangent_directions();
  const Index block = 1 + d;
  const Index k = static_cast<Index>(index_set.size());
  Matrix<Scalar> B(model.dofs(), k * block);
  FrictionProblem<Scalar> problem;
  problem.tangent_dimension = d;
  problem.friction_coefficient.resize(k);
  for (Index i = 0; i < k; ++i) {
    const Index a = index_set[static_cast<std::size_t>(i)];
    B.col(i * block) = model.G.col(a);
    for (Index j = 0; j < d; ++j) B.col(i * block + 1 + j) = model.G_T.col(a * d + j);
    problem.friction_coefficient(i) = model.mu(a);
  }
  Eigen::LDLT<Matrix<Scalar>> ldlt(model.M);
  const Matrix<Scalar> Minv_B = ldlt.solve(B);
  problem.W = B.transpose() * Minv_B;
  problem.b = B.transpose() * v_minus;
  for (Index i = 0; i < k; ++i) {
    const Index a = index_set[static_cast<std::size_t>(i)];
    const Scalar U_N = problem.b(i * block);
    // Newton's law on approaching contacts only, as the frictionless impact LCP.
    if (U_N < Scalar(0)) problem.b(i * block) += model.e(a) * U_N;
  }
  const FrictionMethod method = d == 1 ? FrictionMethod::lemke : FrictionMethod::alart_curnier;
  const FrictionResult<Scalar> result = solve_friction<Scalar>(method, problem);
  if (!result.ok())
    throw StepError("the frictional impact of model '" + model.name + "' was not solved (" +
                    to_string(result.status) + "): " + result.message);
  FrictionalImpact<Scalar> out;
  out.index_set = index_set;
  out.impulse = result.P;
  out.v_plus = v_minus + Minv_B * result.P;
  return out;
}

template <class Scalar>
Index DiscreteSlidingStop<Scalar>::last_sliding_step() const {
  if (!(v0 > Scalar(0)) || !(deceleration_step > Scalar(0)))
    throw InputError("v0", "the discrete stop needs v0 > 0 and mu g h > 0");
  const Scalar ratio = v0 / deceleration_step;
  if constexpr (is_exact_v<Scalar>) {
    using boost::multiprecision::denominator;
    using boost::multiprecision::numerator;
    return static_cast<Index>(numerator(ratio) / denominator(ratio));
  } else {
    using std::floor;
    return static_cast<Index>(scalar_cast<double>(floor(ratio)));
  }
}

template <class Scalar>
Scalar DiscreteSlidingStop<Scalar>::velocity(Index k) const {
  const Scalar v = v0 - Scalar(k) * deceleration_step;
  return v > Scalar(0) ? v : Scalar(0);
}

template <class Scalar>
Scalar DiscreteSlidingStop<Scalar>::displacement(Index k, const Scalar& h) const {
  const Index j = std::min(k, last_sliding_step());
  return h * (Scalar(j) * v0 - deceleration_step * Scalar(j) * Scalar(j + 1) / Scalar(2));
}

#define NSH_INSTANTIATE_FRICTION_CASES(S)                                                 \
  template class PersistentContact<S>;                                                    \
  template FrictionalImpact<S> frictional_impact(const LinearModel<S>&, const Vector<S>&, \
                                                 const std::vector<Index>&);              \
  template struct DiscreteSlidingStop<S>;
NSH_INSTANTIATE_FRICTION_CASES(double)
NSH_INSTANTIATE_FRICTION_CASES(Real50)
NSH_INSTANTIATE_FRICTION_CASES(Rational)
#undef NSH_INSTANTIATE_FRICTION_CASES

}  // namespace nsh::cases
