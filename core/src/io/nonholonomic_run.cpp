// The shared preparation of a run on a nonholonomic case (nsh/io/nonholonomic_run.hpp).
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/io/nonholonomic_run.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>

namespace nsh {

template <class Scalar>
NonholonomicRun<Scalar>::NonholonomicRun(const CaseDocument& document, const std::string& spec,
                                         const std::string& h_text, const std::string& T_text) {
  try {
    nonholonomic = load_nonholonomic_case<Scalar>(document);
  } catch (const InputError& e) {
    throw InputError("", "case " + document.source + ": " + e.what());
  }
  model = std::make_unique<NonholonomicModelAdapter<Scalar>>(*nonholonomic.model);
  if (!h_text.empty()) {
    h = parse_number<Scalar>(h_text, "h");
  } else if (nonholonomic.h) {
    h = *nonholonomic.h;
  } else {
    throw InputError(
        "h", "no step size: give --h (the case file " + document.source + " has no default \"h\")");
  }
  T = T_text.empty() ? nonholonomic.T : parse_number<Scalar>(T_text, "T");
  steps = step_count(nonholonomic.initial.t, T, h);  // checks h and T
  scheme = Registry::builtin().make<Scalar>(spec);
  model->validate(nonholonomic.initial);
  scheme->initialize(*model, nonholonomic.initial, h);
}

void refuse_exact_nonholonomic(const CaseDocument& document) {
  throw InputError("--precision", "case " + document.name +
                                      " is a nonholonomic model, which is trigonometric: exact "
                                      "rational arithmetic cannot evaluate it; use --precision "
                                      "double or 50");
}

template class NonholonomicRun<double>;
template class NonholonomicRun<Real50>;

}  // namespace nsh
