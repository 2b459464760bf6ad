#pragma once
// What `nsh simulate` and `nsh energy` do before a run on a "nonholonomic" case
// (docs/nonholonomic.md), in one place so that both refuse the same input with the same
// messages (as formula::LagrangianRun does for the lagrangian family): the case is loaded with
// the file's name on every error, seen through its nonlinear view (NonholonomicModelAdapter:
// g_N = -g, e = 1), h and T are read (the case's defaults otherwise), the step count checked,
// the model validated at q0 and the scheme initialized on it — which refuses a scheme that does
// not step such models, naming it — all before any output. Double and 50 digits: the models are
// trigonometric, and callers in Rational call refuse_exact_nonholonomic instead.

#include <nsh/io/case_file.hpp>
#include <nsh/io/nonholonomic_case_file.hpp>
#include <nsh/nonholonomic/nonlinear_adapter.hpp>
#include <nsh/schemes/scheme.hpp>

#include <memory>
#include <string>

namespace nsh {

template <class Scalar>
class NonholonomicRun {
 public:
  /// `h_text` / `T_text` empty: the case's "h" (InputError naming "h" without one) / "T".
  NonholonomicRun(const CaseDocument& document, const std::string& spec, const std::string& h_text,
                  const std::string& T_text);
  // The adapter and the scheme hold the case's model by address: the run stays where it was built.
  NonholonomicRun(const NonholonomicRun&) = delete;
  NonholonomicRun& operator=(const NonholonomicRun&) = delete;

  NonholonomicCase<Scalar> nonholonomic;
  std::unique_ptr<NonholonomicModelAdapter<Scalar>> model;  ///< the view the schemes step
  std::unique_ptr<Scheme<Scalar>> scheme;
  Scalar h{0};
  Scalar T{0};
  Index steps{0};
};

/// InputError naming --precision: a nonholonomic case in exact rational arithmetic.
[[noreturn]] void refuse_exact_nonholonomic(const CaseDocument& document);

extern template class NonholonomicRun<double>;
extern template class NonholonomicRun<Real50>;

}  // namespace nsh
