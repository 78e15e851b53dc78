#include "tools/client/engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace wallgo::client {
namespace {

// A line longer than this is garbage, not an answer.
constexpr size_t kMaxLine = 1 << 20;

// Milliseconds to wait in poll, rounded up so that a wait that times out
// has really reached the deadline, and at most `cap`.
int MillisLeft(SteadyClock::time_point deadline, int cap = 1'000'000) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(
      deadline - SteadyClock::now());
  if (left.count() <= 0) return 0;
  return left.count() > cap ? cap : static_cast<int>(left.count());
}

Reply Failure(Fault fault, std::string detail) {
  Reply r;
  r.fault = fault;
  r.detail = std::move(detail);
  return r;
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

// Parses the first line of an answer: '=' or '?', an optional id, then a
// space or the end. Returns the fault detail, empty when well formed.
std::string ParseAnswerHead(const std::string& line, int expected_id,
                            Reply& reply) {
  if (line.empty() || (line[0] != '=' && line[0] != '?')) {
    return absl::StrCat("output that is not an answer: '", line.substr(0, 80),
                        "'");
  }
  reply.success = line[0] == '=';
  size_t pos = 1;
  while (pos < line.size() && absl::ascii_isdigit(line[pos])) ++pos;
  if (pos > 1) {
    int id = 0;
    if (!absl::SimpleAtoi(line.substr(1, pos - 1), &id) || id != expected_id) {
      return absl::StrCat("answer id ", line.substr(1, pos - 1),
                          " to command id ", expected_id);
    }
  }
  if (pos < line.size() && line[pos] != ' ') {
    return absl::StrCat("malformed answer: '", line.substr(0, 80), "'");
  }
  reply.text = std::string(absl::StripAsciiWhitespace(line.substr(pos)));
  return "";
}

}  // namespace

absl::StatusOr<std::unique_ptr<EngineLog>> EngineLog::Open(
    const std::string& path) {
  std::FILE* file = nullptr;
  if (!path.empty()) {
    file = std::fopen(path.c_str(), "ae");
    if (file == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot open engine log ", path, ": ", std::strerror(errno)));
    }
  }
  return std::unique_ptr<EngineLog>(new EngineLog(file));
}

EngineLog::~EngineLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void EngineLog::Write(std::string_view prefix, std::string_view line) {
  if (file_ == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::fprintf(file_, "[%.*s] %.*s\n", static_cast<int>(prefix.size()),
               prefix.data(), static_cast<int>(line.size()), line.data());
  std::fflush(file_);
}

absl::StatusOr<std::unique_ptr<EngineProcess>> EngineProcess::Spawn(
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
  return std::unique_ptr<EngineProcess>(
      new EngineProcess(pid, in[1], out[0], err[0], name, log));
}

EngineProcess::EngineProcess(pid_t pid, int in_fd, int out_fd, int err_fd,
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

EngineProcess::~EngineProcess() { Kill(); }

void EngineProcess::DrainStderr() {
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
    if (partial.size() > kMaxLine) {
      log_->Write(name_, partial);
      partial.clear();
    }
  }
  if (!partial.empty()) log_->Write(name_, partial);
}

Reply EngineProcess::Write(std::string_view data,
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
        return Failure(Fault::kTimeout, "does not read its input");
      }
      continue;
    }
    return Failure(Fault::kCrash, DescribeExit());
  }
  return Reply{};
}

Reply EngineProcess::ReadLine(SteadyClock::time_point deadline,
                              std::string& line) {
  for (;;) {
    const size_t eol = pending_.find('\n');
    if (eol != std::string::npos) {
      line = pending_.substr(0, eol);
      pending_.erase(0, eol + 1);
      std::erase(line, '\r');
      return Reply{};
    }
    if (pending_.size() > kMaxLine) {
      return Failure(Fault::kFraming, "an output line longer than 1 MiB");
    }
    // Waits in short slices: a child that died while a process it started
    // still holds the pipe open never shows as end of file.
    pollfd p{out_fd_, POLLIN, 0};
    const int ready = poll(&p, 1, MillisLeft(deadline, 50));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      if (HasExited()) return Failure(Fault::kCrash, DescribeExit());
      if (SteadyClock::now() < deadline) continue;
      return Failure(Fault::kTimeout, "no answer in time");
    }
    char buffer[4096];
    const ssize_t n = read(out_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Failure(Fault::kCrash, DescribeExit());
    pending_.append(buffer, n);
  }
}

Reply EngineProcess::SendAndReadHead(std::string_view command,
                                     SteadyClock::time_point deadline) {
  if (!alive()) return Failure(Fault::kCrash, "not running");
  const int id = next_id_++;
  Reply reply =
      Write(absl::StrCat(id, " ", std::string(command), "\n"), deadline);
  if (reply.fault != Fault::kNone) return reply;
  std::string line;
  // The command just sent ends an open stream: drop the rest of it.
  while (streaming_) {
    reply = ReadLine(deadline, line);
    if (reply.fault != Fault::kNone) return reply;
    if (line.empty()) streaming_ = false;
  }
  do {  // empty lines before an answer are tolerated, as GTP controllers do
    reply = ReadLine(deadline, line);
    if (reply.fault != Fault::kNone) return reply;
  } while (line.empty());
  const std::string bad = ParseAnswerHead(line, id, reply);
  if (!bad.empty()) return Failure(Fault::kFraming, bad);
  return reply;
}

Reply EngineProcess::Ask(std::string_view command,
                         SteadyClock::time_point deadline) {
  Reply reply = SendAndReadHead(command, deadline);
  if (reply.fault != Fault::kNone) return reply;
  std::string line;
  for (;;) {
    Reply next = ReadLine(deadline, line);
    if (next.fault != Fault::kNone) return next;
    if (line.empty()) return reply;
    absl::StrAppend(&reply.text, "\n", line);
  }
}

Reply EngineProcess::StartStream(std::string_view command,
                                 SteadyClock::time_point deadline) {
  Reply reply = SendAndReadHead(command, deadline);
  // A failure ('?') is a whole answer: its empty line ends it at once.
  if (reply.fault == Fault::kNone) streaming_ = true;
  if (reply.fault == Fault::kNone && !reply.success) {
    StreamLine rest;
    do rest = ReadStream(deadline);
    while (rest.reply.fault == Fault::kNone && !rest.ended && !rest.idle);
    if (rest.reply.fault != Fault::kNone) return rest.reply;
  }
  return reply;
}

EngineProcess::StreamLine EngineProcess::ReadStream(
    SteadyClock::time_point deadline) {
  StreamLine out;
  if (!streaming_) {
    out.ended = true;
    return out;
  }
  out.reply = ReadLine(deadline, out.line);
  if (out.reply.fault == Fault::kTimeout) {
    out.reply = Reply{};
    out.idle = true;
  } else if (out.reply.fault == Fault::kNone && out.line.empty()) {
    streaming_ = false;
    out.ended = true;
  }
  return out;
}

bool EngineProcess::HasExited() const {
  siginfo_t info{};
  return waitid(P_PID, pid_, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid_;
}

std::string EngineProcess::DescribeExit() {
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

void EngineProcess::Quit(std::chrono::milliseconds grace) {
  if (!alive()) return;
  const auto deadline = SteadyClock::now() + grace;
  Ask("quit", deadline);
  while (SteadyClock::now() < deadline) {
    siginfo_t info{};
    if (waitid(P_PID, pid_, &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        info.si_pid == pid_) {
      break;
    }
    usleep(5'000);
  }
  Kill();
}

void EngineProcess::Kill() {
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

void EngineProcess::CloseFds() {
  stop_drain_.store(true);
  if (drainer_.joinable()) drainer_.join();
  for (int* fd : {&in_fd_, &out_fd_, &err_fd_}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
}

}  // namespace wallgo::client
