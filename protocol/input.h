// Reading the command stream: docs/protocol.md's input clean-up, and a reader
// thread that keeps reading while the engine thinks, so that a search can
// notice new input (analyze), `quit` and the end of input.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/string_view.h"

namespace wallgo::protocol {

// The clean-up, in order: drop control characters except tab and newline
// (so CR goes), cut at '#', turn tabs into spaces. An empty or blank result
// means the line is to be skipped.
std::string CleanLine(absl::string_view raw);

// A cleaned line split into `[id] name [arguments...]`; the id is the first
// word when it is all digits, at most 18 of them (kept as written, to be
// echoed back).
struct CommandLine {
  std::string id;
  std::string name;
  std::vector<std::string> args;
};
CommandLine SplitCommandLine(absl::string_view line);

// True when the cleaned `line` is the `quit` command (with or without id).
bool IsQuitLine(absl::string_view line);

// Lines of a file descriptor, read with poll so that a stop request
// (common/batch/preemption.h) ends a wait for input at once.
class FdLines {
 public:
  explicit FdLines(int fd) : fd_(fd) {}
  // The next line without its '\n'; at most `cap` bytes of it are kept (the
  // rest is read and dropped: `line` then holds cap + 1 bytes, so it is seen
  // as too long). False at the end of input, or once `stop` is requested (a
  // line not yet complete is then dropped).
  bool Next(std::string& line, size_t cap, const std::stop_token& stop);

 private:
  int fd_;
  std::string buffer_;
  size_t pos_ = 0;
  bool eof_ = false;
};

// Lines read so far, shared by the reader thread and the command loop.
class InputQueue {
 public:
  void Push(std::string line);
  void PushEnd();
  // The next line, blocking until one arrives; nullopt once the input has
  // ended and every line was taken.
  std::optional<std::string> Pop();
  // A line is waiting, or the input has ended: analysis should stop.
  bool HasPending() const;
  // `quit` was read or the input ended: a running search should stop.
  bool Closing() const;

 private:
  // std::mutex rather than absl::Mutex: the system Abseil is not built for
  // ThreadSanitizer, which then cannot see its locking.
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> lines_;  // the rest guarded by mutex_
  bool ended_ = false;
  bool quit_seen_ = false;
};

// Reads `in` on its own thread into a queue, cleaning every line, until the
// end of input or a `quit` line (which ends the session, so nothing after it
// is read). Lines longer than kMaxLineBytes are cut there (the rest is
// dropped) so that no input can exhaust memory.
class InputReader {
 public:
  static constexpr size_t kMaxLineBytes = size_t{8} << 20;

  explicit InputReader(std::istream& in);
  // Waits for the reader thread: the session ends only after `quit` or the
  // end of input, when the reader has stopped too.
  ~InputReader();
  InputReader(const InputReader&) = delete;
  InputReader& operator=(const InputReader&) = delete;

  InputQueue& queue() { return *queue_; }

 private:
  std::shared_ptr<InputQueue> queue_;  // shared with the thread
  std::thread thread_;
};

}  // namespace wallgo::protocol
