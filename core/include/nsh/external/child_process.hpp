#pragma once
// A child program that speaks lines on its standard input and output: the transport of the
// any-language step protocol (docs/external-protocol.md). The program runs as `/bin/sh -c
// COMMAND` in its own process group, with its stdin and stdout on pipes and its stderr
// inherited (a client's diagnostics reach the user). Every write and read has a deadline
// (poll()), a reply line has a maximum length, and the destructor kills the process group and
// reaps the child, so nsh never hangs on a client and never leaves a zombie behind.

#include <cstddef>
#include <stdexcept>
#include <string>

#include <sys/types.h>

namespace nsh::external {

/// What went wrong talking to the child, with the cause in words ("did not answer within
/// 10 s", "exited with status 3 before answering", "was killed by signal 11 (SIGSEGV)").
class ChildProcessError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ChildProcess {
 public:
  /// Start `/bin/sh -c command`. ChildProcessError if the pipes or the process cannot be made.
  explicit ChildProcess(const std::string& command);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  /// Write `line` and a newline within `timeout_seconds` (a client that does not read its input
  /// would otherwise block nsh once the pipe buffer is full).
  void write_line(const std::string& line, double timeout_seconds);
  /// The next line of the child's output, without its newline, within `timeout_seconds`.
  /// ChildProcessError on a timeout, on end of output (with the exit status or signal), or on
  /// a line longer than `max_bytes`.
  std::string read_line(double timeout_seconds, std::size_t max_bytes);
  /// Kill the process group and reap the child (idempotent).
  void terminate();
  bool running() const { return pid_ > 0; }

 private:
  /// After the output closed: how the child ended, reaping it if it has (waits briefly).
  std::string describe_end();

  pid_t pid_{-1};
  int to_child_{-1};
  int from_child_{-1};
  std::string buffer_;  // bytes read past the last returned line
};

}  // namespace nsh::external
