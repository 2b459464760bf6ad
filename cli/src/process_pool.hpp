#pragma once
// Independent tasks run in forked child processes, at most `jobs` at a time (`nsh check
// --jobs N`). Processes, not threads: rapidcheck keeps its generation state in static,
// non-thread-local stacks (rapidcheck/detail/ImplicitParam.h), so two random searches cannot
// share a process; a forked child starts from the parent's state, so a task computes in a child
// exactly what it computes in the parent, and the results come back in task order
// (docs/decisions.md, "Parallel checks").

#include <functional>
#include <string>
#include <vector>

namespace nsh::cli {

/// Runs every task and returns what each returned, in task order. A task's InputError or
/// StepError is rethrown in the parent with the same text (the lowest-numbered failing task's,
/// as a sequential run would have stopped there); any other exception, a signal or an exit of
/// the child becomes std::runtime_error naming `label(i)`. `done(i, result)` is called in the
/// parent as each task completes (progress lines), in completion order. jobs <= 1 runs the tasks in
/// this process, in order. The caller must not have started threads (fork).
std::vector<std::string> run_in_processes(
    const std::vector<std::function<std::string()>>& tasks, int jobs,
    const std::function<std::string(int)>& label,
    const std::function<void(int, const std::string&)>& done = {});

/// The number of cores this process may run on (at least 1): `--jobs` defaults to it.
int available_cores();

}  // namespace nsh::cli
