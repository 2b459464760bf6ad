// The "sweep" property provider: projections, catching-up, first-order penalty and penalty2
// properties for `nsh check` (docs/theory.md §6). penalty2 is owned by the scheme provider (a
// registry scheme); this provider contributes its two penalty2_* properties to it (check.hpp).
// Every check runs on the one check engine (check_engine.hpp): designed cases, then random cases
// drawn by rapidcheck from the seed (the same seed gives the same verdicts) and shrunk on
// failure; the step h is a generated parameter, and each claim with a sharp step bound gets
// designed cases on both sides of it.
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/projection/ball.hpp>
#include <nsh/projection/box.hpp>
#include <nsh/projection/finite_set.hpp>
#include <nsh/projection/half_space.hpp>
#include <nsh/projection/polyhedron.hpp>
#include <nsh/properties/check.hpp>
#include <nsh/properties/check_engine.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/properties/sweep_properties.hpp>
#include <nsh/registry.hpp>

#include <fmt/format.h>
#include <rapidcheck.h>

#include <algorithm>
#include <memory>

namespace nsh::properties {
namespace {

using Q = Rational;

const std::vector<PropertyDescription>& sweep_descriptions() {
  static const std::vector<PropertyDescription> d = {
      {"projection_nonexpansive", "|P(y1) - P(y2)|^2 <= |y1 - y2|^2",
       "C closed convex (box, half-space, ball, polyhedron)", "zero in Rational"},
      {"projection_idempotent", "P(P(y)) = P(y), both certified", "C closed", "zero in Rational"},
      {"projection_variational_inequality", "(y - P(y))^T (z - P(y)) <= 0 for z = P(y') in C",
       "C closed convex; fails on finite sets (seed 004: C = {-1, 1})", "zero in Rational"},
      {"catching_up_error_bound",
       "sweeping-interval: x_k = max(1 - kh, 0), sup|X_h - x| = s(h - s)/h <= h, "
       "s = 1 - floor(1/h) h",
       "catching-up, any h in (0, 1]", "exact (Rational)"},
      {"penalty_convergence",
       "penalty line y' = -1 + kappa max(0, -y), y0 = 0: y_k in [-1/kappa, 0]",
       "implicit: every h; explicit: h kappa <= 1", "exact (Rational)"},
      {"penalty_stability", "penalty line from y0 = 0: y_k in [-max(h, 1/kappa), 0] for every k",
       "implicit: every h; explicit: iff h kappa <= 2 (y2 = kappa h^2 - 2h otherwise)",
       "exact (Rational)"},
      {"penalty2_energy_balance",
       "W_contact = V - V' + W_dashpot - D_spring with V = kappa/2 sum min(0, g)^2 from the "
       "gaps; implicit: D, D_spring >= 0, W_dashpot, W_damp <= 0 (E' - E = W_ext + W_damp + "
       "W_contact - D is energy_identity)",
       "penalty2, linear model", "exact (Rational)"},
      {"penalty2_penetration_bound", "F = 0: sum min(0, g)^2 <= 2 (E_0 + V_0)/kappa",
       "penalty2 implicit (E + V nonincreasing)", "exact (Rational)"}};
  return d;
}

bool known(const std::string& property) {
  for (const auto& d : sweep_descriptions())
    if (d.name == property) return true;
  return false;
}

std::string family_of(const std::string& spec) {
  try {
    return SchemeSpec::parse(spec).name();
  } catch (const InputError&) {
    return "";
  }
}

bool applicable(const std::string& family, const std::string& property) {
  if (property.rfind("projection_", 0) == 0)
    return family == "catching-up" || family == "projection";
  if (property == "catching_up_error_bound") return family == "catching-up";
  if (property == "penalty_convergence" || property == "penalty_stability")
    return family == "penalty";
  if (property.rfind("penalty2_", 0) == 0) return family == "penalty2";
  return false;
}

/// The numbers of a random case, drawn from rapidcheck inside the engine's property, so that a
/// failing case shrinks: every integer toward the low end of its range.
struct SweepDraw {
  long integer(long lo, long hi) { return *rc::gen::inRange<long>(lo, hi + 1); }
  Q rational(long range, long denominator_max = 6) {
    return Q(integer(-range, range)) / Q(integer(1, denominator_max));
  }
  bool coin() { return integer(0, 1) == 1; }
};

/// A finding as the engine's case outcome (detail: what rapidcheck prints while shrinking).
CaseOutcome sweep_outcome(const std::string& property, const Finding& f) {
  CaseOutcome out;
  out.judgement.holds = f.holds;
  out.judgement.values = f.values;
  if (!f.holds) out.judgement.detail = property + " violated";
  return out;
}

SchemeSpec projection_spec(const std::string& spec) {
  SchemeSpec s = SchemeSpec::parse(spec);
  for (const auto& [key, value] : s.options())
    if (key != "set")
      throw SpecError("projection:" + key, "unknown option; projection accepts: set");
  if (!s.has("set")) s.set("set", "box");
  const std::string set = s.text("set");
  if (set != "box" && set != "half-space" && set != "ball" && set != "polyhedron" &&
      set != "finite")
    throw SpecError(
        "projection:set",
        "'" + set + "' is not accepted; choices: box, half-space, ball, polyhedron, finite");
  return s;
}

template <class Scalar>
std::unique_ptr<ProjectionProvider<Scalar>> random_set(const std::string& type, Index n,
                                                       SweepDraw& rng) {
  auto num = [&](long range) { return scalar_cast<Scalar>(rng.rational(range)); };
  if (type == "box") {
    std::vector<std::optional<Scalar>> lo(n), hi(n);
    for (Index i = 0; i < n; ++i) {
      const Scalar a = num(6), width = abs_value<Scalar>(num(6));
      if (rng.integer(0, 4) > 0) lo[i] = a;
      if (rng.integer(0, 4) > 0) hi[i] = a + width;
    }
    return std::make_unique<BoxProjection<Scalar>>(lo, hi);
  }
  if (type == "half-space") {
    Vector<Scalar> a(n);
    do {
      for (Index i = 0; i < n; ++i) a(i) = num(4);
    } while (max_abs(a) == Scalar(0));
    return std::make_unique<HalfSpaceProjection<Scalar>>(a, num(6));
  }
  if (type == "polyhedron") {
    const Index m = rng.integer(1, 5);
    Matrix<Scalar> A(m + 2 * n, n);
    Vector<Scalar> b(m + 2 * n);
    for (Index r = 0; r < m; ++r) {
      do {
        for (Index i = 0; i < n; ++i) A(r, i) = num(4);
      } while (max_abs(A.row(r)) == Scalar(0));
      b(r) = abs_value<Scalar>(num(6));  // 0 in C: never empty
    }
    for (Index i = 0; i < n; ++i) {  // inside the box |x_i| <= 5: bounded
      A.row(m + 2 * i).setZero();
      A.row(m + 2 * i + 1).setZero();
      A(m + 2 * i, i) = Scalar(1);
      A(m + 2 * i + 1, i) = Scalar(-1);
      b(m + 2 * i) = b(m + 2 * i + 1) = Scalar(5);
    }
    return std::make_unique<PolyhedronProjection<Scalar>>(A, b);
  }
  if (type == "ball") {
    if constexpr (has_transcendentals_v<Scalar>) {
      Vector<Scalar> c(n);
      for (Index i = 0; i < n; ++i) c(i) = num(4);
      return std::make_unique<BallProjection<Scalar>>(c, abs_value<Scalar>(num(4)));
    }
  }
  // finite
  std::vector<Vector<Scalar>> points;
  const long count = rng.integer(1, 4);
  for (long k = 0; k < count; ++k) {
    Vector<Scalar> z(n);
    for (Index i = 0; i < n; ++i) z(i) = num(4);
    points.push_back(z);
  }
  return std::make_unique<FiniteSetProjection<Scalar>>(points);
}

template <class Scalar>
Vector<Scalar> random_point(Index n, SweepDraw& rng) {
  Vector<Scalar> y(n);
  for (Index i = 0; i < n; ++i) y(i) = scalar_cast<Scalar>(rng.rational(12));
  return y;
}

Verdict make_verdict(const std::string& spec, const std::string& property) {
  Verdict v;
  v.scheme = spec;
  v.property = property;
  for (const auto& d : sweep_descriptions())
    if (d.name == property) v.statement = d.statement;
  return v;
}

/// The verdict of the engine's search (cases_run, failing_case; on a failure the finding's
/// values, the command and the reproduce string). True if the property failed.
template <class Case>
bool take_search(Verdict& v, const SearchResult<Case>& found, const CheckOptions& options,
                 bool claimed) {
  v.cases_run = found.cases_run;
  v.failing_case = found.failing_index;
  if (found.end == SearchEnd::passed) return false;
  v.outcome = Outcome::fail;
  if (found.end == SearchEnd::rapidcheck_failure || found.end == SearchEnd::rapidcheck_error) {
    v.note = "rapidcheck " +
             std::string(found.end == SearchEnd::rapidcheck_error ? "error" : "failure") + ": " +
             found.rapidcheck_message;
    return true;
  }
  v.note = found.end == SearchEnd::designed_failure ? "designed search found a counterexample"
                                                    : random_failure_note(found);
  Counterexample c;
  c.values = found.outcome.judgement.values;
  c.command = fmt::format("nsh check --scheme {} --property {} --cases {} --seed {}{}{}", v.scheme,
                          v.property, options.cases, options.seed, claimed ? "" : " --force",
                          shard_suffix(options));
  c.reproduce = found.reproduce;
  v.counterexample = c;
  return true;
}

template <class Case>
CaseSearch<Case> sweep_search(const Verdict& v) {
  CaseSearch<Case> search;
  search.id = "nsh_check/" + v.scheme + "/" + v.property;
  return search;
}

template <class Scalar>
struct ProjectionCase {
  std::shared_ptr<const ProjectionProvider<Scalar>> set;
  Vector<Scalar> y1, y2;
};

template <class Scalar>
Verdict check_projection(Verdict v, const std::string& set_type, const CheckOptions& options,
                         bool claimed) {
  const std::string property = v.property;
  auto search = sweep_search<ProjectionCase<Scalar>>(v);
  search.evaluate = [property](const ProjectionCase<Scalar>& c) {
    const ProjectionProvider<Scalar>& C = *c.set;
    if (property == "projection_nonexpansive")
      return sweep_outcome(property, projection_nonexpansive(C, c.y1, c.y2));
    if (property == "projection_idempotent")
      return sweep_outcome(property, projection_idempotent(C, c.y1));
    return sweep_outcome(property, projection_variational_inequality(C, c.y1, c.y2));
  };
  // Designed first: seed 004's C = {-1, 1} where the set is finite.
  if (set_type == "finite") {
    const Scalar tenth = Scalar(1) / 10;
    const bool nonexpansive = property == "projection_nonexpansive";
    search.designed.push_back(
        {std::make_shared<FiniteSetProjection<Scalar>>(std::vector<Vector<Scalar>>{
             Vector<Scalar>::Constant(1, Scalar(-1)), Vector<Scalar>::Constant(1, Scalar(1))}),
         Vector<Scalar>::Constant(1, nonexpansive ? Scalar(-tenth) : Scalar(1) / 2),
         Vector<Scalar>::Constant(1, nonexpansive ? tenth : Scalar(-1))});
  }
  const std::vector<std::string> types =
      set_type.empty() ? std::vector<std::string>{"box", "half-space", "polyhedron"}
                       : std::vector<std::string>{set_type};
  search.draw = [types] {
    SweepDraw draw;
    const std::string& type =
        types[static_cast<std::size_t>(draw.integer(0, static_cast<long>(types.size()) - 1))];
    const Index n = draw.integer(1, 3);
    ProjectionCase<Scalar> c;
    c.set = random_set<Scalar>(type, n, draw);
    c.y1 = random_point<Scalar>(n, draw);
    c.y2 = random_point<Scalar>(n, draw);
    return c;
  };
  const auto found = search_cases(search, options);
  if (take_search(v, found, options, claimed)) {
    if (found.end == SearchEnd::designed_failure)
      v.note = "designed case (seed 004, C = {-1, 1}) violates it: C is not convex";
    return v;
  }
  v.outcome = Outcome::pass;
  return v;
}

SweepingCase<Q> penalty_line_case() {
  return load_sweeping_case<Q>(read_case_file(locate_case("penalty-line")));
}

Verdict check_penalty(Verdict v, const std::string& spec, const CheckOptions& options,
                      bool claimed) {
  const SchemeSpec resolved = FirstOrderRegistry::builtin().resolve(spec);
  const Q kappa = resolved.number<Q>("kappa");
  const bool implicit = resolved.text("method") == "implicit";
  const bool stability = v.property == "penalty_stability";
  // The sharp step bound of the explicit claim (in units of 1/kappa): 2 (stability), 1 (band).
  const Q bound = stability ? Q(2) : Q(1);
  const auto line = penalty_line_case();
  int inside = 0, outside = 0;
  // A case is the ratio h kappa.
  auto search = sweep_search<Q>(v);
  search.designed = {bound, bound / 2, bound * Q(1001) / 1000, bound * Q(3) / 2,
                     Q(10) * bound};  // on, inside and outside the bound
  search.draw = [implicit] {
    return Q(SweepDraw{}.integer(1, 300)) / 100 * (implicit ? Q(10) : Q(1));
  };
  search.evaluate = [&](const Q& r) {
    auto c = line;
    const Q h = r / kappa;
    c.T = Q(100) * h;
    const auto t = run_first_order<Q>(resolved.str(), c, h);
    Finding f = stability ? penalty_stability(t, kappa, h) : penalty_convergence(t, kappa);
    (r <= bound ? inside : outside) += 1;
    if (!f.holds && std::none_of(f.values.begin(), f.values.end(),
                                 [](const auto& kv) { return kv.first == "h kappa"; }))
      f.values.emplace_back("h kappa", format_scalar(r));
    return sweep_outcome(v.property, f);
  };
  if (take_search(v, search_cases(search, options), options, claimed)) return v;
  v.note =
      fmt::format("h kappa <= {}: {} cases, 0 violations; h kappa > {}: {} cases, 0 violations",
                  format_scalar(bound), inside, format_scalar(bound), outside);
  v.outcome = Outcome::pass;
  return v;
}

Verdict check_catching_up(Verdict v, const CheckOptions& options, bool claimed) {
  const auto c = load_sweeping_case<Q>(read_case_file(locate_case("sweeping-interval")));
  // A case is the step h.
  auto search = sweep_search<Q>(v);
  search.designed = {Q(1), Q(1) / 2, Q(3) / 10, Q(2) / 3};
  search.draw = [] {
    SweepDraw draw;
    const long a = draw.integer(1, 20);
    return Q(a) / Q(draw.integer(a, 60));
  };
  search.evaluate = [&](const Q& h) {
    return sweep_outcome(v.property,
                         catching_up_error_bound(run_first_order<Q>("catching-up", c, h), h));
  };
  if (take_search(v, search_cases(search, options), options, claimed)) return v;
  v.outcome = Outcome::pass;
  return v;
}

struct Penalty2Case {
  LinearModel<Q> model;
  State<Q> x0;
  Q h;
};

Verdict check_penalty2(Verdict v, const std::string& spec, const CheckOptions& options,
                       bool claimed) {
  const SchemeSpec resolved = Registry::builtin().resolve(spec);
  const Q kappa = resolved.number<Q>("kappa");
  const bool implicit = resolved.text("method") == "implicit";
  const bool penetration = v.property == "penalty2_penetration_bound";
  auto search = sweep_search<Penalty2Case>(v);
  search.draw = [penetration] {
    SweepDraw rng;
    Penalty2Case c;
    const Index n = rng.integer(1, 2);
    LinearModel<Q>& model = c.model;
    model.name = "penalty2-random";
    model.M = Matrix<Q>::Zero(n, n);
    model.K = Matrix<Q>::Zero(n, n);
    model.C = Matrix<Q>::Zero(n, n);
    for (Index i = 0; i < n; ++i) {
      model.M(i, i) = Q(rng.integer(1, 4));
      if (rng.coin()) model.K(i, i) = Q(rng.integer(0, 20));
      if (rng.coin()) model.C(i, i) = Q(rng.integer(0, 3)) / 2;
    }
    model.G = Matrix<Q>::Zero(n, 1);
    model.G(0, 0) = Q(1);
    for (Index i = 1; i < n; ++i) model.G(i, 0) = Q(rng.integer(-2, 2)) / 2;
    fill_defaults(model);
    if (!penetration)
      for (Index i = 0; i < n; ++i) model.F(i) = Q(rng.integer(-20, 5));
    c.x0.q = Vector<Q>::Zero(n);
    c.x0.v = Vector<Q>::Zero(n);
    c.x0.q(0) = Q(rng.integer(-2, 10)) / 100;  // slightly penetrated to slightly open
    c.x0.v(0) = -Q(rng.integer(0, 40)) / 10;   // approaching
    c.h = Q(1) / Q(rng.integer(5, 200));
    return c;
  };
  search.evaluate = [&](const Penalty2Case& c) {
    auto scheme = Registry::builtin().make<Q>(resolved.str());
    const Q H0 = c.model.energy(c.x0.q, c.x0.v) +
                 (c.x0.q(0) < Q(0) ? kappa * c.x0.q(0) * c.x0.q(0) / 2 : Q(0));
    Finding failed;
    simulate<Q>(*scheme, c.model, c.x0, c.h, Q(20) * c.h,
                [&](const State<Q>&, const StepSummary<Q>& s) {
                  if (!failed.holds) return;
                  failed = penetration ? penalty2_penetration_bound(s, kappa, H0)
                                       : penalty2_energy_balance(s, kappa, implicit);
                });
    return sweep_outcome(v.property, failed);
  };
  const auto found = search_cases(search, options);
  if (take_search(v, found, options, claimed)) {
    if (found.failing) {
      const Penalty2Case& c = *found.failing;
      v.counterexample->case_file =
          write_linear_case<Q>("penalty2-counterexample", c.model, c.x0, Q(20) * c.h, c.h);
      // The same form as the scheme provider's hint (runner.cpp), in Rational where it failed.
      v.counterexample->simulate_hint =
          fmt::format("nsh simulate FILE --scheme '{}' --h {} --T {} --precision rational",
                      resolved.str(), format_scalar(c.h), format_scalar(Q(20) * c.h));
    }
    return v;
  }
  v.outcome = Outcome::pass;
  return v;
}

class SweepProvider final : public PropertyProvider {
 public:
  std::string name() const override { return "sweep"; }
  bool handles_scheme(const std::string& spec) const override {
    const std::string f = family_of(spec);
    return f == "catching-up" || f == "penalty" || f == "penalty2" || f == "projection";
  }
  std::vector<std::string> schemes() const override {
    return {"catching-up",
            "penalty:kappa=1000,method=explicit",
            "penalty:kappa=1000,method=implicit",
            "projection:set=box",
            "projection:set=half-space",
            "projection:set=ball",
            "projection:set=polyhedron",
            "projection:set=finite"};
  }
  std::vector<PropertyDescription> properties() const override { return sweep_descriptions(); }
  bool applies(const std::string& spec, const std::string& property) const override {
    return applicable(family_of(spec), property);
  }
  std::string canonical(const std::string& spec) const override {
    const std::string f = family_of(spec);
    if (f == "projection") return projection_spec(spec).str();
    if (f == "penalty2") return Registry::builtin().resolve(spec).str();
    return FirstOrderRegistry::builtin().resolve(spec).str();
  }
  /// The schemes' claims come from their registry entries (claims.cpp), found from the info
  /// the scheme itself reports, as for every provider. A projection is not a scheme but the
  /// set operator the catching-up step applies: its three properties hold on convex sets, and
  /// seed 004's finite set C = {-1, 1} is the designed counterexample.
  bool claims(const std::string& spec, const std::string& property) const override {
    const std::string f = family_of(spec);
    if (!applicable(f, property)) return false;
    if (f == "projection") return projection_spec(spec).text("set") != "finite";
    const std::vector<Claim> claimed =
        f == "penalty2" ? claims_of(Registry::builtin().make<double>(spec)->info())
                        : claims_of(FirstOrderRegistry::builtin().make<double>(spec)->info());
    return std::any_of(claimed.begin(), claimed.end(),
                       [&](const Claim& c) { return c.property == property; });
  }
  Verdict check(const std::string& spec, const std::string& property,
                const CheckOptions& options) const override {
    const std::string canon = canonical(spec);
    Verdict v = make_verdict(canon, property);
    const std::string f = family_of(spec);
    if (!known(property) || !applicable(f, property)) {
      v.outcome = Outcome::not_applicable;
      return v;
    }
    const bool claimed = claims(spec, property);
    if (!claimed && !options.force) {
      v.outcome = Outcome::not_claimed;
      return v;
    }
    if (f == "projection") {
      const std::string set = projection_spec(spec).text("set");
      if (set == "ball") return check_projection<double>(v, set, options, claimed);
      return check_projection<Q>(v, set, options, claimed);
    }
    if (f == "catching-up") {
      if (property == "catching_up_error_bound") return check_catching_up(v, options, claimed);
      return check_projection<Q>(v, "", options, claimed);
    }
    if (f == "penalty") return check_penalty(v, spec, options, claimed);
    return check_penalty2(v, spec, options, claimed);
  }
  bool shards_cases() const override { return true; }
  bool pass_note_counts_cases() const override { return true; }
};

}  // namespace

void register_sweep_properties() {
  register_provider(std::make_shared<SweepProvider>());
}

}  // namespace nsh::properties
