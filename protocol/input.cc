#include "protocol/input.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <iterator>
#include <utility>

#include "absl/strings/str_split.h"

namespace wallgo::protocol {
namespace {

bool IsDroppedControl(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f;
}

// Reads one line (without its newline) from `in`, keeping at most
// `max_bytes`; false at the end of input with nothing read.
bool ReadLine(std::istream& in, std::string& line, size_t max_bytes) {
  line.clear();
  std::streambuf* buffer = in.rdbuf();
  bool read_any = false;
  for (;;) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) return read_any;
    read_any = true;
    if (c == '\n') return true;
    if (line.size() < max_bytes) line.push_back(static_cast<char>(c));
  }
}

}  // namespace

std::string CleanLine(absl::string_view raw) {
  std::string line;
  line.reserve(raw.size());
  for (const char ch : raw) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (IsDroppedControl(c)) continue;
    if (c == '#') break;
    line.push_back(c == '\t' ? ' ' : ch);
  }
  return line;
}

CommandLine SplitCommandLine(absl::string_view line) {
  std::vector<std::string> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
  CommandLine command;
  auto word = words.begin();
  // An id is a non-negative integer: a thousand digits are not one.
  constexpr size_t kMaxIdDigits = 18;
  if (word != words.end() && word->size() <= kMaxIdDigits &&
      word->find_first_not_of("0123456789") == std::string::npos) {
    command.id = std::move(*word++);
  }
  if (word != words.end()) command.name = std::move(*word++);
  command.args.assign(std::make_move_iterator(word),
                      std::make_move_iterator(words.end()));
  return command;
}

bool IsQuitLine(absl::string_view line) {
  return SplitCommandLine(line).name == "quit";
}

void InputQueue::Push(std::string line) {
  const bool quit = IsQuitLine(line);
  {
    std::lock_guard lock(mutex_);
    quit_seen_ = quit_seen_ || quit;
    lines_.push_back(std::move(line));
  }
  changed_.notify_all();
}

void InputQueue::PushEnd() {
  {
    std::lock_guard lock(mutex_);
    ended_ = true;
  }
  changed_.notify_all();
}

std::optional<std::string> InputQueue::Pop() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return !lines_.empty() || ended_; });
  if (lines_.empty()) return std::nullopt;
  std::string line = std::move(lines_.front());
  lines_.pop_front();
  return line;
}

bool InputQueue::HasPending() const {
  std::lock_guard lock(mutex_);
  return !lines_.empty() || ended_;
}

bool InputQueue::Closing() const {
  std::lock_guard lock(mutex_);
  return quit_seen_ || ended_;
}

InputReader::InputReader(std::istream& in)
    : queue_(std::make_shared<InputQueue>()) {
  thread_ = std::thread([&in, queue = queue_] {
    std::string raw;
    while (ReadLine(in, raw, kMaxLineBytes)) {
      std::string line = CleanLine(raw);
      const bool quit = IsQuitLine(line);
      queue->Push(std::move(line));
      if (quit) break;  // nothing after quit is read, so nothing blocks
    }
    queue->PushEnd();
  });
}

InputReader::~InputReader() { thread_.join(); }

bool FdLines::Next(std::string& line, size_t cap, const std::stop_token& stop) {
  line.clear();
  for (;;) {
    while (pos_ < buffer_.size()) {
      const char c = buffer_[pos_++];
      if (c == '\n') return true;
      if (line.size() <= cap) line.push_back(c);
    }
    if (eof_) return !line.empty();
    if (stop.stop_requested()) return false;
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;  // quiet, or EINTR: check the stop
    buffer_.resize(1 << 16);
    const ssize_t n = read(fd_, buffer_.data(), buffer_.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
      buffer_.clear();
    } else {
      buffer_.resize(n > 0 ? static_cast<size_t>(n) : 0);
      eof_ = n <= 0;
    }
    pos_ = 0;
  }
}

}  // namespace wallgo::protocol
