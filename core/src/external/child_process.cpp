// The transport of the step protocol (nsh/external/child_process.hpp): posix_spawn, pipes,
// poll() deadlines, kill and reap.
#include <nsh/external/child_process.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace nsh::external {
namespace {

using Clock = std::chrono::steady_clock;

std::string system_error(const char* what) {
  return fmt::format("{}: {}", what, std::strerror(errno));
}

void set_nonblocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
    throw ChildProcessError(system_error("fcntl"));
}

/// Milliseconds left before `deadline` (0 once it passed), for poll().
int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1 << 30));
}

Clock::time_point deadline_after(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

std::string signal_name(int signal) {
  const char* name = ::sigabbrev_np(signal);
  return name ? fmt::format("{} (SIG{})", signal, name) : std::to_string(signal);
}

/// A write to a pipe whose reader is gone raises SIGPIPE, which would kill nsh: block it
/// around the write and consume the pending signal, so the write fails with EPIPE instead.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlock() {
    const timespec zero{0, 0};
    while (sigtimedwait(&pipe_, nullptr, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }

 private:
  sigset_t pipe_, old_;
};

}  // namespace

ChildProcess::ChildProcess(const std::string& command) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) throw ChildProcessError(system_error("pipe"));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    throw ChildProcessError(system_error("pipe"));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 onto 0 and 1 clears their close-on-exec flag; every other pipe end closes at exec.
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Its own process group: terminate() kills a shell pipeline's children too. Default signal
  // dispositions and mask, whatever nsh has blocked or ignored.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::string shell = "/bin/sh", dash_c = "-c", text = command;
  char* argv[] = {shell.data(), dash_c.data(), text.data(), nullptr};
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(in[0]);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(in[1]);
    ::close(out[0]);
    throw ChildProcessError(fmt::format("cannot start /bin/sh -c: {}", std::strerror(spawned)));
  }
  pid_ = pid;
  to_child_ = in[1];
  from_child_ = out[0];
  set_nonblocking(to_child_);
  set_nonblocking(from_child_);
}

ChildProcess::~ChildProcess() {
  terminate();
}

void ChildProcess::terminate() {
  if (to_child_ >= 0) ::close(to_child_);
  if (from_child_ >= 0) ::close(from_child_);
  to_child_ = from_child_ = -1;
  if (pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
}

std::string ChildProcess::describe_end() {
  if (pid_ <= 0) return "had already been stopped";
  int status = 0;
  // The output closes when the program exits; give its exit status a moment to arrive.
  for (int i = 0; i < 50; ++i) {
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      pid_ = -1;
      ::kill(-done, SIGKILL);  // what is left of its process group
      if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
      if (WIFSIGNALED(status)) return "was killed by signal " + signal_name(WTERMSIG(status));
      return "ended";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return "closed its standard output (still running; stopped)";
}

void ChildProcess::write_line(const std::string& line, double timeout_seconds) {
  if (to_child_ < 0) throw ChildProcessError("the program is not running");
  const std::string data = line + "\n";
  const auto deadline = deadline_after(timeout_seconds);
  SigpipeBlock block;
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(to_child_, data.data() + written, data.size() - written);
    if (n > 0) {
      written += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EPIPE) {
      const std::string end = describe_end();
      terminate();
      throw ChildProcessError("the program " + end + " instead of reading its input");
    }
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
      throw ChildProcessError(system_error("write"));
    pollfd fd{to_child_, POLLOUT, 0};
    const int ready = ::poll(&fd, 1, remaining_ms(deadline));
    if (ready == 0) {
      terminate();
      throw ChildProcessError(
          fmt::format("the program did not read its input within {} s (stopped)", timeout_seconds));
    }
    if (ready < 0 && errno != EINTR) throw ChildProcessError(system_error("poll"));
  }
}

std::string ChildProcess::read_line(double timeout_seconds, std::size_t max_bytes) {
  if (from_child_ < 0) throw ChildProcessError("the program is not running");
  const auto deadline = deadline_after(timeout_seconds);
  std::size_t scanned = 0;
  for (;;) {
    const auto newline = buffer_.find('\n', scanned);
    if (newline != std::string::npos) {
      if (newline > max_bytes) break;
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return line;
    }
    scanned = buffer_.size();
    if (buffer_.size() > max_bytes) break;
    pollfd fd{from_child_, POLLIN, 0};
    const int ready = ::poll(&fd, 1, remaining_ms(deadline));
    if (ready == 0) {
      terminate();
      throw ChildProcessError(
          fmt::format("the program did not answer within {} s (stopped; --external-timeout "
                      "sets the deadline)",
                      timeout_seconds));
    }
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw ChildProcessError(system_error("poll"));
    }
    char chunk[65536];
    const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (n < 0) throw ChildProcessError(system_error("read"));
    const std::string end = describe_end();
    terminate();
    throw ChildProcessError("the program " + end + " before answering" +
                            (buffer_.empty() ? "" : " (an unterminated line was left)"));
  }
  terminate();
  throw ChildProcessError(fmt::format(
      "the reply line is longer than {} bytes (the limit of docs/limits.md; stopped)", max_bytes));
}

}  // namespace nsh::external
