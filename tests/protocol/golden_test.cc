// Golden transcripts: scripted sessions (tests/protocol/golden/NAME.in) run
// through the real `wallgo`, compared whole with NAME.out. What the search
// decides is checked for its form and then masked, so that tuning the
// search never breaks these: the info lines of analyze (which also depend
// on timing) and of solve are left out, solve's effort, line and range masked,
// and the moves answered to commands with ids 900-999 become <move>. To
// regenerate the expected files after a deliberate change, run with
// WALLGO_REGENERATE_GOLDENS=1 and review the diff by eye against
// docs/protocol.md.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/notation.h"
#include "gtest/gtest.h"
#include "tests/protocol/run_binary.h"

namespace wallgo::protocol::testing {
namespace {

// Deterministic search: one thread, a fixed small budget and seed.
constexpr char kGoldenArgs[] =
    "--threads 1 --visits 40 --movetime 0 --seed 7 --hash 16";

// A move as the engine prints it: parses, and prints back the same.
bool IsMoveText(absl::string_view text) {
  absl::StatusOr<Move> move = ParseMove(text);
  return move.ok() && MoveName(*move) == text;
}

// A number with exactly `decimals` digits after the point.
bool IsDecimal(absl::string_view text, int decimals) {
  double value = 0;
  const size_t point = text.find('.');
  return absl::SimpleAtod(text, &value) && point != absl::string_view::npos &&
         text.size() - point - 1 == static_cast<size_t>(decimals);
}

// `info move M visits N winrate W score S pv M1 M2 ...`
bool IsInfoLine(absl::string_view line) {
  const std::vector<absl::string_view> w = absl::StrSplit(line, ' ');
  int64_t visits = 0;
  if (w.size() < 11 || w[0] != "info" || w[1] != "move" || !IsMoveText(w[2]) ||
      w[3] != "visits" || !absl::SimpleAtoi(w[4], &visits) ||
      w[5] != "winrate" || !IsDecimal(w[6], 4) || w[7] != "score" ||
      !IsDecimal(w[8], 2) || w[9] != "pv") {
    return false;
  }
  return std::all_of(w.begin() + 10, w.end(), IsMoveText);
}

// `info depth D nodes N time S`: an iteration of solve.
bool IsSolveInfoLine(absl::string_view line) {
  const std::vector<absl::string_view> w = absl::StrSplit(line, ' ');
  int64_t depth = 0, nodes = 0;
  return w.size() == 7 && w[0] == "info" && w[1] == "depth" &&
         absl::SimpleAtoi(w[2], &depth) && w[3] == "nodes" &&
         absl::SimpleAtoi(w[4], &nodes) && w[5] == "time" && IsDecimal(w[6], 3);
}

// solve's `result ... depth D nodes N` with the effort masked (it changes
// with every tuning of the solver, the proven value does not), and its `pv`
// line masked after checking its moves (the line after the first, optimal,
// move is the search's).
std::string MaskedSolveLine(absl::string_view line) {
  std::vector<std::string> w = absl::StrSplit(line, ' ');
  if (w[0] == "pv") {
    for (size_t i = 1; i < w.size(); ++i) EXPECT_TRUE(IsMoveText(w[i])) << line;
    return "pv <line>";
  }
  for (size_t i = 0; i + 1 < w.size(); ++i) {
    int64_t number = 0;
    if (w[i] == "depth" || w[i] == "nodes") {
      EXPECT_TRUE(absl::SimpleAtoi(w[i + 1], &number)) << line;
      w[i + 1] = "<" + w[i] + ">";
    }
  }
  return absl::StrJoin(w, " ");
}

// An unproven solve's `range R M R M` with its values masked after checking
// their form (how far the first iterations get changes with tuning).
std::string MaskedRangeLine(absl::string_view line) {
  const std::vector<absl::string_view> w = absl::StrSplit(line, ' ');
  const auto is_result = [](absl::string_view r) {
    return r == "win" || r == "draw" || r == "loss";
  };
  int margin = 0;
  EXPECT_TRUE(w.size() == 5 && is_result(w[1]) &&
              absl::SimpleAtoi(w[2], &margin) && is_result(w[3]) &&
              absl::SimpleAtoi(w[4], &margin))
      << line;
  return "range <least> <most>";
}

// Drops the info lines and masks the searched moves (answers to ids
// 900-999, and the `play M` line of genmove_analyze), after checking their
// form.
std::string WithoutSearchOutput(const std::string& output) {
  std::vector<std::string> kept;
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    const std::vector<absl::string_view> words =
        absl::StrSplit(line, absl::MaxSplits(' ', 1));
    // "=905 d4" answers a searching command; "play d4" ends genmove_analyze
    // (and "play phase: ..." of showboard is neither).
    const bool one_word_after =
        words.size() == 2 && !absl::StrContains(words[1], ' ');
    const bool searched_answer = one_word_after && words[0].size() == 4 &&
                                 absl::StartsWith(words[0], "=9");
    if (absl::StartsWith(line, "result ") || absl::StartsWith(line, "pv ")) {
      kept.push_back(MaskedSolveLine(line));
    } else if (absl::StartsWith(line, "range ")) {
      kept.push_back(MaskedRangeLine(line));
    } else if (absl::StartsWith(line, "info ")) {
      EXPECT_TRUE(IsInfoLine(line) || IsSolveInfoLine(line)) << line;
    } else if (searched_answer || (one_word_after && words[0] == "play")) {
      EXPECT_TRUE(IsMoveText(words[1])) << line;
      kept.push_back(absl::StrCat(words[0], " <move>"));
    } else {
      kept.push_back(std::string(line));
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
                         ::testing::Values("basics", "variants", "game",
                                           "solve"));

}  // namespace
}  // namespace wallgo::protocol::testing
