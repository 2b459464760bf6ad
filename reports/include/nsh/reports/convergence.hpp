#pragma once
// Convergence and work-precision studies (DiffEqDevTools-style, with error measures that suit
// velocity jumps).
//
// A study runs one scheme in one precision on one case at each step size h of a list and
// compares every run with a reference solution sampled on that run's own grid
// t_k = t0 + k h, k = 0..N (N = step_count(t0, T, h)), so no interpolation of the run is ever
// needed. With ‖·‖ the max-norm over the degrees of freedom:
//
//   q_final      = ‖q_N − q_ref(t_N)‖
//   v_final      = ‖v_N − v_ref(t_N)‖
//   q_max        = max_k ‖q_k − q_ref(t_k)‖
//   v_l1         = Σ_{k=1..N} h ‖v_k − v_ref(t_k)‖      (the L¹-in-time velocity error, v taken
//                                                       as constant on (t_{k−1}, t_k]: a
//                                                       velocity jump off by δt costs |[v]|·δt,
//                                                       so it stays meaningful across impacts)
//   energy_final = |E(q_N, v_N) − E(q_ref(t_N), v_ref(t_N))|,  E = ½vᵀMv + ½qᵀKq
//   impact_time  = |t_first − t*_ref|   (only when the reference has an impact in (t0, T]):
//                  t_first is the end time t_{k+1} of the run's first step with a nonzero
//                  impulse, t*_ref the reference's first impact time.
//
// The comparison is made in Real50 whatever the run's precision, so that a Real50 run beside a
// double one shows where double round-off takes over. Orders come from fit_order
// (least-squares slope of log10 error against log10 h, with its RMS residual).
//
// References (ConvergenceOptions::reference; "auto" is "analytic" for a model with a closed form
// and "event-driven" otherwise):
//   "analytic"      the closed form of the file's own model (nsh::cases::analytic_flow, which
//                   recognises it by its data, never by its "name"), evaluated in Real50;
//                   first impact: the first jump of a local velocity from U < 0 to U >= 0,
//                   located by bisection to Real50 round-off;
//   "event-driven"  the exact event-driven flow (nsh::EventDrivenFlow, in Real50) advanced once
//                   through the union of every study grid, so each run is compared with the
//                   exact solution at its own grid points; first impact: the flow's first
//                   impact event (located to Real50 precision; t0 itself for a case that
//                   starts in an impact, like the impacting bar);
//   FILE            a CSV written by `nsh simulate` (columns t, q0.., v0.., optionally P0..),
//                   linearly interpolated in time at the run's grid points (exact where the
//                   grids coincide), and refused unless its largest time step is below the
//                   smallest h (a reference on a study grid gives orders of 20 and more);
//                   first impact: the first row with a nonzero impulse,
//                   refined by the linear gap estimate t_j + g_j / (−U_j) from the row before.

#include <nsh/io/case_file.hpp>
#include <nsh/limits.hpp>
#include <nsh/reports/order_fit.hpp>
#include <nsh/reports/svg_plot.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nsh::reports {

/// The error measures, in the order they are reported.
const std::vector<std::string>& error_measures();

/// A reference solution, sampled in Real50.
class ConvergenceReference {
 public:
  virtual ~ConvergenceReference() = default;
  /// "analytic", "event-driven" or the file path.
  virtual std::string name() const = 0;
  /// States at t0 + k h, k = 0..steps. `h_text` is the exact step (as given by the user), so
  /// a scheme-based reference runs on exactly the run's grid.
  virtual std::vector<State<Real50>> sample(const std::string& h_text, Index steps) = 0;
  /// The time of the first impact in (t0, T], or nullopt if there is none.
  virtual std::optional<Real50> first_impact() = 0;
};

/// Build a reference for a case (`kind` as in ConvergenceOptions::reference). `h_texts` are the
/// study's step sizes (the event-driven reference samples their grids); `T_text`
/// overrides the case's horizon when not empty. Throws
/// InputError naming "reference" for an unknown kind, a case without a closed form, or a file
/// that does not fit the model.
std::unique_ptr<ConvergenceReference> make_reference(const std::string& kind,
                                                     const CaseDocument& document,
                                                     const std::vector<std::string>& h_texts,
                                                     const std::string& T_text = "");

struct ConvergenceOptions {
  std::string case_name;             ///< built-in case name or case-file path
  std::vector<std::string> schemes;  ///< scheme specs, one study each (per precision)
  std::vector<std::string> h;        ///< step sizes as exact text ("0.01", "1/128")
  std::string reference{"analytic"};
  std::vector<std::string> precisions{"double"};  ///< "double" and/or "50"
  /// Horizon override (text); empty: the case's T.
  std::string T;
  /// Record bad input met while running one (scheme, h) (a scheme that rejects the case, ...)
  /// as that run's failure instead of stopping the whole study.
  bool keep_going{false};
  /// Called with one line per finished run ("moreau-jean h=0.01 ...").
  std::function<void(const std::string&)> progress;
  /// Most steps of one run (`nsh converge --max-steps`): checked for every h before the
  /// reference is built or any run starts, since every run's trajectory is held in memory and
  /// the analytic reference scans 8 points per finest step. InputError naming "--h" beyond it.
  Index max_steps{limits::default_converge_max_steps};
};

/// Why a fitted order should not be trusted, or empty: fewer than three points (two points
/// always lie on a line: residual 0 says nothing), an RMS residual above 0.15 decades (the
/// errors are not on a line: not yet asymptotic, or stalled at round-off), a negative order
/// (the error grows as h shrinks) or one below 0.2 (the error does not shrink: the scheme
/// converges to another solution than the reference's, such as penalty against rigid contact).
std::string fit_warning(const OrderFit& fit);

/// One (scheme, precision) study.
struct ConvergenceStudy {
  std::string case_name;
  std::string scheme;     ///< canonical spec
  std::string precision;  ///< "double" or "50"
  std::string reference;
  std::vector<double> h;
  std::vector<Index> steps;
  std::vector<double> wall_seconds;   ///< scheme construction + simulation, per run
  std::vector<std::string> measures;  ///< measures reported (impact_time only with an impact)
  std::map<std::string, std::vector<double>> errors;  ///< measure -> one entry per h (NaN: failed)
  std::map<std::string, OrderFit> fits;
  /// Per h: the error that round-off alone explains (roundoff_bound with the precision's
  /// epsilon, the step count and the solution scale); a measure whose every error is below it
  /// has no order (OrderFit::reason "exact at every h").
  std::vector<double> roundoff;
  std::vector<std::string> failures;  ///< per h: empty, or why the run failed (StepError, ...)
  /// measure -> fit_warning of its fit (empty: nothing to flag).
  std::map<std::string, std::string> warnings;
  /// The errors' scale: the largest of |T - t0|, max |q_ref|, max |v_ref| and |E_ref(T)| over
  /// every run's reference samples (the same scale as the round-off bound), so that an error
  /// reads as a fraction of the solution it measures.
  double error_scale{0};
};

/// Run every (scheme, precision, h). A run that throws StepError is recorded as a failure (NaN
/// errors) and the study goes on; bad input (case, spec, h, reference) throws InputError. A
/// reference that cannot be computed throws StepError saying which reference, case and horizon.
std::vector<ConvergenceStudy> run_convergence(const ConvergenceOptions& options);

/// The same study for first-order cases (families "sweeping" and "penalty-line") and
/// first-order schemes (catching-up, penalty), with measures x_final and x_sup (the sup of the
/// interpolation error, exact through the kink); run_convergence dispatches here by family.
std::vector<ConvergenceStudy> run_first_order_convergence(const ConvergenceOptions& options,
                                                          const CaseDocument& document);

/// The study for lagrangian cases (family "lagrangian", docs/nonlinear-models.md; schemes that
/// step nonlinear models: moreau-jean in double and 50 digits), run_convergence dispatches here
/// by family. References (ConvergenceOptions::reference):
///   "housner"  the rocking block's closed form, where the file's model equals
///              nsh::cases::RockingBlock built from its parameters m, b, c, g (checked at q0 and
///              two other states) and it starts at rest on one corner, e = 0, mu > 0: measure
///              housner_ratio = |phi'+ / phi'- - (1 - (3/2) sin^2 alpha)| at the first landing
///              (phi' at the start of the landing step and at the end of the pivot's lift-off);
///   "self"     self-convergence: the same scheme in Real50 at h_ref = (smallest h) / 16, sampled
///              on every run's grid (each h a multiple of h_ref, else InputError naming "--h");
///              measures q_final, v_final, q_max, v_l1, energy_final (E = 1/2 v^T M(q) v + V);
///   "auto"     housner where it applies, else self.
/// Anything else is an InputError naming "--reference"; "housner" on a case it does not fit
/// says why. Without the formula module (GiNaC), InputError naming "family".
std::vector<ConvergenceStudy> run_lagrangian_convergence(const ConvergenceOptions& options,
                                                         const CaseDocument& document);

/// The study for nonholonomic cases (family "nonholonomic", docs/nonholonomic.md; schemes that
/// step nonlinear models with velocity constraints: dla, moreau-jean) against the exact
/// reference (closed-form flow, impacts to 50 digits; --reference auto or exact): measures
/// q_smooth (the last node before the first impact), q_final, energy_final and impact_time.
std::vector<ConvergenceStudy> run_nonholonomic_convergence(const ConvergenceOptions& options,
                                                           const CaseDocument& document);

/// JSON document (docs/output-formats.md): the first study's fields at top level — case, scheme,
/// precision, reference, h, errors, orders, fit_residual (plus steps, wall_seconds, failures)
/// — and "studies": the list of every study in the same form, so that a one-scheme file is
/// exactly the documented contract and a many-scheme file extends it. Undefined numbers
/// (failed runs, undefined orders) are null.
std::string convergence_json(const std::vector<ConvergenceStudy>& studies);
/// One row per (study, h): case,scheme,precision,reference,h,steps,wall_seconds,<measures>.
std::string convergence_csv(const std::vector<ConvergenceStudy>& studies);

/// Log-log error against h for one measure, one series per study (legend: spec, precision and
/// fitted order).
SvgPlot convergence_plot(const std::vector<ConvergenceStudy>& studies, const std::string& measure);
/// Log-log error against wall time for one measure, one series per study.
SvgPlot work_precision_plot(const std::vector<ConvergenceStudy>& studies,
                            const std::string& measure);

/// Write convergence.json, convergence.csv, convergence_<measure>.svg for every measure and
/// work_precision_<measure>.svg, into `dir` (created if missing). Returns the files written.
std::vector<std::string> write_convergence(const std::vector<ConvergenceStudy>& studies,
                                           const std::string& dir);

/// Parse "0.1,0.05,1/40" into the list of step texts; InputError naming "--h" on an empty list
/// or a value that is not a positive number.
std::vector<std::string> parse_step_list(const std::string& text);

}  // namespace nsh::reports
