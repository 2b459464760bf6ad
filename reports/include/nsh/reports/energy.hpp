#pragma once
// The energy ledger of a run: per step, the terms of the scheme's own one-step energy balance
// as its StepSummary reports them (docs/theory.md §2.2–2.3 and §3.2),
//
//   ΔE = E_{k+1} − E_k = W_ext + W_damp + W_contact − D          (D: numerical dissipation)
//   ΔE_alg = −D_alg + W_contact                                  (Newmark family)
//
// their running sums from step 1, and the slack of the energy inequality in each step:
//
//   without an algorithmic energy:  slack = (W_ext + W_damp) − ΔE   (ΔE <= W_ext + W_damp, the
//                                   property moreau_jean_energy_dissipation)
//   with an algorithmic energy:     slack = −ΔE_alg                 (E_alg non-increasing, the
//                                   property algorithmic_energy_decay; used when the step fills
//                                   one: the Newmark family has it only for C = 0, K SPD)
//
// A step *breaks* the inequality when the shared property's own predicate says so
// (nsh/properties/predicates.hpp: the same tolerance as `nsh check`, zero in Rational). Whether
// that matters is the claim's business: the ledger looks the property up in the scheme's claims
// (nsh/properties/claims.hpp) and checks the case against the claim's domain (restitution range,
// one e for every contact, C = 0, K SPD, F constant). Only a claimed property broken inside its
// domain is a failure (`EnergyReport::fails`, exit 1 of `nsh energy`); outside the domain, or
// where the scheme does not claim it, a broken step is information.
//
// The run streams: rows are written to the CSV as they come and only running sums, the
// tightest and first broken steps and a fixed number of plot samples are kept, so memory does
// not grow with the step count.

#include <nsh/io/case_file.hpp>
#include <nsh/reports/svg_plot.hpp>

#include <optional>
#include <string>
#include <vector>

namespace nsh::reports {

/// One row of the ledger, in double (the CSV carries the run's own precision).
struct EnergyRow {
  Index step{0};
  double t{0};
  double E{0};  ///< E_{k+1} (E_0 in row 0)
  double W_ext{0}, W_damp{0}, W_contact{0};
  double numerical_dissipation{0};
  double E_alg{0};  ///< E_alg after the step (NaN without an algorithmic energy)
  double algorithmic_dissipation{0};
  double identity_defect{0};  ///< ΔE − (W_ext + W_damp + W_contact − D)
  double slack{0};            ///< of the energy inequality (see above); 0 in row 0
  bool impulse{false};        ///< the step applied a nonzero impulse
  bool broken{false};         ///< the property's predicate rejects the step
  // Running sums over steps 1..k.
  double sum_W_ext{0}, sum_W_damp{0}, sum_W_contact{0}, sum_dissipation{0};
  double sum_defect{0};
};

/// How the energy inequality stands for this scheme on this case.
enum class ClaimStatus {
  claimed,         ///< the scheme claims the property and the case is inside the domain
  outside_domain,  ///< the scheme claims it, but not for this case (e too large, C != 0, ...)
  not_claimed      ///< the scheme does not claim the property for its parameters
};
const char* to_string(ClaimStatus status);

struct EnergyOptions {
  std::string case_name;  ///< built-in case name or case-file path
  std::string spec;       ///< scheme spec
  std::string h;          ///< step size text; empty: the case file's "h" (InputError without)
  std::string T;          ///< horizon text; empty: the case's T
  std::string precision{"double"};  ///< "double", "50" or "rational"
  /// Stream the per-step CSV here (empty: no CSV). Opened before the run: a path that cannot
  /// be written is bad input before any step.
  std::string csv_path;
  /// Samples kept for the plots (every ceil(steps / plot_points)-th step, the last one, and the
  /// least slack of each stretch): the page stays light whatever the step count.
  std::size_t plot_points{1000};
};

struct EnergyReport {
  std::string case_name;
  std::string scheme;     ///< canonical spec
  std::string precision;  ///< "double", "50" or "rational"
  double h{0};
  std::string h_text;  ///< h at full precision of the run's scalar
  Index steps{0};      ///< steps taken (fewer than planned if the run failed)
  bool algorithmic_energy{false};
  std::string property;  ///< "moreau_jean_energy_dissipation" or "algorithmic_energy_decay"
  std::string claim;     ///< the inequality whose slack is reported, in words
  ClaimStatus status{ClaimStatus::not_claimed};
  std::string domain;          ///< the claim's domain in words (empty if not claimed)
  std::string outside_reason;  ///< why the case is outside the domain ("e[0] = 1/2 > 0")
  EnergyRow initial;           ///< row 0
  EnergyRow last;              ///< the last step's row, with the totals in its running sums
  double max_abs_identity_defect{0};
  std::optional<Index> tightest_step;  ///< least slack among the steps that keep it
  double tightest_slack{0}, tightest_t{0};
  Index broken_count{0};
  /// The first broken steps (at most kMaxListedBroken): (step, t), and the first one's detail.
  std::vector<std::pair<Index, double>> broken;
  std::string first_broken_detail;
  static constexpr std::size_t kMaxListedBroken = 100;
  /// Plot samples: row 0, every stride-th row, the last row.
  std::vector<EnergyRow> samples;
  /// Least slack of each stretch of `stride` steps: (t, slack).
  std::vector<std::pair<double, double>> slack_samples;
  std::string failure;  ///< non-empty if the run stopped early (StepError)

  /// A claimed property broken inside its domain: what `nsh energy` exits 1 for.
  bool fails() const { return status == ClaimStatus::claimed && broken_count > 0; }
  /// One line for messages: "claimed (domain), holds in every step", "outside the claim's
  /// domain (why): broken in 3 steps, as the claim allows", ...
  std::string verdict_text() const;
};

/// Run the scheme and build the ledger (streaming the CSV if asked). Bad input throws
/// InputError; a StepError ends the ledger early and is recorded in `failure`.
EnergyReport energy_report(const EnergyOptions& options);
/// The double run at step `h_text` (empty: the case's h), no CSV: for tests and the report.
EnergyReport energy_report(const std::string& case_name, const std::string& spec,
                           const std::string& h_text, const std::string& T_text = "");

/// The CSV header: step,t,E,W_ext,W_damp,W_contact,numerical_dissipation,E_alg,
/// algorithmic_dissipation,identity_defect,slack,impulse,sum_W_ext,sum_W_damp,sum_W_contact,
/// sum_dissipation,sum_defect,E_minus_E0,mark (mark: "broken" or empty; the tightest step is
/// in energy.json, known only at the end).
std::string energy_csv_header();
/// JSON summary: case, scheme, precision, h, steps, property, claim, status, domain,
/// outside_reason, fails, tightest_step, broken_count, broken_steps (the first ones), totals.
std::string energy_json(const EnergyReport& report);
/// Cumulated ledger against t: E − E0, ΣW_ext, ΣW_damp, ΣW_contact, −ΣD (and E_alg − E_alg0),
/// with the tightest and broken steps marked.
SvgPlot energy_plot(const EnergyReport& report);
/// Per-step slack of the inequality against t (least per stretch), with the same marks.
SvgPlot energy_slack_plot(const EnergyReport& report);

/// Write energy.json, energy.svg and energy_slack.svg into `dir` (energy.csv is streamed by
/// energy_report through EnergyOptions::csv_path). Returns the files.
std::vector<std::string> write_energy(const EnergyReport& report, const std::string& dir);

}  // namespace nsh::reports
