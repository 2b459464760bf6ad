// `nsh events CASE` for the "nonholonomic" family: one CSV line per impact of the exact reference,
//   t,kind,inequality,<u names>_minus...,<u
//   names>_plus...,normal_minus,normal_plus,E_before,E_after
// where u are the model's reduced velocities (theta_rate, phi_rate for the rolling disk; speed,
// turning_rate for the knife edge), kind is "impact", inequality the name of g_j ("g_+"),
// normal the reduced normal velocity n^T u (> 0 before, = -before after). Numbers at the full
// precision of the scalar.
#include "nonholonomic_events.hpp"

#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/nonholonomic/exact_reference.hpp>
#include <nsh/number.hpp>

#include <iostream>

namespace nsh::cli {
namespace {

template <class Scalar>
int run(const CaseDocument& document, const std::string& horizon) {
  NonholonomicCase<Scalar> c;
  try {
    c = load_nonholonomic_case<Scalar>(document);
  } catch (const InputError& e) {
    throw InputError("", "case " + document.source + ": " + e.what());
  }
  const Scalar T = horizon.empty() ? c.T : parse_number<Scalar>(horizon, "T");
  if (T < c.initial.t)
    throw InputError(
        "T", "horizon " + format_scalar(T) + " is before t0 = " + format_scalar(c.initial.t));
  const auto& model = *c.model;
  NonholonomicReference<Scalar> reference;
  try {
    reference = exact_reference<Scalar>(model, c.initial, T);
  } catch (const StepError& e) {
    std::cerr << "nsh: events: " << document.name << ": " << e.what() << "\n";
    return 1;
  }
  const Index reduced = model.dofs() - model.velocity_constraints();
  std::cout << "t,kind,inequality";
  for (const char* side : {"_minus", "_plus"})
    for (Index i = 0; i < reduced; ++i) std::cout << "," << model.reduced_velocity_name(i) << side;
  std::cout << ",normal_minus,normal_plus,E_before,E_after\n";
  for (const auto& impact : reference.impacts) {
    std::cout << format_scalar(impact.t) << ",impact," << model.inequality_name(impact.inequality);
    for (const auto* u : {&impact.u_minus, &impact.u_plus})
      for (Index i = 0; i < reduced; ++i) std::cout << "," << format_scalar((*u)(i));
    std::cout << "," << format_scalar(impact.normal_minus) << ","
              << format_scalar(impact.normal_plus) << "," << format_scalar(impact.energy_before)
              << "," << format_scalar(impact.energy_after) << "\n";
  }
  std::cout.flush();
  return 0;
}

}  // namespace

int run_nonholonomic_events(const CaseDocument& document, const std::string& precision,
                            const std::string& horizon) {
  return precision == "50" ? run<Real50>(document, horizon) : run<double>(document, horizon);
}

}  // namespace nsh::cli
