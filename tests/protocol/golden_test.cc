// Golden transcripts: scripted sessions (tests/protocol/golden/NAME.in) run
// through the real `wallgo`, compared whole with NAME.out. What the search
// decides is checked for its form and then masked, so that tuning the
// search never breaks these: the info lines of analyze (which also depend
// on timing) are left out, and the moves answered to commands with ids
// 900-999 become <move>. To regenerate the expected files after a
// deliberate change, run with WALLGO_REGENERATE_GOLDENS=1 and review the
// diff by eye against PROTOCOL.md.
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/protocol/run_binary.h"

namespace wallgo::protocol::testing {
namespace {

// Deterministic search: one thread, a fixed small budget and seed.
constexpr char kGoldenArgs[] =
    "--threads 1 --visits 40 --movetime 0 --seed 7 --hash 16";

constexpr char kMove[] = "([a-g][1-7]([a-g][1-7]x?[nesw])?|pass|resign)";

// Drops the info lines and masks the searched moves (ids 900-999), after
// checking their form.
std::string WithoutSearchOutput(const std::string& output) {
  static const std::regex kInfo(absl::StrCat(
      "info move ", kMove,
      " visits [0-9]+ winrate [01]\\.[0-9]{4} score -?[0-9]+\\.[0-9]{2} pv( ",
      kMove, ")+"));
  static const std::regex kSearchedMove(absl::StrCat("(=9[0-9][0-9]) ", kMove));
  static const std::regex kPlayLine(absl::StrCat("play ", kMove));
  std::vector<std::string> kept;
  for (absl::string_view view : absl::StrSplit(output, '\n')) {
    const std::string line(view);
    if (line.rfind("info ", 0) == 0) {
      EXPECT_TRUE(std::regex_match(line, kInfo)) << line;
      continue;
    }
    if (std::regex_match(line, kSearchedMove)) {
      kept.push_back(line.substr(0, line.find(' ')) + " <move>");
    } else if (std::regex_match(line, kPlayLine)) {
      kept.push_back("play <move>");
    } else {
      kept.push_back(line);
    }
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
  const std::string actual = WithoutSearchOutput(run.out);
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
