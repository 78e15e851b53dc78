// A file or a folder in the system's temporary folder for a test or a fuzz
// input, removed when it goes out of scope (a failed assertion included),
// so that test runs leave nothing behind.
#pragma once

#include <unistd.h>

#include <algorithm>
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

// A folder PREFIX-PID (or PREFIX-PID-NAME), empty when made, removed with
// all it holds when it goes. A slash in NAME (a parameterised test's name)
// becomes a dash: one folder, not two.
class TempDir {
 public:
  explicit TempDir(std::string_view prefix, std::string_view name = "")
      : path_(std::filesystem::temp_directory_path() / Leaf(prefix, name)) {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The path of `name` in the folder.
  std::string operator/(std::string_view name) const {
    return (path_ / name).string();
  }

 private:
  static std::string Leaf(std::string_view prefix, std::string_view name) {
    std::string leaf(prefix);
    leaf.append("-").append(std::to_string(getpid()));
    if (!name.empty()) leaf.append("-").append(name);
    std::replace(leaf.begin(), leaf.end(), '/', '-');
    return leaf;
  }
  std::filesystem::path path_;
};

}  // namespace wallgo::testing
