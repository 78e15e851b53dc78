// The bytes between the client and one engine. EngineProcess
// (engine_process.h) speaks the protocol's framing over a channel; the
// channel only carries bytes and knows whether the engine still runs.
// Natively the engine is a child process behind pipes (pipe_channel.cc);
// the static site's WebAssembly build runs the engine in this process
// instead (tools/web/in_process_channel.cc), so that the GUI's bridge drives
// it unchanged.
#pragma once

#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

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

inline Reply FaultReply(Fault fault, std::string detail) {
  Reply r;
  r.fault = fault;
  r.detail = std::move(detail);
  return r;
}

class EngineChannel {
 public:
  virtual ~EngineChannel() = default;
  // Writes all of `data` before the deadline.
  virtual Reply Write(std::string_view data,
                      SteadyClock::time_point deadline) = 0;
  // Appends the engine's output to `pending`, waiting until some arrives:
  // kCrash once the engine has ended and said all, kTimeout at the deadline.
  virtual Reply Read(std::string& pending,
                     SteadyClock::time_point deadline) = 0;
  // Waits until the engine has ended, or the deadline; whether it ended.
  virtual bool WaitEnded(SteadyClock::time_point deadline) = 0;
  // Ends the engine at once and frees what it held; idempotent.
  virtual void Kill() = 0;
  // Makes the engine end now, from any thread, while another may be talking
  // to it (that one's command then fails); Kill still follows.
  virtual void Interrupt() = 0;
  virtual bool alive() const = 0;
  // The process id where there is one (for people), else 0.
  virtual int pid() const = 0;
};

// Starts the engine that `command` names, its standard error going to
// `log` (which must outlive the channel) prefixed with `name`.
absl::StatusOr<std::unique_ptr<EngineChannel>> OpenEngineChannel(
    const std::string& command, const std::string& name, EngineLog* log);

}  // namespace wallgo::client
