// The shared preparation of a run on a lagrangian case (nsh/formula/lagrangian_run.hpp).
#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/formula/lagrangian_run.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>

namespace nsh::formula {

template <class Scalar>
LagrangianRun<Scalar>::LagrangianRun(const CaseDocument& document, const std::string& spec,
                                     const std::string& h_text, const std::string& T_text) {
  scheme = Registry::builtin().make<Scalar>(spec);
  if (!scheme->accepts_nonlinear())
    throw InputError("--scheme", scheme->info().spec + " does not step nonlinear models (case " +
                                     document.name +
                                     " is of family 'lagrangian'); use moreau-jean");
  try {
    lagrangian = load_lagrangian_case<Scalar>(document);
  } catch (const InputError& e) {
    throw InputError("", "case " + document.source + ": " + e.what());
  }
  if (!h_text.empty()) {
    h = parse_number<Scalar>(h_text, "h");
  } else if (lagrangian.h) {
    h = *lagrangian.h;
  } else {
    throw InputError(
        "h", "no step size: give --h (the case file " + document.source + " has no default \"h\")");
  }
  if (!T_text.empty()) lagrangian.T = parse_number<Scalar>(T_text, "T");
  steps = step_count(lagrangian.initial.t, lagrangian.T, h);  // checks h and T
  lagrangian.model.validate(lagrangian.initial);
  scheme->initialize(lagrangian.model, lagrangian.initial, h);
}

#define NSH_INSTANTIATE(Scalar) template class LagrangianRun<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh::formula
