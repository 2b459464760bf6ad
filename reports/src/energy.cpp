#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/nonholonomic_run.hpp>
#include <nsh/number.hpp>
#include <nsh/properties/claims.hpp>
#include <nsh/properties/predicates.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/energy.hpp>
#include <nsh/reports/lagrangian_family.hpp>
#ifdef NSH_HAVE_FORMULA
#include <nsh/formula/lagrangian_run.hpp>
#endif

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>

namespace nsh::reports {

namespace {

const double kLedgerNaN = std::numeric_limits<double>::quiet_NaN();

// Marks drawn on a plot: the tightest step and at most this many broken ones (all of them are
// flagged in the CSV).
constexpr std::size_t kMaxMarks = 12;

void add_marks(SvgPlot& plot, const EnergyReport& report) {
  if (report.tightest_step)
    plot.mark(
        {report.tightest_t, fmt::format("tightest (step {})", *report.tightest_step), "#2c7a2c"});
  for (std::size_t i = 0; i < report.broken.size() && i < kMaxMarks; ++i)
    plot.mark({report.broken[i].second,
               i == 0 ? fmt::format("broken ({} steps)", report.broken_count) : "", "#c0392b"});
}

template <class Scalar>
double d(const Scalar& x) {
  return scalar_cast<double>(x);
}

template <class Scalar>
std::string cell(const Scalar& x) {
  if constexpr (std::is_same_v<Scalar, double>) {
    if (!std::isfinite(x)) return {};
  }
  return format_scalar(x);
}

// Why the case is outside the claim's domain, or empty if it is inside. The domain is the one
// the generators of `nsh check` draw from (CaseDomain), so "inside" here means what the verdict
// table tested; sizes (dofs, contacts, steps) are generator budgets, not hypotheses.
template <class Scalar>
std::string outside_reason(const properties::Claim& claim, const LinearModel<Scalar>& model) {
  const auto& dom = claim.cases;
  const Scalar lo = scalar_cast<Scalar>(dom.e_lo), hi = scalar_cast<Scalar>(dom.e_hi);
  for (Index a = 0; a < model.e.size(); ++a) {
    if (model.e(a) > hi)
      return fmt::format("e[{}] = {} > {}", a, format_short(model.e(a)), format_scalar(dom.e_hi));
    if (model.e(a) < lo)
      return fmt::format("e[{}] = {} < {}", a, format_short(model.e(a)), format_scalar(dom.e_lo));
    if (dom.uniform_e && model.e(a) != model.e(0))
      return fmt::format("e[{}] = {} differs from e[0] = {} (one e for every contact)", a,
                         format_short(model.e(a)), format_short(model.e(0)));
  }
  if (!dom.damping && model.C.size() > 0 && max_abs(model.C) != Scalar(0)) return "C != 0";
  if (dom.stiffness_spd) {
    const Index n = model.K.rows();
    const Scalar scale = n > 0 ? max_abs(model.K) : Scalar(0);
    if (n == 0 || scale == Scalar(0) ||
        first_indefinite_pivot(model.K, true, tolerance<Scalar>(scale, Scalar(64 * (n + 1)))) >= 0)
      return "K is not symmetric positive definite";
  }
  if (claim.property == "algorithmic_energy_decay" && model.F_amplitude.size() > 0 &&
      max_abs(model.F_amplitude) != Scalar(0))
    return "F is not constant (harmonic force)";
  return {};
}

/// The step size of an energy run: --h, else the case's "h"; InputError naming h otherwise.
template <class Scalar>
Scalar energy_step_size(const EnergyOptions& options, const std::optional<Scalar>& case_h,
                        const CaseDocument& document) {
  Scalar h;
  if (!options.h.empty()) {
    h = parse_number<Scalar>(options.h, "h");
  } else if (case_h) {
    h = *case_h;
  } else {
    throw InputError(
        "h", "no step size: give --h (the case file " + document.source + " has no default \"h\")");
  }
  if (!(h > Scalar(0))) throw InputError("h", "step size must be > 0, got " + format_scalar(h));
  return h;
}

/// The ledger of one run, whatever the family: `take_steps(observer)` runs the scheme,
/// `judge(before, after, summary, algorithmic)` is the energy inequality's predicate on one step,
/// `outside(claim)` says why the case is outside the claim's domain (empty: inside).
template <class Scalar, class TakeSteps, class Judge, class Outside>
EnergyReport energy_ledger(const EnergyOptions& options, const CaseDocument& document,
                           const SchemeInfo& info, const State<Scalar>& initial, const Scalar& h,
                           Index planned, const Scalar& E0, TakeSteps&& take_steps, Judge&& judge,
                           Outside&& outside) {
  std::ofstream csv;
  if (!options.csv_path.empty()) {
    csv.open(options.csv_path);
    if (!csv) throw InputError("--out", "cannot write '" + options.csv_path + "'");
    csv << energy_csv_header();
  }

  EnergyReport report;
  report.case_name = document.name;
  report.scheme = info.spec;
  report.precision = scalar_name<Scalar>();
  report.h = d(h);
  report.h_text = format_scalar(h);
  const std::size_t points = std::max<std::size_t>(options.plot_points, 2);
  const Index stride =
      std::max<Index>(1, (planned + static_cast<Index>(points) - 1) / static_cast<Index>(points));

  // Running sums in the run's own scalar: exact in Rational, so the closing balance is too.
  Scalar sum_ext(0), sum_damp(0), sum_contact(0), sum_diss(0), sum_defect(0);
  std::optional<Scalar> E_alg0;
  std::optional<Scalar> least;  // least slack among the steps that keep the inequality
  State<Scalar> before = initial;
  std::pair<double, double> stretch{kLedgerNaN, std::numeric_limits<double>::infinity()};

  EnergyRow& first = report.initial;
  first.t = d(initial.t);
  first.E = d(E0);
  first.E_alg = kLedgerNaN;
  if (csv) csv << fmt::format("0,{},{},0,0,0,0,,0,0,0,0,0,0,0,0,0,0,\n", cell(initial.t), cell(E0));

  auto observe = [&](const State<Scalar>& after, const StepSummary<Scalar>& s) {
    if (report.steps == 0) {
      // A scheme may have an algorithmic energy only on some models (the Newmark family needs
      // K SPD for its r-term): the first step says whether it fills one.
      report.algorithmic_energy = s.has_algorithmic_energy;
      report.property =
          report.algorithmic_energy ? "algorithmic_energy_decay" : "moreau_jean_energy_dissipation";
      if (s.has_algorithmic_energy) {
        E_alg0 = s.E_alg_before;
        first.E_alg = d(s.E_alg_before);
      }
      report.samples.push_back(first);
    }
    report.steps = s.step;
    const Scalar defect = s.energy_identity_defect();
    const bool alg = report.algorithmic_energy && s.has_algorithmic_energy;
    const Scalar slack =
        alg ? s.E_alg_before - s.E_alg_after : s.W_ext + s.W_damp - (s.E_after - s.E_before);
    const properties::Judgement judgement = judge(before, after, s, alg);
    sum_ext += s.W_ext;
    sum_damp += s.W_damp;
    sum_contact += s.W_contact;
    sum_diss += s.numerical_dissipation;
    sum_defect += defect;
    const bool impulse = s.impulse.size() > 0 && max_abs(s.impulse) > Scalar(0);

    EnergyRow row;
    row.step = s.step;
    row.t = d(s.t_after);
    row.E = d(s.E_after);
    row.W_ext = d(s.W_ext);
    row.W_damp = d(s.W_damp);
    row.W_contact = d(s.W_contact);
    row.numerical_dissipation = d(s.numerical_dissipation);
    row.E_alg = s.has_algorithmic_energy ? d(s.E_alg_after) : kLedgerNaN;
    row.algorithmic_dissipation = s.has_algorithmic_energy ? d(s.algorithmic_dissipation) : 0;
    row.identity_defect = d(defect);
    row.slack = d(slack);
    row.impulse = impulse;
    row.broken = !judgement.holds;
    row.sum_W_ext = d(sum_ext);
    row.sum_W_damp = d(sum_damp);
    row.sum_W_contact = d(sum_contact);
    row.sum_dissipation = d(sum_diss);
    row.sum_defect = d(sum_defect);
    report.max_abs_identity_defect =
        std::max(report.max_abs_identity_defect, std::abs(row.identity_defect));
    if (row.broken) {
      if (report.broken.size() < EnergyReport::kMaxListedBroken)
        report.broken.emplace_back(s.step, row.t);
      if (report.broken_count == 0) report.first_broken_detail = judgement.detail;
      ++report.broken_count;
    } else if (!least || slack < *least) {
      least = slack;
      report.tightest_step = s.step;
      report.tightest_slack = row.slack;
      report.tightest_t = row.t;
    }
    if (csv)
      csv << s.step << ',' << cell(s.t_after) << ',' << cell(s.E_after) << ',' << cell(s.W_ext)
          << ',' << cell(s.W_damp) << ',' << cell(s.W_contact) << ','
          << cell(s.numerical_dissipation) << ','
          << (s.has_algorithmic_energy ? cell(s.E_alg_after) : std::string()) << ','
          << (s.has_algorithmic_energy ? cell(s.algorithmic_dissipation) : std::string("0")) << ','
          << cell(defect) << ',' << cell(slack) << ',' << (impulse ? 1 : 0) << ',' << cell(sum_ext)
          << ',' << cell(sum_damp) << ',' << cell(sum_contact) << ',' << cell(sum_diss) << ','
          << cell(sum_defect) << ',' << cell(Scalar(s.E_after - E0)) << ','
          << (row.broken ? "broken" : "") << '\n';

    // Plot samples: the least slack of each stretch, and the row closing it.
    if (!(row.slack >= stretch.second)) stretch = {row.t, row.slack};
    if (s.step % stride == 0 || s.step == planned) {
      report.samples.push_back(row);
      report.slack_samples.push_back(stretch);
      stretch = {kLedgerNaN, std::numeric_limits<double>::infinity()};
    }
    report.last = row;
    before = after;
  };
  try {
    take_steps(observe);
  } catch (const StepError& e) {
    report.failure = e.what();
  }
  if (report.steps == 0) {
    report.property =
        info.algorithmic_energy ? "algorithmic_energy_decay" : "moreau_jean_energy_dissipation";
    report.samples.push_back(first);
    report.last = first;
  } else if (report.samples.back().step != report.last.step) {
    report.samples.push_back(report.last);  // a run that stopped early
    if (std::isfinite(stretch.first)) report.slack_samples.push_back(stretch);
  }
  report.claim = report.algorithmic_energy
                     ? "E_alg non-increasing: slack = E_alg(k) - E_alg(k+1) >= 0"
                     : "dissipation: slack = W_ext + W_damp - (E(k+1) - E(k)) >= 0";
  if (const auto claim = properties::find_claim(info, report.property)) {
    report.domain = claim->domain;
    report.outside_reason = outside(*claim);
    report.status =
        report.outside_reason.empty() ? ClaimStatus::claimed : ClaimStatus::outside_domain;
  }
  if (csv) {
    csv.flush();
    if (!csv) throw InputError("--out", "cannot write '" + options.csv_path + "'");
  }
  return report;
}

template <class Scalar>
EnergyReport run_linear_ledger(const EnergyOptions& options, const CaseDocument& document) {
  LinearCase<Scalar> c = load_linear_case<Scalar>(document);
  if (!options.T.empty()) c.T = parse_number<Scalar>(options.T, "T");
  const Scalar h = energy_step_size<Scalar>(options, c.h, document);
  auto scheme = Registry::builtin().make<Scalar>(options.spec);
  const SchemeInfo info = scheme->info();
  const Index planned = step_count(c.initial.t, c.T, h);
  return energy_ledger<Scalar>(
      options, document, info, c.initial, h, planned, c.model.energy(c.initial.q, c.initial.v),
      [&](const StepObserver<Scalar>& observer) {
        simulate<Scalar>(*scheme, c.model, c.initial, h, c.T, observer);
      },
      [&](const State<Scalar>& before, const State<Scalar>& after, const StepSummary<Scalar>& s,
          bool algorithmic) {
        const properties::StepView<Scalar> view{c.model, before, after, s};
        return algorithmic ? properties::algorithmic_energy_decay(view)
                           : properties::moreau_jean_energy_dissipation(view);
      },
      [&](const properties::Claim& claim) { return outside_reason(claim, c.model); });
}

#ifdef NSH_HAVE_FORMULA
/// The energy inequality on a step of a nonlinear model, E from the model's own E(q, v) =
/// 1/2 v^T M(q) v + V(q) at the states (not the summary's): E_{k+1} - E_k <= W_ext + W_damp + tol,
/// the tolerance of moreau_jean_energy_dissipation at the scale of the step's energies, work
/// terms and kinetic cancellation.
template <class Scalar>
properties::Judgement nonlinear_energy_dissipation(const NonlinearModel<Scalar>& model,
                                                   const State<Scalar>& before,
                                                   const State<Scalar>& after,
                                                   const StepSummary<Scalar>& s) {
  const Scalar E0 = model.energy(before.q, before.v);
  const Scalar E1 = model.energy(after.q, after.v);
  const Scalar vv = max_abs(before.v) + max_abs(after.v);
  const Scalar dv = max_abs(Vector<Scalar>(after.v - before.v));
  const Scalar mass = std::max(max_abs(model.mass(before.q)), max_abs(model.mass(after.q)));
  Scalar scale = std::max({abs_value<Scalar>(E0), abs_value<Scalar>(E1), abs_value<Scalar>(s.W_ext),
                           abs_value<Scalar>(s.W_damp), abs_value<Scalar>(s.W_contact),
                           abs_value<Scalar>(s.numerical_dissipation),
                           abs_value<Scalar>(model.potential(before.q)),
                           abs_value<Scalar>(model.potential(after.q))});
  scale += mass * (vv + dv) * (vv + dv) + max_abs(s.external_impulse) * (vv + dv);
  if (scale == Scalar(0)) scale = Scalar(1);
  const Index n = model.dofs(), m = model.contacts();
  const Scalar tol = tolerance<Scalar>(scale, Scalar(256 * (n + m + 1) * (n + 1)));
  const Scalar excess = (E1 - E0) - (s.W_ext + s.W_damp);
  properties::Judgement judgement;
  if (excess > tol) {
    judgement.holds = false;
    judgement.detail = fmt::format("step {}: Delta E - W_ext - W_damp = {} > 0 (energy increased)",
                                   s.step, format_short(excess));
    judgement.values = {{"Delta E - W_ext - W_damp", format_scalar(excess)},
                        {"E_before", format_scalar(E0)},
                        {"E_after", format_scalar(E1)},
                        {"tolerance", format_scalar(tol)}};
  }
  return judgement;
}

/// Why a lagrangian case is outside moreau-jean's energy claim (empty: inside). The claim's
/// own conditions (e range, friction only at theta = 1), and the one the nonlinear family
/// adds: the one-step identity must be exact (formula::FormulaModel::energy_identity_exact:
/// constant M, V at most quadratic, constant f_ext), else its defect is a consistency error of
/// either sign and no inequality is claimed (docs/nonlinear-models.md).
template <class Scalar>
std::string nonlinear_outside_reason(const properties::Claim& claim,
                                     const formula::FormulaModel<Scalar>& model) {
  const auto& dom = claim.cases;
  const Vector<Scalar>& e = model.restitution();
  for (Index a = 0; a < e.size(); ++a) {
    if (e(a) > scalar_cast<Scalar>(dom.e_hi))
      return fmt::format("e[{}] = {} > {}", a, format_short(e(a)), format_scalar(dom.e_hi));
    if (e(a) < scalar_cast<Scalar>(dom.e_lo))
      return fmt::format("e[{}] = {} < {}", a, format_short(e(a)), format_scalar(dom.e_lo));
    if (dom.uniform_e && e(a) != e(0))
      return fmt::format("e[{}] = {} differs from e[0] = {} (one e for every contact)", a,
                         format_short(e(a)), format_short(e(0)));
  }
  if (has_friction(model) && !dom.friction)
    return "Coulomb friction (mu > 0) below theta = 1: the tangential work has no sign";
  if (!model.energy_identity_exact())
    return "the one-step energy identity is not exact on this model (M depends on q, V is not "
           "quadratic or f_ext is not constant)";
  return {};
}

template <class Scalar>
EnergyReport run_lagrangian_ledger(const EnergyOptions& options, const CaseDocument& document) {
  const formula::LagrangianRun<Scalar> run(document, options.spec, options.h, options.T);
  const auto& c = run.lagrangian;
  return energy_ledger<Scalar>(
      options, document, run.scheme->info(), c.initial, run.h, run.steps,
      c.model.energy(c.initial.q, c.initial.v),
      [&](const StepObserver<Scalar>& observer) {
        simulate<Scalar>(*run.scheme, c.model, c.initial, run.h, c.T, observer);
      },
      [&](const State<Scalar>& before, const State<Scalar>& after, const StepSummary<Scalar>& s,
          bool) { return nonlinear_energy_dissipation<Scalar>(c.model, before, after, s); },
      [&](const properties::Claim& claim) { return nonlinear_outside_reason(claim, c.model); });
}
#else
template <class Scalar>
EnergyReport run_lagrangian_ledger(const EnergyOptions&, const CaseDocument& document) {
  refuse_lagrangian_without_formula(document);
}
#endif

/// A nonholonomic case (docs/nonholonomic.md) through its nonlinear view, as nsh simulate steps
/// it (dla; moreau-jean with the constraints as bilateral rows). Double and 50 digits (the
/// models are trigonometric). No energy inequality is claimed on these models: the ledger has
/// no term for the constraint impulse A(q)^T mu, so a claim's domain stops here and the verdict
/// says so while the ledger shows what happened.
template <class Scalar>
EnergyReport run_nonholonomic_ledger(const EnergyOptions& options, const CaseDocument& document) {
  if constexpr (!has_transcendentals_v<Scalar>) {
    (void)options;
    refuse_exact_nonholonomic(document);
  } else {
    const NonholonomicRun<Scalar> run(document, options.spec, options.h, options.T);
    const auto& model = *run.model;
    const auto& initial = run.nonholonomic.initial;
    return energy_ledger<Scalar>(
        options, document, run.scheme->info(), initial, run.h, run.steps,
        model.energy(initial.q, initial.v),
        [&](const StepObserver<Scalar>& observer) {
          simulate<Scalar>(*run.scheme, model, initial, run.h, run.T, observer);
        },
        [&](const State<Scalar>& before, const State<Scalar>& after, const StepSummary<Scalar>& s,
            bool) { return nonlinear_energy_dissipation<Scalar>(model, before, after, s); },
        [&](const properties::Claim&) {
          return std::string(
              "velocity constraints A(q) v = 0: the ledger has no term for their impulse, so no "
              "energy inequality is claimed on nonholonomic models (docs/nonholonomic.md)");
        });
  }
}

}  // namespace

const char* to_string(ClaimStatus status) {
  switch (status) {
    case ClaimStatus::claimed:
      return "claimed";
    case ClaimStatus::outside_domain:
      return "outside the claim's domain";
    case ClaimStatus::not_claimed:
      return "not claimed";
  }
  return "unknown";
}

std::string EnergyReport::verdict_text() const {
  const std::string broken_text =
      broken_count == 0 ? "holds in every step"
                        : fmt::format("broken in {} of {} steps (first: step {})", broken_count,
                                      steps, broken.empty() ? 0 : broken.front().first);
  switch (status) {
    case ClaimStatus::claimed:
      return fmt::format("{} is claimed here ({}): {}{}", property, domain, broken_text,
                         broken_count ? " -- the claim FAILS" : "");
    case ClaimStatus::outside_domain:
      return fmt::format("outside the claim's domain ({}; the claim: {}): {}{}", outside_reason,
                         domain, broken_text, broken_count ? ", which the claim allows" : "");
    case ClaimStatus::not_claimed:
      return fmt::format("{} is not claimed by {}: {}", property, scheme, broken_text);
  }
  return broken_text;
}

EnergyReport energy_report(const EnergyOptions& options) {
  const CaseDocument document = read_case_file(locate_case(options.case_name));
  if (document.family == "nonholonomic") {
    if (options.precision == "double") return run_nonholonomic_ledger<double>(options, document);
    if (options.precision == "50") return run_nonholonomic_ledger<Real50>(options, document);
    if (options.precision == "rational")
      return run_nonholonomic_ledger<Rational>(options, document);
  } else if (document.family == "lagrangian") {
    if (options.precision == "double") return run_lagrangian_ledger<double>(options, document);
    if (options.precision == "50") return run_lagrangian_ledger<Real50>(options, document);
    if (options.precision == "rational") return run_lagrangian_ledger<Rational>(options, document);
  } else {
    if (options.precision == "double") return run_linear_ledger<double>(options, document);
    if (options.precision == "50") return run_linear_ledger<Real50>(options, document);
    if (options.precision == "rational") return run_linear_ledger<Rational>(options, document);
  }
  throw InputError("precision", "'" + options.precision + "' is not one of double, 50, rational");
}

EnergyReport energy_report(const std::string& case_name, const std::string& spec,
                           const std::string& h_text, const std::string& T_text) {
  EnergyOptions options;
  options.case_name = case_name;
  options.spec = spec;
  options.h = h_text;
  options.T = T_text;
  return energy_report(options);
}

std::string energy_csv_header() {
  return "step,t,E,W_ext,W_damp,W_contact,numerical_dissipation,E_alg,algorithmic_dissipation,"
         "identity_defect,slack,impulse,sum_W_ext,sum_W_damp,sum_W_contact,sum_dissipation,"
         "sum_defect,E_minus_E0,mark\n";
}

std::string energy_json(const EnergyReport& report) {
  auto n = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); };
  nlohmann::json j;
  j["case"] = report.case_name;
  j["scheme"] = report.scheme;
  j["precision"] = report.precision;
  j["h"] = report.h;
  j["h_exact"] = report.h_text;
  j["steps"] = report.steps;
  j["algorithmic_energy"] = report.algorithmic_energy;
  j["property"] = report.property;
  j["claim"] = report.claim;
  j["status"] = to_string(report.status);
  j["domain"] = report.domain;
  j["outside_reason"] = report.outside_reason;
  j["fails"] = report.fails();
  j["verdict"] = report.verdict_text();
  j["tightest_step"] =
      report.tightest_step ? nlohmann::json(*report.tightest_step) : nlohmann::json(nullptr);
  j["tightest_slack"] = report.tightest_step ? n(report.tightest_slack) : nlohmann::json(nullptr);
  j["broken_count"] = report.broken_count;
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& b : report.broken) steps.push_back(b.first);
  j["broken_steps"] = steps;  // the first kMaxListedBroken
  j["first_broken_detail"] = report.first_broken_detail;
  j["failure"] = report.failure;
  const EnergyRow& a = report.initial;
  const EnergyRow& b = report.last;
  j["E_initial"] = n(a.E);
  j["E_final"] = n(b.E);
  j["sum_W_ext"] = n(b.sum_W_ext);
  j["sum_W_damp"] = n(b.sum_W_damp);
  j["sum_W_contact"] = n(b.sum_W_contact);
  j["sum_dissipation"] = n(b.sum_dissipation);
  j["sum_defect"] = n(b.sum_defect);
  j["max_abs_identity_defect"] = n(report.max_abs_identity_defect);
  if (report.algorithmic_energy) {
    j["E_alg_initial"] = n(a.E_alg);
    j["E_alg_final"] = n(b.E_alg);
  }
  return j.dump(2) + "\n";
}

SvgPlot energy_plot(const EnergyReport& report) {
  SvgPlot plot(fmt::format("{}: energy ledger", report.case_name), "t", "cumulated energy");
  plot.subtitle(fmt::format("{}, h = {}, {}", report.scheme, report.h_text, report.precision));
  plot.size(760, 420);
  std::vector<double> t, dE, ext, damp, contact, diss, alg;
  const double E0 = report.initial.E;
  const double A0 = report.initial.E_alg;
  for (const auto& r : report.samples) {
    t.push_back(r.t);
    dE.push_back(r.E - E0);
    ext.push_back(r.sum_W_ext);
    damp.push_back(r.sum_W_damp);
    contact.push_back(r.sum_W_contact);
    diss.push_back(-r.sum_dissipation);
    alg.push_back(r.E_alg - A0);
  }
  auto line = [&](const std::string& name, const std::vector<double>& y, bool dashed) {
    PlotSeries s;
    s.name = name;
    s.x = t;
    s.y = y;
    s.marker = t.size() > 60 ? Marker::none : Marker::circle;
    s.dashed = dashed;
    plot.add(std::move(s));
  };
  line("E - E0", dE, false);
  line("sum W_ext", ext, false);
  line("sum W_damp", damp, false);
  line("sum W_contact", contact, false);
  line("- sum D (numerical)", diss, true);
  if (report.algorithmic_energy) line("E_alg - E_alg0", alg, true);
  add_marks(plot, report);
  return plot;
}

SvgPlot energy_slack_plot(const EnergyReport& report) {
  SvgPlot plot(fmt::format("{}: slack of the energy inequality per step", report.case_name), "t",
               "slack (>= 0 keeps it)");
  plot.subtitle(
      fmt::format("{}, h = {}; {}", report.scheme, report.h_text, to_string(report.status)));
  plot.size(760, 360);
  PlotSeries s;
  s.name = report.algorithmic_energy ? "-Delta E_alg" : "W_ext + W_damp - Delta E";
  for (const auto& [t, slack] : report.slack_samples) {
    s.x.push_back(t);
    s.y.push_back(slack);
  }
  s.marker = s.x.size() > 60 ? Marker::none : Marker::circle;
  plot.add(std::move(s));
  add_marks(plot, report);
  return plot;
}

std::vector<std::string> write_energy(const EnergyReport& report, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("--out", "cannot create directory '" + dir + "': " + ec.message());
  std::vector<std::string> written;
  auto put = [&](const std::string& name, const std::string& text) {
    const fs::path path = fs::path(dir) / name;
    std::ofstream out(path);
    out << text;
    if (!out) throw InputError("--out", "cannot write '" + path.string() + "'");
    written.push_back(path.string());
  };
  put("energy.json", energy_json(report));
  put("energy.svg", energy_plot(report).render());
  put("energy_slack.svg", energy_slack_plot(report).render());
  return written;
}

}  // namespace nsh::reports
