// The outcome of a position (engine/outcome.h) on hand-built positions of
// 2, 3 and 4 players: winners, shares of the win, margins, rewards and cell
// owners, worked out by hand from docs/rules.md, finished and running.
#include "engine/outcome.h"

#include <initializer_list>
#include <string>

#include "engine/notation.h"
#include "gtest/gtest.h"
#include "tests/engine/test_support.h"

namespace wallgo {
namespace {

using ::wallgo::testing::CellAt;
using ::wallgo::testing::Parse;
using ::wallgo::testing::RowWalls;

TEST(OutcomeTest, SoleWinnerTakesTheWholeWin) {
  // Rows 1-2 red (14), rows 3-5 blue (21), rows 6-7 empty (14).
  const Position pos = Parse("turn=red red=a1,c1,a2,c2 blue=a3,c3,a4,c4 " +
                             ("red-walls=" + RowWalls({2, 5})));
  ASSERT_TRUE(IsGameOver(pos));
  const Result result = ComputeResult(pos);
  EXPECT_EQ(result.players, 2);
  EXPECT_EQ(result.winners, 1u << Index(Colour::kBlue));
  EXPECT_FALSE(result.is_draw());
  EXPECT_EQ(result.winner_indices(), std::vector<int>{1});
  EXPECT_EQ(result.win_share(0), 0.0);
  EXPECT_EQ(result.win_share(1), 1.0);
  EXPECT_EQ(result.margin(0), 14 - 21);
  EXPECT_EQ(result.margin(1), 21 - 14);
  EXPECT_EQ(result.reward(0), -1.0f);
  EXPECT_EQ(result.reward(1), 1.0f);
}

TEST(OutcomeTest, TwoPlayerDrawSharesTheWin) {
  // Rows 1-2 red (14), rows 3-4 blue (14), rows 5-7 empty: equal score and
  // largest region.
  const Position pos = Parse("turn=red red=a1,c1,a2,c2 blue=a3,c3,a4,c4 " +
                             ("red-walls=" + RowWalls({2, 4})));
  const Result result = ComputeResult(pos);
  EXPECT_TRUE(result.is_draw());
  for (int p : {0, 1}) {
    EXPECT_EQ(result.win_share(p), 0.5);
    EXPECT_EQ(result.margin(p), 0);
    EXPECT_EQ(result.reward(p), 0.0f);
  }
  EXPECT_EQ(result.winner_indices(), (std::vector<int>{0, 1}));
}

TEST(OutcomeTest, ThreePlayersTiedAtTheTopShareAndTheThirdLoses) {
  // Rows 1-2 red (14), rows 3-4 blue (14), row 5 green (7), rows 6-7 empty.
  const Position pos =
      Parse("players=3 turn=red red=a1,a2 blue=a3,a4 green=a5,c5 " +
            ("blue-walls=" + RowWalls({2, 4, 5})));
  ASSERT_TRUE(IsGameOver(pos));
  const Result result = ComputeResult(pos);
  EXPECT_EQ(result.players, 3);
  EXPECT_EQ(result.win_share(0), 0.5);
  EXPECT_EQ(result.win_share(1), 0.5);
  EXPECT_EQ(result.win_share(2), 0.0);
  EXPECT_EQ(result.margin(0), 0);
  EXPECT_EQ(result.margin(2), 7 - 14);
  EXPECT_EQ(result.reward(0), 0.0f);
  EXPECT_EQ(result.reward(2), -1.0f);
}

TEST(OutcomeTest, FourPlayersTiedShareAQuarterEach) {
  // Rows 1, 2, 3 and 4 one player's each (7), rows 5-7 empty.
  const Position pos = Parse(
      "players=4 turn=red red=a1,c1 blue=a2,c2 green=a3,c3 yellow=a4,c4 " +
      ("green-walls=" + RowWalls({1, 2, 3, 4})));
  ASSERT_TRUE(IsGameOver(pos));
  const Result result = ComputeResult(pos);
  EXPECT_EQ(result.players, 4);
  EXPECT_EQ(result.winners, 0b1111u);
  double total = 0;
  for (int p = 0; p < 4; ++p) {
    EXPECT_EQ(result.win_share(p), 0.25);
    EXPECT_EQ(result.margin(p), 0);
    total += result.win_share(p);
  }
  EXPECT_EQ(total, 1.0);
}

TEST(OutcomeTest, ARunningPositionCountsOnlyOwnedRegions) {
  // {a1} has no stone, {g7} is red's, {a7} blue's, the other 46 are shared.
  const Position pos = Parse(
      "turn=red red=g7,a3,a5,c4 blue=a7,g1,g3,e4 "
      "red-walls=a1n,a1e,g6n,f7e blue-walls=a6n,a7e");
  ASSERT_FALSE(IsGameOver(pos));
  const Result result = ComputeResult(pos);
  EXPECT_EQ(result.sheet.score[0], 1);
  EXPECT_EQ(result.sheet.score[1], 1);
  EXPECT_TRUE(result.is_draw());  // were it to end now
  EXPECT_EQ(result.margin(0), 0);

  const CellOwners owners = ComputeCellOwners(pos);
  EXPECT_EQ(owners[CellAt("a1")], kNoCellOwner);
  EXPECT_EQ(owners[CellAt("g7")], Index(Colour::kRed));
  EXPECT_EQ(owners[CellAt("a7")], Index(Colour::kBlue));
  EXPECT_EQ(owners[CellAt("d4")], kSharedCell);
  int shared = 0;
  for (int8_t owner : owners) shared += owner == kSharedCell;
  EXPECT_EQ(shared, 46);
}

TEST(OutcomeTest, APlayerLeftOutNeverWins) {
  // Blue would win on score (21 to 14); resigned or forfeited, red wins.
  const Position pos = Parse("turn=red red=a1,c1,a2,c2 blue=a3,c3,a4,c4 " +
                             ("red-walls=" + RowWalls({2, 5})));
  const Result result = ComputeResult(pos, Colour::kBlue);
  EXPECT_EQ(result.winners, 1u << Index(Colour::kRed));
  EXPECT_EQ(result.win_share(0), 1.0);
  EXPECT_EQ(result.sheet.score[1], 21);  // the scores stand
  EXPECT_EQ(result.margin(0), 14 - 21);
}

TEST(OutcomeTest, NoWinnerSharesNothing) {
  EXPECT_EQ(WinShare(0, 0), 0.0);
  EXPECT_EQ(WinShare(0b101, 1), 0.0);
  EXPECT_EQ(WinShare(0b101, 2), 0.5);
  EXPECT_EQ(WinShare(0b111, 0), 1.0 / 3);
}

TEST(OutcomeTest, OnlyAWallLimitOrStayMobileCanRunOutOfTurns) {
  Rules rules;
  EXPECT_FALSE(CanRunOutOfTurns(rules));
  rules.wall_limit = 5;
  EXPECT_TRUE(CanRunOutOfTurns(rules));
  rules.wall_limit = kUnlimitedWalls;
  rules.stay = StayRule::kMobile;
  EXPECT_TRUE(CanRunOutOfTurns(rules));
}

}  // namespace
}  // namespace wallgo
