// Fuzz target: the protocol's command loop (protocol/gtp.h), a sequence of
// lines as a GUI or a script would send them, over the real searcher kept
// tiny (tiny_searcher.h). Perft deeper than 2 is left out (it is correct
// but slow: the fuzzer would spend its time counting). Every answer must
// be framed: "=" or "?" with the command's id, ended by an empty line.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "protocol/engine.h"
#include "protocol/gtp.h"
#include "protocol/log.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/tiny_searcher.h"

namespace {

// perft/divide with a depth above 2 (any number in the line counts).
bool DeepPerft(const std::string& line) {
  const std::string lower = absl::AsciiStrToLower(line);
  if (!absl::StrContains(lower, "perft") &&
      !absl::StrContains(lower, "divide")) {
    return false;
  }
  std::istringstream words(lower);
  for (std::string word; words >> word;) {
    if (word.find_first_not_of("0123456789") == std::string::npos &&
        (word.size() > 1 || word[0] > '2')) {
      return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wallgo;
  if (size > 8192) return 0;
  std::string input;
  int lines = 0;
  for (const std::string& line : fuzz::Lines(
           std::string_view(reinterpret_cast<const char*>(data), size))) {
    if (DeepPerft(line)) continue;
    if (++lines > 64) break;
    input += line + "\n";
  }
  protocol::Engine engine(fuzz::MakeTinySearcher, fuzz::Tiny({}));
  std::ostringstream out;
  protocol::Log log(nullptr, nullptr);
  protocol::GtpSession session(engine, out, log, "fuzz");
  std::istringstream in(input);
  session.Run(in);
  // Answers are paragraphs, each starting with '=' or '?'; analysis
  // streams "info" lines inside an answer.
  const std::string text = out.str();
  bool at_start = true;
  for (const std::string& line : fuzz::Lines(text)) {
    if (line.empty()) {
      at_start = true;
      continue;
    }
    if (at_start) {
      FUZZ_CHECK(line[0] == '=' || line[0] == '?', "unframed answer: " + line);
    }
    at_start = false;
  }
  FUZZ_CHECK(text.empty() || (text.size() >= 2 &&
                              text.compare(text.size() - 2, 2, "\n\n") == 0),
             "an answer not ended by an empty line");
  return 0;
}
