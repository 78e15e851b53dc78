// An engine as a child process (shared by the referee and the GUI) spoken to
// over pipes with the text protocol's framing (docs/protocol.md), with a
// deadline on every exchange. The referee trusts no engine: every way an engine
// can misbehave (exit, close its output, stay silent, print lines that are not
// answers, answer another command's id) is reported as a Fault, never as an
// exception or a hang of the referee.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "absl/status/statusor.h"

namespace wallgo::client {

using SteadyClock = std::chrono::steady_clock;

// Every engine's standard error, line by line, each prefixed with the
// engine's name, into one file shared by all engine processes.
class EngineLog {
 public:
  // Appends to `path`; an empty path discards the lines.
  static absl::StatusOr<std::unique_ptr<EngineLog>> Open(
      const std::string& path);
  ~EngineLog();
  void Write(std::string_view prefix, std::string_view line);

 private:
  explicit EngineLog(std::FILE* file) : file_(file) {}
  std::mutex mutex_;
  std::FILE* file_;
};

enum class Fault {
  kNone,
  kCrash,    // the process exited or closed its pipes
  kTimeout,  // no complete answer by the deadline
  kFraming,  // output that is not a well-formed answer to this command
};

struct Reply {
  Fault fault = Fault::kNone;
  bool success = false;  // '=' rather than '?'
  std::string text;      // the result (lines after the first joined by '\n')
  std::string detail;    // what went wrong, for the record
};

class EngineProcess {
 public:
  // Runs `/bin/sh -c command` in a process group of its own, with pipes for
  // its standard input, output and error; standard error goes to `log`
  // (which must outlive the process) prefixed with `name`.
  static absl::StatusOr<std::unique_ptr<EngineProcess>> Spawn(
      const std::string& command, const std::string& name, EngineLog* log);
  ~EngineProcess();
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  // Sends `command` with a fresh id and reads its answer, all before
  // `deadline`. After any fault the process is of no further use: callers
  // Kill it.
  // While a stream is open, the command also ends it: the rest of the
  // stream is read and dropped before the command's own answer.
  Reply Ask(std::string_view command, SteadyClock::time_point deadline);

  // Streamed commands (`analyze`, `genmove_analyze`): the answer's first
  // line comes at once and further lines follow until the empty line, which
  // the engine prints after the next command arrives (docs/protocol.md). Sends
  // `command` and reads the first line; the stream is open on success.
  Reply StartStream(std::string_view command, SteadyClock::time_point deadline);
  // The next line of the open stream, waiting until `deadline`.
  struct StreamLine {
    Reply reply;         // a fault, or kNone
    bool ended = false;  // the empty line came: the stream is closed
    bool idle = false;   // no line by the deadline (not a fault)
    std::string line;
  };
  StreamLine ReadStream(SteadyClock::time_point deadline);
  bool streaming() const { return streaming_; }

  // Asks the engine to quit and waits up to `grace` for it, then kills it.
  void Quit(std::chrono::milliseconds grace);
  // Kills the whole process group and reaps the child; idempotent.
  void Kill();
  bool alive() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

 private:
  EngineProcess(pid_t pid, int in_fd, int out_fd, int err_fd,
                const std::string& name, EngineLog* log);
  // Sends `command` with a fresh id, ends an open stream, and reads and
  // checks the first line of the answer into `reply`.
  Reply SendAndReadHead(std::string_view command,
                        SteadyClock::time_point deadline);
  // Writes all of `data` before the deadline.
  Reply Write(std::string_view data, SteadyClock::time_point deadline);
  // The next line of standard output (without '\n' and '\r').
  Reply ReadLine(SteadyClock::time_point deadline, std::string& line);
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
  std::string pending_;     // standard output read but not yet consumed
  bool streaming_ = false;  // a streamed answer has not ended yet
  int next_id_ = 1;
  std::atomic<bool> stop_drain_{false};
  std::thread drainer_;
};

}  // namespace wallgo::client
