#pragma once
// The energy ledger of a run: per step, the terms of the scheme's own one-step energy balance
// as its StepSummary reports them (THEORY.md 2.2–2.3 and 3.2),
//
//   ΔE = E_{k+1} − E_k = W_ext + W_damp + W_contact − D          (D: numerical dissipation)
//   ΔE_alg = −D_alg + W_contact                                  (Newmark family)
//
// their running sums from step 1, and the slack of the scheme's energy claim in each step:
//
//   without an algorithmic energy:  slack = (W_ext + W_damp) − ΔE   (claim: ΔE <= W_ext + W_damp,
//                                   the Moreau–Jean dissipation inequality)
//   with an algorithmic energy:     slack = −ΔE_alg                 (claim: E_alg non-increasing;
//                                   used when the step fills one: the Newmark family has it only
//                                   for C = 0 and, with its r-term, K SPD)
//
// A step breaks the claim when slack < −tol, tol = 64 ε · (energy scale of the run); the
// tightest step is the one of least slack among those that keep it. Whether the scheme actually
// claims the inequality for its parameters is the properties module's business (nsh check):
// the ledger shows where it holds, where it is tight and where it is broken.

#include <nsh/case_file.hpp>
#include <nsh/reports/svg_plot.hpp>

#include <optional>
#include <string>
#include <vector>

namespace nsh::reports {

struct EnergyRow {
  Index step{0};
  double t{0};
  double E{0};  ///< E_{k+1} (E_0 in row 0)
  double W_ext{0}, W_damp{0}, W_contact{0};
  double numerical_dissipation{0};
  double E_alg{0};  ///< E_alg after the step (NaN without an algorithmic energy)
  double algorithmic_dissipation{0};
  double identity_defect{0};  ///< ΔE − (W_ext + W_damp + W_contact − D)
  double slack{0};            ///< of the energy claim (see above); 0 in row 0
  bool impulse{false};        ///< the step applied a nonzero impulse
  // Running sums over steps 1..k.
  double sum_W_ext{0}, sum_W_damp{0}, sum_W_contact{0}, sum_dissipation{0};
  double sum_defect{0};
};

struct EnergyReport {
  std::string case_name;
  std::string scheme;  ///< canonical spec
  double h{0};
  bool algorithmic_energy{false};
  std::string claim;  ///< the inequality whose slack is reported, in words
  double tolerance{0};
  std::vector<EnergyRow> rows;  ///< row 0: the initial state; row k: step k
  std::optional<Index> tightest_step;
  std::vector<Index> broken_steps;
  std::string failure;  ///< non-empty if the run stopped early (StepError): rows so far kept
};

/// Run `spec` (double) on the case at step `h_text` (T overridden by `T_text` if not empty)
/// and build the ledger. Bad input throws InputError; a StepError ends the ledger early and is
/// recorded in `failure`.
EnergyReport energy_report(const std::string& case_name, const std::string& spec,
                           const std::string& h_text, const std::string& T_text = "");

/// step,t,E,W_ext,W_damp,W_contact,numerical_dissipation,E_alg,algorithmic_dissipation,
/// identity_defect,slack,impulse,sum_W_ext,sum_W_damp,sum_W_contact,sum_dissipation,
/// sum_defect,E_minus_E0,mark  (mark: "tightest", "broken" or empty).
std::string energy_csv(const EnergyReport& report);
/// JSON summary: case, scheme, h, claim, tolerance, tightest_step, broken_steps, totals.
std::string energy_json(const EnergyReport& report);
/// Cumulated ledger against t: E − E0, ΣW_ext, ΣW_damp, ΣW_contact, −ΣD (and E_alg − E_alg0),
/// with the tightest and broken steps marked.
SvgPlot energy_plot(const EnergyReport& report);
/// Per-step slack of the claim against t, with the same marks.
SvgPlot energy_slack_plot(const EnergyReport& report);

/// Write energy.csv, energy.json, energy.svg and energy_slack.svg into `dir`. Returns the files.
std::vector<std::string> write_energy(const EnergyReport& report, const std::string& dir);

}  // namespace nsh::reports
