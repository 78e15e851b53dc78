// Fuzz target: `wallgo --config FILE` (Boost.Program_options' config-file
// parser and the option table behind it), and with an input whose first
// line starts with "args:", that line's words as the command line instead
// (the file then holds the rest). Every input either parses or gives a
// one-line error; none may hang or crash (a `%canonical_option%` in an
// option name once looped forever inside Boost:
// common/program_options_error.h).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "protocol/cli.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wallgo;
  if (size > 8192) return 0;
  std::string input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> args = {"wallgo"};
  if (input.rfind("args:", 0) == 0) {
    const size_t newline = input.find('\n');
    std::istringstream words(input.substr(5, newline - 5));
    for (std::string word; words >> word;) args.push_back(word);
    input = newline == std::string::npos ? "" : input.substr(newline + 1);
  }
  const fuzz::TempFile file("config", input);
  const std::string& path = file.path();
  args.push_back("--config");
  args.push_back(path);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  absl::StatusOr<protocol::Invocation> inv =
      protocol::ParseCommandLine(static_cast<int>(argv.size()), argv.data());
  if (!inv.ok()) {
    const std::string message(inv.status().message());
    FUZZ_CHECK(!message.empty() && message.find('\n') == std::string::npos,
               message);
    FUZZ_CHECK(message.size() < 4096 + input.size(), message.substr(0, 200));
  }
  return 0;
}
