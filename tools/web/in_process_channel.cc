// The static site's engine channel (tools/client/engine_channel.h): the
// engine's protocol session (engine_session.h) on a thread of this process,
// instead of a child process, which a browser cannot start. The GUI's
// bridge and its client talk to it as to a process: bytes in, bytes out,
// and an end (quit, end of input, or Kill).
#include <atomic>
#include <istream>
#include <ostream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tools/client/engine_channel.h"
#include "tools/web/engine_session.h"
#include "tools/web/line_channel.h"

namespace wallgo::client {
namespace {

// Discards what is written (the engine's standard error: the site has no
// log to keep it in).
class NullBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return c; }
};

class InProcessChannel : public EngineChannel {
 public:
  // `args`: the command's words after the program's name (--NAME VALUE).
  explicit InProcessChannel(std::vector<std::string> args)
      : thread_([this, args = std::move(args)] { Run(args); }) {}
  ~InProcessChannel() override { Kill(); }

  Reply Write(std::string_view data, SteadyClock::time_point) override {
    if (ended_.load()) return FaultReply(Fault::kCrash, Describe());
    input_.Push(data);
    return Reply{};
  }

  Reply Read(std::string& pending, SteadyClock::time_point deadline) override {
    switch (output_.Take(pending, deadline)) {
      case web::OutputChannel::Taken::kBytes:
        return Reply{};
      case web::OutputChannel::Taken::kTimeout:
        return FaultReply(Fault::kTimeout, "no answer in time");
      case web::OutputChannel::Taken::kClosed:
        break;
    }
    return FaultReply(Fault::kCrash, Describe());
  }

  bool WaitEnded(SteadyClock::time_point deadline) override {
    std::string ignored;
    while (output_.Take(ignored, deadline) ==
           web::OutputChannel::Taken::kBytes) {
      ignored.clear();
    }
    return ended_.load();
  }

  // The session ends at the end of its input (after the command in hand).
  void Kill() override {
    input_.Close();
    if (thread_.joinable()) thread_.join();
  }
  void Interrupt() override { input_.Close(); }
  bool alive() const override { return !ended_.load(); }
  int pid() const override { return 0; }

 private:
  void Run(const std::vector<std::string>& args) {
    std::istream in(&input_);
    std::ostream out(&output_);
    NullBuffer discard;
    std::ostream err(&discard);
    status_ = web::RunEngineSession(args, in, out, err);
    ended_.store(true);
    output_.Close();
  }
  std::string Describe() const {
    return absl::StrCat("exited with status ", status_.load());
  }

  web::LineChannel input_;
  web::OutputChannel output_;
  std::atomic<int> status_{0};
  std::atomic<bool> ended_{false};
  std::thread thread_;  // last: it uses the rest
};

}  // namespace

absl::StatusOr<std::unique_ptr<EngineChannel>> OpenEngineChannel(
    const std::string& command, const std::string&, EngineLog*) {
  std::vector<std::string> words =
      absl::StrSplit(command, ' ', absl::SkipEmpty());
  if (words.empty()) return absl::InvalidArgumentError("no engine command");
  words.erase(words.begin());
  return std::make_unique<InProcessChannel>(std::move(words));
}

}  // namespace wallgo::client
