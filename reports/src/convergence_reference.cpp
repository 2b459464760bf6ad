// The three kinds of convergence reference (see convergence.hpp), all sampled in Real50.
#include <nsh/scalar.hpp>

#include <nsh/driver.hpp>
#include <nsh/error.hpp>
#include <nsh/format.hpp>
#include <nsh/limits.hpp>
#include <nsh/number.hpp>
#include <nsh/registry.hpp>
#include <nsh/reports/convergence.hpp>

#include <nsh/cases/analytic.hpp>
#include <nsh/schemes/event_driven.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace nsh::reports {

namespace {

using R = Real50;

// The first jump of some local velocity from U < 0 to U >= 0 in (t0, T] for a reference that
// can be evaluated at any time. The scan step is fine enough to separate impacts that are at
// least a few scan steps apart (the cases' closed forms are); a smooth zero crossing of U
// (a turning point away from contact) is told from a jump by the size of U's change once the
// bracket has shrunk to round-off.
std::optional<R> first_velocity_jump(const std::function<State<R>(const R&)>& at,
                                     const LinearModel<R>& model, const R& t0, const R& T,
                                     Index scan_steps) {
  if (model.contacts() == 0) return std::nullopt;
  const R dt = (T - t0) / R(scan_steps);
  State<R> prev = at(t0);
  // The largest local speed seen so far (not every scanned state: a scan of 10^7 points would
  // hold gigabytes).
  R speed = max_abs(model.local_velocity(prev.v));
  for (Index k = 1; k <= scan_steps; ++k) {
    State<R> cur = at(t0 + R(k) * dt);
    const Vector<R> ua = model.local_velocity(prev.v), ub = model.local_velocity(cur.v);
    speed = std::max<R>(speed, max_abs(ub));
    for (Index alpha = 0; alpha < model.contacts(); ++alpha) {
      if (!(ua(alpha) < R(0) && ub(alpha) >= R(0))) continue;
      R a = t0 + R(k - 1) * dt, b = t0 + R(k) * dt;
      R u_a = ua(alpha), u_b = ub(alpha);
      for (int it = 0; it < 200 && b - a > tolerance<R>(abs_value<R>(T) + R(1), R(4)); ++it) {
        const R mid = (a + b) / 2;
        const R u = model.local_velocity(at(mid).v)(alpha);
        if (u < R(0)) {
          a = mid;
          u_a = u;
        } else {
          b = mid;
          u_b = u;
        }
      }
      const R scale = speed + R(1);
      using std::sqrt;
      if (u_b - u_a > sqrt(epsilon<R>()) * scale) return (a + b) / 2;  // a jump, not a crossing
    }
    prev = std::move(cur);
  }
  return std::nullopt;
}

class AnalyticReference final : public ConvergenceReference {
 public:
  // The closed form follows the file's own model and initial state (analytic_flow recognises
  // it by its data): a user's edited copy of "two-body" is compared with its own solution,
  // never with the built-in system of that name.
  AnalyticReference(LinearCase<R> c, std::vector<std::string> hs)
      : case_(std::move(c)), hs_(std::move(hs)) {
    at_ = nsh::cases::analytic_flow<R>(case_.model, case_.initial);
    if (!at_)
      throw InputError("reference",
                       "no analytic reference for this model (closed forms: a 1-dof underdamped "
                       "oscillator without contact, a ball under constant gravity on G = [1], "
                       "w = [0], or force-free motion with K = C = F = 0); use --reference "
                       "event-driven or a FILE written by `nsh simulate`");
  }
  std::string name() const override { return "analytic"; }
  std::vector<State<R>> sample(const std::string& h_text, Index steps) override {
    const R h = parse_number<R>(h_text, "h");
    std::vector<State<R>> out;
    out.reserve(steps + 1);
    for (Index k = 0; k <= steps; ++k) out.push_back(at_(case_.initial.t + R(k) * h));
    return out;
  }
  std::optional<R> first_impact() override {
    if (!searched_) {
      // A scan at an eighth of the finest study step (and at least 4096 points) cannot miss an
      // impact that the study itself resolves.
      R finest = case_.T - case_.initial.t;
      for (const auto& text : hs_) {
        const R h = parse_number<R>(text, "h");
        if (h < finest) finest = h;
      }
      Index scan =
          static_cast<Index>(scalar_cast<double>((case_.T - case_.initial.t) / finest) * 8.0 + 1.0);
      scan = std::max<Index>(scan, 4096);
      impact_ = first_velocity_jump(at_, case_.model, case_.initial.t, case_.T, scan);
      searched_ = true;
    }
    return impact_;
  }

 private:
  LinearCase<R> case_;
  std::vector<std::string> hs_;
  std::function<State<R>(const R&)> at_;
  bool searched_{false};
  std::optional<R> impact_;
};

// The event-driven reference: one exact flow (EventDrivenFlow in Real50) advanced through the
// union of every study grid, so each run is compared with the exact solution at its own grid
// points and the first impact time is the flow's own event time (located to Real50 precision).
class EventDrivenReference final : public ConvergenceReference {
 public:
  EventDrivenReference(LinearCase<R> c, std::vector<std::string> hs)
      : case_(std::move(c)), hs_(std::move(hs)) {}
  std::string name() const override { return "event-driven"; }

  std::vector<State<R>> sample(const std::string& h_text, Index steps) override {
    compute();
    auto it = samples_.find(h_text);
    if (it == samples_.end())
      throw std::logic_error("event-driven reference: step " + h_text + " not in the study");
    if (static_cast<Index>(it->second.size()) != steps + 1)
      throw std::logic_error(fmt::format("event-driven reference: {} samples for h={}, run has {}",
                                         it->second.size(), h_text, steps + 1));
    return it->second;
  }

  std::optional<R> first_impact() override {
    compute();
    return impact_;
  }

 private:
  void compute() {
    if (computed_) return;
    computed_ = true;
    struct Point {
      R t;
      std::size_t grid;
      Index k;
    };
    std::vector<Point> points;
    for (std::size_t g = 0; g < hs_.size(); ++g) {
      const R h = parse_number<R>(hs_[g], "h");
      const Index n = step_count(case_.initial.t, case_.T, h);
      samples_[hs_[g]].resize(n + 1);
      for (Index k = 0; k <= n; ++k) points.push_back({case_.initial.t + R(k) * h, g, k});
    }
    std::stable_sort(points.begin(), points.end(),
                     [](const Point& a, const Point& b) { return a.t < b.t; });
    EventDrivenFlow<R> flow(case_.model, case_.initial);
    std::vector<Event<R>> events = flow.initial_events();
    for (const Point& p : points) {
      if (p.t > flow.state().t) flow.advance_to(p.t, &events);
      State<R> s = flow.state();
      s.t = p.t;
      samples_[hs_[p.grid]][p.k] = std::move(s);
    }
    for (const auto& e : events)
      if (e.kind == EventKind::impact) {
        impact_ = e.t;
        break;
      }
  }

  LinearCase<R> case_;
  std::vector<std::string> hs_;
  bool computed_{false};
  std::map<std::string, std::vector<State<R>>> samples_;
  std::optional<R> impact_;
};

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) {
    while (!cell.empty() && (cell.back() == '\r' || cell.back() == ' ')) cell.pop_back();
    while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
    out.push_back(cell);
  }
  return out;
}

class FileReference final : public ConvergenceReference {
 public:
  FileReference(const std::string& path, LinearCase<R> c, const std::vector<std::string>& hs)
      : path_(path), case_(std::move(c)) {
    std::error_code ec;
    const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
    if (!ec) limits::check_file_size(bytes, path, "reference");
    std::ifstream in(path);
    if (!in) throw InputError("reference", "cannot open reference file '" + path + "'");
    std::string line;
    if (!std::getline(in, line)) throw InputError("reference", "'" + path + "' is empty");
    const auto header = split_csv_line(line);
    const Index n = case_.model.dofs(), m = case_.model.contacts();
    auto column = [&](const std::string& key, bool required) -> long {
      for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == key) return static_cast<long>(i);
      if (required)
        throw InputError("reference", "'" + path + "' has no column '" + key +
                                          "' (expected the CSV of `nsh simulate`)");
      return -1;
    };
    const long t_col = column("t", true);
    std::vector<long> q_cols, v_cols, p_cols;
    for (Index i = 0; i < n; ++i) {
      q_cols.push_back(column(fmt::format("q{}", i), true));
      v_cols.push_back(column(fmt::format("v{}", i), true));
    }
    for (Index a = 0; a < m; ++a) p_cols.push_back(column(fmt::format("P{}", a), false));
    int row = 1;
    while (std::getline(in, line)) {
      ++row;
      if (line.empty()) continue;
      const auto cells = split_csv_line(line);
      auto cell = [&](long col, const char* what) -> R {
        if (col < 0 || col >= static_cast<long>(cells.size()))
          throw InputError("reference", fmt::format("'{}' row {}: missing {}", path, row, what));
        return parse_number<R>(cells[col], fmt::format("{} row {} {}", path, row, header[col]));
      };
      State<R> s{cell(t_col, "t"), Vector<R>(n), Vector<R>(n)};
      for (Index i = 0; i < n; ++i) {
        s.q(i) = cell(q_cols[i], "q");
        s.v(i) = cell(v_cols[i], "v");
      }
      bool impulse = false;
      for (long col : p_cols)
        if (col >= 0 && abs_value<R>(cell(col, "P")) > R(0)) impulse = true;
      if (!states_.empty() && !(s.t > states_.back().t))
        throw InputError("reference", fmt::format("'{}' row {}: times must increase", path, row));
      states_.push_back(std::move(s));
      impulse_.push_back(impulse);
    }
    if (states_.size() < 2)
      throw InputError("reference", "'" + path + "' needs at least two rows of states");
    // A reference on one of the study's own grids (or a coarser one) makes the run at that h
    // agree with it to round-off and the fitted order meaningless (orders of 20 and more): the
    // file's largest time step must be below the smallest h.
    R widest(0);
    for (std::size_t j = 1; j < states_.size(); ++j)
      widest = std::max<R>(widest, states_[j].t - states_[j - 1].t);
    for (const auto& text : hs) {
      const R h = parse_number<R>(text, "--h");
      if (!(widest < h * (R(1) - R(1) / R(1000))))
        throw InputError("reference",
                         "'" + path + "' is not finer than the study: its largest time step " +
                             format_short(widest) + " is not below --h " + text +
                             " (write the reference with a step well below the smallest h)");
    }
  }
  std::string name() const override { return path_; }

  std::vector<State<R>> sample(const std::string& h_text, Index steps) override {
    const R h = parse_number<R>(h_text, "h");
    std::vector<State<R>> out;
    std::size_t j = 0;
    const R slack = tolerance<R>(abs_value<R>(states_.back().t) + R(1), R(1e6));
    for (Index k = 0; k <= steps; ++k) {
      const R t = case_.initial.t + R(k) * h;
      if (t < states_.front().t - slack || t > states_.back().t + slack)
        throw InputError("reference", "'" + path_ + "' covers [" + format_short(states_.front().t) +
                                          ", " + format_short(states_.back().t) +
                                          "], the run needs t = " + format_short(t));
      while (j + 2 < states_.size() && states_[j + 1].t < t) ++j;
      const State<R>& a = states_[j];
      const State<R>& b = states_[j + 1];
      R w = (t - a.t) / (b.t - a.t);
      if (w < R(0)) w = R(0);
      if (w > R(1)) w = R(1);
      out.push_back(State<R>{t, a.q + w * (b.q - a.q), a.v + w * (b.v - a.v)});
    }
    return out;
  }

  std::optional<R> first_impact() override {
    for (std::size_t j = 1; j < states_.size(); ++j) {
      if (!impulse_[j]) continue;
      const State<R>& a = states_[j - 1];
      const Vector<R> g = case_.model.gap(a.q), u = case_.model.local_velocity(a.v);
      R best = states_[j].t - a.t;
      for (Index alpha = 0; alpha < g.size(); ++alpha)
        if (u(alpha) < R(0)) {
          R s = g(alpha) / (-u(alpha));
          if (s < R(0)) s = R(0);
          if (s < best) best = s;
        }
      return a.t + best;
    }
    return std::nullopt;
  }

 private:
  std::string path_;
  LinearCase<R> case_;
  std::vector<State<R>> states_;
  std::vector<bool> impulse_;
};

}  // namespace

std::unique_ptr<ConvergenceReference> make_reference(const std::string& kind,
                                                     const CaseDocument& document,
                                                     const std::vector<std::string>& h_texts,
                                                     const std::string& T_text) {
  if (h_texts.empty()) throw InputError("--h", "no step sizes given");
  LinearCase<R> c = load_linear_case<R>(document);
  if (!T_text.empty()) c.T = parse_number<R>(T_text, "T");
  if (kind == "auto")
    return make_reference(
        nsh::cases::analytic_flow<R>(c.model, c.initial) ? "analytic" : "event-driven", document,
        h_texts, T_text);
  if (kind == "analytic") return std::make_unique<AnalyticReference>(std::move(c), h_texts);
  if (kind == "event-driven") {
    // The event-driven flow is frictionless: on a frictional model it would be the reference
    // of another system.
    if (c.model.has_friction())
      throw InputError("mu",
                       "the event-driven reference is frictionless and this model has "
                       "Coulomb friction (mu > 0 with G_T): use --reference analytic "
                       "where a closed form exists, or a FILE written by `nsh simulate` "
                       "(e.g. Moreau-Jean in Real50 at a small h)");
    return std::make_unique<EventDrivenReference>(std::move(c), h_texts);
  }
  if (kind.find('.') != std::string::npos || kind.find('/') != std::string::npos)
    return std::make_unique<FileReference>(kind, std::move(c), h_texts);
  throw InputError("reference",
                   "unknown reference '" + kind +
                       "'; accepted: auto, analytic, event-driven, or a CSV file path");
}

}  // namespace nsh::reports
