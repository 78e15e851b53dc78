#include "protocol/log.h"

#include "absl/strings/str_split.h"

namespace wallgo::protocol {

void Log::Event(absl::string_view text) {
  std::lock_guard lock(mutex_);
  if (events_ != nullptr) *events_ << text << std::endl;
  ToFile("# ", text);
}

void Log::Received(absl::string_view line) {
  std::lock_guard lock(mutex_);
  ToFile("< ", line);
}

void Log::Sent(absl::string_view answer) {
  std::lock_guard lock(mutex_);
  ToFile("> ", answer);
}

void Log::ToFile(absl::string_view prefix, absl::string_view text) {
  if (file_ == nullptr) return;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    *file_ << prefix << line << '\n';
  }
  file_->flush();
}

}  // namespace wallgo::protocol
