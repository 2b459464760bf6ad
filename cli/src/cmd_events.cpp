// `nsh events CASE [--precision double|50] [--T T]`
//
// Prints the event list of the event-driven reference (nsh/schemes/event_driven.hpp) over
// [t0, T], one CSV line per event (a "nonholonomic" case: the impacts of its exact reference,
// cmd_events_nonholonomic.cpp):
//   t,kind,contact,U_minus,U_plus,impulse,E_before,E_after
// kind is impact, contact-closes, contact-opens or accumulation; numbers at the full precision
// of the scalar. Dense and sparse case files ("sparse": true) alike, on the sparse model.
// Exit status: 0 done; 2 bad input; 1 the reference could not be computed
// (nsh::StepError: an uncertified LCP, an undecidable contact mode).
#include "commands.hpp"
#include "nonholonomic_events.hpp"

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/number.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <iostream>
#include <memory>
#include <string>

namespace nsh::cli {
namespace {

struct EventsOptions {
  std::string case_name;
  std::string precision = "double";
  std::string T;
};

template <class Scalar>
int run_events(const EventsOptions& options, const CaseDocument& document) {
  // Sparse: a large finite-element case (impacting-bar-1000-sparse) runs without a dense copy;
  // a dense case file loads as its nonzero pattern.
  SparseLinearCase<Scalar> c;
  try {
    c = load_sparse_linear_case<Scalar>(document);
  } catch (const InputError& e) {
    throw InputError("", "case " + document.source + ": " + e.what());
  }
  const Scalar T = options.T.empty() ? c.T : parse_number<Scalar>(options.T, "T");
  if (T < c.initial.t)
    throw InputError(
        "T", "horizon " + format_scalar(T) + " is before t0 = " + format_scalar(c.initial.t));
  std::vector<Event<Scalar>> events;
  try {
    events = compute_events<Scalar>(c.model, c.initial, T);
  } catch (const StepError& e) {
    std::cerr << "nsh: events: " << document.name << ": " << e.what() << "\n";
    return 1;
  }
  std::cout << "t,kind,contact,U_minus,U_plus,impulse,E_before,E_after\n";
  for (const auto& ev : events)
    std::cout << format_scalar(ev.t) << "," << to_string(ev.kind) << "," << ev.contact << ","
              << format_scalar(ev.U_minus) << "," << format_scalar(ev.U_plus) << ","
              << format_scalar(ev.impulse) << "," << format_scalar(ev.E_before) << ","
              << format_scalar(ev.E_after) << "\n";
  std::cout.flush();
  return 0;
}

}  // namespace

void add_events_command(CLI::App& app, int& status) {
  auto options = std::make_shared<EventsOptions>();
  auto* cmd =
      app.add_subcommand("events",
                         "Event list of the event-driven reference (impacts, contact closes/opens, "
                         "accumulations)");
  cmd->add_option("case", options->case_name, "built-in case name or case-file path")->required();
  cmd->add_option("--precision", options->precision, "double or 50 (digits)")
      ->check(CLI::IsMember({"double", "50"}));
  cmd->add_option("--T", options->T, "horizon (default: the case file's T)");
  cmd->callback([options, &status] {
    const CaseDocument document = read_case_file(locate_case(options->case_name));
    if (document.family == "nonholonomic") {
      status = run_nonholonomic_events(document, options->precision, options->T);
      return;
    }
    if (document.family != "linear")
      throw InputError("case", "events: case '" + document.name + "' is of family '" +
                                   document.family +
                                   "'; the event-driven reference is for "
                                   "linear cases");
    status = options->precision == "50" ? run_events<Real50>(*options, document)
                                        : run_events<double>(*options, document);
  });
}

}  // namespace nsh::cli
