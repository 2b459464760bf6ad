// The "nonholonomic" property provider: the claims of THEORY 5 for the schemes of the
// nonholonomic family (dla and mutant:dla-*, nsh/schemes/dla.hpp), judged on the catalogue's
// nonholonomic models (rolling disk, knife edge) with randomized initial data
// (docs/nonholonomic.md "Properties and claims").
//
// Why a provider of its own: the generators of the shared properties draw linear models, which
// have no velocity constraints, and the DLA's statements are about its segments and its impact
// point, not about an impulse LCP. Every quantity is recomputed from what the kit records (the
// nodes q_k, the states' velocities) and, at an impact, from the impact point q_bar and the
// fraction alpha the scheme reports (DlaScheme::last_step): a segment's velocity is the
// difference of its end points over its length, its energy 1/2 w^T M w + V(midpoint).
//
//   nonholonomic_admissible            g_j(q_k) <= tol at every node
//   nonholonomic_discrete_constraints  |A(midpoint) w| <= tol on every segment
//   nonholonomic_smooth_energy         |E_d(k+1) - E_d(k)| <= tol E between consecutive regular
//                                      segments (exact energy between impacts)
//   nonholonomic_impact_point          |g_j(q_bar)| <= tol and alpha in (0, 1] at every impact
//   nonholonomic_impact_multiplier     lambda_hat > 0 at every impact (the recorded impulse)
//   nonholonomic_impact_reflection     the post-impact reduced velocity against the continuous
//                                      reflection of the pre-impact one, pooled over the cases:
//                                      slope >= 1.3 in h, < 1e-3 at h = 0.0025
//   nonholonomic_impact_energy_order   the impact energy jump max_i |E+ - E-|/E at h = 0.02 ...
//                                      0.0025, pooled over the drawn cases, is nonzero (> 1e-9:
//                                      "does not conserve energy at impacts") with a least-squares
//                                      slope in log h in [1.7, 2.3] (O(h^2), THEORY 5)
// tol: 4096 double epsilons times the quantity's scale (the DLA certifies its solves to that).
// Cases are drawn deterministically from the seed, not through the check engine
// (check_engine.hpp) and rapidcheck: there is little to shrink in four numbers, each case is
// four whole runs, and the two order properties are judged on the pool of every drawn case (a
// slope), which a per-case search stopping at the first failure cannot express
// (docs/decisions.md, "The scheme kit"). Every counterexample is printed as a case file that
// `nsh simulate` replays. A run that fails (StepError) fails the property: the claim is that the
// scheme completes these cases.
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/nonholonomic/nonlinear_adapter.hpp>
#include <nsh/properties/check.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/properties/predicates.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/dla.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

namespace nsh::properties {
namespace {

using NonholonomicValues = std::vector<std::pair<std::string, std::string>>;

const std::vector<PropertyDescription>& nonholonomic_descriptions() {
  static const std::string tolerance = "4096 double epsilons times the quantity's scale";
  static const std::string hypotheses =
      "a nonholonomic model (rolling disk, knife edge) with randomized initial data; the scheme "
      "reports its impact point (nonholonomic family)";
  static const std::vector<PropertyDescription> d{
      {"nonholonomic_admissible", "g_j(q_k) <= tol at every node (every g_j <= 0 admissible)",
       hypotheses, tolerance},
      {"nonholonomic_discrete_constraints",
       "|A((q0 + q1)/2) (q1 - q0)/tau| <= tol on every segment (q0, q1) of length tau", hypotheses,
       tolerance},
      {"nonholonomic_smooth_energy",
       "|E_d(k+1) - E_d(k)| <= tol E between consecutive regular segments, E_d = 1/2 w^T M w + "
       "V(midpoint)",
       hypotheses, tolerance},
      {"nonholonomic_impact_point", "|g_j(q_bar)| <= tol and 0 < alpha <= 1 at every impact",
       hypotheses, tolerance},
      {"nonholonomic_impact_multiplier", "lambda_hat > 0 at every impact", hypotheses, "none"},
      {"nonholonomic_impact_reflection",
       "max_i |u+ - R(u-)|/|u-| over the impacts at h = 0.02, 0.01, 0.005, 0.0025, pooled over "
       "the drawn cases (R the continuous reflection at q_bar), falls with a least-squares slope "
       ">= 1.3 in log h and is < 1e-3 at h = 0.0025",
       hypotheses + "; the same impacts at the four step sizes",
       "the slope's bound (a measured order, not a tolerance)"},
      {"nonholonomic_impact_energy_order",
       "max_i |E+ - E-|/E over the impacts at h = 0.02, 0.01, 0.005, 0.0025 is > 1e-9 at every "
       "h and its least-squares slope in log h is in [1.7, 2.3]",
       hypotheses + "; the same impacts at the three step sizes",
       "the slope's interval (a measured order, not a tolerance)"},
  };
  return d;
}

bool is_nonholonomic_property(const std::string& property) {
  for (const auto& d : nonholonomic_descriptions())
    if (d.name == property) return true;
  return false;
}

bool nonholonomic_family(const std::string& spec) {
  try {
    const SchemeSpec parsed = SchemeSpec::parse(spec);
    if (!Registry::builtin().contains(parsed.name())) return false;
    return Registry::builtin().make<double>(spec)->info().family == "nonholonomic";
  } catch (const InputError&) {
    return false;
  }
}

/// A drawn case: the case file's text (what a counterexample prints) and its loaded form.
struct NonholonomicDrawn {
  std::string text;
  std::string origin;
  NonholonomicCase<double> c;
};

std::string nonholonomic_number(double x) {
  return fmt::format("{:.17g}", x);
}

/// Case `index` of the seed: even indices the rolling disk (the seed's m, R, I, J, a), odd the
/// knife edge; randomized start (inside the table / in front of the wall), rates and heading.
NonholonomicDrawn draw_nonholonomic_case(std::uint64_t seed, int index, double T) {
  std::mt19937_64 rng(seed * 1000003u + static_cast<std::uint64_t>(index) * 7919u + 15u);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto in = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };
  const auto sign = [&] { return unit(rng) < 0.5 ? -1.0 : 1.0; };
  const double pi = 3.14159265358979323846;
  NonholonomicDrawn d;
  std::string body;
  if (index % 2 == 0) {
    const double r = in(0, 1.5), angle = in(-pi, pi), heading = in(-pi, pi);
    const double x = r * std::cos(angle), y = r * std::sin(angle);
    const double theta_rate = sign() * in(1, 3), phi_rate = sign() * in(0.15, 0.5);
    // v = theta' (R cos phi, R sin phi, 1, 0) + phi' (0, 0, 0, 1) with R = 1.
    body = fmt::format(
        R"("model": "rolling-disk", "parameters": {{"m": 1, "R": 1, "I": "1/2", "J": "1/4", "a": 5}},
  "q0": [{}, {}, 0, {}], "v0": [{}, {}, {}, {}])",
        nonholonomic_number(x), nonholonomic_number(y), nonholonomic_number(heading),
        nonholonomic_number(theta_rate * std::cos(heading)),
        nonholonomic_number(theta_rate * std::sin(heading)), nonholonomic_number(theta_rate),
        nonholonomic_number(phi_rate));
    d.origin = fmt::format(
        "rolling disk from ({:.3g}, {:.3g}), heading {:.3g}, theta' = {:.3g}, "
        "phi' = {:.3g}",
        x, y, heading, theta_rate, phi_rate);
  } else {
    const double x = in(-1, 0.5), heading = in(-pi / 3, pi / 3);
    const double speed = in(0.5, 1.5), turning = sign() * in(0.15, 0.4);
    body = fmt::format(
        R"("model": "knife-edge", "parameters": {{"m": 1, "J": "1/2", "a": 1}},
  "q0": [{}, 0, {}], "v0": [{}, {}, {}])",
        nonholonomic_number(x), nonholonomic_number(heading),
        nonholonomic_number(speed * std::cos(heading)),
        nonholonomic_number(speed * std::sin(heading)), nonholonomic_number(turning));
    d.origin = fmt::format("knife edge from x = {:.3g}, heading {:.3g}, s = {:.3g}, phi' = {:.3g}",
                           x, heading, speed, turning);
  }
  d.text = fmt::format(
      "{{\"name\": \"counterexample\", \"family\": \"nonholonomic\",\n  {},\n  \"t0\": 0, \"T\": "
      "{}, \"h\": \"1/50\"}}\n",
      body, nonholonomic_number(T));
  d.c = load_nonholonomic_case<double>(parse_case_text(d.text));
  return d;
}

/// One segment as recomputed from its end points.
struct NonholonomicSegment {
  double t0{0}, length{0};
  Vector<double> start, end;
  bool regular{true};
};

struct NonholonomicRun {
  std::vector<State<double>> states;
  std::vector<NonholonomicSegment> segments;
  struct Impact {
    double t{0}, alpha{0}, g{0}, lambda{0};
    Index inequality{0};
    Vector<double> q_bar;
    Index step{0};
    /// |u+ - R(u-)| / |u-|: the reduced velocity after q_bar against the continuous reflection
    /// of the one before (both from the sub-steps' end points); NaN when (1 - alpha) h is too
    /// short to difference.
    double reflection{std::numeric_limits<double>::quiet_NaN()};
  };
  std::vector<Impact> impacts;
  std::string failure;  ///< a StepError of the run
};

NonholonomicRun run_nonholonomic_case(const std::string& spec, const NonholonomicCase<double>& c,
                                      double h) {
  NonholonomicRun run;
  const NonholonomicModelAdapter<double> model(*c.model);
  auto scheme = Registry::builtin().make<double>(spec);
  const auto* dla = dynamic_cast<const DlaScheme<double>*>(scheme.get());
  if (!dla)
    throw SpecError("scheme", spec +
                                  " does not report its impact points (not a DlaScheme): the "
                                  "nonholonomic properties cannot judge it");
  run.states.push_back(c.initial);
  try {
    simulate<double>(*scheme, model, c.initial, h, c.T,
                     [&](const State<double>& x, const StepSummary<double>& s) {
                       const State<double>& before = run.states.back();
                       const auto& last = dla->last_step();
                       if (last.impacts.empty()) {
                         run.segments.push_back({s.t_before, s.h, before.q, x.q, true});
                       } else {
                         const auto& impact = last.impacts.back();
                         const double first = impact.t - s.t_before;
                         run.segments.push_back({s.t_before, first, before.q, impact.q_bar, false});
                         run.segments.push_back({impact.t, s.h - first, impact.q_bar, x.q, false});
                         NonholonomicRun::Impact i;
                         i.t = impact.t;
                         i.alpha = impact.alpha;
                         i.inequality = impact.inequality;
                         i.q_bar = impact.q_bar;
                         i.g = c.model->inequality(impact.q_bar)(impact.inequality);
                         i.lambda = s.impulse(impact.inequality);
                         i.step = s.step;
                         if (s.h - first > 1e-3 * s.h && first > 1e-3 * s.h) {
                           const Vector<double> w_minus = (impact.q_bar - before.q) / first;
                           const Vector<double> w_plus = (x.q - impact.q_bar) / (s.h - first);
                           const Vector<double> u_minus =
                               c.model->reduced_velocity((before.q + impact.q_bar) / 2, w_minus);
                           const Vector<double> u_plus =
                               c.model->reduced_velocity((impact.q_bar + x.q) / 2, w_plus);
                           const auto jump = continuous_reflection<double>(
                               *c.model, impact.q_bar,
                               Vector<double>(c.model->distribution(impact.q_bar) * u_minus),
                               impact.inequality);
                           i.reflection = max_abs(Vector<double>(u_plus - jump.u_plus)) /
                                          std::max(max_abs(u_minus), 1e-300);
                         }
                         run.impacts.push_back(i);
                       }
                       run.states.push_back(x);
                     });
  } catch (const StepError& e) {
    run.failure = e.what();
  }
  return run;
}

double nonholonomic_tolerance(double scale) {
  return 4096 * std::numeric_limits<double>::epsilon() * (scale > 0 ? scale : 1.0);
}

Judgement nonholonomic_broken(std::string detail, NonholonomicValues values) {
  Judgement j;
  j.holds = false;
  j.detail = std::move(detail);
  j.values = std::move(values);
  return j;
}

/// The energy E_d of a segment.
double segment_energy(const NonholonomicModel<double>& model, const NonholonomicSegment& s) {
  const Vector<double> w = (s.end - s.start) / s.length;
  const Vector<double> mid = (s.start + s.end) / 2;
  return w.dot(model.mass(mid) * w) / 2 + model.potential(mid);
}

/// max_i |E+ - E-|/E over a run's impacts: the first regular segment after an impact against the
/// last regular one before it; impacts in consecutive steps are skipped.
double worst_impact_jump(const NonholonomicModel<double>& model, const NonholonomicRun& run,
                         int& counted) {
  double worst = 0;
  counted = 0;
  const auto& s = run.segments;
  for (std::size_t i = 1; i + 2 < s.size(); ++i)
    if (!s[i].regular && s[i - 1].regular && !s[i + 1].regular && s[i + 2].regular) {
      const double before = segment_energy(model, s[i - 1]);
      const double after = segment_energy(model, s[i + 2]);
      worst = std::max(worst, std::abs(after - before) / before);
      ++counted;
    }
  return worst;
}

Judgement judge_nonholonomic_run(const std::string& property,
                                 const NonholonomicModel<double>& model,
                                 const NonholonomicRun& run) {
  if (!run.failure.empty())
    return nonholonomic_broken("the run failed: " + run.failure, {{"failure", run.failure}});
  double q_scale = 0, v_scale = 0;
  for (const auto& x : run.states) {
    q_scale = std::max(q_scale, max_abs(x.q));
    v_scale = std::max(v_scale, max_abs(x.v));
  }
  if (property == "nonholonomic_admissible") {
    const double tol = nonholonomic_tolerance(q_scale * q_scale + 1);
    for (std::size_t k = 0; k < run.states.size(); ++k) {
      const Vector<double> g = model.inequality(run.states[k].q);
      for (Index j = 0; j < g.size(); ++j)
        if (g(j) > tol)
          return nonholonomic_broken(
              fmt::format("node {} (t = {}): {} = {} > 0", k, format_short(run.states[k].t),
                          model.inequality_name(j), format_short(g(j))),
              {{"t", format_scalar(run.states[k].t)},
               {model.inequality_name(j), format_scalar(g(j))},
               {"tolerance", format_scalar(tol)}});
    }
    return {};
  }
  if (property == "nonholonomic_discrete_constraints") {
    for (const auto& s : run.segments) {
      const Vector<double> w = (s.end - s.start) / s.length;
      const Vector<double> mid = (s.start + s.end) / 2;
      const Matrix<double> A = model.one_forms(mid);
      const double residual = max_abs(Vector<double>(A * w));
      // (q1 - q0)/tau loses the digits of q against tau |w|.
      const double tol =
          nonholonomic_tolerance(max_abs(A) * (max_abs(w) + q_scale / std::max(s.length, 1e-300)));
      if (residual > tol)
        return nonholonomic_broken(
            fmt::format("segment at t = {} (length {}{}): |A(midpoint) w| = {}", format_short(s.t0),
                        format_short(s.length), s.regular ? "" : ", an impact sub-step",
                        format_short(residual)),
            {{"t", format_scalar(s.t0)},
             {"|A(m) w|", format_scalar(residual)},
             {"tolerance", format_scalar(tol)}});
    }
    return {};
  }
  if (property == "nonholonomic_smooth_energy") {
    const auto& s = run.segments;
    for (std::size_t i = 0; i + 1 < s.size(); ++i) {
      if (!s[i].regular || !s[i + 1].regular) continue;
      const double a = segment_energy(model, s[i]), b = segment_energy(model, s[i + 1]);
      const double tol = nonholonomic_tolerance(
          std::abs(a) * (1 + q_scale / (s[i].length * std::max(v_scale, 1e-300))));
      if (std::abs(b - a) > tol)
        return nonholonomic_broken(
            fmt::format("regular segments at t = {} and {}: E_d changes by {} (E_d = {})",
                        format_short(s[i].t0), format_short(s[i + 1].t0), format_short(b - a),
                        format_short(a)),
            {{"t", format_scalar(s[i + 1].t0)},
             {"Delta E_d", format_scalar(b - a)},
             {"tolerance", format_scalar(tol)}});
    }
    return {};
  }
  if (property == "nonholonomic_impact_point") {
    for (const auto& i : run.impacts) {
      const double tol = nonholonomic_tolerance(q_scale * q_scale + 1);
      if (!(i.alpha > 0 && i.alpha <= 1) || std::abs(i.g) > tol)
        return nonholonomic_broken(
            fmt::format("impact at t = {} on {}: g(q_bar) = {}, alpha = {}", format_short(i.t),
                        model.inequality_name(i.inequality), format_short(i.g),
                        format_short(i.alpha)),
            {{"t", format_scalar(i.t)},
             {"g(q_bar)", format_scalar(i.g)},
             {"alpha", format_scalar(i.alpha)},
             {"tolerance", format_scalar(tol)}});
    }
    return {};
  }
  // nonholonomic_impact_multiplier
  for (const auto& i : run.impacts)
    if (!(i.lambda > 0))
      return nonholonomic_broken(
          fmt::format("impact at t = {} on {}: lambda_hat = {} <= 0", format_short(i.t),
                      model.inequality_name(i.inequality), format_short(i.lambda)),
          {{"t", format_scalar(i.t)}, {"lambda_hat", format_scalar(i.lambda)}});
  return {};
}

double nonholonomic_slope(const std::vector<double>& h, const std::vector<double>& e) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(e[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

const std::vector<double>& nonholonomic_order_steps() {
  static const std::vector<double> steps{0.02, 0.01, 0.005, 0.0025};
  return steps;
}

/// The largest impact energy jump of one case at each of nonholonomic_order_steps(), or empty
/// when the runs do not see the same impacts (nothing to compare); a failed run is a broken
/// judgement.
Judgement impact_jumps_of_case(const std::string& spec, const NonholonomicCase<double>& c,
                               std::vector<double>& jumps, std::vector<double>& reflections) {
  jumps.clear();
  reflections.clear();
  std::size_t count = 0;
  for (double h : nonholonomic_order_steps()) {
    const NonholonomicRun run = run_nonholonomic_case(spec, c, h);
    if (!run.failure.empty())
      return nonholonomic_broken(fmt::format("h = {}: the run failed: {}", h, run.failure),
                                 {{"h", format_scalar(h)}, {"failure", run.failure}});
    int counted = 0;
    const double worst = worst_impact_jump(*c.model, run, counted);
    if (jumps.empty()) count = run.impacts.size();
    if (counted == 0 || run.impacts.size() != count) {
      jumps.clear();
      reflections.clear();
      return {};
    }
    jumps.push_back(worst);
    double reflection = 0;
    for (const auto& impact : run.impacts)
      if (std::isfinite(impact.reflection)) reflection = std::max(reflection, impact.reflection);
    reflections.push_back(reflection);
  }
  return {};
}

/// The energy-order property on the jumps pooled over the drawn cases (per h the largest over
/// every impact of every case): the jump of one impact is C h^2 times a factor of its alpha
/// (THEORY 5: 1 only for equal sub-steps, so it vanishes near alpha = 1/2), which makes one
/// case's few impacts a noisy estimate of the slope; the pool's maximum is not.
Judgement judge_pooled_energy_order(const std::vector<double>& jumps) {
  const std::vector<double>& steps = nonholonomic_order_steps();
  NonholonomicValues values;
  for (std::size_t i = 0; i < steps.size(); ++i)
    values.emplace_back(fmt::format("max |dE|/E at h = {}", steps[i]), format_scalar(jumps[i]));
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (!(jumps[i] > 1e-9)) {
      values.insert(values.begin(), {"threshold", "1e-9"});
      return nonholonomic_broken(
          fmt::format("the impact energy jump at h = {} is {} <= 1e-9: energy conserved at "
                      "impacts, against THEORY 5",
                      steps[i], format_short(jumps[i])),
          values);
    }
  const double order = nonholonomic_slope(steps, jumps);
  values.insert(values.begin(), {"slope", format_scalar(order)});
  if (!(order >= 1.7 && order <= 2.3))
    return nonholonomic_broken(
        fmt::format("the impact energy jump {} / {} / {} / {} at h = 0.02 / 0.01 / 0.005 / "
                    "0.0025 has slope {} outside [1.7, 2.3]",
                    format_short(jumps[0]), format_short(jumps[1]), format_short(jumps[2]),
                    format_short(jumps[3]), format_short(order)),
        values);
  return {};
}

/// The reflection property on the pooled errors (per h the largest over every impact of every
/// case).
Judgement judge_pooled_reflection(const std::vector<double>& errors) {
  const std::vector<double>& steps = nonholonomic_order_steps();
  NonholonomicValues values;
  for (std::size_t i = 0; i < steps.size(); ++i)
    values.emplace_back(fmt::format("max |u+ - R(u-)|/|u-| at h = {}", steps[i]),
                        format_scalar(errors[i]));
  bool positive = true;
  for (double e : errors) positive = positive && e > 0;
  const double order = positive ? nonholonomic_slope(steps, errors) : 99.0;
  values.insert(values.begin(), {"slope", format_scalar(order)});
  if (!(order >= 1.3) || !(errors.back() < 1e-3))
    return nonholonomic_broken(
        fmt::format("the post-impact reduced velocity against the continuous reflection: {} / "
                    "{} / {} / {} at h = 0.02 / 0.01 / 0.005 / 0.0025, slope {} (claimed >= 1.3, "
                    "finest < 1e-3)",
                    format_short(errors[0]), format_short(errors[1]), format_short(errors[2]),
                    format_short(errors[3]), format_short(order)),
        values);
  return {};
}

class NonholonomicPropertyProvider : public PropertyProvider {
 public:
  std::string name() const override { return "nonholonomic"; }
  bool handles_scheme(const std::string& spec) const override { return nonholonomic_family(spec); }
  // The scheme provider lists dla and the mutant:dla-* (registry schemes).
  std::vector<std::string> schemes() const override { return {}; }
  std::vector<PropertyDescription> properties() const override {
    return nonholonomic_descriptions();
  }
  std::string canonical(const std::string& spec) const override {
    return Registry::builtin().resolve(spec).str();
  }
  bool applies(const std::string& spec, const std::string& property) const override {
    return nonholonomic_family(spec) && is_nonholonomic_property(property);
  }
  bool claims(const std::string& spec, const std::string& property) const override {
    return applies(spec, property) &&
           find_claim(Registry::builtin().make<double>(spec)->info(), property).has_value();
  }

  Verdict check(const std::string& spec, const std::string& property,
                const CheckOptions& options) const override {
    Verdict v;
    v.scheme = canonical(spec);
    v.property = property;
    v.whole = true;
    for (const auto& d : nonholonomic_descriptions())
      if (d.name == property) v.statement = d.statement;
    if (!applies(spec, property)) {
      v.outcome = Outcome::not_applicable;
      v.note = "not a property of the nonholonomic family";
      return v;
    }
    const auto claim = find_claim(Registry::builtin().make<double>(spec)->info(), property);
    if (!claim && !options.force) {
      v.outcome = Outcome::not_claimed;
      v.note = "not claimed by " + v.scheme;
      return v;
    }
    if (claim) v.statement += "  [claimed: " + claim->domain + "]";
    const bool reflection = property == "nonholonomic_impact_reflection";
    const bool order = reflection || property == "nonholonomic_impact_energy_order";
    // Each case is a whole run (four for the order): a dozen cases, not a hundred.
    const int cases = std::max(1, std::min(options.cases, order ? 8 : 12));
    int evaluated = 0;
    const auto fail_with = [&](const NonholonomicDrawn& drawn, const Judgement& j, int index,
                               const std::string& origin) {
      v.outcome = Outcome::fail;
      v.note = order ? "the drawn cases break it" : "a drawn case breaks it";
      v.failing_case = index;
      Counterexample x;
      x.values = j.values;
      x.values.insert(x.values.begin(), {"what", j.detail});
      x.values.insert(x.values.begin() + 1, {"case", origin});
      x.case_file = drawn.text;
      x.simulate_hint = fmt::format("nsh simulate FILE --scheme '{}' --h {}", v.scheme,
                                    order ? "0.02 (and 0.01, 0.005, 0.0025)" : "0.02");
      x.command = fmt::format("nsh check --scheme '{}' --property {} --cases {} --seed {}",
                              v.scheme, property, options.cases, options.seed);
      v.counterexample = std::move(x);
      return v;
    };
    std::vector<double> pooled(nonholonomic_order_steps().size(), 0.0), jumps, reflections;
    std::optional<NonholonomicDrawn> first_pooled;
    for (int index = 0; index < cases; ++index) {
      NonholonomicDrawn drawn = draw_nonholonomic_case(options.seed, index, order ? 12 : 8);
      ++v.cases_run;
      if (order) {
        const Judgement j = impact_jumps_of_case(v.scheme, drawn.c, jumps, reflections);
        if (!j.holds) return fail_with(drawn, j, index, drawn.origin);
        if (jumps.empty()) continue;
        const std::vector<double>& measured = reflection ? reflections : jumps;
        for (std::size_t i = 0; i < measured.size(); ++i)
          pooled[i] = std::max(pooled[i], measured[i]);
        if (!first_pooled) first_pooled = std::move(drawn);
        ++evaluated;
        continue;
      }
      const Judgement j = judge_nonholonomic_run(property, *drawn.c.model,
                                                 run_nonholonomic_case(v.scheme, drawn.c, 0.02));
      ++evaluated;
      if (!j.holds) return fail_with(drawn, j, index, drawn.origin);
    }
    if (order && evaluated > 0) {
      const Judgement j =
          reflection ? judge_pooled_reflection(pooled) : judge_pooled_energy_order(pooled);
      if (!j.holds)
        return fail_with(
            *first_pooled, j, 0,
            fmt::format("pooled over {} drawn cases with impacts (the first shown)", evaluated));
    }
    v.coverage.emplace_back("evaluated", evaluated);
    if (evaluated == 0) {
      v.outcome = Outcome::fail;
      v.note = "no drawn case could be judged (no impacts seen at every step size)";
      return v;
    }
    v.outcome = Outcome::pass;
    v.note = fmt::format("{} of {} drawn cases judged (rolling disk and knife edge)", evaluated,
                         v.cases_run);
    if (order)
      v.note += fmt::format("; pooled {} / {} / {} / {} at h = 0.02 ... 0.0025, slope {:.2f}",
                            format_short(pooled[0], 3), format_short(pooled[1], 3),
                            format_short(pooled[2], 3), format_short(pooled[3], 3),
                            nonholonomic_slope(nonholonomic_order_steps(), pooled));
    return v;
  }
};

}  // namespace

void register_nonholonomic_properties() {
  register_provider(std::make_shared<NonholonomicPropertyProvider>());
}

}  // namespace nsh::properties
