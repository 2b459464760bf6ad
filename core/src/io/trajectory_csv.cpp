#include <nsh/data_format.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/io/trajectory_csv.hpp>

#include <fmt/format.h>

#include <charconv>
#include <stdexcept>
#include <type_traits>

namespace nsh {
namespace {

/// A non-negative decimal integer spelled only with digits, or -1.
long long parse_index(std::string_view text) {
  long long value = -1;
  if (text.empty()) return -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return -1;
  return value;
}

std::string accepted_items(const std::vector<ColumnGroup>& groups) {
  std::string names = "all, none";
  std::string indexed;
  for (const ColumnGroup& g : groups) {
    names += ", " + g.name;
    if (g.indexed) indexed += fmt::format(", {0}I, {0}I:J", g.name);
  }
  return names + indexed + " (I, J column indices, J inclusive)";
}

/// Appends an integer column (the step) without a temporary string.
void append_index(std::string& line, Index value) {
  const fmt::format_int text(value);
  line.append(text.data(), text.size());
}

/// The first entry of `values` that is not finite, as "name[i] = value", or empty.
template <class Scalar>
std::string first_non_finite_entry(const char* name, const Vector<Scalar>* values) {
  if (values == nullptr) return {};
  for (Index i = 0; i < values->size(); ++i)
    if (!is_finite((*values)(i)))
      return fmt::format("{}[{}] = {}", name, i, format_scalar((*values)(i)));
  return {};
}

template <class Scalar>
std::string first_non_finite_entry(const char* name, const Scalar& value) {
  return is_finite(value) ? std::string() : fmt::format("{} = {}", name, format_scalar(value));
}

}  // namespace

std::vector<std::vector<Index>> select_columns(const std::string& text,
                                               const std::vector<ColumnGroup>& groups) {
  const auto units = [](const ColumnGroup& g) { return g.indexed ? g.size : Index(1); };
  std::vector<std::vector<bool>> chosen;
  for (const ColumnGroup& g : groups) chosen.emplace_back(static_cast<std::size_t>(units(g)));
  const std::string all = trim_blanks(text);
  if (all.empty()) throw InputError("--columns", "is empty; accepted: " + accepted_items(groups));
  std::size_t start = 0;
  while (start <= all.size()) {
    const std::size_t comma = std::min(all.find(',', start), all.size());
    const std::string item = trim_blanks(all.substr(start, comma - start));
    start = comma + 1;
    if (item.empty())
      throw InputError("--columns",
                       "empty item in '" + text + "'; accepted: " + accepted_items(groups));
    if (item == "all" || item == "none") {
      for (std::size_t g = 0; g < groups.size(); ++g)
        chosen[g].assign(chosen[g].size(), item == "all");
      continue;
    }
    // The group whose name is the longest prefix of the item.
    std::size_t match = groups.size();
    for (std::size_t g = 0; g < groups.size(); ++g)
      if (item.compare(0, groups[g].name.size(), groups[g].name) == 0 &&
          (match == groups.size() || groups[g].name.size() > groups[match].name.size()))
        match = g;
    if (match == groups.size())
      throw InputError("--columns",
                       "unknown column '" + item + "'; accepted: " + accepted_items(groups));
    const ColumnGroup& group = groups[match];
    const std::string rest = item.substr(group.name.size());
    if (rest.empty()) {
      chosen[match].assign(chosen[match].size(), true);
      continue;
    }
    if (!group.indexed)
      throw InputError("--columns", "'" + item + "': " + group.name +
                                        " takes no index; accepted: " + accepted_items(groups));
    const std::size_t colon = rest.find(':');
    const long long lo = parse_index(std::string_view(rest).substr(0, colon));
    const long long hi =
        colon == std::string::npos ? lo : parse_index(std::string_view(rest).substr(colon + 1));
    if (lo < 0 || hi < 0)
      throw InputError("--columns",
                       "'" + item + "' is not " + group.name + "I or " + group.name +
                           "I:J with column indices I <= J; accepted: " + accepted_items(groups));
    if (lo > hi)
      throw InputError(
          "--columns",
          fmt::format("'{}': the range {}:{} is empty (J is inclusive, I <= J)", item, lo, hi));
    if (hi >= group.size)
      throw InputError(
          "--columns",
          group.size == 0
              ? fmt::format("'{}' is out of range: this case has no {} columns", item, group.name)
              : fmt::format("'{}' is out of range: {} has the columns {}0..{}{}", item, group.name,
                            group.name, group.name, group.size - 1));
    for (long long i = lo; i <= hi; ++i) chosen[match][static_cast<std::size_t>(i)] = true;
  }
  std::vector<std::vector<Index>> out(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t i = 0; i < chosen[g].size(); ++i)
      if (chosen[g][i]) out[g].push_back(static_cast<Index>(i));
  return out;
}

Index parse_every(const std::string& text) {
  const long long every = parse_index(trim_blanks(text));
  if (every < 1)
    throw InputError("--every",
                     "must be a positive integer (write every K-th step), got '" + text + "'");
  return static_cast<Index>(every);
}

TrajectoryColumns TrajectoryColumns::all(Index dofs, Index contacts, Index tangents) {
  return parse("all", dofs, contacts, tangents);
}

TrajectoryColumns TrajectoryColumns::parse(const std::string& text, Index dofs, Index contacts,
                                           Index tangents) {
  std::vector<ColumnGroup> groups = {{"q", dofs, true},
                                     {"v", dofs, true},
                                     {"P", contacts, true},
                                     {"E", 1, false},
                                     {"W", 1, false}};
  // A frictionless model is offered exactly the groups it had before friction (the messages
  // listing the accepted items included).
  if (tangents > 0) {
    groups.push_back({"PT", tangents, true});
    groups.push_back({"UT", tangents, true});
  }
  const auto chosen = select_columns(text, groups);
  TrajectoryColumns columns;
  columns.q = chosen[0];
  columns.v = chosen[1];
  columns.P = chosen[2];
  columns.E = !chosen[3].empty();
  columns.W = !chosen[4].empty();
  columns.tangents = tangents;
  if (tangents > 0) {
    columns.PT = chosen[5];
    columns.UT = chosen[6];
  }
  return columns;
}

std::string trajectory_csv_header(const TrajectoryColumns& columns) {
  std::string header = "step,t";
  for (Index i : columns.q) header += fmt::format(",q{}", i);
  for (Index i : columns.v) header += fmt::format(",v{}", i);
  for (Index a : columns.P) header += fmt::format(",P{}", a);
  for (Index j : columns.PT) header += fmt::format(",PT{}", j);
  for (Index j : columns.UT) header += fmt::format(",UT{}", j);
  if (columns.E) header += ",E";
  if (columns.W) header += ",W_ext,W_damp,W_contact";
  return header;
}

std::string trajectory_csv_header(Index dofs, Index contacts) {
  return trajectory_csv_header(TrajectoryColumns::all(dofs, contacts));
}

template <class Scalar>
TrajectoryRecorder<Scalar>::TrajectoryRecorder(Index dofs, Index contacts, Energy energy,
                                               TrajectoryColumns columns,
                                               TrajectorySampling sampling)
    : dofs_(dofs),
      contacts_(contacts),
      energy_(std::move(energy)),
      columns_(std::move(columns)),
      sampling_(sampling),
      impulse_sum_(Vector<Scalar>::Zero(contacts)),
      tangential_impulse_sum_(Vector<Scalar>::Zero(columns_.tangents)) {
  if (sampling_.every < 1)
    throw InputError("--every", fmt::format("must be a positive integer, got {}", sampling_.every));
}

template <class Scalar>
void TrajectoryRecorder<Scalar>::set_tangential_velocity(TangentialVelocity tangential_velocity) {
  tangential_velocity_of_ = std::move(tangential_velocity);
}

template <class Scalar>
void TrajectoryRecorder<Scalar>::fill_tangential(TrajectoryRow<Scalar>& row,
                                                 const State<Scalar>& state) {
  if (columns_.tangents == 0) return;
  row.tangential_impulse = &tangential_impulse_sum_;
  if (columns_.UT.empty()) return;
  if (!tangential_velocity_of_)
    throw std::logic_error("trajectory: UT columns without the model's tangential velocity");
  tangential_velocity_ = tangential_velocity_of_(state.q, state.v);
  if (tangential_velocity_.size() != columns_.tangents)
    throw std::logic_error(fmt::format("trajectory: {} tangential velocities for {} columns",
                                       tangential_velocity_.size(), columns_.tangents));
  row.tangential_velocity = &tangential_velocity_;
}

template <class Scalar>
void TrajectoryRecorder<Scalar>::initial(const State<Scalar>& state) {
  impulse_sum_.setZero();
  tangential_impulse_sum_.setZero();
  TrajectoryRow<Scalar> row;
  row.step = 0;
  row.state = &state;
  row.impulse = &impulse_sum_;
  fill_tangential(row, state);
  if (columns_.E) row.E = energy_(state.q, state.v);
  write_finite_row(row);
  block_empty_ = true;
}

template <class Scalar>
void TrajectoryRecorder<Scalar>::write_finite_row(const TrajectoryRow<Scalar>& row) {
  if constexpr (!is_exact_v<Scalar>) {
    for (const std::string& found :
         {first_non_finite_entry("q", &row.state->q), first_non_finite_entry("v", &row.state->v),
          first_non_finite_entry("P", row.impulse),
          first_non_finite_entry("P_T", row.tangential_impulse),
          first_non_finite_entry("U_T", row.tangential_velocity),
          first_non_finite_entry("E", row.E), first_non_finite_entry("W_ext", row.W_ext),
          first_non_finite_entry("W_damp", row.W_damp),
          first_non_finite_entry("W_contact", row.W_contact)})
      if (!found.empty())
        throw StepError(fmt::format(
            "the output row of step {} (t = {}) would hold {}, which is not finite (a product "
            "or a sum of finite results overflowed; rescale the model or write every step)",
            row.step, format_scalar(row.state->t), found));
  }
  write_row(row);
}

template <class Scalar>
void TrajectoryRecorder<Scalar>::step(const State<Scalar>& state,
                                      const StepSummary<Scalar>& summary) {
  const bool has_impulse = summary.impulse.size() != 0;
  if (has_impulse && summary.impulse.size() != contacts_)
    throw std::logic_error(fmt::format("step {}: the scheme reported {} impulses for {} contacts",
                                       summary.step, summary.impulse.size(), contacts_));
  // An empty tangential impulse counts as zeros (a scheme without friction records none).
  const bool has_tangential = columns_.tangents > 0 && summary.tangential_impulse.size() != 0;
  if (has_tangential && summary.tangential_impulse.size() != columns_.tangents)
    throw std::logic_error(fmt::format(
        "step {}: the scheme reported {} tangential impulses for {} tangential components",
        summary.step, summary.tangential_impulse.size(), columns_.tangents));
  // The first step of a block is copied, not added to zero, so that every = 1 writes each
  // step's own bits (0 + (-0) would print 0).
  if (block_empty_) {
    if (has_impulse)
      impulse_sum_ = summary.impulse;
    else
      impulse_sum_.setZero();
    if (has_tangential)
      tangential_impulse_sum_ = summary.tangential_impulse;
    else
      tangential_impulse_sum_.setZero();
    pending_.W_ext = summary.W_ext;
    pending_.W_damp = summary.W_damp;
    pending_.W_contact = summary.W_contact;
    block_empty_ = false;
  } else {
    if (has_impulse) impulse_sum_ += summary.impulse;
    if (has_tangential) tangential_impulse_sum_ += summary.tangential_impulse;
    pending_.W_ext += summary.W_ext;
    pending_.W_damp += summary.W_damp;
    pending_.W_contact += summary.W_contact;
  }
  if (!sampling_.writes(summary.step)) return;
  pending_.step = summary.step;
  pending_.state = &state;
  pending_.impulse = &impulse_sum_;
  fill_tangential(pending_, state);
  if (columns_.E) pending_.E = energy_(state.q, state.v);
  write_finite_row(pending_);
  block_empty_ = true;
}

template <class Scalar>
StepObserver<Scalar> TrajectoryRecorder<Scalar>::observer() {
  return [this](const State<Scalar>& state, const StepSummary<Scalar>& summary) {
    step(state, summary);
  };
}

template <class Scalar>
TrajectoryCsvWriter<Scalar>::TrajectoryCsvWriter(std::ostream& out,
                                                 const LinearModel<Scalar>& model)
    : TrajectoryCsvWriter(
          out, model.dofs(), model.contacts(),
          [&model](const Vector<Scalar>& q, const Vector<Scalar>& v) { return model.energy(q, v); },
          TrajectoryColumns::all(model.dofs(), model.contacts(), model.G_T.cols()),
          TrajectorySampling{}) {
  if (model.G_T.cols() != 0)
    this->set_tangential_velocity([&model](const Vector<Scalar>&, const Vector<Scalar>& v) {
      return model.tangential_velocity(v);
    });
}

template <class Scalar>
TrajectoryCsvWriter<Scalar>::TrajectoryCsvWriter(std::ostream& out, Index dofs, Index contacts,
                                                 Energy energy)
    : TrajectoryCsvWriter(out, dofs, contacts, std::move(energy),
                          TrajectoryColumns::all(dofs, contacts), TrajectorySampling{}) {}

template <class Scalar>
TrajectoryCsvWriter<Scalar>::TrajectoryCsvWriter(std::ostream& out, Index dofs, Index contacts,
                                                 Energy energy, TrajectoryColumns columns,
                                                 TrajectorySampling sampling)
    : TrajectoryRecorder<Scalar>(dofs, contacts, std::move(energy), std::move(columns), sampling),
      out_(out) {
  out_ << trajectory_csv_header(this->columns()) << '\n';
}

template <class Scalar>
void TrajectoryCsvWriter<Scalar>::write_row(const TrajectoryRow<Scalar>& row) {
  const TrajectoryColumns& columns = this->columns();
  const State<Scalar>& state = *row.state;
  if constexpr (std::is_same_v<Scalar, double>) {
    // A double row has a known bound (25 bytes a number with its comma, 48 of scratch at the
    // end), so it is written straight into one buffer sized once, without a capacity check
    // and a copy per number.
    const std::size_t numbers = 1 + columns.q.size() + columns.v.size() + columns.P.size() +
                                columns.PT.size() + columns.UT.size() + 1 + 3;
    if (line_.size() < 32 + 25 * numbers + 48) line_.resize(32 + 25 * numbers + 48);
    char* const begin = line_.data();
    char* at = fmt::format_to(begin, "{}", row.step);
    const auto put = [&at](double x) {
      *at++ = ',';
      at = write_scalar(at, x);
    };
    put(state.t);
    for (Index i : columns.q) put(state.q(i));
    for (Index i : columns.v) put(state.v(i));
    for (Index a : columns.P) put((*row.impulse)(a));
    for (Index j : columns.PT) put((*row.tangential_impulse)(j));
    for (Index j : columns.UT) put((*row.tangential_velocity)(j));
    if (columns.E) put(row.E);
    if (columns.W) {
      put(row.W_ext);
      put(row.W_damp);
      put(row.W_contact);
    }
    *at++ = '\n';
    out_.write(begin, static_cast<std::streamsize>(at - begin));
    return;
  }
  line_.clear();
  append_index(line_, row.step);
  line_ += ',';
  append_scalar(line_, state.t);
  for (Index i : columns.q) {
    line_ += ',';
    append_scalar(line_, state.q(i));
  }
  for (Index i : columns.v) {
    line_ += ',';
    append_scalar(line_, state.v(i));
  }
  for (Index a : columns.P) {
    line_ += ',';
    append_scalar(line_, (*row.impulse)(a));
  }
  for (Index j : columns.PT) {
    line_ += ',';
    append_scalar(line_, (*row.tangential_impulse)(j));
  }
  for (Index j : columns.UT) {
    line_ += ',';
    append_scalar(line_, (*row.tangential_velocity)(j));
  }
  if (columns.E) {
    line_ += ',';
    append_scalar(line_, row.E);
  }
  if (columns.W) {
    for (const Scalar* w : {&row.W_ext, &row.W_damp, &row.W_contact}) {
      line_ += ',';
      append_scalar(line_, *w);
    }
  }
  line_ += '\n';
  out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
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

std::vector<ColumnGroup> first_order_column_groups(Index dimension) {
  return {{"x", dimension, true}, {"r", dimension, true}};
}

template <class Scalar>
FirstOrderCsvWriter<Scalar>::FirstOrderCsvWriter(std::ostream& out, Index dimension,
                                                 std::vector<std::vector<Index>> columns,
                                                 TrajectorySampling sampling)
    : out_(out), dimension_(dimension), columns_(std::move(columns)), sampling_(sampling) {
  if (columns_.size() != 2)
    throw std::logic_error("FirstOrderCsvWriter: expected the column groups x and r");
  std::string header = "step,t";
  for (Index i : columns_[0]) header += fmt::format(",x{}", i);
  for (Index i : columns_[1]) header += fmt::format(",r{}", i);
  out_ << header << '\n';
}

template <class Scalar>
void FirstOrderCsvWriter<Scalar>::initial(const FirstOrderState<Scalar>& state) {
  row(0, state, nullptr);
}

template <class Scalar>
void FirstOrderCsvWriter<Scalar>::step(const FirstOrderState<Scalar>& state,
                                       const FirstOrderStepSummary<Scalar>& summary) {
  if (!sampling_.writes(summary.step)) return;
  row(summary.step, state, summary.reaction.size() == dimension_ ? &summary.reaction : nullptr);
}

template <class Scalar>
void FirstOrderCsvWriter<Scalar>::row(Index step, const FirstOrderState<Scalar>& state,
                                      const Vector<Scalar>* reaction) {
  line_.clear();
  append_index(line_, step);
  line_ += ',';
  append_scalar(line_, state.t);
  for (Index i : columns_[0]) {
    line_ += ',';
    append_scalar(line_, state.x(i));
  }
  for (Index i : columns_[1]) {
    line_ += ',';
    if (reaction) append_scalar(line_, (*reaction)(i));
  }
  line_ += '\n';
  out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
}

#define NSH_INSTANTIATE(Scalar)                                                 \
  template class TrajectoryRecorder<Scalar>;                                    \
  template class TrajectoryCsvWriter<Scalar>;                                   \
  template class FirstOrderCsvWriter<Scalar>;                                   \
  template void write_trajectory_csv(std::ostream&, const LinearModel<Scalar>&, \
                                     const Trajectory<Scalar>&);
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh
