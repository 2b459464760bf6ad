// The claims of the built-in schemes (claims.hpp). Each entry cites the theorem it rests on.
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/properties/property_names.hpp>

#include <any>
#include <mutex>

namespace nsh::properties {
namespace {

/// The text of a resolved option or parameter the scheme reports it steps with
/// (SchemeInfo::parameters); never a default of the claims' own.
const std::string& reported(const SchemeInfo& info, const std::string& key) {
  const auto it = info.parameters.find(key);
  if (it == info.parameters.end())
    throw SpecError(info.spec, "the scheme reports no parameter '" + key +
                                   "' (SchemeInfo::parameters), which its claims read");
  return it->second;
}

/// An exact parameter the scheme reports it steps with.
Rational parameter(const SchemeInfo& info, const std::string& key) {
  return parse_rational(reported(info, key), info.spec + ": parameter " + key);
}

Claim claim(const std::string& property, const std::string& domain, CaseDomain cases = {}) {
  return Claim{property, domain, cases, {}};
}

SchemeSpec with(SchemeSpec spec, const std::string& key, const std::string& value) {
  spec.set(key, value);
  return spec;
}

/// Moreau–Jean (docs/theory.md §2.1–2.4, Acary ZAMM 2016; with friction §9.1–9.2). Keyed to
/// SchemeInfo::friction: a scheme that steps frictional models is held to its claims on them
/// too (the generators draw them), one that does not keeps its claims on frictionless models.
std::vector<Claim> moreau_jean_claims(const SchemeInfo& info) {
  const SchemeSpec spec = SchemeSpec::parse(info.spec);
  const Rational theta = parameter(info, "theta");
  const bool velocity_rule = reported(info, "activation") == "position-velocity";
  const bool friction = info.friction;
  const Rational half = Rational(1) / 2;
  CaseDomain any;
  any.friction = friction;
  const std::string also = friction ? "; frictional models too (docs/theory.md §9.1)" : "";
  std::vector<Claim> out;
  out.push_back(claim("energy_identity",
                      "every theta, e, C, F, index rule (docs/theory.md §2.3: exact one-step "
                      "identity; with friction W_contact carries U_T,{k+theta}^T P_T, §9.1)",
                      any));
  out.push_back(
      claim("signorini_complementarity", "every parameter (the impulse LCP of 2.1)" + also, any));
  out.push_back(
      claim("newton_restitution", "every parameter (the impulse LCP of 2.1)" + also, any));
  out.push_back(claim("lcp_certificate",
                      "every parameter (certified one-step solve; with friction its normal part)",
                      any));
  out.push_back(claim("momentum_balance",
                      "every parameter (c^T of the momentum equation, 2.1; with friction the "
                      "tangential impulses along G_T^T c)",
                      any));
  out.push_back(claim("penetration_bound",
                      "every theta in [0, 1] (velocity-level constraint on the index set)" + also,
                      any));
  out.push_back(claim("double_vs_real50", "every parameter" + also, any));
  out.push_back(claim("observed_order", "smooth phases; order 2 iff theta = 1/2"));
  if (friction) {
    out.push_back(claim("coulomb_cone",
                        "every parameter (the friction problem's cone, docs/theory.md §9.1)", any));
    out.push_back(claim("maximal_dissipation",
                        "every parameter (stick or slide of the friction problem, §9.1)", any));
    out.push_back(claim("friction_certificate",
                        "every parameter (certified one-step friction solve, docs/friction.md)",
                        any));
    // docs/theory.md §9.1: U_T,{k+theta}^T P_T is P_T^T U_T+ <= 0 at theta = 1 only; a slip
    // stopped within the step gives (1 - theta) U_T,k^T P_T > 0 below.
    if (theta == 1) {
      Claim c = claim("friction_work_nonpositive",
                      "theta = 1 (docs/theory.md §9.1: U_T,{k+1}^T P_T <= 0 by maximal "
                      "dissipation), every e",
                      any);
      c.outside.push_back({with(spec, "theta", "49/50").str(), any,
                           "theta = 49/50 < 1: a slip stopped by stick within the step"});
      out.push_back(c);
    }
  }
  if (velocity_rule) {
    // docs/theory.md §9.2: with friction 1/2 P^T (U+ + U-) is the impact's Delta K only on a
    // pure impulse step, <= 0 for e = 0, and positive for e = 1 with W_NT != 0 (Kane–Levinson).
    CaseDomain impact = any;
    impact.friction_e_hi = 0;
    impact.friction_pure_impulse = true;
    Claim c = claim("impact_work_nonpositive",
                    std::string("activation=position-velocity (U_k <= 0 wherever P > 0; "
                                "Thomson–Tait)") +
                        (friction ? "; on frictional models e = 0 and pure impulse steps, F = K "
                                    "= C = 0 (docs/theory.md §9.2)"
                                  : ""),
                    impact);
    CaseDomain zero;
    zero.e_hi = 0;
    c.outside.push_back({with(spec, "activation", "position").str(), zero,
                         "activation=position: a penetrated contact separating slowly gets P > 0"});
    if (friction) {
      CaseDomain kane;
      kane.friction = true;
      kane.e_lo = kane.e_hi = 1;
      kane.friction_pure_impulse = true;
      c.outside.push_back(
          {spec.str(), kane,
           "friction with e = 1 and W_NT != 0: Kane–Levinson, Delta K = +1 (docs/theory.md §9.2)"});
    }
    out.push_back(c);
  }
  // docs/theory.md §2.4: 1/2 <= theta <= 1/(1 + max e), with the velocity condition in the index
  // set. With friction (§9.1) the tangential term (1 - theta) U_T,k^T P_T + theta U_T+^T P_T has
  // no sign for theta < 1: the claim covers frictional models at theta = 1 (then e = 0) only.
  if (velocity_rule && theta >= half) {
    CaseDomain dissipation;
    dissipation.friction = friction && theta == 1;
    Claim c =
        claim("moreau_jean_energy_dissipation",
              "1/2 <= theta <= 1/(1 + max e), activation=position-velocity (docs/theory.md §2.4); "
              "here e <= 1/theta - 1 = " +
                  format_scalar(Rational(1) / theta - 1) +
                  (friction ? (theta == 1 ? "; frictional models too (docs/theory.md §9.1)"
                                          : "; frictionless models only (with friction theta = "
                                            "1, docs/theory.md §9.1)")
                            : ""),
              dissipation);
    c.cases.e_hi = std::min(Rational(1), Rational(1) / theta - 1);
    for (const Rational& e : {Rational(1) / 5, Rational(1) / 2, Rational(1)}) {
      const Rational past = Rational(1) / (1 + e) + Rational(1) / 50;
      if (past > 1) continue;
      CaseDomain at;
      at.e_lo = at.e_hi = e;
      c.outside.push_back({with(spec, "theta", format_scalar(past)).str(), at,
                           "theta = 1/(1+e) + 1/50 with e = " + format_scalar(e)});
    }
    CaseDomain zero;
    zero.e_hi = 0;
    // The separating-slowly violation of the position-only index set shows at theta = 1/2.
    c.outside.push_back(
        {with(with(spec, "activation", "position"), "theta", "1/2").str(), zero,
         "activation=position (docs/theory.md §2.4: +7.8e-4 at theta = 1/2, e = 0)"});
    c.outside.push_back({with(spec, "theta", "9/20").str(), zero, "theta = 9/20 < 1/2"});
    if (friction) {
      // The boundary with friction: theta just below 1 (or this theta, when it is below 1) on
      // a slip stopped by stick within the step (docs/theory.md §9.1).
      CaseDomain slip;
      slip.friction = true;
      slip.e_hi = 0;
      const std::string below = theta == 1 ? std::string("49/50") : format_scalar(theta);
      c.outside.push_back(
          {with(spec, "theta", below).str(), slip,
           "friction at theta = " + below + " < 1: a slip stopped by stick within the step"});
    }
    out.push_back(c);
  }
  return out;
}

/// Nonsmooth Newmark / HHT / generalized-alpha and Krenk–Høgsberg (docs/theory.md §3, the claim
/// domains stated in nsh/schemes/newmark/generalized_alpha.hpp and krenk_hogsberg.hpp).
std::vector<Claim> newmark_claims(const SchemeInfo& info, bool krenk) {
  const SchemeSpec spec = SchemeSpec::parse(info.spec);
  // The parameters the scheme steps with (its rho -> (alpha_m, alpha_f, gamma, beta) map is
  // the scheme's own; the claims do not derive them again).
  const Rational am = parameter(info, "alpha_m"), af = parameter(info, "alpha_f");
  const Rational beta = parameter(info, "beta"), gamma = parameter(info, "gamma");
  const bool smooth_law = reported(info, "impact") == "smooth";
  const bool velocity_rule = reported(info, "activation") == "position-velocity";
  const Rational half = Rational(1) / 2;
  std::vector<Claim> out;
  out.push_back(
      claim("energy_identity", "every parameter set (exact ledger, docs/theory.md §3.2)"));
  out.push_back(claim("signorini_complementarity", "every parameter (impulse LCP)"));
  out.push_back(claim("newton_restitution", "every parameter (impulse LCP)"));
  out.push_back(claim("lcp_certificate", "every parameter (certified one-step solve)"));
  out.push_back(
      claim("momentum_balance",
            "F constant (external_impulse exact along K c = C c = 0, impulses along G^T c)"));
  out.push_back(claim("double_vs_real50", "every parameter"));
  out.push_back(
      claim("observed_order", "smooth phases; order 2 iff gamma = 1/2 + alpha_f - alpha_m"));
  // Impact work (the Thomson–Tait form with the Newton law's pre-impact velocity).
  CaseDomain impact;
  std::string impact_text;
  // Moreau's law (impact=previous) with e > 0 is excluded even with the velocity condition:
  // docs/theory.md §3.4's spring case has U_k = -1 <= 0 and still W_contact = +0.376, because
  // smooth forces slow the approach during the step (|U~_{k+1}| < e |U_k|). Without the velocity
  // condition Moreau's law has no sign at all: docs/theory.md §2.4's penetrated contact separating
  // slowly gets P > 0 with U_k > 0, so W_contact = 1/2 U_k P > 0 at e = 0.
  const bool impact_claimed = smooth_law || velocity_rule;
  if (!smooth_law) {
    impact.e_hi = 0;
    impact_text = "impact=previous, activation=position-velocity: e = 0 only (docs/theory.md §3.4)";
  } else if (velocity_rule) {
    impact_text = "impact=smooth, activation=position-velocity, any e";
  } else {
    impact.uniform_e = true;
    impact_text = "impact=smooth with one e for every contact";
  }
  if (impact_claimed) out.push_back(claim("impact_work_nonpositive", impact_text, impact));
  // Algorithmic energy decay.
  bool parameters_ok = false;
  std::string parameters_text;
  if (krenk) {
    parameters_ok = am <= af && af <= half && am < half && gamma >= half && beta >= gamma / 2;
    parameters_text = "alpha_m <= alpha_f <= 1/2, alpha_m < 1/2, gamma >= 1/2, beta >= gamma/2";
  } else {
    parameters_ok = gamma == half + af - am && am <= af && af <= half && beta >= gamma / 2;
    parameters_text = "gamma = 1/2 + alpha_f - alpha_m, alpha_m <= alpha_f <= 1/2, beta >= gamma/2";
  }
  if (parameters_ok && impact_claimed) {
    CaseDomain decay = impact;
    decay.damping = krenk;  // Newmark family: E_alg needs C = 0
    decay.stiffness_spd = true;
    Claim c = claim("algorithmic_energy_decay",
                    parameters_text + "; F constant, K SPD" + (krenk ? "" : ", C = 0") + "; " +
                        impact_text + " (docs/theory.md §3.2)",
                    decay);
    if (smooth_law) {
      CaseDomain one;
      one.e_lo = one.e_hi = 1;
      one.stiffness_spd = true;
      one.damping = false;
      c.outside.push_back(
          {with(spec, "impact", "previous").str(), one,
           "impact=previous with e = 1 (docs/theory.md §3.4: Delta E_alg = +0.376)"});
    }
    out.push_back(c);
  }
  return out;
}

/// Event-driven reference (nsh/schemes/event_driven.hpp), judged on its events by the
/// event-driven provider (event_provider.cpp): Newton's law and the impact LCP at each
/// impact, Thomson–Tait, the exact flow's energy, and an event-aware precision comparison.
std::vector<Claim> event_driven_claims(const SchemeInfo&) {
  CaseDomain elastic;
  elastic.e_lo = elastic.e_hi = 1;
  elastic.damping = false;
  // One contact: at a simultaneous impact the velocity-level law gives a contact at g = 0 that
  // separates (U- > 0) an impulse with U+ = 0, which changes E even with e = 1.
  elastic.max_contacts = 1;
  return {
      claim("newton_restitution", "every e, C, F (Newton's law at each impact event)"),
      claim("signorini_complementarity",
            "every parameter (impact LCP at each impact, g >= 0 on the grid)"),
      claim("impact_work_nonpositive",
            "every parameter; W <= 0 where U- <= 0 wherever P > 0 (Thomson–Tait)"),
      claim("energy_conservation", "e = 1, C = 0, F constant, one contact (exact flow)", elastic),
      claim("double_vs_real50",
            "every parameter (event-aware: event times within the location tolerance, "
            "grid points away from events)")};
}

/// Second-order penalty (nsh/schemes/penalty2.hpp): a regularized contact, so no impulse
/// LCP and no dissipation of E alone (the spring stores energy while the contact is
/// penetrated); its own energy balance with the stored energy is the sweep provider's
/// penalty2_energy_balance, claimed here with the shared properties.
std::vector<Claim> penalty2_claims(const SchemeInfo& info) {
  std::vector<Claim> out{
      claim("energy_identity", "every kappa, damping, method (exact discrete ledger)"),
      claim("momentum_balance", "every parameter (contact forces lie along G)"),
      claim("penetration_bound", "every parameter (a gap deepens by at most 2 h |U|)"),
      claim("double_vs_real50", "every parameter"),
      claim("observed_order", "smooth phases, order 1"),
      // The sweep provider's (sweep_provider.cpp): the ledger with the stored energy holds
      // for both methods; its sign conditions and the penetration bound need E + V to be
      // nonincreasing, which only the implicit spring gives.
      claim("penalty2_energy_balance",
            "every kappa, damping, method (W_contact = V - V' + W_dashpot - D_spring; the "
            "signs of D, D_spring, W_dashpot, W_damp: implicit)")};
  if (reported(info, "method") == "implicit")
    out.push_back(
        claim("penalty2_penetration_bound", "method = implicit, F = 0 (E + V nonincreasing)"));
  return out;
}

/// Catching-up (nsh/first_order/catching_up.hpp, seed 004): x_{k+1} = P_C(x_k + h f); its
/// steps are certified projections onto closed convex sets, and on the sweeping interval its
/// error is the closed form s(h - s)/h <= h (docs/theory.md, seed 004).
std::vector<Claim> catching_up_claims(const FirstOrderSchemeInfo&) {
  return {claim("projection_nonexpansive", "every h (C closed convex)"),
          claim("projection_idempotent", "every h"),
          claim("projection_variational_inequality", "every h (C closed convex)"),
          claim("catching_up_error_bound", "sweeping-interval, every h in (0, 1]")};
}

/// The first-order penalty (nsh/first_order/penalty.hpp): the implicit step keeps the penalty
/// line's y_k in [-1/kappa, 0] for every h; the explicit one only for h kappa <= 1 (and is
/// stable iff h kappa <= 2), a bound on h the random cases do not respect, so it claims
/// nothing (nsh check --force shows the counterexample).
std::vector<Claim> penalty_claims(const FirstOrderSchemeInfo& info) {
  if (SchemeSpec::parse(info.spec).text("method") != "implicit") return {};
  return {claim("penalty_convergence", "method = implicit, every h and kappa"),
          claim("penalty_stability", "method = implicit, every h and kappa")};
}

/// Half-explicit time-discontinuous Galerkin (nsh/schemes/half_explicit_tdg.hpp,
/// docs/half-explicit-tdg.md, docs/theory.md §4). The recorded LCP is the step's last one (the
/// impact law on A_{n+1}, or 0 <= G^T u_{n+1} _|_ lambda_2), so the impulse-LCP properties hold
/// as for Moreau–Jean; the forecast force h/2 lambda_1 enters the momentum balance through
/// forecast_impulse. Not claimed: energy_identity and any energy inequality (the smooth part is
/// velocity Verlet without damping and contact: E is not monotone), and penetration_bound (the
/// position penetrates about 0.86 h |U-| at an impact, docs/half-explicit-tdg.md).
std::vector<Claim> half_explicit_tdg_claims(const SchemeInfo& info) {
  // Keyed to SchemeInfo::friction as Moreau–Jean's: the scheme is held to its claims on
  // frictional models too (the last problem is then the friction problem, its normal part the
  // recorded LCP); the mutants, frictionless, keep them on frictionless models.
  CaseDomain any;
  any.friction = info.friction;
  const std::string also = info.friction ? "; frictional models too (docs/theory.md §9.1)" : "";
  CaseDomain uniform;
  uniform.uniform_e = true;
  std::vector<Claim> out{
      claim("signorini_complementarity",
            "every parameter (the last LCP of the step: Newton's law with U* at an impact, "
            "0 <= G^T u_{n+1} _|_ lambda_2 otherwise, on A_{n+1})" +
                also,
            any),
      claim("newton_restitution", "every parameter (U_newton = G^T u* at an impact step)" + also,
            any),
      claim("lcp_certificate",
            "every parameter (prox Newton stopped on the certificate, else the fallback; with "
            "friction the normal part)",
            any),
      claim("momentum_balance",
            "every parameter (external_impulse = h/2 (F_n + F_{n+1}); contact impulses "
            "Lambda or h/2 (lambda_1 + lambda_2) along G and G_T)",
            any),
      claim("impact_work_nonpositive",
            "frictionless models with one restitution e for every contact: 1/2 (U+ + U*)^T "
            "Lambda = -(1-e)/(2(1+e)) Lambda^T W Lambda (docs/theory.md §1); 0 at a "
            "non-impulsive step",
            uniform),
      claim("double_vs_real50", "every parameter" + also, any),
      claim("observed_order",
            "smooth phases, order 2 (velocity Verlet without contact and damping)")};
  if (info.friction) {
    out.push_back(claim("coulomb_cone",
                        "every parameter (the last friction problem's cone, docs/theory.md §9.1)",
                        any));
    out.push_back(claim("maximal_dissipation",
                        "every parameter (stick or slide of the last friction problem, §9.1)",
                        any));
    out.push_back(claim("friction_certificate",
                        "every parameter (certified one-step friction solve, docs/friction.md)",
                        any));
  }
  return out;
}

/// The forecasting trapezoidal rule (nsh/schemes/forecasting_trapezoidal.hpp,
/// docs/half-explicit-tdg.md): half-explicit-tdg's stages with the non-impulsive constraints on
/// acceleration level. Its velocity-level impulse LCP is the impact problem only (a non-impulsive
/// step records an empty index set and its contact impulse as forecast_impulse), so the
/// impulse-LCP properties judge the impact steps and momentum_balance every step. Not claimed, as
/// for half-explicit-tdg: energy_identity, any energy inequality, penetration_bound.
std::vector<Claim> forecasting_trapezoidal_claims(const SchemeInfo& info) {
  // half-explicit-tdg's list (the same impact step, smooth part and solvers), restated where the
  // record differs. The impact LCP is the only velocity-level LCP this scheme records, so
  // simultaneous impacts (two positive impulses in one step) are rarer than for
  // half-explicit-tdg, whose resting contacts count too: on the frictional domain 4% of the
  // random cases had one, below the 5% coverage minimum of signorini_complementarity and
  // lcp_certificate, which are therefore searched on frictionless models (the impact friction
  // problem is judged by coulomb_cone, maximal_dissipation and friction_certificate).
  std::vector<Claim> out = half_explicit_tdg_claims(info);
  for (Claim& c : out) {
    if (c.property == "signorini_complementarity" || c.property == "lcp_certificate") {
      c.cases.friction = false;
      c.domain =
          "frictionless models (the impact LCP, Newton's law with U* on the closed set, prox "
          "Newton stopped on the certificate, else the fallback; a non-impulsive step poses its "
          "constraints on acceleration level and records no velocity-level LCP)";
    } else if (c.property == "momentum_balance") {
      c.domain =
          "every parameter (external_impulse = h/2 (F_n + F_{n+1}); Lambda at an impact, "
          "h/2 (lambda_1 + lambda_2) as forecast_impulse otherwise, along G and G_T)";
    }
  }
  return out;
}

/// The discrete Lagrange-d'Alembert integrator (nsh/schemes/dla.hpp), judged by the
/// nonholonomic provider (nonholonomic_provider.cpp) on the catalogue's nonholonomic models:
/// THEORY 5's list (docs/nonholonomic.md "Properties and claims").
std::vector<Claim> dla_claims(const SchemeInfo&) {
  return {claim("nonholonomic_admissible", "every node of every run (impact steps included)"),
          claim("nonholonomic_discrete_constraints",
                "every segment, regular or impact sub-step (midpoint constraint)"),
          claim("nonholonomic_smooth_energy", "between impacts (V = 0 and constant M: exact)"),
          claim("nonholonomic_impact_point", "every impact (5a) solves g_j(q_bar) = 0"),
          claim("nonholonomic_impact_multiplier", "every impact (5c)"),
          claim("nonholonomic_impact_reflection",
                "every impact: (5c)-(5d) tends to the continuous reflection as h -> 0"),
          claim("nonholonomic_impact_energy_order",
                "the jump of the sub-steps alpha h, (1 - alpha) h: nonzero, O(h^2)")};
}

}  // namespace

void set_claims(SchemeEntry& entry, ClaimFunction claims) {
  if (!claims) throw SpecError(entry.name, "set_claims: an empty claim function");
  entry.claims = std::move(claims);
}

void register_scheme(SchemeEntry entry, ClaimFunction claims, Registry& registry) {
  set_claims(entry, std::move(claims));
  registry.add(std::move(entry));
}

void attach_builtin_claims(Registry& registry) {
  const auto attach = [&](const char* name, ClaimFunction claims) {
    if (registry.contains(name)) set_claims(registry.find(name), std::move(claims));
  };
  attach("moreau-jean", moreau_jean_claims);
  for (const char* name : {"newmark", "hht", "gen-alpha"})
    attach(name, [](const SchemeInfo& i) { return newmark_claims(i, false); });
  attach("krenk-hogsberg", [](const SchemeInfo& i) { return newmark_claims(i, true); });
  attach("event-driven", event_driven_claims);
  attach("penalty2", penalty2_claims);
  attach("half-explicit-tdg", half_explicit_tdg_claims);
  attach("forecasting-trapezoidal", forecasting_trapezoidal_claims);
  attach("dla", dla_claims);
}

namespace {
std::mutex& attach_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace

void set_claims(FirstOrderSchemeEntry& entry, FirstOrderClaimFunction claims) {
  if (!claims) throw SpecError(entry.name, "set_claims: an empty claim function");
  entry.claims = std::move(claims);
}

std::vector<Claim> claims_of(const FirstOrderSchemeInfo& info) {
  FirstOrderRegistry& registry = FirstOrderRegistry::builtin();
  {
    std::lock_guard<std::mutex> lock(attach_mutex());
    static const bool attached = [&] {
      set_claims(registry.find("catching-up"), catching_up_claims);
      set_claims(registry.find("penalty"), penalty_claims);
      return true;
    }();
    (void)attached;
  }
  const FirstOrderSchemeEntry& entry = registry.find(SchemeSpec::parse(info.spec).name());
  if (!entry.claims.has_value()) return {};
  const auto* claims = std::any_cast<FirstOrderClaimFunction>(&entry.claims);
  if (!claims)
    throw SpecError(entry.name,
                    "FirstOrderSchemeEntry::claims holds something other than a "
                    "nsh::properties::FirstOrderClaimFunction");
  return (*claims)(info);
}

const SchemeEntry& claiming_entry(const SchemeInfo& info) {
  {
    // The built-in entries get their claims on first use (core builds the registry, the
    // property suite owns the claims).
    std::lock_guard<std::mutex> lock(attach_mutex());
    static const bool attached = (attach_builtin_claims(Registry::builtin()), true);
    (void)attached;
  }
  const SchemeSpec spec = SchemeSpec::parse(info.spec);
  if (!Registry::builtin().contains(spec.name()))
    throw SpecError("scheme", "the scheme reports the spec '" + info.spec +
                                  "' (SchemeInfo::spec), which names no registered scheme: "
                                  "its claims cannot be found");
  return Registry::builtin().find(spec.name());
}

std::vector<Claim> claims_of(const SchemeInfo& info) {
  const SchemeEntry& entry = claiming_entry(info);
  if (!entry.claims.has_value()) return {};
  const ClaimFunction* claims = std::any_cast<ClaimFunction>(&entry.claims);
  if (!claims)
    throw SpecError(entry.name,
                    "SchemeEntry::claims holds something other than a "
                    "nsh::properties::ClaimFunction");
  return (*claims)(info);
}

std::optional<Claim> find_claim(const SchemeInfo& info, const std::string& property) {
  for (auto& c : claims_of(info))
    if (c.property == property) return c;
  return std::nullopt;
}

const std::vector<std::string>& shared_property_names() {
#define NSH_PROPERTY_NAME_(unused, name) #name,
  static const std::vector<std::string> names{NSH_SHARED_PROPERTIES(NSH_PROPERTY_NAME_, ~)};
#undef NSH_PROPERTY_NAME_
  return names;
}

}  // namespace nsh::properties
