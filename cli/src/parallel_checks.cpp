// `--jobs N` (parallel_checks.hpp).
#include "parallel_checks.hpp"

#include "process_pool.hpp"

#include <nsh/properties/verdict_io.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

namespace nsh::cli {
namespace {

using properties::CheckTask;
using properties::Verdict;

/// A child's reply: {"seconds": its wall time, "verdicts": [...]}.
struct Reply {
  double seconds{0};
  std::vector<Verdict> verdicts;
};

std::string encode(const std::function<std::vector<Verdict>()>& run) {
  const auto start = std::chrono::steady_clock::now();
  nlohmann::json verdicts = nlohmann::json::array();
  for (const auto& v : run()) verdicts.push_back(properties::to_json(v));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return nlohmann::json{{"seconds", seconds}, {"verdicts", verdicts}}.dump();
}

Reply parse_reply(const std::string& text, const std::string& where) {
  const nlohmann::json reply = nlohmann::json::parse(text);
  Reply out;
  out.seconds = reply.at("seconds").get<double>();
  for (const auto& j : reply.at("verdicts"))
    out.verdicts.push_back(properties::from_json(j, where));
  return out;
}

/// One run of a task list: units of work (whole tasks and shares) in the pool, the shares of a
/// task merged as its last share arrives, then the tasks to rerun whole.
class ParallelRun {
 public:
  ParallelRun(const std::vector<CheckTask>& tasks, int jobs,
              const std::function<void(const Verdict&, double)>& progress)
      : tasks_(tasks),
        jobs_(jobs),
        progress_(progress),
        results_(tasks.size()),
        seconds_(tasks.size(), 0.0),
        shares_(tasks.size()),
        arrived_(tasks.size(), 0) {}

  std::vector<std::vector<Verdict>> run() {
    // A splittable task runs as `jobs` shares (one expensive pair, e.g. event-driven's
    // double_vs_real50, would otherwise bound the wall time), the others whole.
    for (std::size_t t = 0; t < tasks_.size(); ++t) {
      if (tasks_[t].run_share)
        for (int share = 0; share < jobs_; ++share) units_.push_back({t, share});
      else
        units_.push_back({t, -1});
    }
    std::vector<std::function<std::string()>> encoded;
    for (const Unit& u : units_) {
      const CheckTask& task = tasks_[u.task];
      if (u.share < 0)
        encoded.push_back([&task] { return encode(task.run); });
      else
        encoded.push_back([&task, share = u.share, jobs = jobs_] {
          return encode([&] { return task.run_share(share, jobs); });
        });
    }
    run_in_processes(
        encoded, jobs_,
        [&](int i) { return tasks_[units_[static_cast<std::size_t>(i)].task].label; },
        [&](int i, const std::string& text) {
          arrived(units_[static_cast<std::size_t>(i)], text);
        });
    if (!rerun_.empty()) {
      std::vector<std::function<std::string()>> whole;
      for (std::size_t t : rerun_)
        whole.push_back([&task = tasks_[t]] { return encode(task.run); });
      run_in_processes(
          whole, jobs_, [&](int i) { return tasks_[rerun_[static_cast<std::size_t>(i)]].label; },
          [&](int i, const std::string& text) {
            const std::size_t t = rerun_[static_cast<std::size_t>(i)];
            Reply reply = parse_reply(text, where(t));
            seconds_[t] += reply.seconds;
            finish(t, std::move(reply.verdicts));
          });
    }
    return std::move(results_);
  }

 private:
  struct Unit {
    std::size_t task;
    int share;  // -1: the whole task
  };

  std::string where(std::size_t t) const { return "--jobs: task " + tasks_[t].label; }

  void arrived(const Unit& u, const std::string& text) {
    Reply reply = parse_reply(text, where(u.task));
    seconds_[u.task] += reply.seconds;
    if (u.share < 0) return finish(u.task, std::move(reply.verdicts));
    if (reply.verdicts.size() != 1)
      throw std::runtime_error(where(u.task) + ": a share gave " +
                               std::to_string(reply.verdicts.size()) + " verdicts, not 1");
    auto& shares = shares_[u.task];
    if (shares.empty()) shares.resize(static_cast<std::size_t>(jobs_));
    shares[static_cast<std::size_t>(u.share)] = std::move(reply.verdicts.front());
    if (++arrived_[u.task] < jobs_) return;
    // A failing share, or a whole-run rule that might bite: the task runs again whole, so its
    // failure, count and shrinking are those of --jobs 1.
    if (const auto merged = properties::merge_shares(shares))
      finish(u.task, {*merged});
    else
      rerun_.push_back(u.task);
  }

  void finish(std::size_t t, std::vector<Verdict> verdicts) {
    results_[t] = std::move(verdicts);
    if (progress_)
      for (const auto& v : results_[t]) progress_(v, seconds_[t]);
  }

  const std::vector<CheckTask>& tasks_;
  const int jobs_;
  const std::function<void(const Verdict&, double)>& progress_;
  std::vector<Unit> units_;
  std::vector<std::vector<Verdict>> results_;
  std::vector<double> seconds_;
  std::vector<std::vector<Verdict>> shares_;
  std::vector<int> arrived_;
  std::vector<std::size_t> rerun_;
};

}  // namespace

std::function<
    std::vector<std::vector<properties::Verdict>>(const std::vector<properties::CheckTask>&)>
parallel_task_runner(int jobs, std::function<void(const properties::Verdict&, double)> progress) {
  return [jobs, progress = std::move(progress)](const std::vector<CheckTask>& tasks) {
    return ParallelRun(tasks, jobs, progress).run();
  };
}

}  // namespace nsh::cli
