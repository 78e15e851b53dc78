// The native engine channel (engine_channel.h): `/bin/sh -c command` in a
// process group of its own, spoken to over pipes for its standard input,
// output and error.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tools/client/engine_channel.h"

namespace wallgo::client {
namespace {

// Standard error lines longer than this are logged in pieces.
constexpr size_t kMaxLogLine = 1 << 20;

// Milliseconds to wait in poll, rounded up so that a wait that times out
// has really reached the deadline, and at most `cap`.
int MillisLeft(SteadyClock::time_point deadline, int cap = 1'000'000) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(
      deadline - SteadyClock::now());
  if (left.count() <= 0) return 0;
  return left.count() > cap ? cap : static_cast<int>(left.count());
}

// Writing to an engine that has died must give EPIPE, not kill the referee:
// SIGPIPE is ignored for the whole process once the first engine starts.
void IgnoreSigpipe() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_handler = SIG_IGN;
    sigemptyset(&action.sa_mask);
    sigaction(SIGPIPE, &action, nullptr);
  });
}

void SetNonBlocking(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// In the child between fork and exec only async-signal-safe calls are made.
[[noreturn]] void ExecShell(const char* command, int in_fd, int out_fd,
                            int err_fd) {
  setpgid(0, 0);
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPIPE, &action, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  dup2(in_fd, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(err_fd, STDERR_FILENO);
  const char* argv[] = {"/bin/sh", "-c", command, nullptr};
  execv("/bin/sh", const_cast<char* const*>(argv));
  _exit(127);
}

class PipeChannel : public EngineChannel {
 public:
  PipeChannel(pid_t pid, int in_fd, int out_fd, int err_fd,
              const std::string& name, EngineLog* log)
      : pid_(pid),
        in_fd_(in_fd),
        out_fd_(out_fd),
        err_fd_(err_fd),
        name_(name),
        log_(log) {
    SetNonBlocking(in_fd_);
    SetNonBlocking(err_fd_);
    drainer_ = std::thread([this] { DrainStderr(); });
  }
  ~PipeChannel() override { Kill(); }

  Reply Write(std::string_view data, SteadyClock::time_point deadline) override;
  Reply Read(std::string& pending, SteadyClock::time_point deadline) override;
  bool WaitEnded(SteadyClock::time_point deadline) override;
  void Kill() override;
  void Interrupt() override {
    if (pid_ > 0) killpg(pid_, SIGKILL);
  }
  bool alive() const override { return pid_ > 0; }
  int pid() const override { return pid_; }

 private:
  // Why the process is gone: "exited with status 3", "killed by signal 11".
  std::string DescribeExit();
  // Whether the child has exited (without reaping it).
  bool HasExited() const;
  void DrainStderr();
  void CloseFds();

  pid_t pid_;
  int in_fd_, out_fd_, err_fd_;
  std::string name_;
  EngineLog* log_;
  std::atomic<bool> stop_drain_{false};
  std::thread drainer_;
};

void PipeChannel::DrainStderr() {
  std::string partial;
  char buffer[4096];
  for (;;) {
    pollfd p{err_fd_, POLLIN, 0};
    const int ready = poll(&p, 1, 50);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) {
      if (stop_drain_.load()) break;
      continue;
    }
    const ssize_t n = read(err_fd_, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;
    partial.append(buffer, n);
    size_t eol;
    while ((eol = partial.find('\n')) != std::string::npos) {
      log_->Write(name_, partial.substr(0, eol));
      partial.erase(0, eol + 1);
    }
    if (partial.size() > kMaxLogLine) {
      log_->Write(name_, partial);
      partial.clear();
    }
  }
  if (!partial.empty()) log_->Write(name_, partial);
}

Reply PipeChannel::Write(std::string_view data,
                         SteadyClock::time_point deadline) {
  while (!data.empty()) {
    const ssize_t n = write(in_fd_, data.data(), data.size());
    if (n > 0) {
      data.remove_prefix(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      pollfd p{in_fd_, POLLOUT, 0};
      if (poll(&p, 1, MillisLeft(deadline)) == 0) {
        return FaultReply(Fault::kTimeout, "does not read its input");
      }
      continue;
    }
    return FaultReply(Fault::kCrash, DescribeExit());
  }
  return Reply{};
}

Reply PipeChannel::Read(std::string& pending,
                        SteadyClock::time_point deadline) {
  for (;;) {
    // Waits in short slices: a child that died while a process it started
    // still holds the pipe open never shows as end of file.
    pollfd p{out_fd_, POLLIN, 0};
    const int ready = poll(&p, 1, MillisLeft(deadline, 50));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      if (HasExited()) return FaultReply(Fault::kCrash, DescribeExit());
      if (SteadyClock::now() < deadline) continue;
      return FaultReply(Fault::kTimeout, "no answer in time");
    }
    char buffer[4096];
    const ssize_t n = read(out_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return FaultReply(Fault::kCrash, DescribeExit());
    pending.append(buffer, n);
    return Reply{};
  }
}

bool PipeChannel::HasExited() const {
  siginfo_t info{};
  return waitid(P_PID, pid_, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid_;
}

std::string PipeChannel::DescribeExit() {
  // Peek at the child's state without reaping it, so that its process group
  // id stays reserved until Kill.
  for (int tries = 0; tries < 50; ++tries) {
    siginfo_t info{};
    if (waitid(P_PID, pid_, &info, WEXITED | WNOHANG | WNOWAIT) != 0) break;
    if (info.si_pid == pid_) {
      if (info.si_code == CLD_EXITED) {
        return absl::StrCat("exited with status ", info.si_status);
      }
      return absl::StrCat("killed by signal ", info.si_status, " (",
                          strsignal(info.si_status), ")");
    }
    usleep(10'000);
  }
  return "closed its output";
}

bool PipeChannel::WaitEnded(SteadyClock::time_point deadline) {
  while (SteadyClock::now() < deadline) {
    siginfo_t info{};
    if (waitid(P_PID, pid_, &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        info.si_pid == pid_) {
      return true;
    }
    usleep(5'000);
  }
  return false;
}

void PipeChannel::Kill() {
  if (pid_ > 0) {
    // The leader is not reaped yet, so the group id still names this group.
    killpg(pid_, SIGKILL);
    int status;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  CloseFds();
}

void PipeChannel::CloseFds() {
  stop_drain_.store(true);
  if (drainer_.joinable()) drainer_.join();
  for (int* fd : {&in_fd_, &out_fd_, &err_fd_}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<EngineChannel>> OpenEngineChannel(
    const std::string& command, const std::string& name, EngineLog* log) {
  IgnoreSigpipe();
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0) {
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  const pid_t pid = fork();
  if (pid == 0) ExecShell(command.c_str(), in[0], out[1], err[1]);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  if (pid < 0) {
    const int error = errno;
    close(in[1]);
    close(out[0]);
    close(err[0]);
    return absl::InternalError(absl::StrCat("fork: ", std::strerror(error)));
  }
  // Also set here, so that killpg works even before the child ran setpgid.
  setpgid(pid, pid);
  return std::make_unique<PipeChannel>(pid, in[1], out[0], err[0], name, log);
}

}  // namespace wallgo::client
