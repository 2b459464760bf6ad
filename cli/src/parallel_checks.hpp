#pragma once
// `--jobs N` of `nsh check` and `nsh report`: the checks' independent tasks in N processes
// (process_pool.hpp). A task whose cases can be split runs as N shares merged back
// (properties::merge_shares); a task with a failing share, or one a whole-run rule might fail,
// runs again whole, so the verdicts are those of --jobs 1 (docs/decisions.md, "Parallel checks").

#include <nsh/properties/check.hpp>

#include <functional>
#include <vector>

namespace nsh::cli {

/// What CheckOptions::run_tasks calls: run every task in `jobs` processes and return each
/// task's verdicts in task order, calling `progress` (if set) once per verdict as its task ends.
std::function<
    std::vector<std::vector<properties::Verdict>>(const std::vector<properties::CheckTask>&)>
parallel_task_runner(int jobs, std::function<void(const properties::Verdict&, double)> progress);

}  // namespace nsh::cli
