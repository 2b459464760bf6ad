#pragma once
// `nsh report`, the main job: every built-in scheme against every shared property (the verdict
// table of `nsh check`, same options, same verdicts), convergence studies of each scheme on the
// free oscillator, the bouncing ball and the impacting bar, and the energy ledger of each scheme
// on the bouncing ball and the free oscillator, gathered in
//
//   DIR/index.html      one self-contained page: inline SVG, inline CSS, no script, no network;
//                       well-formed XML (XHTML syntax), readable in any browser or as text
//   DIR/summary.md      the same tables in Markdown
//   DIR/verdicts.json   every verdict (scheme, property, outcome, cases_run, statement, note,
//                       counterexample), DIR/verdicts.csv the table
//   DIR/convergence/<case>/  convergence.json, .csv and the SVGs of each study
//   DIR/friction/<case>/     friction.csv and .svg of the closed-form friction cases, and the
//                            convergence files of the lagrangian rigid bodies (rocking block,
//                            rod across two corners; nsh/reports/friction.hpp)
//   DIR/seed002/<case>/      the convergence files of the seed-002 comparison (half-explicit-tdg,
//                            moreau-jean, forecasting-trapezoidal; nsh/reports/seed002.hpp)
//   DIR/energy/<case>/<scheme>/  energy.csv, .json and the SVGs of each ledger
//
// Every plot on the page is also written as the JSON/CSV it was drawn from.

#include <nsh/properties/check.hpp>

#include <functional>
#include <string>
#include <vector>

namespace nsh::reports {

/// One convergence study set of the report: a case, its step sizes and reference.
struct ReportCaseStudy {
  std::string case_name;
  std::vector<std::string> h;
  std::string reference{"auto"};
  std::string T;  ///< horizon override (empty: the case's)
};

struct ReportOptions {
  std::string out_dir{"nsh-report"};
  /// Options of the verdict table: the same as `nsh check --cases N --seed S`.
  properties::CheckOptions check;
  /// Scheme specs of the convergence and energy parts; empty: default_report_schemes().
  std::vector<std::string> schemes;
  /// Convergence studies; empty: default_report_studies().
  std::vector<ReportCaseStudy> studies;
  /// Cases of the energy ledgers (each at its case-file h); empty: bouncing-ball and
  /// free-oscillator.
  std::vector<std::string> energy_cases;
  /// Run the "Siconos under the gate" section (where the adapters are built); false writes one
  /// sentence saying it was skipped.
  bool siconos{true};
  /// Progress lines (one per finished piece of work).
  std::function<void(const std::string&)> progress;
};

struct ReportResult {
  std::vector<properties::Verdict> verdicts;
  std::vector<std::string> files;  ///< every file written
  int failed_verdicts{0};
  /// Schemes whose check threw (bad input inside a provider): (spec, message).
  std::vector<std::pair<std::string, std::string>> check_errors;
  /// As `nsh check`: 2 if a check could not run, else 1 if some verdict failed, else 0.
  int status() const { return !check_errors.empty() ? 2 : failed_verdicts > 0 ? 1 : 0; }
};

/// Every registered (non-mutant) scheme with its default options, Moreau–Jean at θ = 1/2 and
/// θ = 1, except the event-driven reference itself.
std::vector<std::string> default_report_schemes();
/// free-oscillator (analytic), bouncing-ball (analytic) and impacting-bar (event-driven).
std::vector<ReportCaseStudy> default_report_studies();

/// Run everything and write the files. Bad input throws InputError.
ReportResult run_report(const ReportOptions& options);

/// A file-name-safe form of a spec: "moreau-jean:theta=1/2" -> "moreau-jean_theta-1-2".
std::string slug(const std::string& text);

}  // namespace nsh::reports
