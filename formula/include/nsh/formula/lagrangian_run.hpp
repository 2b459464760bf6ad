#pragma once
// What `nsh simulate`, `nsh converge` and `nsh energy` do before a run on a lagrangian case
// (docs/nonlinear-models.md), in one place so that the three commands refuse the same input
// with the same messages: the scheme is made from its spec and must step nonlinear models
// (moreau-jean), the case is loaded with the file's name on every error, h and T are read
// (the case's defaults otherwise), the step count is checked, the model is validated at q0 and
// the scheme initialized on it, all before any output. Rational runs where every formula is
// rational (cases/data/particle-on-parabola.json); a case with sin, a root or pi is refused
// naming its field and --precision rational (the loader's message).

#include <nsh/formula/lagrangian_case.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/schemes/scheme.hpp>

#include <memory>
#include <string>

namespace nsh::formula {

template <class Scalar>
class LagrangianRun {
 public:
  /// `h_text` / `T_text` empty: the case's "h" (InputError naming "h" without one) / "T".
  /// Errors: InputError naming "--scheme" (a scheme that does not step nonlinear models),
  /// the case file's field (prefixed by "case <file>: "; in Rational also a formula that is not
  /// rational), "h", "T".
  LagrangianRun(const CaseDocument& document, const std::string& spec, const std::string& h_text,
                const std::string& T_text);
  // The scheme is bound to `lagrangian.model` by address: the run stays where it was built.
  LagrangianRun(const LagrangianRun&) = delete;
  LagrangianRun& operator=(const LagrangianRun&) = delete;

  LagrangianCase<Scalar> lagrangian;  ///< T is the run's horizon (--T or the case's)
  std::unique_ptr<Scheme<Scalar>> scheme;
  Scalar h{0};
  Index steps{0};
};

extern template class LagrangianRun<double>;
extern template class LagrangianRun<Real50>;
extern template class LagrangianRun<Rational>;

}  // namespace nsh::formula
