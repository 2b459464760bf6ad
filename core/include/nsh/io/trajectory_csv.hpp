#pragma once
// The trajectory CSV of README.md ("Command line", `nsh simulate`):
//
//   step,t,q0..q{n-1},v0..v{n-1},P0..P{m-1},E,W_ext,W_damp,W_contact
//
// and, for a frictional model (d = G_T.cols() / m > 0 tangent directions per contact), the
// tangential impulses and velocities after P, contact-major (column j is G_T's column j,
// contact j / d):
//
//   ...,P0..P{m-1},PT0..PT{md-1},UT0..UT{md-1},E,...
//
// PT is summed over the steps like P; UT = G_T^T v_k is the row's state, not summed. A
// frictionless model (d = 0) has neither group, so its table is the same as before friction.
//
// row 0 is the initial state (impulses and work terms zero), then one row per step. E is the
// total mechanical energy 1/2 v^T M v + 1/2 q^T K q of the row's state; P and the W's are that
// step's impulses and work terms from its StepSummary. Numbers are printed with append_scalar
// (nsh/data_format.hpp): for double the shortest text that reads back to the same bits, for Real50
// 50 digits, for Rational the exact fraction.
//
// Two options thin the table (`nsh simulate --every K --columns ...`, docs/output-formats.md):
// - every K-th step is written, plus the last; P and the W's of a written row are summed over
//   the steps since the previous written row, so E_j - E_i = W_ext + W_damp + W_contact -
//   (the numerical dissipation) still holds between consecutive written rows, and P is the
//   contact impulse over that interval (momentum: M (v_j - v_i) = external impulse + G P);
// - a column selection keeps step and t and any of the groups q, v, P, E, W (the three work
//   terms together) or some indices of q, v, P.
// The first-order table `step,t,x0..x{n-1},r0..r{n-1}` (catching-up, penalty) has the same two
// options with the groups x and r; r of a written row is the reaction of its own step (a rate,
// (x_{k+1} - x_k)/h - f(t_k, x_k), not summed).

#include <nsh/driver.hpp>
#include <nsh/first_order/scheme.hpp>
#include <nsh/model/linear_model.hpp>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace nsh {

/// A group of columns of a trajectory table: "q" with `size` columns q0..q{size-1}
/// (indexed), or a group written as named columns without an index ("E", "W").
struct ColumnGroup {
  std::string name;
  Index size{0};  ///< indexed: the number of columns; unindexed groups have one selectable unit
  bool indexed{true};
};

/// The selection of `--columns TEXT`: for each group, the selected indices in increasing order
/// ({0} for a selected unindexed group, {} for an unselected one). TEXT is "all", "none" (step
/// and t only), or a comma-separated list of group names ("q,E"), single columns ("q7") and
/// inclusive ranges ("q0:9"). A bad item is an InputError naming --columns and the item.
std::vector<std::vector<Index>> select_columns(const std::string& text,
                                               const std::vector<ColumnGroup>& groups);

/// `--every TEXT`: a positive integer, else an InputError naming --every.
Index parse_every(const std::string& text);

/// Which steps get a row: step 0, every `every`-th step, and `last_step` (if >= 0).
struct TrajectorySampling {
  Index every{1};
  Index last_step{-1};
  bool writes(Index step) const { return step % every == 0 || step == last_step; }
};

/// The columns of the linear table: selected indices of q, v (dofs) and P (contacts), and
/// whether E and the three work terms are written.
struct TrajectoryColumns {
  std::vector<Index> q, v, P;
  /// Tangential impulses and velocities (m d columns each, contact-major); only a frictional
  /// model (tangents = m d > 0) offers these groups.
  std::vector<Index> PT, UT;
  bool E{true};
  bool W{true};
  Index tangents{0};  ///< m d, the tangential components of the model (0: frictionless)
  static TrajectoryColumns all(Index dofs, Index contacts, Index tangents = 0);
  /// `--columns TEXT` for the groups q, v, P, E, W, and PT, UT when tangents > 0.
  static TrajectoryColumns parse(const std::string& text, Index dofs, Index contacts,
                                 Index tangents = 0);
};

/// The header line (without the newline) for n degrees of freedom and m contacts.
std::string trajectory_csv_header(Index dofs, Index contacts);
/// The header of a column selection.
std::string trajectory_csv_header(const TrajectoryColumns& columns);

/// What a written row holds: the state, and the impulse and work terms summed over the steps
/// since the previous written row (zero in row 0). E is computed only if the columns hold it.
template <class Scalar>
struct TrajectoryRow {
  Index step{0};
  const State<Scalar>* state{nullptr};
  const Vector<Scalar>* impulse{nullptr};  ///< m entries
  /// m d entries each when the columns hold PT or UT (otherwise unset): the tangential impulse
  /// summed like `impulse`, and U_T = G_T^T v of the row's state.
  const Vector<Scalar>* tangential_impulse{nullptr};
  const Vector<Scalar>* tangential_velocity{nullptr};
  Scalar E{0};
  Scalar W_ext{0};
  Scalar W_damp{0};
  Scalar W_contact{0};
};

/// Takes the states and summaries of a run as it goes, decides which rows are written, sums
/// impulses and work terms over the skipped steps, and hands each row to `write_row`: the
/// format-independent half of a trajectory writer (CSV below, HDF5 in the nsh program).
/// Needs no memory for the trajectory: call `initial` once, then `step` from the observer.
template <class Scalar>
class TrajectoryRecorder {
 public:
  /// The energy of a row's state: 1/2 v^T M v + 1/2 q^T K q of the model (1/2 v^T M(q) v +
  /// V(q) of a nonlinear one).
  using Energy = std::function<Scalar(const Vector<Scalar>& q, const Vector<Scalar>& v)>;
  /// U_T = G_T^T v (m d entries) of a frictional model (W_T(q)^T v for a nonlinear one).
  using TangentialVelocity =
      std::function<Vector<Scalar>(const Vector<Scalar>& q, const Vector<Scalar>& v)>;

  TrajectoryRecorder(Index dofs, Index contacts, Energy energy, TrajectoryColumns columns,
                     TrajectorySampling sampling);
  virtual ~TrajectoryRecorder() = default;
  TrajectoryRecorder(const TrajectoryRecorder&) = delete;
  TrajectoryRecorder& operator=(const TrajectoryRecorder&) = delete;

  /// The tangential velocity of a frictional model's rows; required (before `initial`) when
  /// the columns hold UT.
  void set_tangential_velocity(TangentialVelocity tangential_velocity);

  /// Row 0.
  void initial(const State<Scalar>& state);
  /// The state a step produced. An empty `summary.impulse` counts as zeros; any other size
  /// than the model's contact count is a logic error of the scheme.
  ///
  /// Both throw StepError naming the step, the column and the value when a row would hold a
  /// number that is not finite (a sum over skipped steps, an energy or U_T of finite data can
  /// overflow): nsh never writes inf or nan as a result (docs/limits.md).
  void step(const State<Scalar>& state, const StepSummary<Scalar>& summary);
  /// An observer for nsh::simulate that calls `step`.
  StepObserver<Scalar> observer();

  const TrajectoryColumns& columns() const { return columns_; }
  Index dofs() const { return dofs_; }
  Index contacts() const { return contacts_; }

 protected:
  virtual void write_row(const TrajectoryRow<Scalar>& row) = 0;

 private:
  Index dofs_{0};
  Index contacts_{0};
  Energy energy_;
  TrajectoryColumns columns_;
  TrajectorySampling sampling_;
  bool block_empty_{true};  ///< no step summed since the last written row
  Vector<Scalar> impulse_sum_;
  Vector<Scalar> tangential_impulse_sum_;
  Vector<Scalar> tangential_velocity_;
  TangentialVelocity tangential_velocity_of_;
  TrajectoryRow<Scalar> pending_;
  void fill_tangential(TrajectoryRow<Scalar>& row, const State<Scalar>& state);
  void write_finite_row(const TrajectoryRow<Scalar>& row);
};

/// The CSV form: one line per written row, formatted into one reused buffer.
template <class Scalar>
class TrajectoryCsvWriter final : public TrajectoryRecorder<Scalar> {
 public:
  using typename TrajectoryRecorder<Scalar>::Energy;

  /// Writes the header; every column, every row. The model must outlive the writer.
  TrajectoryCsvWriter(std::ostream& out, const LinearModel<Scalar>& model);
  /// The same for any model form (a SparseLinearModel): its sizes and its energy.
  TrajectoryCsvWriter(std::ostream& out, Index dofs, Index contacts, Energy energy);
  /// A column selection and a sampling of the rows.
  TrajectoryCsvWriter(std::ostream& out, Index dofs, Index contacts, Energy energy,
                      TrajectoryColumns columns, TrajectorySampling sampling);

 private:
  void write_row(const TrajectoryRow<Scalar>& row) override;

  std::ostream& out_;
  std::string line_;
};

/// The whole recorded trajectory as CSV (header, row 0, one row per step).
template <class Scalar>
void write_trajectory_csv(std::ostream& out, const LinearModel<Scalar>& model,
                          const Trajectory<Scalar>& trajectory);

/// The first-order table step,t,x0..x{n-1},r0..r{n-1} (r empty in row 0), streamed; columns
/// from select_columns on the groups {x, r} (first_order_column_groups).
template <class Scalar>
class FirstOrderCsvWriter {
 public:
  FirstOrderCsvWriter(std::ostream& out, Index dimension, std::vector<std::vector<Index>> columns,
                      TrajectorySampling sampling);
  void initial(const FirstOrderState<Scalar>& state);
  void step(const FirstOrderState<Scalar>& state, const FirstOrderStepSummary<Scalar>& summary);

 private:
  void row(Index step, const FirstOrderState<Scalar>& state, const Vector<Scalar>* reaction);

  std::ostream& out_;
  Index dimension_{0};
  std::vector<std::vector<Index>> columns_;
  TrajectorySampling sampling_;
  std::string line_;
};

/// The groups x and r of a first-order table of `dimension` coordinates.
std::vector<ColumnGroup> first_order_column_groups(Index dimension);

// Instantiated once, in the library (core/src); other files only link them.
extern template class TrajectoryCsvWriter<double>;
extern template class TrajectoryCsvWriter<Real50>;
extern template class TrajectoryCsvWriter<Rational>;
extern template class TrajectoryRecorder<double>;
extern template class TrajectoryRecorder<Real50>;
extern template class TrajectoryRecorder<Rational>;
extern template class FirstOrderCsvWriter<double>;
extern template class FirstOrderCsvWriter<Real50>;
extern template class FirstOrderCsvWriter<Rational>;

}  // namespace nsh
