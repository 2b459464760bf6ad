// The scheme kit (nsh/schemes/scheme.hpp): what every scheme's step gets for free.
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/model/nonlinear_model.hpp>
#include <nsh/model/sparse_model.hpp>
#include <nsh/recorded_fields.hpp>
#include <nsh/schemes/scheme.hpp>

#include <fmt/format.h>

#include <type_traits>

namespace nsh {
namespace {

template <class Scalar>
void require_step_size(const Scalar& h) {
  if (!is_finite(h)) throw InputError("h", "step size is " + format_scalar(h) + ", must be finite");
  if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
}

/// E = 1/2 v^T M v + 1/2 q^T K q, in the order of operations every built-in scheme used
/// before the kit derived it (so the ledger's numbers did not move by a rounding), keeping the
/// products M v and K q (EnergyProducts, nsh/schemes/scheme.hpp).
template <class Scalar, class Model>
Scalar energy_of(const Model& model, const State<Scalar>& x, Vector<Scalar>& mass_velocity,
                 Vector<Scalar>& stiffness_position) {
  // A sparse model's products as M^T v and K^T q: v^T M^T v = v^T M v, and for an exactly
  // symmetric M the same bits, faster (exactly_symmetric, nsh/model/sparse_model.hpp).
  const auto product = [](const auto& A) -> decltype(auto) {
    if constexpr (std::is_same_v<Model, SparseLinearModel<Scalar>>)
      return A.transpose();
    else
      return A;
  };
  mass_velocity.noalias() = product(model.M) * x.v;
  stiffness_position.noalias() = product(model.K) * x.q;
  return (x.v.dot(mass_velocity) + x.q.dot(stiffness_position)) * (Scalar(1) / Scalar(2));
}

/// The first non-finite entry of `values` as "name[i] = value", or empty.
template <class Scalar>
std::string non_finite(const char* name, const Vector<Scalar>& values) {
  // A NaN or an infinity makes the sum NaN or infinite; finite entries make it finite or an
  // overflow, which the scan below then finds clean. One vectorized pass on the usual path.
  if (is_finite(Scalar(values.sum()))) return {};
  for (Index i = 0; i < values.size(); ++i)
    if (!is_finite(values(i))) return fmt::format("{}[{}] = {}", name, i, format_scalar(values(i)));
  return {};
}

template <class Scalar>
std::string non_finite(const char* name, const Scalar& value) {
  return is_finite(value) ? std::string() : fmt::format("{} = {}", name, format_scalar(value));
}

/// Why the step's result is not a number nsh may write (empty if it is): the state, the
/// impulses and every ledger term must be finite (a product of finite inputs can overflow).
template <class Scalar>
std::string first_non_finite(const State<Scalar>& after, const StepSummary<Scalar>& s) {
  if constexpr (is_exact_v<Scalar>) {
    return {};
  } else {
    for (std::string found : {non_finite("q", after.q), non_finite("v", after.v),
                              non_finite("P", s.impulse), non_finite("P_T", s.tangential_impulse),
                              non_finite("E_after", s.E_after), non_finite("W_ext", s.W_ext),
                              non_finite("W_damp", s.W_damp), non_finite("W_contact", s.W_contact),
                              non_finite("numerical_dissipation", s.numerical_dissipation),
                              non_finite("E_alg_after", s.E_alg_after),
                              non_finite("stored_energy_after", s.stored_energy_after)})
      if (!found.empty()) return found;
    return {};
  }
}

/// d and U_T = G_T^T v before and after (docs/friction.md); empty when d = 0, so that a
/// frictionless model neither allocates nor multiplies. The tangential impulse is the
/// scheme's; one that records none (mu = 0 everywhere, or a frictionless scheme) gets zeros.
template <class Scalar>
void derive_tangential(const LinearModel<Scalar>& model, const State<Scalar>& before,
                       const State<Scalar>& after, StepSummary<Scalar>& s) {
  const Index d = model.tangent_directions();
  s.tangent_directions = d;
  if (d == 0) {
    for (Vector<Scalar>* v :
         {&s.tangential_impulse, &s.tangential_velocity_before, &s.tangential_velocity_after})
      if (v->size() != 0) v->resize(0);
    return;
  }
  const Index md = model.contacts() * d;
  if (s.tangential_impulse.size() != md) s.tangential_impulse.setZero(md);
  const auto Gt = model.G_T.transpose();
  s.tangential_velocity_before.noalias() = Gt * before.v;
  s.tangential_velocity_after.noalias() = Gt * after.v;
}

/// The sparse family is frictionless (to_sparse refuses friction).
template <class Scalar>
void derive_tangential(const SparseLinearModel<Scalar>&, const State<Scalar>&, const State<Scalar>&,
                       StepSummary<Scalar>& s) {
  s.tangent_directions = 0;
  for (Vector<Scalar>* v :
       {&s.tangential_impulse, &s.tangential_velocity_before, &s.tangential_velocity_after})
    if (v->size() != 0) v->resize(0);
}

}  // namespace

template <class Scalar>
void Scheme<Scalar>::bind(const LinearModel<Scalar>* dense, const SparseLinearModel<Scalar>* sparse,
                          const NonlinearModel<Scalar>* nonlinear, const Scalar& h) {
  dense_ = dense;
  sparse_ = sparse;
  nonlinear_ = nonlinear;
  h_ = h;
  has_last_ = false;
}

template <class Scalar>
void Scheme<Scalar>::initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                                const Scalar& h) {
  require_step_size(h);
  // A scheme that does not record tangential impulses would step a frictional model as if it
  // were frictionless and report it as a valid trajectory of that model.
  if (model.has_friction() && !info().friction)
    throw ModelError("mu", info().spec +
                               " does not step models with Coulomb friction (some mu > 0 with "
                               "G_T given); set mu = 0, drop G_T, or use a scheme with friction "
                               "(moreau-jean)");
  bind(&model, nullptr, nullptr, h);
  do_initialize(model, initial, h);
}

template <class Scalar>
void Scheme<Scalar>::initialize(const SparseLinearModel<Scalar>& model,
                                const State<Scalar>& initial, const Scalar& h) {
  require_step_size(h);
  bind(nullptr, &model, nullptr, h);
  do_initialize(model, initial, h);
}

template <class Scalar>
void Scheme<Scalar>::initialize(const NonlinearModel<Scalar>& model, const State<Scalar>& initial,
                                const Scalar& h) {
  require_step_size(h);
  // The refusal of a scheme that does not step nonlinear models is its do_initialize's (the
  // default names the scheme; moreau-jean in Rational names the precision), before friction.
  if (accepts_nonlinear() && has_friction(model) && !info().friction)
    throw ModelError("mu", info().spec +
                               " does not step models with Coulomb friction (some mu > 0 with "
                               "tangents given); set mu = 0, drop the tangents, or use a scheme "
                               "with friction (moreau-jean)");
  bind(nullptr, nullptr, &model, h);
  try {
    do_initialize(model, initial, h);
  } catch (...) {
    bind(nullptr, nullptr, nullptr, h);  // a refused model is not bound: step() says so
    throw;
  }
}

template <class Scalar>
void Scheme<Scalar>::do_initialize(const NonlinearModel<Scalar>&, const State<Scalar>&,
                                   const Scalar&) {
  throw SpecError("scheme", info().spec +
                                " does not step nonlinear models (the lagrangian family, "
                                "docs/nonlinear-models.md); use moreau-jean");
}

template <class Scalar>
void Scheme<Scalar>::do_initialize(const SparseLinearModel<Scalar>&, const State<Scalar>&,
                                   const Scalar&) {
  throw SpecError("scheme", info().spec +
                                " does not step sparse models natively; step the dense copy "
                                "(nsh::to_dense) instead");
}

template <class Scalar>
void Scheme<Scalar>::step(State<Scalar>& state, StepSummary<Scalar>& summary) {
#ifdef NDEBUG
  advance<false>(state, summary);
#else
  advance<true>(state, summary);
#endif
}

template <class Scalar>
void Scheme<Scalar>::step_recording_fields(State<Scalar>& state, StepSummary<Scalar>& summary) {
  advance<true>(state, summary);
}

template <class Scalar>
template <bool RecordFields>
void Scheme<Scalar>::advance(State<Scalar>& state, StepSummary<Scalar>& summary) {
  if (!dense_ && !sparse_ && !nonlinear_)
    throw StepError(info().spec + ": step() called before initialize()");
  // A step that starts where the last one ended reuses that state's buffers, E and contact
  // quantities (a swap instead of an O(n) copy); anything else, e.g. a state the caller edited,
  // is derived afresh.
  const bool continues = has_last_ && state.q.size() == last_after_.q.size() &&
                         state.v.size() == last_after_.v.size() && state.q == last_after_.q &&
                         state.v == last_after_.v;
  continues_ = continues;
  has_last_ = false;  // until derive() records this step's end (a throwing step leaves none)
  before_.t = state.t;
  if (continues) {
    before_.q.swap(last_after_.q);
    before_.v.swap(last_after_.v);
  } else {
    before_.q = state.q;
    before_.v = state.v;
  }
  if constexpr (RecordFields)
    summary.recorded = record_written_fields(summary, [&] { do_step(state, summary); });
  else
    do_step(state, summary);
  if (nonlinear_) {
    derive_nonlinear(before_, state, continues, summary);
  } else {
    derive(before_, state, continues, summary);
    const EnergyProducts<Scalar> products{before_,
                                          state,
                                          mass_velocity_before_,
                                          mass_velocity_after_,
                                          stiffness_position_before_,
                                          stiffness_position_after_};
    if constexpr (RecordFields)
      summary.recorded |=
          record_written_fields(summary, [&] { do_complete_ledger(products, summary); });
    else
      do_complete_ledger(products, summary);
  }
  if (const std::string what = first_non_finite(state, summary); !what.empty())
    throw StepError(
        fmt::format("{}: the step from t = {} left the finite range: {} (the inputs' "
                    "products overflow; rescale the model or reduce h)",
                    info().spec, format_scalar(before_.t), what));
}

template <class Scalar>
void Scheme<Scalar>::derive(const State<Scalar>& before, const State<Scalar>& after, bool continues,
                            StepSummary<Scalar>& s) {
  s.t_before = before.t;
  s.h = h_;
  s.t_after = before.t + h_;
  const auto derive_on = [&](const auto& model) {
    if (model.contacts() == 0) {
      // No product with an n x 0 matrix: an explicit empty path (UBSan flags Eigen's kernels
      // on zero-column operands).
      for (Vector<Scalar>* v : {&s.gap_before, &s.velocity_before, &s.gap_after, &s.velocity_after})
        v->resize(0);
    } else {
      const auto Gt = model.G.transpose();
      if (continues) {
        s.gap_before = gap_after_;
        s.velocity_before = velocity_after_;
      } else {
        s.gap_before.noalias() = Gt * before.q;
        s.gap_before += model.w;
        s.velocity_before.noalias() = Gt * before.v;
      }
      s.gap_after.noalias() = Gt * after.q;
      s.gap_after += model.w;
      s.velocity_after.noalias() = Gt * after.v;
    }
    derive_tangential(model, before, after, s);
    if (continues) {
      s.E_before = energy_after_;
      mass_velocity_before_.swap(mass_velocity_after_);
      stiffness_position_before_.swap(stiffness_position_after_);
    } else {
      s.E_before = energy_of(model, before, mass_velocity_before_, stiffness_position_before_);
    }
    s.E_after = energy_of(model, after, mass_velocity_after_, stiffness_position_after_);
  };
  if (dense_)
    derive_on(*dense_);
  else
    derive_on(*sparse_);
  energy_after_ = s.E_after;
  gap_after_ = s.gap_after;
  velocity_after_ = s.velocity_after;
  last_after_.q = after.q;
  last_after_.v = after.v;
  has_last_ = true;
}

template <class Scalar>
Scalar Scheme<Scalar>::nonlinear_energy(const State<Scalar>& x) {
  // E = 1/2 v^T M(q) v + V(q), in NonlinearModel::energy's order of operations, into the kit's
  // buffers.
  nonlinear_->mass(x.q, mass_);
  work_n_.noalias() = mass_ * x.v;
  return x.v.dot(work_n_) / Scalar(2) + nonlinear_->potential(x.q);
}

template <class Scalar>
void Scheme<Scalar>::derive_nonlinear(const State<Scalar>& before, const State<Scalar>& after,
                                      bool continues, StepSummary<Scalar>& s) {
  const NonlinearModel<Scalar>& model = *nonlinear_;
  s.t_before = before.t;
  s.h = h_;
  s.t_after = before.t + h_;
  const Index m = model.contacts();
  if (m == 0) {
    for (Vector<Scalar>* v : {&s.gap_before, &s.velocity_before, &s.gap_after, &s.velocity_after})
      v->resize(0);
  } else {
    model.gap(before.q, s.gap_before);
    model.gap(after.q, s.gap_after);
    model.normal_jacobian(before.q, normal_jacobian_);
    s.velocity_before.noalias() = normal_jacobian_.transpose() * before.v;
    model.normal_jacobian(after.q, normal_jacobian_);
    s.velocity_after.noalias() = normal_jacobian_.transpose() * after.v;
  }
  const Index d = m == 0 ? 0 : model.tangent_directions();
  s.tangent_directions = d;
  if (d == 0) {
    for (Vector<Scalar>* v :
         {&s.tangential_impulse, &s.tangential_velocity_before, &s.tangential_velocity_after})
      if (v->size() != 0) v->resize(0);
  } else {
    if (s.tangential_impulse.size() != m * d) s.tangential_impulse.setZero(m * d);
    model.tangent_jacobian(before.q, tangent_jacobian_);
    s.tangential_velocity_before.noalias() = tangent_jacobian_.transpose() * before.v;
    model.tangent_jacobian(after.q, tangent_jacobian_);
    s.tangential_velocity_after.noalias() = tangent_jacobian_.transpose() * after.v;
  }
  s.E_before = continues ? energy_after_ : nonlinear_energy(before);
  s.E_after = nonlinear_energy(after);
  energy_after_ = s.E_after;
  last_after_.q = after.q;
  last_after_.v = after.v;
  has_last_ = true;
}

#define NSH_INSTANTIATE(Scalar) template class Scheme<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh
