// Checks inside fuzz targets: a failed check prints what and where, then
// aborts, which libFuzzer reports as a crash (and saves the input) and the
// replay tests report as a failure.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "tests/temp_file.h"

#define FUZZ_CHECK(condition, detail)                                   \
  do {                                                                  \
    if (!(condition)) {                                                 \
      std::fprintf(stderr, "%s:%d: check failed: %s\n  %s\n", __FILE__, \
                   __LINE__, #condition, std::string(detail).c_str());  \
      std::abort();                                                     \
    }                                                                   \
  } while (false)

namespace wallgo::fuzz {

// The input's lines, without their '\n'.
inline std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Reads the fuzzer's bytes one at a time; once they run out, bytes of a
// generator seeded by the whole input (so the same input always does the
// same thing).
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {
    for (size_t i = 0; i < size; ++i)
      state_ = (state_ ^ data[i]) * 0x100000001b3ULL;
  }
  bool empty() const { return at_ >= size_; }
  uint8_t Next() {
    if (at_ < size_) return data_[at_++];
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint8_t>(state_ >> 56);
  }
  // A value in [0, n), n > 0.
  int Below(int n) {
    return n <= 256 ? Next() % n : (Next() << 8 | Next()) % n;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
  uint64_t state_ = 0xcbf29ce484222325ULL;
};

// A fuzz input as a file (wallgo-fuzz-PID-NAME), for targets whose input
// is a file; removed when it goes out of scope.
class TempFile : public testing::TempFile {
 public:
  TempFile(std::string_view name, std::string_view bytes)
      : testing::TempFile("wallgo-fuzz", name, bytes) {}
};

}  // namespace wallgo::fuzz
