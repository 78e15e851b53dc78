// The engine's log: events (search summaries, warnings) go to standard error
// (never standard output, which carries only answers) and, with --log FILE,
// to that file, which also gets the full transcript of commands and answers.
#pragma once

#include <mutex>
#include <ostream>

#include "absl/strings/string_view.h"

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
  // Called with mutex_ held.
  void ToFile(absl::string_view prefix, absl::string_view text);

  std::mutex mutex_;  // events may come from search threads
  std::ostream* events_;
  std::ostream* file_;
};

}  // namespace wallgo::protocol
