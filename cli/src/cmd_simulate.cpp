// `nsh simulate CASE --scheme SPEC --h H [--T T] [--precision double|50|rational] [--out FILE]
//                   [--every K] [--columns LIST] [--format csv|hdf5]`
//
// Runs one scheme on one case and streams the trajectory, row by row, in constant memory: for
// the linear family the table of nsh/io/trajectory_csv.hpp; for the first-order families
// ("sweeping", "penalty-line", run by the first-order schemes catching-up and penalty)
// `step,t,x0..x{n-1},r0..r{n-1}` with r the step's reaction (x_{k+1} - x_k)/h - f(t_k, x_k)
// (empty in row 0); for the lagrangian family (nonlinear models given by formulas,
// docs/nonlinear-models.md; moreau-jean in double and 50 digits) the linear table with
// E = 1/2 v^T M(q) v + V(q) and U_T = W_T(q)^T v. --every and --columns thin the table
// (nsh/io/trajectory_csv.hpp); --format hdf5, or an --out name ending in .h5 or .hdf5, writes HDF5
// instead of CSV (hdf5_writer.hpp, docs/output-formats.md). A sparse case file ("sparse": true)
// under a scheme that steps sparse models natively (Registry::make_sparse: moreau-jean's
// SparseMoreauJean, event-driven, the Newmark family's sparse storage): no dense copy, so the bar
// at 10^4-10^6 degrees of freedom streams its CSV; under any other scheme, or in Rational, it is
// read into the dense model (refused above 4096 degrees of freedom, naming M). Exit status: 0 the
// run completed; 2 bad input or usage (the message names the field); 1 the run itself failed: a
// step could not certify its one-step solve (nsh::StepError). The rows up to the failed step are
// kept in the output, so that the failure can be inspected.
#include "commands.hpp"
#include "external_option.hpp"
#include "hdf5_writer.hpp"

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/io/nonholonomic_run.hpp>
#include <nsh/io/sweeping_case.hpp>
#include <nsh/io/trajectory_csv.hpp>
#include <nsh/nonholonomic/nonlinear_adapter.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/lagrangian_family.hpp>
#ifdef NSH_HAVE_FORMULA
#include <nsh/formula/lagrangian_run.hpp>
#endif

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <unistd.h>

namespace nsh::cli {
namespace {

struct SimulateOptions {
  std::string case_name;
  std::string scheme;
  std::string h;
  std::string T;
  std::string precision = "double";
  std::string out;
  std::string every = "1";
  std::string columns = "all";
  std::string format;  ///< "csv", "hdf5", or empty: from the --out name
  bool quiet{false};   ///< no progress lines
  ExternalArgs external;
};

/// Long runs are not silent: on a terminal (and without --quiet), a line on stderr every few
/// seconds with the step, the time and the elapsed seconds, so that an exact run that grows
/// faster than linearly (--precision rational) shows how far it got. NSH_PROGRESS_SECONDS sets
/// the interval (default 5; 0: every step, what the tests use).
class StepProgress {
 public:
  StepProgress(bool quiet, std::string what, Index steps)
      : on_(!quiet && isatty(STDERR_FILENO)), what_(std::move(what)), steps_(steps) {
    if (const char* text = std::getenv("NSH_PROGRESS_SECONDS")) {
      char* end = nullptr;
      const double value = std::strtod(text, &end);
      if (end == text || *end != '\0' || !(value >= 0))
        throw InputError("NSH_PROGRESS_SECONDS",
                         std::string("must be a number of seconds >= 0, got '") + text + "'");
      interval_ = value;
    }
  }
  template <class Scalar>
  void step(Index step, const Scalar& t) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - last_).count();
    if (since < interval_) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    std::cerr << fmt::format("nsh simulate: {}: step {} of {} (t = {}), {:.0f} s\n", what_, step,
                             steps_, format_scalar(t), elapsed);
  }

 private:
  bool on_;
  std::string what_;
  Index steps_;
  double interval_{5};
  std::chrono::steady_clock::time_point start_{std::chrono::steady_clock::now()};
  std::chrono::steady_clock::time_point last_{start_};
};

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

/// HDF5 for --format hdf5 or an --out name ending in .h5/.hdf5; checked before any work.
bool writes_hdf5(const SimulateOptions& options) {
  const bool hdf5 = options.format == "hdf5" ||
                    (options.format.empty() &&
                     (ends_with(options.out, ".h5") || ends_with(options.out, ".hdf5")));
  if (!hdf5) return false;
  if (options.out.empty())
    throw InputError("--out",
                     "--format hdf5 writes a file, not standard output: give --out FILE.h5");
  if (options.precision != "double")
    throw InputError("--format",
                     "HDF5 output stores doubles, which would round a --precision " +
                         options.precision +
                         " run; write CSV (50 digits, exact fractions) or run --precision double");
  if (!hdf5_available())
    throw InputError("--format",
                     "this nsh was built without HDF5 (install libhdf5-dev, reconfigure and "
                     "rebuild); it writes CSV only");
  return true;
}

/// The text output: --out FILE, else standard output.
std::ostream& open_text_output(const SimulateOptions& options, std::ofstream& file) {
  if (options.out.empty()) return std::cout;
  file.open(options.out, std::ios::binary);
  if (!file) throw InputError("out", "cannot write '" + options.out + "'");
  return file;
}

template <class Scalar>
Hdf5RunInfo run_info(const SimulateOptions& options, const CaseDocument& document, const Scalar& t0,
                     const Scalar& h, const Scalar& T) {
  Hdf5RunInfo info;
  info.case_name = document.name;
  info.case_source = document.source;
  info.scheme = options.scheme;
  info.precision = options.precision;
  info.t0 = scalar_cast<double>(t0);
  info.h = scalar_cast<double>(h);
  info.T = scalar_cast<double>(T);
  info.every = parse_every(options.every);
  info.columns = options.columns;
  return info;
}

/// --h, else the case file's "h"; without either, an InputError naming h.
template <class Scalar>
Scalar step_size(const SimulateOptions& options, const std::optional<Scalar>& case_h,
                 const CaseDocument& document) {
  if (!options.h.empty()) return parse_number<Scalar>(options.h, "h");
  if (case_h) return *case_h;
  throw InputError(
      "h", "no step size: give --h (the case file " + document.source + " has no default \"h\")");
}

/// The linear case file, as Case (LinearCase or SparseLinearCase) through `load`, with the
/// file's name on every error.
template <class Case, class Load>
Case load_case(const CaseDocument& document, Load load) {
  try {
    return load(document);
  } catch (const InputError& e) {
    throw InputError("", "case " + document.source + ": " + e.what());
  }
}

/// Streams the table of `steps` steps taken by `take_step` (which calls the observer after each
/// step) and reports a StepError with the step and time it happened at; the rows written
/// before it are kept (with --every K, the last multiple of K before the failure).
template <class Scalar, class TakeStep>
int stream_steps(const SimulateOptions& options, const CaseDocument& document,
                 const State<Scalar>& initial, const Scalar& h, const Scalar& T, Index steps,
                 Index dofs, Index contacts, typename TrajectoryRecorder<Scalar>::Energy energy,
                 Index tangents,
                 typename TrajectoryRecorder<Scalar>::TangentialVelocity tangential_velocity,
                 TakeStep&& take_step) {
  // First, so that a bad NSH_PROGRESS_SECONDS is refused before any output.
  StepProgress progress(options.quiet, options.scheme + " on " + document.name, steps);
  TrajectoryColumns columns = TrajectoryColumns::parse(options.columns, dofs, contacts, tangents);
  const TrajectorySampling sampling{parse_every(options.every), steps};
  std::ofstream file;
  std::ostream* text = nullptr;
  std::unique_ptr<TrajectoryRecorder<Scalar>> writer;
  if (writes_hdf5(options)) {
    if constexpr (std::is_same_v<Scalar, double>)
      writer = make_hdf5_trajectory_writer(options.out, dofs, contacts, std::move(energy),
                                           std::move(columns), sampling,
                                           run_info(options, document, initial.t, h, T));
    else  // writes_hdf5 refuses --precision 50 and rational
      throw std::logic_error("simulate: HDF5 output for a non-double scalar");
  } else {
    text = &open_text_output(options, file);
    writer = std::make_unique<TrajectoryCsvWriter<Scalar>>(*text, dofs, contacts, std::move(energy),
                                                           std::move(columns), sampling);
  }
  if (tangents > 0) writer->set_tangential_velocity(std::move(tangential_velocity));
  const auto finish = [&] {
    if (text) {
      text->flush();
      if (!*text) throw InputError("out", "writing the CSV failed");
    } else if constexpr (std::is_same_v<Scalar, double>) {
      close_hdf5_trajectory_writer(*writer);
    }
  };
  // Row 0 waits for the driver's checks before the first step (an initial energy that
  // overflows is exit 2 naming v0 or q0, and must not leave a row of inf behind).
  bool initial_written = false;
  const auto write_initial = [&] {
    if (initial_written) return;
    initial_written = true;  // set first: a refused row 0 is not tried twice
    writer->initial(initial);
  };
  Index done = 0;
  try {
    take_step([&](const State<Scalar>& state, const StepSummary<Scalar>& summary) {
      write_initial();
      writer->step(state, summary);
      done = summary.step;
      progress.step(done, state.t);
    });
    write_initial();  // a run of zero steps
  } catch (const StepError& e) {
    // The rows before a failed step are kept, row 0 included unless it is not finite itself.
    std::string row0_refused;
    try {
      write_initial();
    } catch (const StepError& refused) {
      row0_refused = std::string("; ") + refused.what();
    }
    finish();
    std::cerr << "nsh: simulate: " << options.scheme << " on " << document.name << ": step "
              << done + 1 << " of " << steps
              << " (t = " << format_scalar(initial.t + Scalar(done) * h) << ") failed: " << e.what()
              << row0_refused << "\n";
    return 1;
  }
  finish();
  return 0;
}

template <class Scalar>
int run(const SimulateOptions& options, const CaseDocument& document) {
  const auto c = load_case<LinearCase<Scalar>>(document, load_linear_case<Scalar>);
  const Scalar h = step_size<Scalar>(options, c.h, document);
  const Scalar T = options.T.empty() ? c.T : parse_number<Scalar>(options.T, "T");
  const Index steps = step_count(c.initial.t, T, h);  // checks h and T before any output
  auto scheme = Registry::builtin().make<Scalar>(options.scheme);
  // Refuse what the scheme cannot step (a frictional model: ModelError naming mu) before the
  // header and row 0 are written; simulate() initializes again, cheap beside the run.
  c.model.validate();
  validate_state(c.model, c.initial);
  scheme->initialize(c.model, c.initial, h);
  return stream_steps<Scalar>(
      options, document, c.initial, h, T, steps, c.model.dofs(), c.model.contacts(),
      [&](const Vector<Scalar>& q, const Vector<Scalar>& v) { return c.model.energy(q, v); },
      c.model.G_T.cols(),
      [&](const Vector<Scalar>&, const Vector<Scalar>& v) {
        return c.model.tangential_velocity(v);
      },
      [&](const StepObserver<Scalar>& observer) {
        simulate<Scalar>(*scheme, c.model, c.initial, h, T, observer);
      });
}

/// True for a document with "sparse": true (a malformed flag is left to the loader's error).
bool is_sparse_document(const CaseDocument& document) {
  const auto it = document.root.find("sparse");
  return it != document.root.end() && it->is_boolean() && it->template get<bool>();
}

/// The sparse case under a scheme that steps sparse models natively (the registry's
/// make_sparse), through the driver.
template <class Scalar>
int run_sparse(const SimulateOptions& options, const CaseDocument& document,
               Scheme<Scalar>& scheme) {
  const auto c = load_case<SparseLinearCase<Scalar>>(document, load_sparse_linear_case<Scalar>);
  const Scalar h = step_size<Scalar>(options, c.h, document);
  const Scalar T = options.T.empty() ? c.T : parse_number<Scalar>(options.T, "T");
  const Index steps = step_count(c.initial.t, T, h);
  return stream_steps<Scalar>(
      options, document, c.initial, h, T, steps, c.model.dofs(), c.model.contacts(),
      [&](const Vector<Scalar>& q, const Vector<Scalar>& v) { return c.model.energy(q, v); }, 0,
      {},  // the sparse format is frictionless
      [&](const StepObserver<Scalar>& observer) {
        simulate<Scalar>(scheme, c.model, c.initial, h, T, observer);
      });
}

template <class Scalar>
int run_linear(const SimulateOptions& options, const CaseDocument& document) {
  if constexpr (!is_exact_v<Scalar>) {
    // No name dispatch: the registry knows which schemes step a sparse model natively; the
    // others step the dense copy (up to the dense limit).
    if (is_sparse_document(document))
      if (auto scheme = Registry::builtin().make_sparse<Scalar>(options.scheme))
        return run_sparse<Scalar>(options, document, *scheme);
  }
  return run<Scalar>(options, document);
}

/// The first-order schemes' rows hold x and the reaction: nsh writes neither when it is not
/// finite (the linear rows have the same guard in TrajectoryRecorder).
template <class Scalar>
void require_finite_row(const FirstOrderState<Scalar>& state,
                        const FirstOrderStepSummary<Scalar>& summary) {
  if constexpr (!is_exact_v<Scalar>) {
    const auto check = [&](const char* name, const Vector<Scalar>& values) {
      for (Index i = 0; i < values.size(); ++i)
        if (!is_finite(values(i)))
          throw StepError(
              fmt::format("{}[{}] = {} after the step is not finite (rescale the "
                          "model or reduce h)",
                          name, i, format_scalar(values(i))));
    };
    check("x", state.x);
    check("reaction", summary.reaction);
  }
}

/// A first-order case under a first-order scheme, streamed with the conventions of
/// record_first_order (nsh/first_order/scheme.hpp: validate, initialize, t_k = t0 + k h
/// exactly). Exit statuses as for the linear run; the rows before a failed step are kept.
template <class Scalar>
int run_first_order_case(const SimulateOptions& options, const CaseDocument& document) {
  const FirstOrderRegistry& registry = FirstOrderRegistry::builtin();
  if (!registry.contains(SchemeSpec::parse(options.scheme).name())) {
    std::string accepted;
    for (const std::string& name : registry.names())
      accepted += (accepted.empty() ? "" : ", ") + name;
    throw InputError("scheme", "case " + document.name + " is of family '" + document.family +
                                   "', which only the first-order schemes step (" + accepted +
                                   "), got '" + options.scheme + "'");
  }
  SweepingCase<Scalar> c;
  try {
    c = load_sweeping_case<Scalar>(document);
  } catch (const InputError& e) {
    throw InputError("", "case " + document.source + ": " + e.what());
  }
  const Scalar h = step_size<Scalar>(options, c.h, document);
  if (!options.T.empty()) c.T = parse_number<Scalar>(options.T, "T");
  const Index steps = step_count(c.initial.t, c.T, h);  // checks h and T before any output
  const Index n = c.initial.x.size();
  auto columns = select_columns(options.columns, first_order_column_groups(n));
  const TrajectorySampling sampling{parse_every(options.every), steps};
  const bool hdf5 = writes_hdf5(options);
  auto scheme = registry.make<Scalar>(options.scheme);
  c.model.validate();
  if (n != c.model.dimension())
    throw InputError("x0", "expected " + std::to_string(c.model.dimension()) + " entries, got " +
                               std::to_string(n));
  scheme->initialize(c.model, c.initial, h);

  std::ofstream file;
  std::ostream* text = nullptr;
  std::optional<FirstOrderCsvWriter<Scalar>> csv;
  std::unique_ptr<FirstOrderHdf5Writer> binary;
  if (hdf5) {
    if constexpr (std::is_same_v<Scalar, double>)
      binary = make_first_order_hdf5_writer(options.out, n, std::move(columns), sampling,
                                            run_info(options, document, c.initial.t, h, c.T));
    else  // writes_hdf5 refuses --precision 50 and rational
      throw std::logic_error("simulate: HDF5 output for a non-double scalar");
  } else {
    text = &open_text_output(options, file);
    csv.emplace(*text, n, std::move(columns), sampling);
  }
  const auto finish = [&] {
    if (text) {
      text->flush();
      if (!*text) throw InputError("out", "writing the CSV failed");
    } else {
      binary->close();
    }
  };
  FirstOrderState<Scalar> state = c.initial;
  if constexpr (std::is_same_v<Scalar, double>)
    if (binary) binary->initial(state);
  if (csv) csv->initial(state);
  for (Index k = 0; k < steps; ++k) {
    FirstOrderStepSummary<Scalar> summary;
    summary.t_before = state.t;
    try {
      scheme->step(state, summary);
      require_finite_row(state, summary);
    } catch (const StepError& e) {
      finish();
      std::cerr << "nsh: simulate: " << options.scheme << " on " << document.name << ": step "
                << k + 1 << " of " << steps << " (t = " << format_scalar(summary.t_before)
                << ") failed: " << e.what() << "\n";
      return 1;
    }
    state.t = c.initial.t + Scalar(k + 1) * h;  // no accumulated drift
    summary.step = k + 1;
    summary.t_after = state.t;
    summary.h = h;
    if constexpr (std::is_same_v<Scalar, double>)
      if (binary) binary->step(state, summary);
    if (csv) csv->step(state, summary);
  }
  finish();
  return 0;
}

/// A lagrangian case (a nonlinear model given by formulas, docs/nonlinear-models.md) under a
/// scheme that steps nonlinear models (moreau-jean), in double or 50 digits, streamed as the
/// linear table: E is 1/2 v^T M(q) v + V(q), U_T = W_T(q)^T v. The checks before any output are
/// formula::LagrangianRun's, shared with nsh converge and nsh energy.
template <class Scalar>
int run_lagrangian(const SimulateOptions& options, const CaseDocument& document) {
#ifndef NSH_HAVE_FORMULA
  (void)options;
  reports::refuse_lagrangian_without_formula(document);
#else
  const formula::LagrangianRun<Scalar> run(document, options.scheme, options.h, options.T);
  const auto& c = run.lagrangian;
  const Index tangents = c.model.contacts() * c.model.tangent_directions();
  return stream_steps<Scalar>(
      options, document, c.initial, run.h, c.T, run.steps, c.model.dofs(), c.model.contacts(),
      [&](const Vector<Scalar>& q, const Vector<Scalar>& v) { return c.model.energy(q, v); },
      tangents,
      [&](const Vector<Scalar>& q, const Vector<Scalar>& v) {
        return c.model.tangent_velocity(q, v);
      },
      [&](const StepObserver<Scalar>& observer) {
        simulate<Scalar>(*run.scheme, c.model, c.initial, run.h, c.T, observer);
      });
#endif
}

/// A nonholonomic case (docs/nonholonomic.md) under a scheme that steps nonlinear models with
/// velocity constraints (dla; moreau-jean, which keeps A(q) v = 0 as bilateral constraints),
/// through the model's nonlinear view (NonholonomicModelAdapter: g_N = -g, e = 1), streamed as
/// the linear table with E = 1/2 v^T M v + V(q). Double and 50 digits: the models are
/// trigonometric.
template <class Scalar>
int run_nonholonomic(const SimulateOptions& options, const CaseDocument& document) {
  if constexpr (!has_transcendentals_v<Scalar>) {
    (void)options;
    refuse_exact_nonholonomic(document);
  } else {
    // Refuses what the scheme cannot step before the header and row 0 are written.
    const NonholonomicRun<Scalar> run(document, options.scheme, options.h, options.T);
    const auto& model = *run.model;
    const auto& initial = run.nonholonomic.initial;
    return stream_steps<Scalar>(
        options, document, initial, run.h, run.T, run.steps, model.dofs(), model.contacts(),
        [&](const Vector<Scalar>& q, const Vector<Scalar>& v) { return model.energy(q, v); }, 0, {},
        [&](const StepObserver<Scalar>& observer) {
          simulate<Scalar>(*run.scheme, model, initial, run.h, run.T, observer);
        });
  }
}

template <class Scalar>
int run_case(const SimulateOptions& options, const CaseDocument& document) {
  if (document.family == "nonholonomic") return run_nonholonomic<Scalar>(options, document);
  if (document.family == "sweeping" || document.family == "penalty-line")
    return run_first_order_case<Scalar>(options, document);
  if (document.family == "lagrangian") return run_lagrangian<Scalar>(options, document);
  return run_linear<Scalar>(options, document);
}

}  // namespace

void add_simulate_command(CLI::App& app, int& status) {
  auto options = std::make_shared<SimulateOptions>();
  auto* cmd = app.add_subcommand(
      "simulate", "Run one scheme on one case and write its trajectory (CSV or HDF5)");
  cmd->add_option("CASE", options->case_name, "built-in case name (nsh list cases) or a path")
      ->required();
  cmd->add_option("--scheme", options->scheme,
                  "scheme spec, e.g. moreau-jean:theta=1/2 (nsh list schemes)");
  add_external_options(cmd, options->external);
  cmd->add_option("--h", options->h, "step size, e.g. 0.01 or 1/100 (default: the case's h)");
  cmd->add_option("--T", options->T, "final time (default: the case's T)");
  cmd->add_option("--precision", options->precision, "double (default), 50 or rational")
      ->check(CLI::IsMember({"double", "50", "rational"}));
  cmd->add_option("--out", options->out,
                  "file to write (default: standard output); a name ending in .h5 or .hdf5 "
                  "writes HDF5");
  cmd->add_option("--every", options->every,
                  "write every K-th step and the last; P and W are summed over the steps between "
                  "written rows (default 1)");
  cmd->add_option("--columns", options->columns,
                  "columns after step,t: all (default), none, or a list of q, v, P, E, W "
                  "(x, r for first-order cases), single columns q7 and ranges q0:9 (inclusive)");
  cmd->add_option("--format", options->format,
                  "csv or hdf5 (default: hdf5 for an --out name ending in .h5 or .hdf5, else csv)")
      ->check(CLI::IsMember({"csv", "hdf5"}));
  cmd->add_flag("--quiet", options->quiet,
                "no progress lines on stderr (they appear on a terminal, every 5 s)");
  cmd->callback([options, &status] {
    options->scheme = external_spec(options->external, options->scheme);
    if (options->scheme.empty())
      throw InputError("--scheme", "give --scheme SPEC or --external CMD");
    parse_every(options->every);  // a bad --every or --format is refused before reading the case
    writes_hdf5(*options);
    const CaseDocument document = read_case_file(locate_case(options->case_name));
    if (options->precision == "double") {
      status = run_case<double>(*options, document);
    } else if (options->precision == "50") {
      status = run_case<Real50>(*options, document);
    } else {
      status = run_case<Rational>(*options, document);
    }
  });
}

}  // namespace nsh::cli
