// Time budgets of the fixed-depth players (and of the MCTS, which uses the
// same MoveTimeBudget).
#include "search/players/player_common.h"

#include "gtest/gtest.h"
#include "tests/engine/test_support.h"

namespace wallgo::search {
namespace {

constexpr double kMargin = 0.05;  // player_common.cc's safety margin

Position FourStoneStart() { return testing::StartOf(Rules::Default(2)); }

TEST(ExpectedTurnsLeftTest, CountsTheWallsAndPlacementsStillToCome) {
  // 84 open edges, of which about 32 stay open to the end, and 4
  // placements, shared by two players: (52 + 4) / 2.
  EXPECT_EQ(ExpectedTurnsLeft(FourStoneStart()), 28);
  // A crowded board still leaves a floor of four turns.
  const Position walled = testing::Parse(
      "players=2 red=a1,b1,c1,d1 blue=a7,b7,c7,d7 red-walls=" +
      std::string("a1n,b1n,c1n,d1n,e1n,f1n,g1n,a2n,b2n,c2n,d2n,e2n,f2n,g2n,"
                  "a3n,b3n,c3n,d3n,e3n,f3n,g3n,a4n,b4n,c4n,d4n,e4n,f4n,g4n,"
                  "a5n,b5n,c5n,d5n,e5n,f5n,g5n,a6n,b6n,c6n,d6n,e6n,f6n,g6n,"
                  "a1e,b1e,c1e,d1e,e1e,f1e,a2e,b2e,c2e,d2e,e2e,f2e,"
                  "a3e,b3e,c3e,d3e,e3e,f3e,a4e,b4e,c4e,d4e,e4e,f4e"));
  EXPECT_EQ(ExpectedTurnsLeft(walled), 4);
}

TEST(MoveTimeBudgetTest, AClockIgnoresAMoveTimeTheUserDidNotSet) {
  SearchOptions options = ClassicProfile();
  options.movetime_s = 1;  // the protocol's default, not the user's
  Limits limits;
  limits.clock.main_s = 100;
  EXPECT_NEAR(MoveTimeBudget(options, limits, FourStoneStart()),
              100.0 / 28 - kMargin, 1e-9);
  EXPECT_EQ(EffectiveMoveTime(options, limits), 0);
  EXPECT_EQ(EffectiveMoveTime(options, Limits{}), 1);
}

TEST(MoveTimeBudgetTest, TheShorterOfTheUsersMoveTimeAndClockWins) {
  SearchOptions options = ClassicProfile();
  Limits limits;
  limits.clock.main_s = 100;
  options.movetime_s = 1.5;
  options.movetime_set = true;
  EXPECT_EQ(MoveTimeBudget(options, limits, FourStoneStart()), 1.5);
  // 5 s of main time over 23 turns left is far below the 1.5 s move time.
  limits.clock.main_s = 5;
  EXPECT_NEAR(MoveTimeBudget(options, limits, FourStoneStart()),
              5.0 / 28 - kMargin, 1e-9);
  options.movetime_s = 0;
  EXPECT_NEAR(MoveTimeBudget(options, limits, FourStoneStart()),
              5.0 / 28 - kMargin, 1e-9);
  limits.infinite = true;
  EXPECT_EQ(MoveTimeBudget(options, limits, FourStoneStart()), kNoTimeLimit);
  EXPECT_EQ(MoveTimeBudget(ClassicProfile(), Limits{}, FourStoneStart()),
            kNoTimeLimit);
}

TEST(MoveTimeBudgetTest, MainTimeIsSpreadOverTheTurnsLeft) {
  Limits limits;
  limits.clock.main_s = 69;
  EXPECT_NEAR(MoveTimeBudget({}, limits, FourStoneStart()), 69.0 / 28 - kMargin,
              1e-9);
}

TEST(MoveTimeBudgetTest, ByoYomiPeriodsAreSharedByTheirStones) {
  Limits limits;
  limits.clock.byo_s = 30;
  limits.clock.byo_stones = 5;
  limits.clock.byo_stones_left = 3;
  limits.clock.in_byo = true;
  EXPECT_NEAR(MoveTimeBudget({}, limits, FourStoneStart()),
              0.9 * 30 / 3 - kMargin, 1e-9);
  // The period's last stone has what is left of it, less the margin of a
  // fixed move time.
  limits.clock.byo_s = 4;
  limits.clock.byo_stones_left = 1;
  EXPECT_NEAR(MoveTimeBudget({}, limits, FourStoneStart()), 4 - 0.03, 1e-9);
  limits.clock.byo_s = 0.25;
  EXPECT_NEAR(MoveTimeBudget({}, limits, FourStoneStart()), 0.25 * 0.95, 1e-9);
  limits.clock.byo_s = 30;
  limits.clock.byo_stones_left = 3;
  // Before byo-yomi: main time's share plus most of a period's share.
  limits.clock.in_byo = false;
  limits.clock.main_s = 28;
  EXPECT_NEAR(MoveTimeBudget({}, limits, FourStoneStart()),
              1 + 0.9 * 30 / 5 - kMargin, 1e-9);
}

TEST(MoveTimeBudgetTest, NeverBelowTenMilliseconds) {
  Limits limits;
  limits.clock.main_s = 0.001;
  EXPECT_EQ(MoveTimeBudget({}, limits, FourStoneStart()), 0.01);
}

}  // namespace
}  // namespace wallgo::search
