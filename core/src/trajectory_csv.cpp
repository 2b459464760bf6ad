#include <nsh/format.hpp>
#include <nsh/trajectory_csv.hpp>

#include <fmt/format.h>

#include <stdexcept>

namespace nsh {

std::string trajectory_csv_header(Index dofs, Index contacts) {
  std::string header = "step,t";
  for (Index i = 0; i < dofs; ++i) header += fmt::format(",q{}", i);
  for (Index i = 0; i < dofs; ++i) header += fmt::format(",v{}", i);
  for (Index a = 0; a < contacts; ++a) header += fmt::format(",P{}", a);
  return header + ",E,W_ext,W_damp,W_contact";
}

template <class Scalar>
TrajectoryCsvWriter<Scalar>::TrajectoryCsvWriter(std::ostream& out,
                                                 const LinearModel<Scalar>& model)
    : TrajectoryCsvWriter(out, model.dofs(), model.contacts(),
                          [&model](const Vector<Scalar>& q, const Vector<Scalar>& v) {
                            return model.energy(q, v);
                          }) {}

template <class Scalar>
TrajectoryCsvWriter<Scalar>::TrajectoryCsvWriter(std::ostream& out, Index dofs, Index contacts,
                                                 Energy energy)
    : out_(out), contacts_(contacts), energy_(std::move(energy)) {
  out_ << trajectory_csv_header(dofs, contacts) << '\n';
}

template <class Scalar>
void TrajectoryCsvWriter<Scalar>::initial(const State<Scalar>& state) {
  row(0, state, nullptr, Scalar(0), Scalar(0), Scalar(0));
}

template <class Scalar>
void TrajectoryCsvWriter<Scalar>::step(const State<Scalar>& state,
                                       const StepSummary<Scalar>& summary) {
  if (summary.impulse.size() != 0 && summary.impulse.size() != contacts_)
    throw std::logic_error(fmt::format("step {}: the scheme reported {} impulses for {} contacts",
                                       summary.step, summary.impulse.size(), contacts_));
  row(summary.step, state, summary.impulse.size() ? &summary.impulse : nullptr, summary.W_ext,
      summary.W_damp, summary.W_contact);
}

template <class Scalar>
StepObserver<Scalar> TrajectoryCsvWriter<Scalar>::observer() {
  return [this](const State<Scalar>& state, const StepSummary<Scalar>& summary) {
    step(state, summary);
  };
}

template <class Scalar>
void TrajectoryCsvWriter<Scalar>::row(Index step, const State<Scalar>& state,
                                      const Vector<Scalar>* impulse, const Scalar& W_ext,
                                      const Scalar& W_damp, const Scalar& W_contact) {
  std::string line = fmt::format("{},{}", step, format_scalar(state.t));
  for (Index i = 0; i < state.q.size(); ++i) line += ',' + format_scalar(state.q(i));
  for (Index i = 0; i < state.v.size(); ++i) line += ',' + format_scalar(state.v(i));
  const std::string zero = format_scalar(Scalar(0));
  for (Index a = 0; a < contacts_; ++a)
    line += ',' + (impulse ? format_scalar((*impulse)(a)) : zero);
  line += ',' + format_scalar(energy_(state.q, state.v));
  line += ',' + format_scalar(W_ext) + ',' + format_scalar(W_damp) + ',' + format_scalar(W_contact);
  out_ << line << '\n';
}

template <class Scalar>
void write_trajectory_csv(std::ostream& out, const LinearModel<Scalar>& model,
                          const Trajectory<Scalar>& trajectory) {
  TrajectoryCsvWriter<Scalar> writer(out, model);
  if (trajectory.states.empty()) return;
  writer.initial(trajectory.states.front());
  for (std::size_t k = 0; k < trajectory.steps.size() && k + 1 < trajectory.states.size(); ++k)
    writer.step(trajectory.states[k + 1], trajectory.steps[k]);
}

template class TrajectoryCsvWriter<double>;
template class TrajectoryCsvWriter<Real50>;
template class TrajectoryCsvWriter<Rational>;
template void write_trajectory_csv(std::ostream&, const LinearModel<double>&,
                                   const Trajectory<double>&);
template void write_trajectory_csv(std::ostream&, const LinearModel<Real50>&,
                                   const Trajectory<Real50>&);
template void write_trajectory_csv(std::ostream&, const LinearModel<Rational>&,
                                   const Trajectory<Rational>&);

}  // namespace nsh
