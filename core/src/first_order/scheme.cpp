// The first-order sweeping-process model, its scheme registry and its driver.
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/first_order/scheme.hpp>
#include <nsh/format.hpp>
#include <nsh/scheme_options.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace nsh {

template <class Scalar>
Vector<Scalar> SweepingProcess<Scalar>::drift(const Scalar& t, const Vector<Scalar>& x) const {
  Vector<Scalar> f = b;
  if (A.size() != 0) f += A * x;
  if (c.size() != 0) f += t * c;
  return f;
}

template <class Scalar>
void SweepingProcess<Scalar>::validate() const {
  const Index n = b.size();
  if (n == 0) throw ModelError("b", "the drift f = A x + b + t c needs one entry or more");
  if (A.size() != 0 && (A.rows() != n || A.cols() != n))
    throw ModelError("A", fmt::format("is {}x{}, b has {} entries", A.rows(), A.cols(), n));
  if (c.size() != 0 && c.size() != n)
    throw ModelError("c", fmt::format("has {} entries, b has {}", c.size(), n));
  for (Index i = 0; i < n; ++i) {
    if (!is_finite(b(i)))
      throw ModelError(fmt::format("b[{}]", i), "is " + format_scalar(b(i)) + ", must be finite");
    if (c.size() != 0 && !is_finite(c(i)))
      throw ModelError(fmt::format("c[{}]", i), "is " + format_scalar(c(i)) + ", must be finite");
    for (Index j = 0; j < A.cols(); ++j)
      if (!is_finite(A(i, j)))
        throw ModelError(fmt::format("A[{}][{}]", i, j),
                         "is " + format_scalar(A(i, j)) + ", must be finite");
  }
  if (!set) throw ModelError("set", "the sweeping process needs a set C");
  if (set->dimension() != n)
    throw ModelError("set", fmt::format("{} has dimension {}, the drift has {}", set->describe(),
                                        set->dimension(), n));
}

#define NSH_INSTANTIATE(Scalar) template struct SweepingProcess<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

FirstOrderRegistry& FirstOrderRegistry::builtin() {
  static FirstOrderRegistry registry = [] {
    FirstOrderRegistry r;
    register_catching_up(r);
    register_penalty(r);
    return r;
  }();
  return registry;
}

void FirstOrderRegistry::add(FirstOrderSchemeEntry entry) {
  if (contains(entry.name))
    throw std::logic_error("first-order scheme registered twice: " + entry.name);
  entries_.push_back(std::move(entry));
}

bool FirstOrderRegistry::contains(const std::string& name) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const FirstOrderSchemeEntry& e) { return e.name == name; });
}

std::vector<std::string> FirstOrderRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.name);
  return out;
}

const FirstOrderSchemeEntry& FirstOrderRegistry::find(const std::string& name) const {
  for (const auto& e : entries_)
    if (e.name == name) return e;
  throw SpecError("scheme", "unknown first-order scheme '" + name + "'; known: " + join(names()));
}

FirstOrderSchemeEntry& FirstOrderRegistry::find(const std::string& name) {
  return const_cast<FirstOrderSchemeEntry&>(std::as_const(*this).find(name));
}

SchemeSpec FirstOrderRegistry::resolve(const std::string& text) const {
  SchemeSpec spec = SchemeSpec::parse(text);
  apply_scheme_options(spec, find(spec.name()).options);
  return spec;
}

template <class Scalar>
std::unique_ptr<FirstOrderScheme<Scalar>> FirstOrderRegistry::make(const std::string& text) const {
  const SchemeSpec spec = resolve(text);
  const FirstOrderSchemeEntry& entry = find(spec.name());
  return make_from_entry<Scalar>(entry, spec);
}

#define NSH_INSTANTIATE(Scalar)                                                                   \
  template std::unique_ptr<FirstOrderScheme<Scalar>> FirstOrderRegistry::make(const std::string&) \
      const;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

template <class Scalar>
FirstOrderTrajectory<Scalar> record_first_order(FirstOrderScheme<Scalar>& scheme,
                                                const SweepingProcess<Scalar>& model,
                                                const FirstOrderState<Scalar>& initial,
                                                const Scalar& h, const Scalar& T) {
  model.validate();
  if (initial.x.size() != model.dimension())
    throw InputError(
        "x0", fmt::format("expected {} entries, got {}", model.dimension(), initial.x.size()));
  const Index steps = step_count(initial.t, T, h);
  scheme.initialize(model, initial, h);
  FirstOrderTrajectory<Scalar> trajectory;
  trajectory.states.reserve(static_cast<std::size_t>(steps + 1));
  trajectory.steps.reserve(static_cast<std::size_t>(steps));
  trajectory.states.push_back(initial);
  FirstOrderState<Scalar> state = initial;
  for (Index k = 0; k < steps; ++k) {
    FirstOrderStepSummary<Scalar> summary;
    summary.t_before = state.t;
    scheme.step(state, summary);
    state.t = initial.t + Scalar(k + 1) * h;  // no accumulated drift
    summary.step = k + 1;
    summary.t_after = state.t;
    summary.h = h;
    trajectory.states.push_back(state);
    trajectory.steps.push_back(std::move(summary));
  }
  return trajectory;
}

template <class Scalar>
Vector<Scalar> interpolate(const FirstOrderTrajectory<Scalar>& trajectory, const Scalar& t) {
  const auto& s = trajectory.states;
  if (s.empty()) throw InputError("trajectory", "is empty");
  if (!(t > s.front().t)) return s.front().x;
  if (!(t < s.back().t)) return s.back().x;
  // Binary search for the cell [t_k, t_{k+1}] holding t.
  std::size_t lo = 0, hi = s.size() - 1;
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    if (s[mid].t <= t)
      lo = mid;
    else
      hi = mid;
  }
  const Scalar theta = (t - s[lo].t) / (s[hi].t - s[lo].t);
  return Vector<Scalar>((Scalar(1) - theta) * s[lo].x + theta * s[hi].x);
}

template <class Scalar>
Scalar interpolation_sup_error(const FirstOrderTrajectory<Scalar>& trajectory,
                               const std::function<Vector<Scalar>(const Scalar&)>& exact,
                               const std::vector<Scalar>& kinks) {
  Scalar error(0);
  auto at = [&](const Scalar& t) {
    const Scalar e = max_abs(Vector<Scalar>(interpolate(trajectory, t) - exact(t)));
    if (e > error) error = e;
  };
  for (const auto& s : trajectory.states) at(s.t);
  const Scalar t0 = trajectory.states.front().t, t1 = trajectory.states.back().t;
  for (const auto& t : kinks)
    if (t > t0 && t < t1) at(t);
  return error;
}

#define NSH_INSTANTIATE_FIRST_ORDER(S)                                                      \
  template FirstOrderTrajectory<S> record_first_order(                                      \
      FirstOrderScheme<S>&, const SweepingProcess<S>&, const FirstOrderState<S>&, const S&, \
      const S&);                                                                            \
  template Vector<S> interpolate(const FirstOrderTrajectory<S>&, const S&);                 \
  template S interpolation_sup_error(const FirstOrderTrajectory<S>&,                        \
                                     const std::function<Vector<S>(const S&)>&,             \
                                     const std::vector<S>&);
NSH_INSTANTIATE_FIRST_ORDER(double)
NSH_INSTANTIATE_FIRST_ORDER(Real50)
NSH_INSTANTIATE_FIRST_ORDER(Rational)
#undef NSH_INSTANTIATE_FIRST_ORDER

}  // namespace nsh
