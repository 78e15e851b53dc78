// Runs the real `wallgo` executable (its path comes from the build as
// WALLGO_BINARY) with arguments and a standard input, and collects what it
// printed. Input and output go through files, so no pipe can fill up.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/temp_file.h"

namespace wallgo::protocol::testing {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string ReadWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void WriteWholeFile(const std::filesystem::path& path,
                           const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Runs `feeder | wallgo args` in a fresh directory holding `files` (name ->
// contents); the shell snippet `feeder` finds them under $D. `args` and
// `feeder` are pasted into a shell command line: keep them to plain words.
inline RunResult RunWallgoPiped(const std::string& args,
                                const std::map<std::string, std::string>& files,
                                const std::string& feeder) {
  const wallgo::testing::TempDir dir("wallgo-protocol-test");
  for (const auto& [name, text] : files) WriteWholeFile(dir / name, text);
  const std::string command = "D=" + dir.path().string() + "; (" + feeder +
                              ") | " + std::string(WALLGO_BINARY) + " " + args +
                              " > $D/out 2> $D/err";
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadWholeFile(dir / "out");
  result.err = ReadWholeFile(dir / "err");
  return result;
}

// `wallgo args` reading `input` (from a file, so no pipe can fill up).
inline RunResult RunWallgo(const std::string& args, const std::string& input) {
  return RunWallgoPiped(args + " < $D/in", {{"in", input}}, "true");
}

}  // namespace wallgo::protocol::testing
