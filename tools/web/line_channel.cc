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

}  // namespace wallgo::web
