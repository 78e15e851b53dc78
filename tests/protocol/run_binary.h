// Runs the real `wallgo` executable (its path comes from the build as
// WALLGO_BINARY) with arguments and a standard input, and collects what it
// printed. Input and output go through files, so no pipe can fill up.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

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

// `args` is pasted into a shell command line: keep it to plain words.
inline RunResult RunWallgo(const std::string& args, const std::string& input) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("wallgo_protocol_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  WriteWholeFile(dir / "in", input);
  const std::string command =
      std::string(WALLGO_BINARY) + " " + args + " < " + (dir / "in").string() +
      " > " + (dir / "out").string() + " 2> " + (dir / "err").string();
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadWholeFile(dir / "out");
  result.err = ReadWholeFile(dir / "err");
  std::filesystem::remove_all(dir);
  return result;
}

}  // namespace wallgo::protocol::testing
