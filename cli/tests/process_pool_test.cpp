// The process pool of `nsh check --jobs N` (cli/src/process_pool.hpp): results in task order
// whatever the completion order, errors rethrown as a sequential run would throw them, a child
// that dies named, and every task run in a child of its own when jobs > 1.
#include "../src/process_pool.hpp"

#include <nsh/error.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

namespace {

using nsh::cli::run_in_processes;

std::string pool_label(int i) {
  return "task " + std::to_string(i);
}

TEST(ProcessPool, ResultsComeBackInTaskOrder) {
  std::vector<std::function<std::string()>> tasks;
  for (int i = 0; i < 7; ++i)
    tasks.push_back([i] {
      // The first tasks finish last.
      std::this_thread::sleep_for(std::chrono::milliseconds(10 * (7 - i)));
      return std::string(static_cast<std::size_t>(i) + 1, static_cast<char>('a' + i));
    });
  std::vector<int> completed;
  const auto results = run_in_processes(tasks, 3, pool_label,
                                        [&](int i, const std::string&) { completed.push_back(i); });
  ASSERT_EQ(results.size(), 7u);
  for (int i = 0; i < 7; ++i)
    EXPECT_EQ(results[i], std::string(static_cast<std::size_t>(i) + 1, static_cast<char>('a' + i)));
  EXPECT_EQ(completed.size(), 7u);
}

TEST(ProcessPool, TasksRunInChildrenOnlyWithMoreThanOneJob) {
  int touched = 0;
  const std::vector<std::function<std::string()>> tasks = {[&] {
                                                             ++touched;
                                                             return std::string("x");
                                                           },
                                                           [&] {
                                                             ++touched;
                                                             return std::string("y");
                                                           }};
  EXPECT_EQ(run_in_processes(tasks, 2, pool_label), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(touched, 0);  // forked children changed their own copies
  EXPECT_EQ(run_in_processes(tasks, 1, pool_label), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(touched, 2);
}

TEST(ProcessPool, TheFirstFailingTasksInputErrorIsRethrownWithItsFieldAndText) {
  const std::vector<std::function<std::string()>> tasks = {
      [] { return std::string("fine"); },
      []() -> std::string {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        throw nsh::InputError("property", "unknown property 'x'");
      },
      []() -> std::string { throw nsh::InputError("h", "must be > 0, got 0"); }};
  try {
    run_in_processes(tasks, 3, pool_label);
    FAIL() << "expected an InputError";
  } catch (const nsh::InputError& e) {
    EXPECT_EQ(e.field(), "property");
    EXPECT_STREQ(e.what(), "property: unknown property 'x'");
  }
  const std::vector<std::function<std::string()>> step = {
      []() -> std::string { throw nsh::StepError("LCP not certified at step 3"); },
      [] { return std::string("fine"); }};
  EXPECT_THROW(run_in_processes(step, 2, pool_label), nsh::StepError);
}

TEST(ProcessPool, AChildThatDiesIsNamed) {
  const std::vector<std::function<std::string()>> tasks = {[] { return std::string("fine"); },
                                                           []() -> std::string {
                                                             std::raise(SIGKILL);
                                                             return "unreachable";
                                                           }};
  try {
    run_in_processes(tasks, 2, pool_label);
    FAIL() << "expected a runtime_error";
  } catch (const nsh::InputError&) {
    FAIL() << "a dead child is not bad input";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("task 1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("signal 9"), std::string::npos) << e.what();
  }
}

}  // namespace
