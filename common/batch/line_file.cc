#include "common/batch/line_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace wallgo::batch {
namespace {

// The length of the file's complete lines: everything up to its last '\n'.
long CompleteLength(std::FILE* file) {
  std::fseek(file, 0, SEEK_END);
  long end = std::ftell(file);
  while (end > 0) {
    std::fseek(file, end - 1, SEEK_SET);
    if (std::fgetc(file) == '\n') break;
    --end;
  }
  return end;
}

}  // namespace

absl::StatusOr<std::unique_ptr<LineFile>> LineFile::Open(
    const std::string& path, bool resume, std::string_view what) {
  std::FILE* file = std::fopen(path.c_str(), "a+e");
  if (file == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot open ", absl::string_view(what.data(), what.size()), " ", path,
        ": ", std::strerror(errno)));
  }
  std::unique_ptr<LineFile> opened(new LineFile(file, std::string(what)));
  const long complete = CompleteLength(file);
  std::fseek(file, 0, SEEK_END);
  const long size = std::ftell(file);
  if (!resume && size > 0) {
    return absl::AlreadyExistsError(absl::StrCat(
        opened->what_, " ", path,
        " is not empty: continue it with --resume or choose another"));
  }
  if (complete < size && ftruncate(fileno(file), complete) != 0) {
    return absl::InternalError(absl::StrCat("cannot truncate ", path));
  }
  return opened;
}

LineFile::~LineFile() { std::fclose(file_); }

absl::Status LineFile::Append(std::string_view line) {
  std::string whole(line);
  whole.push_back('\n');
  std::lock_guard<std::mutex> lock(mutex_);
  if (std::fwrite(whole.data(), 1, whole.size(), file_) != whole.size() ||
      std::fflush(file_) != 0) {
    return absl::InternalError(absl::StrCat("cannot write the ", what_));
  }
  return absl::OkStatus();
}

}  // namespace wallgo::batch
