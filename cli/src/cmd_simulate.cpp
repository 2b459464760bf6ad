// `nsh simulate CASE --scheme SPEC --h H [--T T] [--precision double|50|rational] [--out FILE]`
//
// Runs one scheme on one case and writes the trajectory CSV: for the linear family the CSV of
// nsh/trajectory_csv.hpp; for the first-order families ("sweeping", "penalty-line", run by the
// first-order schemes catching-up and penalty) `step,t,x0..x{n-1},r0..r{n-1}` with r the step's
// reaction (x_{k+1} - x_k)/h - f(t_k, x_k) (empty in row 0).
// A sparse case file ("sparse": true) under moreau-jean or event-driven runs on the sparse model
// (SparseMoreauJean, EventDriven's sparse initialize): no dense copy, so the bar at 10^4-10^6
// degrees of freedom streams its CSV; under any other scheme, or in Rational, it is read into
// the dense model (refused above 4096 degrees of freedom, naming M).
// Exit status: 0 the run completed; 2 bad input or usage (the message names the field);
// 1 the run itself failed: a step could not certify its one-step solve (nsh::StepError). The
// rows up to the failed step are kept in the output, so that the failure can be inspected.
#include "commands.hpp"

#include <nsh/case_file.hpp>
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/first_order/sweeping_case.hpp>
#include <nsh/format.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/event_driven.hpp>
#include <nsh/schemes/sparse_moreau_jean.hpp>
#include <nsh/trajectory_csv.hpp>

#include <fstream>
#include <iostream>
#include <optional>
#include <string>

namespace nsh::cli {
namespace {

struct SimulateOptions {
  std::string case_name;
  std::string scheme;
  std::string h;
  std::string T;
  std::string precision = "double";
  std::string out;
};

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

/// Streams the CSV of `steps` steps taken by `take_step` (which fills state and summary) and
/// reports a StepError with the step and time it happened at; the rows before it are kept.
template <class Scalar, class Writer, class TakeStep>
int stream_steps(const SimulateOptions& options, const CaseDocument& document,
                 const State<Scalar>& initial, const Scalar& h, Index steps, Writer&& make_writer,
                 TakeStep&& take_step) {
  std::ofstream file;
  if (!options.out.empty()) {
    file.open(options.out);
    if (!file) throw InputError("out", "cannot write '" + options.out + "'");
  }
  std::ostream& out = options.out.empty() ? std::cout : file;
  TrajectoryCsvWriter<Scalar> writer = make_writer(out);
  writer.initial(initial);
  Index done = 0;
  try {
    take_step([&](const State<Scalar>& state, const StepSummary<Scalar>& summary) {
      writer.step(state, summary);
      done = summary.step;
    });
  } catch (const StepError& e) {
    out.flush();
    std::cerr << "nsh: simulate: " << options.scheme << " on " << document.name << ": step "
              << done + 1 << " of " << steps
              << " (t = " << format_scalar(initial.t + Scalar(done) * h) << ") failed: " << e.what()
              << "\n";
    return 1;
  }
  out.flush();
  if (!out) throw InputError("out", "writing the CSV failed");
  return 0;
}

template <class Scalar>
int run(const SimulateOptions& options, const CaseDocument& document) {
  const auto c = load_case<LinearCase<Scalar>>(document, load_linear_case<Scalar>);
  const Scalar h = step_size<Scalar>(options, c.h, document);
  const Scalar T = options.T.empty() ? c.T : parse_number<Scalar>(options.T, "T");
  const Index steps = step_count(c.initial.t, T, h);  // checks h and T before any output
  auto scheme = Registry::builtin().make<Scalar>(options.scheme);
  return stream_steps<Scalar>(
      options, document, c.initial, h, steps,
      [&](std::ostream& out) { return TrajectoryCsvWriter<Scalar>(out, c.model); },
      [&](const StepObserver<Scalar>& observer) {
        simulate<Scalar>(*scheme, c.model, c.initial, h, T, observer);
      });
}

/// True for a document with "sparse": true (a malformed flag is left to the loader's error).
bool is_sparse_document(const CaseDocument& document) {
  const auto it = document.root.find("sparse");
  return it != document.root.end() && it->is_boolean() && it->template get<bool>();
}

/// The sparse case under a scheme that reads sparse models directly, with the driver's
/// conventions (t_k = t0 + k h exactly, summary.step = k).
template <class Scalar, class SparseScheme>
int run_sparse(const SimulateOptions& options, const CaseDocument& document,
               const SchemeSpec& spec) {
  const auto c = load_case<SparseLinearCase<Scalar>>(document, load_sparse_linear_case<Scalar>);
  const Scalar h = step_size<Scalar>(options, c.h, document);
  const Scalar T = options.T.empty() ? c.T : parse_number<Scalar>(options.T, "T");
  const Index steps = step_count(c.initial.t, T, h);
  SparseScheme scheme(spec);
  return stream_steps<Scalar>(
      options, document, c.initial, h, steps,
      [&](std::ostream& out) {
        return TrajectoryCsvWriter<Scalar>(
            out, c.model.dofs(), c.model.contacts(),
            [&](const Vector<Scalar>& q, const Vector<Scalar>& v) { return c.model.energy(q, v); });
      },
      [&](const StepObserver<Scalar>& observer) {
        scheme.initialize(c.model, c.initial, h);
        State<Scalar> state = c.initial;
        StepSummary<Scalar> summary;
        for (Index k = 0; k < steps; ++k) {
          scheme.step(state, summary);
          state.t = c.initial.t + Scalar(k + 1) * h;
          summary.step = k + 1;
          summary.t_after = state.t;
          observer(state, summary);
        }
      });
}

template <class Scalar>
int run_linear(const SimulateOptions& options, const CaseDocument& document) {
  if constexpr (!is_exact_v<Scalar>) {
    if (is_sparse_document(document)) {
      const SchemeSpec spec = Registry::builtin().resolve(options.scheme);
      if (spec.name() == "moreau-jean")
        return run_sparse<Scalar, SparseMoreauJean<Scalar>>(options, document, spec);
      if (spec.name() == "event-driven")
        return run_sparse<Scalar, EventDriven<Scalar>>(options, document, spec);
    }
  }
  return run<Scalar>(options, document);
}

/// A first-order case under a first-order scheme. Exit statuses as for the linear run, except
/// that a failed step writes no rows (the trajectory is recorded whole, record_first_order).
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
  step_count(c.initial.t, c.T, h);  // checks h and T before any output
  FirstOrderTrajectory<Scalar> trajectory;
  try {
    trajectory = run_first_order<Scalar>(options.scheme, c, h);
  } catch (const StepError& e) {
    std::cerr << "nsh: simulate: " << options.scheme << " on " << document.name
              << " failed: " << e.what() << "\n";
    return 1;
  }
  std::ofstream file;
  if (!options.out.empty()) {
    file.open(options.out);
    if (!file) throw InputError("out", "cannot write '" + options.out + "'");
  }
  std::ostream& out = options.out.empty() ? std::cout : file;
  const Index n = c.initial.x.size();
  out << "step,t";
  for (Index i = 0; i < n; ++i) out << ",x" << i;
  for (Index i = 0; i < n; ++i) out << ",r" << i;
  out << "\n";
  for (std::size_t k = 0; k < trajectory.states.size(); ++k) {
    const FirstOrderState<Scalar>& state = trajectory.states[k];
    out << k << "," << format_scalar(state.t);
    for (Index i = 0; i < n; ++i) out << "," << format_scalar(state.x(i));
    for (Index i = 0; i < n; ++i) {
      out << ",";
      if (k > 0 && trajectory.steps[k - 1].reaction.size() == n)
        out << format_scalar(trajectory.steps[k - 1].reaction(i));
    }
    out << "\n";
  }
  out.flush();
  if (!out) throw InputError("out", "writing the CSV failed");
  return 0;
}

template <class Scalar>
int run_case(const SimulateOptions& options, const CaseDocument& document) {
  if (document.family == "sweeping" || document.family == "penalty-line")
    return run_first_order_case<Scalar>(options, document);
  return run_linear<Scalar>(options, document);
}

}  // namespace

void add_simulate_command(CLI::App& app, int& status) {
  auto options = std::make_shared<SimulateOptions>();
  auto* cmd = app.add_subcommand("simulate", "Run one scheme on one case and write its CSV");
  cmd->add_option("CASE", options->case_name, "built-in case name (nsh list cases) or a path")
      ->required();
  cmd->add_option("--scheme", options->scheme,
                  "scheme spec, e.g. moreau-jean:theta=1/2 (nsh list schemes)")
      ->required();
  cmd->add_option("--h", options->h, "step size, e.g. 0.01 or 1/100 (default: the case's h)");
  cmd->add_option("--T", options->T, "final time (default: the case's T)");
  cmd->add_option("--precision", options->precision, "double (default), 50 or rational")
      ->check(CLI::IsMember({"double", "50", "rational"}));
  cmd->add_option("--out", options->out, "CSV file to write (default: standard output)");
  cmd->callback([options, &status] {
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
