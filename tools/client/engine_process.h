// An engine as a child process (shared by the referee and the GUI) spoken to
// over pipes with the text protocol's framing (docs/protocol.md), with a
// deadline on every exchange. The referee trusts no engine: every way an engine
// can misbehave (exit, close its output, stay silent, print lines that are not
// answers, answer another command's id) is reported as a Fault, never as an
// exception or a hang of the referee.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tools/client/engine_channel.h"

namespace wallgo::client {

class EngineProcess {
 public:
  // Starts the engine (OpenEngineChannel: natively `/bin/sh -c command` in
  // a process group of its own); standard error goes to `log` (which must
  // outlive the process) prefixed with `name`.
  static absl::StatusOr<std::unique_ptr<EngineProcess>> Spawn(
      const std::string& command, const std::string& name, EngineLog* log);
  explicit EngineProcess(std::unique_ptr<EngineChannel> channel)
      : channel_(std::move(channel)) {}
  ~EngineProcess() { Kill(); }
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
  // Kills the engine (natively its whole process group); idempotent.
  void Kill() { channel_->Kill(); }
  // Kill from another thread, while this one may be in a command.
  void Interrupt() { channel_->Interrupt(); }
  bool alive() const { return channel_->alive(); }
  int pid() const { return channel_->pid(); }

 private:
  // Sends `command` with a fresh id, ends an open stream, and reads and
  // checks the first line of the answer into `reply`.
  Reply SendAndReadHead(std::string_view command,
                        SteadyClock::time_point deadline);
  // The next line of standard output (without '\n' and '\r').
  Reply ReadLine(SteadyClock::time_point deadline, std::string& line);

  std::unique_ptr<EngineChannel> channel_;
  std::string pending_;     // standard output read but not yet consumed
  bool streaming_ = false;  // a streamed answer has not ended yet
  int next_id_ = 1;
};

}  // namespace wallgo::client
