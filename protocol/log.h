// The engine's log: events (search summaries, warnings) go to standard error
// (never standard output, which carries only answers) and, with --log FILE,
// to that file, which also gets the full transcript of commands and answers.
#pragma once

#include <ostream>

#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace wallgo::protocol {

class Log {
 public:
  // Either stream may be null (tests log nowhere).
  Log(std::ostream* events, std::ostream* file)
      : events_(events), file_(file) {}

  void Event(absl::string_view text);
  // A command received ("< ") or an answer sent ("> "): file only.
  void Received(absl::string_view line);
  void Sent(absl::string_view answer);

 private:
  void ToFile(absl::string_view prefix, absl::string_view text)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  absl::Mutex mutex_;
  std::ostream* events_;
  std::ostream* file_;
};

}  // namespace wallgo::protocol
