// A file in the system's temporary folder for a test or a fuzz input,
// removed when it goes out of scope, so that test runs leave nothing behind.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

namespace wallgo::testing {

// PREFIX-PID-NAME holding `bytes` (one per name and process, overwritten if
// there already).
class TempFile {
 public:
  TempFile(std::string_view prefix, std::string_view name,
           std::string_view bytes)
      : path_((std::filesystem::temp_directory_path() /
               (std::string(prefix) + "-" + std::to_string(getpid()) + "-" +
                std::string(name)))
                  .string()) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace wallgo::testing
