#include "process_pool.hpp"

#include <nsh/error.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

namespace nsh::cli {
namespace {

namespace fs = std::filesystem;

// A child's answer file: one tag character, then the payload.
//   R<result>   the task's return value
//   I<field>\n<message>   an InputError (what() == field + ": " + message, or message alone)
//   S<what>     a StepError
//   X<what>     any other exception
constexpr char kResult = 'R', kInput = 'I', kStep = 'S', kOther = 'X';

std::string answer_of(const std::function<std::string()>& task) {
  try {
    return kResult + task();
  } catch (const InputError& e) {
    const std::string what = e.what();
    const std::string& field = e.field();
    const std::string message = field.empty() ? what : what.substr(field.size() + 2);
    return kInput + field + "\n" + message;
  } catch (const StepError& e) {
    return kStep + std::string(e.what());
  } catch (const std::bad_alloc&) {
    return kOther + std::string("out of memory");
  } catch (const std::exception& e) {
    return kOther + std::string(e.what());
  }
}

[[noreturn]] void rethrow(const std::string& answer, const std::string& label) {
  const std::string payload = answer.substr(1);
  switch (answer.front()) {
    case kInput: {
      const auto newline = payload.find('\n');
      throw InputError(payload.substr(0, newline), payload.substr(newline + 1));
    }
    case kStep:
      throw StepError(payload);
    default:
      throw std::runtime_error(label + ": " + payload);
  }
}

std::string read_answer(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// A scratch directory removed with its files when the pool ends, however it ends.
struct ScratchDirectory {
  fs::path path;
  ScratchDirectory() {
    std::string pattern = (fs::temp_directory_path() / "nsh-jobs-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
      throw std::runtime_error("--jobs: cannot create a scratch directory in " +
                               fs::temp_directory_path().string());
    path = pattern;
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

}  // namespace

int available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? static_cast<int>(n) : 1;
}

std::vector<std::string> run_in_processes(
    const std::vector<std::function<std::string()>>& tasks, int jobs,
    const std::function<std::string(int)>& label,
    const std::function<void(int, const std::string&)>& done) {
  const int n = static_cast<int>(tasks.size());
  std::vector<std::string> results(tasks.size());
  if (jobs <= 1 || n <= 1) {
    for (int i = 0; i < n; ++i) {
      results[i] = tasks[i]();
      if (done) done(i, results[i]);
    }
    return results;
  }
  ScratchDirectory scratch;
  std::map<pid_t, int> running;
  std::map<int, std::string> failures;  // task index -> its answer (or the reason it has none)
  int next = 0;
  const auto answer_file = [&](int i) { return scratch.path / std::to_string(i); };
  while (next < n || !running.empty()) {
    // Launch in task order, and none after a failure: a sequential run stops at the first.
    while (next < n && static_cast<int>(running.size()) < jobs && failures.empty()) {
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);  // a child must not write the parent's buffered output again
      const pid_t pid = ::fork();
      if (pid < 0) throw std::runtime_error("--jobs: fork failed for " + label(next));
      if (pid == 0) {
        int status = 0;
        {
          std::ofstream out(answer_file(next), std::ios::binary);
          out << answer_of(tasks[next]);
          out.flush();
          status = out ? 0 : 3;
        }
        std::_Exit(status);  // no atexit handlers, no second flush of inherited buffers
      }
      running.emplace(pid, next++);
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) throw std::runtime_error("--jobs: waitpid failed");
    const auto it = running.find(pid);
    if (it == running.end()) continue;  // not one of the pool's children
    const int i = it->second;
    running.erase(it);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      std::string answer = read_answer(answer_file(i));
      if (!answer.empty() && answer.front() == kResult) {
        results[i] = answer.substr(1);
        if (done) done(i, results[i]);
        continue;
      }
      failures[i] = answer.empty() ? std::string(1, kOther) + "the child wrote no answer" : answer;
    } else if (WIFSIGNALED(status)) {
      failures[i] = fmt::format("{}the child process ended by signal {}", kOther, WTERMSIG(status));
    } else {
      failures[i] =
          fmt::format("{}the child process exited with status {}", kOther, WEXITSTATUS(status));
    }
  }
  if (!failures.empty()) {
    const auto& [i, answer] = *failures.begin();
    rethrow(answer, label(i));
  }
  return results;
}

}  // namespace nsh::cli
