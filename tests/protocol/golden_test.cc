// Golden transcripts: scripted sessions (tests/protocol/golden/NAME.in) run
// through the real `wallgo`, compared whole with NAME.out. Search output
// that depends on timing (the info lines of analyze) is checked for its form
// and then left out of the comparison. To regenerate the expected files
// after a deliberate change, run with WALLGO_REGENERATE_GOLDENS=1 and review
// the diff by eye against PROTOCOL.md.
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/protocol/run_binary.h"

namespace wallgo::protocol::testing {
namespace {

// Deterministic search: one thread, a fixed small budget and seed.
constexpr char kGoldenArgs[] =
    "--threads 1 --visits 40 --movetime 0 --seed 7 --hash 16";

// Drops the info lines after checking their form.
std::string WithoutInfoLines(const std::string& output) {
  static const std::regex kInfo(
      "info move [a-g][1-7][a-g1-7xnesw]* visits [0-9]+ winrate "
      "[01]\\.[0-9]{4} score -?[0-9]+\\.[0-9]{2} pv( [a-z0-9]+)+");
  std::vector<std::string> kept;
  for (absl::string_view view : absl::StrSplit(output, '\n')) {
    const std::string line(view);
    if (line.rfind("info ", 0) == 0) {
      EXPECT_TRUE(std::regex_match(line, kInfo)) << line;
      continue;
    }
    kept.push_back(line);
  }
  return absl::StrJoin(kept, "\n");
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, TranscriptMatches) {
  const std::filesystem::path dir = WALLGO_GOLDEN_DIR;
  const std::string input = ReadWholeFile(dir / (GetParam() + ".in"));
  ASSERT_FALSE(input.empty());
  const RunResult run = RunWallgo(kGoldenArgs, input);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const std::string actual = WithoutInfoLines(run.out);
  const std::filesystem::path expected_path = dir / (GetParam() + ".out");
  if (std::getenv("WALLGO_REGENERATE_GOLDENS") != nullptr) {
    WriteWholeFile(expected_path, actual);
    GTEST_SKIP() << "regenerated " << expected_path;
  }
  EXPECT_EQ(actual, ReadWholeFile(expected_path))
      << "regenerate with WALLGO_REGENERATE_GOLDENS=1 if the change is meant";
}

INSTANTIATE_TEST_SUITE_P(Sessions, GoldenTest,
                         ::testing::Values("basics", "variants", "game"));

}  // namespace
}  // namespace wallgo::protocol::testing
