#include <nsh/scalar.hpp>

#include <nsh/cases/analytic.hpp>
#include <nsh/cases/bouncing_ball.hpp>
#include <nsh/cases/coulomb_oscillator.hpp>
#include <nsh/cases/friction.hpp>
#include <nsh/cases/oscillator.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/impact_lcp.hpp>
#include <nsh/io/case_file.hpp>

#include <map>
#include <mutex>

namespace nsh::cases {
namespace {

enum class Form {
  none,
  oscillator,
  bouncing_ball,
  ballistic,
  persistent_contact,
  coulomb_oscillator
};

Form form_of(const std::string& name) {
  if (name == "free-oscillator" || name == "forced-oscillator") return Form::oscillator;
  if (name == "bouncing-ball") return Form::bouncing_ball;
  if (name == "two-body" || name == "free-flight" || name == "free-flight-elastic" ||
      name == "newton-cradle-3" || name == "newton-cradle-5" || name == "oblique-impact")
    return Form::ballistic;
  if (name == "sliding-block" || name == "incline-stick" || name == "incline-slide" ||
      name == "rolling-sphere" || name == "rolling-cylinder")
    return Form::persistent_contact;
  if (name == "coulomb-oscillator" || name == "bar-on-two-supports")
    return Form::coulomb_oscillator;
  return Form::none;
}

template <class Scalar>
const LinearCase<Scalar>& load(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, LinearCase<Scalar>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(name);
  if (it == cache.end())
    it = cache.emplace(name, load_linear_case<Scalar>(read_case_file(locate_case(name)))).first;
  return it->second;
}

}  // namespace

template <class Scalar>
bool has_analytic(const std::string& case_name) {
  const Form f = form_of(case_name);
  if constexpr (is_exact_v<Scalar>) return f == Form::ballistic || f == Form::persistent_contact;
  return f != Form::none;
}

template <class Scalar>
State<Scalar> ballistic_state(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                              const Scalar& t) {
  if (max_abs(model.K) != Scalar(0) || max_abs(model.C) != Scalar(0) ||
      max_abs(model.F) != Scalar(0) || model.has_harmonic_force())
    throw InputError(
        "K", "the ballistic closed form needs K = C = 0 and F = 0 (model '" + model.name + "')");
  if (t < initial.t)
    throw InputError("t",
                     "time " + format_scalar(t) + " is before t0 = " + format_scalar(initial.t));
  State<Scalar> s = initial;
  const Index m = model.contacts();
  const Scalar gap_tol = tolerance<Scalar>(max_abs(model.w) + max_abs(initial.q) + Scalar(1));
  for (int impacts = 0; impacts < 100000; ++impacts) {
    const Vector<Scalar> g = model.gap(s.q);
    Vector<Scalar> U = model.local_velocity(s.v);
    std::vector<Index> touching;
    bool approaching = false;
    for (Index a = 0; a < m; ++a)
      if (g(a) <= gap_tol) {
        touching.push_back(a);
        approaching = approaching || U(a) < Scalar(0);
      }
    if (approaching) {
      // A frictional model's impacts are Newton-Coulomb impacts (friction.hpp); a frictionless
      // one keeps the impact LCP, bit for bit.
      s.v = model.has_friction() ? frictional_impact<Scalar>(model, s.v, touching).v_plus
                                 : solve_impact<Scalar>(model, s.v, touching).v_plus;
      U = model.local_velocity(s.v);
    }
    bool found = false;
    Scalar tau(0);
    for (Index a = 0; a < m; ++a) {
      if (!(U(a) < Scalar(0)) || g(a) <= gap_tol) continue;
      const Scalar ta = -g(a) / U(a);
      if (!found || ta < tau) {
        tau = ta;
        found = true;
      }
    }
    if (!found || s.t + tau > t) {
      s.q += s.v * (t - s.t);
      s.t = t;
      return s;
    }
    s.q += s.v * tau;
    s.t += tau;
  }
  throw InputError("T", "the ballistic closed form meets more than 100000 impacts before t = " +
                            format_short(t) + " (model '" + model.name + "'): shorten T");
}

template <class Scalar>
AnalyticFlow<Scalar> analytic_flow(const LinearModel<Scalar>& model, const State<Scalar>& initial) {
  const bool force_free =
      max_abs(model.K) == Scalar(0) && max_abs(model.C) == Scalar(0) && !model.has_harmonic_force();
  if constexpr (!is_exact_v<Scalar>) {
    // from_case checks every hypothesis of its closed form and throws InputError otherwise.
    if (model.dofs() == 1 && model.contacts() == 0 && model.K(0, 0) > Scalar(0)) {
      try {
        const auto o = Oscillator<Scalar>::from_case(model, initial);
        return [o](const Scalar& t) { return o.state(t); };
      } catch (const InputError&) {
      }
    }
    // A spring along the supports: the stick-slip closed form needs sin, cos and atan2.
    if (model.contacts() >= 1 && model.has_friction() && max_abs(model.K) != Scalar(0)) {
      try {
        const auto c = CoulombOscillator<Scalar>::from_case(model, initial);
        return [c](const Scalar& t) { return c.state(t); };
      } catch (const InputError&) {
      }
    }
    if (model.dofs() == 1 && model.contacts() == 1 && force_free) {
      try {
        const auto b = BouncingBall<Scalar>::from_case(model, initial);
        return [b](const Scalar& t) { return b.state(t); };
      } catch (const InputError&) {
      }
    }
  }
  if (force_free && max_abs(model.F) == Scalar(0))
    return [model, initial](const Scalar& t) { return ballistic_state<Scalar>(model, initial, t); };
  if (force_free && model.contacts() == 1 && model.tangent_directions() == 1) {
    try {
      const auto p = PersistentContact<Scalar>::from_case(model, initial);
      return [p](const Scalar& t) { return p.state(t); };
    } catch (const InputError&) {
    }
  }
  return {};
}

template <class Scalar>
std::optional<State<Scalar>> try_analytic_state(const std::string& case_name, const Scalar& t) {
  if (!has_analytic<Scalar>(case_name)) return std::nullopt;
  const LinearCase<Scalar>& c = load<Scalar>(case_name);
  const Form f = form_of(case_name);
  if constexpr (!is_exact_v<Scalar>) {
    if (f == Form::oscillator) return Oscillator<Scalar>::from_case(c.model, c.initial).state(t);
    if (f == Form::bouncing_ball)
      return BouncingBall<Scalar>::from_case(c.model, c.initial).state(t);
    if (f == Form::coulomb_oscillator)
      return CoulombOscillator<Scalar>::from_case(c.model, c.initial).state(t);
  }
  if (f == Form::persistent_contact)
    return PersistentContact<Scalar>::from_case(c.model, c.initial).state(t);
  return ballistic_state<Scalar>(c.model, c.initial, t);
}

template <class Scalar>
State<Scalar> analytic_state(const std::string& case_name, const Scalar& t) {
  auto s = try_analytic_state<Scalar>(case_name, t);
  if (!s)
    throw InputError("case", "case '" + case_name + "' has no closed form in " +
                                 scalar_name<Scalar>() + " precision (see `nsh list cases`)");
  return *s;
}

#define NSH_INSTANTIATE_ANALYTIC(S)                                                  \
  template AnalyticFlow<S> analytic_flow(const LinearModel<S>&, const State<S>&);    \
  template bool has_analytic<S>(const std::string&);                                 \
  template std::optional<State<S>> try_analytic_state(const std::string&, const S&); \
  template State<S> analytic_state(const std::string&, const S&);                    \
  template State<S> ballistic_state(const LinearModel<S>&, const State<S>&, const S&);
NSH_INSTANTIATE_ANALYTIC(double)
NSH_INSTANTIATE_ANALYTIC(Real50)
NSH_INSTANTIATE_ANALYTIC(Rational)
#undef NSH_INSTANTIATE_ANALYTIC

}  // namespace nsh::cases
