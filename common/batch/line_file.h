// A JSON Lines output that survives interruption: each line is written
// whole and flushed at once, from any thread, and reopening it to resume
// drops a last line cut short by a kill. The referee's records and the
// analysis answers are such files.
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace wallgo::batch {

class LineFile {
 public:
  // Opens `path` for appending. With `resume` its complete lines are kept
  // (a cut-short last line is dropped); without, it must not exist or be
  // empty. `what` names the file in errors ("records file").
  static absl::StatusOr<std::unique_ptr<LineFile>> Open(const std::string& path,
                                                        bool resume,
                                                        std::string_view what);
  ~LineFile();
  LineFile(const LineFile&) = delete;
  LineFile& operator=(const LineFile&) = delete;

  // Writes `line` and a '\n', flushed.
  absl::Status Append(std::string_view line);

 private:
  LineFile(std::FILE* file, std::string what)
      : file_(file), what_(std::move(what)) {}
  std::mutex mutex_;
  std::FILE* file_;
  std::string what_;
};

}  // namespace wallgo::batch
