#pragma once
// The trajectory CSV of README.md ("Command line", `nsh simulate`):
//
//   step,t,q0..q{n-1},v0..v{n-1},P0..P{m-1},E,W_ext,W_damp,W_contact
//
// row 0 is the initial state (impulses and work terms zero), then one row per step. E is the
// total mechanical energy 1/2 v^T M v + 1/2 q^T K q of the row's state; P and the W's are that
// step's impulses and work terms from its StepSummary. Every number is printed with
// format_scalar, at the full precision of Scalar (exact fractions for Rational).

#include <nsh/driver.hpp>
#include <nsh/model.hpp>

#include <functional>
#include <ostream>
#include <string>

namespace nsh {

/// The header line (without the newline) for n degrees of freedom and m contacts.
std::string trajectory_csv_header(Index dofs, Index contacts);

/// Streams rows as a simulation runs, so that a long run needs no memory for its trajectory:
/// call `initial` once, then `step` from the driver's observer.
template <class Scalar>
class TrajectoryCsvWriter {
 public:
  /// The energy of a row's state: 1/2 v^T M v + 1/2 q^T K q of the model.
  using Energy = std::function<Scalar(const Vector<Scalar>& q, const Vector<Scalar>& v)>;

  /// Writes the header. The model must outlive the writer.
  TrajectoryCsvWriter(std::ostream& out, const LinearModel<Scalar>& model);
  /// The same for any model form (a SparseLinearModel): its sizes and its energy.
  TrajectoryCsvWriter(std::ostream& out, Index dofs, Index contacts, Energy energy);
  /// Row 0.
  void initial(const State<Scalar>& state);
  /// The row of the state a step produced. An empty `summary.impulse` is written as zeros;
  /// any other size than the model's contact count is a logic error of the scheme.
  void step(const State<Scalar>& state, const StepSummary<Scalar>& summary);
  /// An observer for nsh::simulate that calls `step`.
  StepObserver<Scalar> observer();

 private:
  void row(Index step, const State<Scalar>& state, const Vector<Scalar>* impulse,
           const Scalar& W_ext, const Scalar& W_damp, const Scalar& W_contact);

  std::ostream& out_;
  Index contacts_{0};
  Energy energy_;
};

/// The whole recorded trajectory as CSV (header, row 0, one row per step).
template <class Scalar>
void write_trajectory_csv(std::ostream& out, const LinearModel<Scalar>& model,
                          const Trajectory<Scalar>& trajectory);

}  // namespace nsh
