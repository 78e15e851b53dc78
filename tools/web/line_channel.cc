#include "tools/web/line_channel.h"

namespace wallgo::web {

void LineChannel::Push(std::string_view text) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    pending_.append(text);
  }
  changed_.notify_all();
}

void LineChannel::Close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  changed_.notify_all();
}

LineChannel::int_type LineChannel::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !pending_.empty() || closed_; });
    if (pending_.empty()) return traits_type::eof();
    reading_.clear();
    reading_.swap(pending_);
  }
  setg(reading_.data(), reading_.data(), reading_.data() + reading_.size());
  return traits_type::to_int_type(*gptr());
}

OutputChannel::Taken OutputChannel::Take(
    std::string& into, std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  changed_.wait_until(lock, deadline,
                      [this] { return !written_.empty() || closed_; });
  if (!written_.empty()) {
    into.append(written_);
    written_.clear();
    return Taken::kBytes;
  }
  return closed_ ? Taken::kClosed : Taken::kTimeout;
}

void OutputChannel::Close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  changed_.notify_all();
}

OutputChannel::int_type OutputChannel::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return 0;
  const char byte = traits_type::to_char_type(c);
  xsputn(&byte, 1);
  return c;
}

std::streamsize OutputChannel::xsputn(const char* s, std::streamsize n) {
  {
    std::lock_guard lock(mutex_);
    written_.append(s, n);
  }
  changed_.notify_all();
  return n;
}

}  // namespace wallgo::web
