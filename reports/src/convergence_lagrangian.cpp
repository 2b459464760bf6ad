// Convergence studies on lagrangian cases (docs/nonlinear-models.md), with the two references a
// nonlinear model has here (convergence.hpp, run_lagrangian_convergence):
//   "housner"  the rocking block's closed form: the file's model is compared with
//              nsh::cases::RockingBlock built from the file's parameters m, b, c, g (and its e,
//              mu) at q0 and at two other states, and used only if they agree; measure
//              housner_ratio |phi'+ / phi'- - r| at the first landing (phi'- at the start of
//              the landing step is not a measure: the landing's place inside its step makes its
//              error jump between h, by up to h |phi''|);
//   "self"     self-convergence: the same scheme in Real50 at h_ref = (smallest h) / 16, sampled
//              on every run's grid (each h must be a multiple of h_ref); the trajectory measures
//              q_final, v_final, q_max, v_l1, energy_final of convergence.hpp.
#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/limits.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/convergence.hpp>
#include <nsh/reports/lagrangian_family.hpp>

#ifdef NSH_HAVE_FORMULA
#include <nsh/cases/rocking_block.hpp>
#include <nsh/formula/lagrangian_run.hpp>

#include <nlohmann/json.hpp>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include "convergence_row.hpp"

namespace nsh::reports {

#ifdef NSH_HAVE_FORMULA
namespace {

using R = Real50;

const double kLagrangianNaN = std::numeric_limits<double>::quiet_NaN();

// The refinement of the self-convergence reference below the smallest study step. At 8 the
// rod across two corners at h = 1/100, 1/200, 1/400 (not yet asymptotic there) had its finest
// error underestimated by 25% and a fitted order of 1.83, where a reference at h = 1/25600
// gives 1.62; at 16 the bias of an order-1 error is about 1/16.
constexpr int kSelfRefinement = 16;

// ---------------------------------------------------------------------------------------------
// The rocking block's closed form.

/// What the Housner reference knows of the file's block.
struct HousnerBlock {
  std::optional<cases::RockingBlock<R>> block;
  Index pivot{0};       ///< the corner the block rocks on first (0: corner 1, phi0 > 0)
  Index landing{1};     ///< the corner it lands on
  R ratio{0};           ///< Housner's r = 1 - (3/2) sin^2 alpha
  std::string why_not;  ///< why the file is not a rocking block Housner's formula covers
};

R housner_parameter(const nlohmann::json& parameters, const char* key, std::string& why_not) {
  const auto it = parameters.find(key);
  if (it == parameters.end()) {
    if (why_not.empty()) why_not = fmt::format("it has no parameter '{}'", key);
    return R(0);
  }
  return case_number<R>(*it, fmt::format("parameters.{}", key));
}

/// The largest entry of |a - b| relative to 1 + |b|.
R housner_mismatch(const Matrix<R>& a, const Matrix<R>& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return R(1);
  return max_abs(Matrix<R>(a - b)) / (R(1) + max_abs(b));
}

/// Recognise the rocking block by its data: the file's parameters m, b, c, g build a
/// RockingBlock whose M, f, V, gaps and Jacobians must equal the file's at q0 and at two other
/// states; it must start at rest on one corner with 0 < |phi0| < alpha, e = 0 and mu > 0 (the
/// sticking, plastic landing Housner's formula is about).
HousnerBlock recognise_rocking_block(const CaseDocument& document,
                                     const formula::LagrangianCase<R>& c) {
  HousnerBlock out;
  const auto& model = c.model;
  if (model.dofs() != 3 || model.contacts() != 2 || model.tangent_directions() != 1) {
    out.why_not = "it is not a planar body (x, y, phi) on two contacts with friction";
    return out;
  }
  const auto it = document.root.find("parameters");
  if (it == document.root.end() || !it->is_object()) {
    out.why_not = "it has no \"parameters\" (m, b, c, g)";
    return out;
  }
  cases::RockingBlockParameters<R> p;
  p.mass = housner_parameter(*it, "m", out.why_not);
  p.half_width = housner_parameter(*it, "b", out.why_not);
  p.half_height = housner_parameter(*it, "c", out.why_not);
  p.gravity = housner_parameter(*it, "g", out.why_not);
  if (!out.why_not.empty()) return out;
  p.restitution = model.restitution()(0);
  p.friction_coefficient = model.friction_coefficient()(0);
  try {
    out.block.emplace(p);
  } catch (const ModelError& e) {
    out.why_not = std::string("its parameters make no rocking block: ") + e.what();
    return out;
  }
  const cases::RockingBlock<R>& block = *out.block;
  const R close("1e-40");
  std::vector<State<R>> probes{c.initial, c.initial, c.initial};
  probes[1].q += Vector<R>::Constant(3, R(1) / 10);
  probes[1].v = Vector<R>::Constant(3, R(3) / 10);
  probes[2].q(2) = -probes[2].q(2) + R(1) / 7;
  probes[2].v << R(-1) / 2, R(1) / 3, R(2);
  for (const auto& s : probes) {
    std::vector<std::pair<const char*, R>> checks;
    try {
      checks = {
          {"M", housner_mismatch(model.mass(s.q), block.mass(s.q))},
          {"f", housner_mismatch(model.force(s.t, s.q, s.v), block.force(s.t, s.q, s.v))},
          {"potential", housner_mismatch(Vector<R>::Constant(1, model.potential(s.q)),
                                         Vector<R>::Constant(1, block.potential(s.q)))},
          {"gaps", housner_mismatch(model.gap(s.q), block.gap(s.q))},
          {"W_N", housner_mismatch(model.normal_jacobian(s.q), block.normal_jacobian(s.q))},
          {"W_T", housner_mismatch(model.tangent_jacobian(s.q), block.tangent_jacobian(s.q))}};
    } catch (const InputError& e) {  // a formula without a real value at a probe state
      out.why_not = fmt::format(
          "its model cannot be compared with nsh::cases::RockingBlock's at "
          "q = {}: {}",
          format_vector(s.q), e.what());
      return out;
    }
    for (const auto& [what, mismatch] : checks)
      if (mismatch > close) {
        out.why_not = fmt::format(
            "its model differs in {} from nsh::cases::RockingBlock's with m, b, c, g = {}, {}, "
            "{}, {} at q = {} (relative {})",
            what, format_short(p.mass), format_short(p.half_width), format_short(p.half_height),
            format_short(p.gravity), format_vector(s.q), format_short(mismatch));
        return out;
      }
  }
  const R phi0 = c.initial.q(2);
  using std::atan;
  const R alpha = atan(p.half_width / p.half_height);
  out.pivot = phi0 > R(0) ? 0 : 1;
  out.landing = 1 - out.pivot;
  if (max_abs(c.initial.v) != R(0))
    out.why_not = "it does not start at rest (v0 != 0)";
  else if (!(abs_value<R>(phi0) > R(0) && abs_value<R>(phi0) < alpha))
    out.why_not = fmt::format("phi0 = {} is not in 0 < |phi0| < alpha = {}", format_short(phi0),
                              format_short(alpha));
  else if (abs_value<R>(model.gap(c.initial.q)(out.pivot)) > close)
    out.why_not = "it does not start on a corner (the lower corner's gap is not 0)";
  else if (p.restitution != R(0))
    out.why_not = "e = " + format_short(p.restitution) + ": Housner's landing is plastic (e = 0)";
  else if (!(p.friction_coefficient > R(0)))
    out.why_not = "mu = 0: the pivot slides, Housner's landing needs it to stick";
  if (!out.why_not.empty()) return out;
  out.ratio = block.housner_ratio();
  return out;
}

/// The first landing of a run: phi' at the start of the step where the landing corner first
/// takes an impulse, and phi' at the end of the first step (of the next 20) where the pivot's
/// impulse is zero (it has lifted off).
template <class Scalar>
struct FirstLanding {
  bool found{false};
  Scalar before{0}, after{0};
};

template <class Scalar>
FirstLanding<Scalar> measure_first_landing(const formula::LagrangianRun<Scalar>& run, Index pivot,
                                           Index landing) {
  FirstLanding<Scalar> out;
  const auto& c = run.lagrangian;
  State<Scalar> previous = c.initial;
  Index landed_at = -1;
  simulate<Scalar>(
      *run.scheme, c.model, c.initial, run.h, c.T,
      [&](const State<Scalar>& state, const StepSummary<Scalar>& s) {
        if (!out.found) {
          if (landed_at < 0 && s.impulse(landing) > Scalar(0)) {
            landed_at = s.step;
            out.before = previous.v(2);
          }
          if (landed_at >= 0 && s.step < landed_at + 20 && s.impulse(pivot) == Scalar(0)) {
            out.after = state.v(2);
            out.found = true;
          }
        }
        previous = state;
      });
  return out;
}

// ---------------------------------------------------------------------------------------------
// The self-convergence reference.

class SelfReference {
 public:
  SelfReference(const CaseDocument& document, const std::string& spec,
                const std::vector<std::string>& h_texts, const std::string& T_text) {
    Rational finest(0);
    std::vector<Rational> hs;
    for (const auto& text : h_texts) {
      hs.push_back(parse_rational(text, "--h"));
      if (finest == Rational(0) || hs.back() < finest) finest = hs.back();
    }
    h_ref_ = finest / kSelfRefinement;
    // The runs' grids t0 + k h_i, in Real50 as the runs count them.
    const formula::LagrangianCase<R> c = formula::load_lagrangian_case<R>(document);
    const R t0 = c.initial.t;
    const R T = T_text.empty() ? c.T : parse_number<R>(T_text, "--T");
    Index reference_steps = 0;
    for (std::size_t i = 0; i < hs.size(); ++i) {
      const Rational ratio = hs[i] / h_ref_;
      if (denominator(ratio) != 1)
        throw InputError("--h", fmt::format("the self-convergence reference runs at h_ref = "
                                            "(smallest h)/{} = {} and is sampled on every run's "
                                            "grid: --h {} is not a multiple of it",
                                            kSelfRefinement, format_scalar(h_ref_), h_texts[i]));
      const Index stride = static_cast<Index>(numerator(ratio));
      const Index steps = step_count(t0, T, parse_number<R>(h_texts[i], "--h"));
      strides_[h_texts[i]] = stride;
      reference_steps = std::max(reference_steps, steps * stride);
    }
    for (const auto& [text, stride] : strides_) {
      (void)text;
      for (Index k = 0; k <= reference_steps; k += stride) samples_[k];
    }
    const R h_ref = parse_number<R>(format_scalar(h_ref_), "h");
    const std::string T_ref = format_scalar(R(t0 + R(reference_steps) * h_ref));
    const formula::LagrangianRun<R> run(document, spec, format_scalar(h_ref_), T_ref);
    spec_ = run.scheme->info().spec;
    samples_[0] = run.lagrangian.initial;
    Index taken = 0;
    try {
      simulate<R>(*run.scheme, run.lagrangian.model, run.lagrangian.initial, run.h,
                  run.lagrangian.T, [&](const State<R>& state, const StepSummary<R>& s) {
                    taken = s.step;
                    const auto it = samples_.find(s.step);
                    if (it != samples_.end()) it->second = state;
                  });
    } catch (const StepError& e) {
      throw StepError(
          fmt::format("the self-convergence reference ({} in Real50 at h = {}) of {} "
                      "failed at step {} (no scheme was run): {}",
                      spec_, format_scalar(h_ref_), document.name, taken + 1, e.what()));
    }
    if (taken < reference_steps)
      throw std::logic_error(
          fmt::format("self reference: {} steps taken, {} needed", taken, reference_steps));
  }

  std::string name() const {
    return fmt::format(
        "self: {} in Real50 at h = {} (smallest h / {}; self-convergence, no "
        "closed form)",
        spec_, format_scalar(h_ref_), kSelfRefinement);
  }

  /// The reference at t0 + k h, k = 0..steps, for a study step h.
  std::vector<State<R>> sample(const std::string& h_text, Index steps) const {
    const Index stride = strides_.at(h_text);
    std::vector<State<R>> out;
    out.reserve(steps + 1);
    for (Index k = 0; k <= steps; ++k) out.push_back(samples_.at(k * stride));
    return out;
  }

 private:
  Rational h_ref_;
  std::string spec_;
  std::map<std::string, Index> strides_;
  std::map<Index, State<R>> samples_;
};

// ---------------------------------------------------------------------------------------------
// One run.

struct LagrangianRunResult {
  Index steps{0};
  double wall_seconds{kLagrangianNaN};
  std::map<std::string, double> errors;
  std::string failure;
  double roundoff{kLagrangianNaN};
  double scale{0};
};

template <class Scalar>
LagrangianRunResult housner_run(const std::string& spec, const CaseDocument& document,
                                const std::string& h_text, const std::string& T_text,
                                const HousnerBlock& housner) {
  LagrangianRunResult result;
  const auto start = std::chrono::steady_clock::now();
  const formula::LagrangianRun<Scalar> run(document, spec, h_text, T_text);
  result.steps = run.steps;
  const FirstLanding<Scalar> landing = measure_first_landing(run, housner.pivot, housner.landing);
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!landing.found) {
    result.failure =
        fmt::format("no landing on corner {} followed by the lift-off of corner {} in [t0, {}]",
                    housner.landing + 1, housner.pivot + 1, format_short(run.lagrangian.T));
    return result;
  }
  const R before = scalar_cast<R>(landing.before), after = scalar_cast<R>(landing.after);
  result.errors["housner_ratio"] =
      scalar_cast<double>(abs_value<R>(after / before - housner.ratio));
  result.scale = 1;
  result.roundoff = roundoff_bound(scalar_cast<double>(R(epsilon<Scalar>())),
                                   static_cast<double>(result.steps), 1.0);
  return result;
}

template <class Scalar>
LagrangianRunResult self_run(const std::string& spec, const CaseDocument& document,
                             const std::string& h_text, const std::string& T_text,
                             const SelfReference& reference,
                             const formula::FormulaModel<R>& model_r) {
  LagrangianRunResult result;
  const auto start = std::chrono::steady_clock::now();
  const formula::LagrangianRun<Scalar> run(document, spec, h_text, T_text);
  const Trajectory<Scalar> trajectory = record<Scalar>(
      *run.scheme, run.lagrangian.model, run.lagrangian.initial, run.h, run.lagrangian.T);
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.steps = run.steps;
  const std::vector<State<R>> ref = reference.sample(h_text, result.steps);
  if (ref.size() != trajectory.states.size())
    throw std::logic_error(fmt::format("self reference has {} samples, the run {} states",
                                       ref.size(), trajectory.states.size()));
  const R hr = parse_number<R>(h_text, "h");
  const R T = scalar_cast<R>(run.lagrangian.T);
  R q_max(0), v_l1(0);
  R scale = abs_value<R>(T) + abs_value<R>(model_r.energy(ref.back().q, ref.back().v));
  for (const auto& x : ref) scale = std::max({scale, max_abs(x.q), max_abs(x.v)});
  for (std::size_t k = 0; k < trajectory.states.size(); ++k) {
    const Vector<R> q = scalar_cast<R>(trajectory.states[k].q);
    const Vector<R> v = scalar_cast<R>(trajectory.states[k].v);
    q_max = std::max(q_max, max_abs(Vector<R>(q - ref[k].q)));
    if (k > 0) v_l1 += hr * max_abs(Vector<R>(v - ref[k].v));
  }
  const Vector<R> qN = scalar_cast<R>(trajectory.states.back().q);
  const Vector<R> vN = scalar_cast<R>(trajectory.states.back().v);
  const auto to_double = [](const R& x) { return scalar_cast<double>(x); };
  result.scale = to_double(scale);
  result.roundoff =
      roundoff_bound(to_double(R(epsilon<Scalar>())), static_cast<double>(result.steps),
                     to_double(scale) * (1 + to_double(abs_value<R>(T))));
  result.errors["q_final"] = to_double(max_abs(Vector<R>(qN - ref.back().q)));
  result.errors["v_final"] = to_double(max_abs(Vector<R>(vN - ref.back().v)));
  result.errors["q_max"] = to_double(q_max);
  result.errors["v_l1"] = to_double(v_l1);
  result.errors["energy_final"] =
      to_double(abs_value<R>(model_r.energy(qN, vN) - model_r.energy(ref.back().q, ref.back().v)));
  return result;
}

}  // namespace

std::vector<ConvergenceStudy> run_lagrangian_convergence(const ConvergenceOptions& options,
                                                         const CaseDocument& document) {
  formula::LagrangianCase<R> case_r;
  try {
    case_r = formula::load_lagrangian_case<R>(document);
  } catch (const InputError& e) {
    throw InputError("", "case " + document.source + ": " + e.what());
  }
  if (!options.T.empty()) case_r.T = parse_number<R>(options.T, "--T");
  for (const auto& text : options.h)
    limits::check_steps(
        scalar_cast<double>((case_r.T - case_r.initial.t) / parse_number<R>(text, "--h")),
        static_cast<double>(options.max_steps), "--h", "--max-steps");

  std::string kind = options.reference;
  if (kind != "auto" && kind != "housner" && kind != "self")
    throw InputError(
        "--reference",
        "case " + document.name +
            " is of family 'lagrangian', whose references are "
            "auto (housner where the case is a rocking block, else self), housner (the "
            "rocking block's closed form) or self (the scheme in Real50 at the smallest "
            "h / 16); got '" +
            kind + "'");
  // Only where it may be used: a case without the block's parameters is no error under self.
  const HousnerBlock housner =
      kind == "self" ? HousnerBlock{} : recognise_rocking_block(document, case_r);
  if (kind == "auto") kind = housner.why_not.empty() ? "housner" : "self";
  if (kind == "housner" && !housner.why_not.empty())
    throw InputError("--reference", "case " + document.name +
                                        " has no Housner reference (the rocking block's closed "
                                        "form): " +
                                        housner.why_not + "; use --reference self");

  std::vector<std::string> specs;
  for (const auto& s : options.schemes) specs.push_back(Registry::builtin().resolve(s).str());

  std::vector<ConvergenceStudy> studies;
  for (const auto& spec : specs) {
    std::optional<SelfReference> self;
    if (kind == "self") self.emplace(document, spec, options.h, options.T);
    const std::string reference_name =
        kind == "housner" ? fmt::format(
                                "housner: r = 1 - (3/2) sin^2 alpha = {} at the first landing "
                                "(nsh::cases::RockingBlock with the file's m, b, c, g)",
                                format_short(housner.ratio, 10))
                          : self->name();
    for (const auto& precision : options.precisions) {
      ConvergenceStudy study;
      study.case_name = document.name;
      study.scheme = spec;
      study.precision = precision;
      study.reference = reference_name;
      study.measures = kind == "housner" ? std::vector<std::string>{"housner_ratio"}
                                         : std::vector<std::string>{"q_final", "v_final", "q_max",
                                                                    "v_l1", "energy_final"};
      for (const auto& h_text : options.h) {
        LagrangianRunResult run;
        try {
          if (kind == "housner")
            run = precision == "double"
                      ? housner_run<double>(spec, document, h_text, options.T, housner)
                      : housner_run<R>(spec, document, h_text, options.T, housner);
          else
            run = precision == "double"
                      ? self_run<double>(spec, document, h_text, options.T, *self, case_r.model)
                      : self_run<R>(spec, document, h_text, options.T, *self, case_r.model);
        } catch (const StepError& e) {
          run.failure = e.what();
        } catch (const InputError& e) {
          if (!options.keep_going) throw;
          run = LagrangianRunResult{};
          run.failure = e.what();
        }
        detail::append_run(study, run, scalar_cast<double>(parse_number<R>(h_text, "h")));
        if (options.progress) {
          const std::string& first = study.measures.front();
          const auto it = run.errors.find(first);
          options.progress(
              fmt::format("converge {} {} [{}] h={}: {}", study.case_name, spec, precision, h_text,
                          run.failure.empty()
                              ? fmt::format("{}={:.3e} ({:.3f} s)", first,
                                            it == run.errors.end() ? kLagrangianNaN : it->second,
                                            run.wall_seconds)
                              : "failed: " + run.failure));
        }
      }
      for (const auto& m : study.measures) {
        study.fits[m] = fit_order(study.h, study.errors[m], study.roundoff);
        study.warnings[m] = fit_warning(study.fits[m]);
      }
      studies.push_back(std::move(study));
    }
  }
  return studies;
}

#else

std::vector<ConvergenceStudy> run_lagrangian_convergence(const ConvergenceOptions&,
                                                         const CaseDocument& document) {
  refuse_lagrangian_without_formula(document);
}

#endif

}  // namespace nsh::reports
