// The reachability evaluation on hand-built positions whose reach can be
// worked out on paper.
#include "search/classic/eval.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <string>

#include "engine/notation.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "search/classic/children.h"
#include "tests/engine/test_support.h"

namespace wallgo::search {
namespace {

using testing::Parse;

// Walls shared by the hand-built positions below:
// - row 7 is a corridor of its own (every north edge of row 6 walled),
// - row 1 likewise (every north edge of row 1 walled),
// - a pocket {a2, b2, c2} holding one red stone,
// - g2 is a one-cell region without stones,
// - the 31 remaining middle cells hold two red stones only.
// Row 1 holds three blue stones (7 cells, owned by blue).
constexpr char kRedWalls[] =
    " red-walls=a6n,b6n,c6n,d6n,e6n,f6n,g6n,a1n,b1n,c1n,d1n,e1n,f1n,g1n";
constexpr char kBlueWalls[] = " blue-walls=a2n,b2n,c2n,c2e,f2e,g2n";
constexpr float kRedOutsideRow7 = 3 + 31;  // the pocket and the middle
constexpr float kBlueOutsideRow7 = 7;      // row 1

// A position with red on a7 and c4, d4, a2, blue on row 1 and `blue_row7`;
// `more_red_walls` (",edge,...") adds to those walls.
Position Corridor(const std::string& turn, const std::string& blue_row7,
                  const std::string& more_red_walls = "") {
  return Parse("players=2 setup=empty turn=" + turn +
               " red=a7,a2,c4,d4 blue=a1,b1,c1," + blue_row7 + kRedWalls +
               more_red_walls + kBlueWalls);
}

// Cells only: ties split, no tempo for the player to move.
constexpr EvalOptions kCellsOnly{.first_turn_share = 0.5f, .tempo_cells = 0};

float WinSum(const Evaluation& e) {
  return std::accumulate(e.win.begin(), e.win.end(), 0.0f);
}

TEST(EvaluateTest, StonesFacingInACorridorSplitTheCellsBetweenThem) {
  // a7 against g7: red's first turn reaches b7, c7; blue's e7, f7; both
  // reach d7 in their second turn, so it is split.
  const Territory t = EstimateTerritory(Corridor("red", "g7"), kCellsOnly);
  EXPECT_FALSE(t.finished);
  EXPECT_EQ(t.contested_cells, 7);
  EXPECT_FLOAT_EQ(t.score[0], kRedOutsideRow7 + 3.5f);
  EXPECT_FLOAT_EQ(t.score[1], kBlueOutsideRow7 + 3.5f);
}

TEST(EvaluateTest, ThePlayerToMoveGetsTheTempo) {
  const Territory red = EstimateTerritory(Corridor("red", "g7"));
  EXPECT_FLOAT_EQ(red.score[0], kRedOutsideRow7 + 3.5f + kTempoCells);
  EXPECT_FLOAT_EQ(red.score[1], kBlueOutsideRow7 + 3.5f);
  const Territory blue = EstimateTerritory(Corridor("blue", "g7"));
  EXPECT_FLOAT_EQ(blue.score[0], kRedOutsideRow7 + 3.5f);
  EXPECT_FLOAT_EQ(blue.score[1], kBlueOutsideRow7 + 3.5f + kTempoCells);
}

// a7 against d7: b7 and c7 are one turn from both stones; e7, f7 (first
// turn) and g7 (second) are blue's alone.
TEST(EvaluateTest, CellsBothReachInOneTurnAreSplitByDefault) {
  const Territory t = EstimateTerritory(Corridor("red", "d7"), kCellsOnly);
  EXPECT_FLOAT_EQ(t.score[0], kRedOutsideRow7 + 1 + 1);
  EXPECT_FLOAT_EQ(t.score[1], kBlueOutsideRow7 + 1 + 1 + 3);
}

TEST(EvaluateTest, TheMoverCanTakeALargerShareOfFirstTurnTies) {
  const EvalOptions options{.first_turn_share = 0.75f, .tempo_cells = 0};
  const Territory red = EstimateTerritory(Corridor("red", "d7"), options);
  EXPECT_FLOAT_EQ(red.score[0], kRedOutsideRow7 + 1 + 1.5f);
  EXPECT_FLOAT_EQ(red.score[1], kBlueOutsideRow7 + 1 + 0.5f + 3);
  const Territory blue = EstimateTerritory(Corridor("blue", "d7"), options);
  EXPECT_FLOAT_EQ(blue.score[0], kRedOutsideRow7 + 1 + 0.5f);
  EXPECT_FLOAT_EQ(blue.score[1], kBlueOutsideRow7 + 1 + 1.5f + 3);
}

TEST(EvaluateTest, OnlyFirstTurnTiesFavourTheMover) {
  // a7 against g7: the only tie, d7, comes in the second turn.
  const EvalOptions options{.first_turn_share = 1, .tempo_cells = 0};
  EXPECT_FLOAT_EQ(EstimateTerritory(Corridor("red", "g7"), options).score[0],
                  kRedOutsideRow7 + 3.5f);
}

// Three players: a walled cross {b4, c4, d4, e4, f4, d5, d6} holds red b4,
// blue f4 and green d6, each two steps (one turn) from d4; every player's
// other stone sits alone in a walled corner cell; the other 39 cells hold
// no stone.
Position Cross(const std::string& turn) {
  return Parse("players=3 turn=" + turn +
               " red=b4,a1 blue=f4,g1 green=d6,g7"
               " red-walls=b4n,b3n,a4e,c4n,c3n,d3n,e4n,e3n"
               " blue-walls=f4n,f3n,f4e,c5e,d5e,c6e,d6e,d6n"
               " green-walls=a1n,a1e,f1e,g1n,f7e,g6n");
}

TEST(EvaluateTest, ThreePlayersShareTiesAmongThoseWhoReachThem) {
  // Each stone's own cell, its corner and its arm of the cross are its own;
  // d4 is shared three ways.
  const EvalOptions even{.first_turn_share = 1.0f / 3, .tempo_cells = 0};
  const Territory t = EstimateTerritory(Cross("red"), even);
  EXPECT_EQ(t.contested_cells, 7);
  for (int p = 0; p < 3; ++p) EXPECT_FLOAT_EQ(t.score[p], 3 + 1.0f / 3);
  // With the default share the mover gets half of d4, the others a quarter.
  const Territory blue = EstimateTerritory(Cross("blue"), kCellsOnly);
  EXPECT_FLOAT_EQ(blue.score[0], 3.25f);
  EXPECT_FLOAT_EQ(blue.score[1], 3.5f);
  EXPECT_FLOAT_EQ(blue.score[2], 3.25f);
}

TEST(EvaluateTest, AStoneWalledIntoThreeCellsCountsExactlyThree) {
  // Removing the pocket's red stone (to g7's side) changes red's score by
  // exactly the pocket's three cells: without a stone it is nobody's.
  const Position with_pocket = Corridor("red", "g7");
  const Position without_pocket =
      Parse("players=2 setup=empty turn=red red=a7,e5,c4,d4 blue=a1,b1,c1,g7" +
            std::string(kRedWalls) + kBlueWalls);
  const float pocket = EstimateTerritory(with_pocket).score[0] -
                       EstimateTerritory(without_pocket).score[0];
  EXPECT_FLOAT_EQ(pocket, 3);
}

TEST(EvaluateTest, WinProbabilitiesFavourTheLeaderAndSumToOne) {
  const Evaluation e = Evaluate(Corridor("red", "g7"));
  EXPECT_FLOAT_EQ(e.score[0], kRedOutsideRow7 + 3.5f + kTempoCells);
  EXPECT_GT(e.win[0], 0.99f);  // 27.5 cells ahead
  EXPECT_NEAR(WinSum(e), 1, 1e-6);
  EXPECT_EQ(e.win[2], 0);
}

TEST(EvaluateTest, AFinishedGameIsScoredExactly) {
  // Walling a7 off from the rest of row 7 leaves every region single-owned.
  const Position pos = Corridor("blue", "g7", ",a7e");
  ASSERT_TRUE(IsGameOver(pos));
  const Evaluation e = Evaluate(pos);
  const ScoreSheet sheet = ComputeScores(pos);
  EXPECT_EQ(e.score[0], sheet.score[0]);
  EXPECT_EQ(e.score[1], sheet.score[1]);
  EXPECT_FLOAT_EQ(e.score[0], kRedOutsideRow7 + 1);
  EXPECT_FLOAT_EQ(e.score[1], kBlueOutsideRow7 + 6);
  EXPECT_EQ(e.win[0], 1);
  EXPECT_EQ(e.win[1], 0);
}

TEST(EvaluateTest, AFinishedDrawIsShared) {
  // Rows 1-3 red, rows 5-7 blue, row 4 empty between two wall lines.
  const Position pos = Parse(
      "players=2 setup=empty turn=red red=a1,b1,c1,d1 blue=a7,b7,c7,d7"
      " red-walls=a3n,b3n,c3n,d3n,e3n,f3n,g3n"
      " blue-walls=a4n,b4n,c4n,d4n,e4n,f4n,g4n");
  const Evaluation e = Evaluate(pos);
  EXPECT_EQ(e.score[0], 21);
  EXPECT_EQ(e.score[1], 21);
  EXPECT_EQ(e.win[0], 0.5f);
  EXPECT_EQ(e.win[1], 0.5f);
}

TEST(EvaluateTest, SetupPositionsAreRacedNotOwned) {
  // After red's first placement on an empty board red's stone is alone in
  // the only region; the game is not over and nothing is settled yet.
  Rules rules = Rules::Default(3);
  Position pos = testing::StartOf(rules);
  pos.Play(Move::Place(CellOf(3, 3)));
  const Territory t = EstimateTerritory(pos);
  EXPECT_FALSE(t.finished);
  EXPECT_EQ(t.contested_cells, kNumCells);
  const Evaluation e = Evaluate(pos);
  EXPECT_NEAR(WinSum(e), 1, 1e-6);
  EXPECT_EQ(e.win[3], 0);
}

TEST(EvaluateTest, EveryCellOfAnOpenBoardIsHandedOutWhole) {
  // Three players on a wall-free board: every cell is reached by someone,
  // and cells reached in the same turn by two or three are split, so the
  // shares add up to the board.
  Rules rules = Rules::Default(3);
  Position pos = testing::StartOf(rules);
  for (int cell : {CellOf(0, 0), CellOf(6, 0), CellOf(3, 6), CellOf(3, 0),
                   CellOf(0, 6), CellOf(6, 6)}) {
    pos.Play(Move::Place(cell));
  }
  ASSERT_FALSE(pos.in_setup());
  const Territory t = EstimateTerritory(pos, kCellsOnly);
  EXPECT_FLOAT_EQ(t.score[0] + t.score[1] + t.score[2], kNumCells);
}

TEST(WinFromScoresTest, TwoPlayersFollowTheLogisticOfTheMargin) {
  const std::array<float, kMaxPlayers> score{24, 20, 0, 0};
  const float scale = WinScale(30);
  const auto win = WinFromScores(score, 2, scale);
  EXPECT_NEAR(win[0], 1 / (1 + std::exp(-4 / scale)), 1e-6);
  EXPECT_NEAR(win[0] + win[1], 1, 1e-6);
}

TEST(WinFromScoresTest, UncertaintyGrowsWithTheCellsInPlay) {
  EXPECT_LT(WinScale(0), WinScale(10));
  EXPECT_LT(WinScale(10), WinScale(40));
}

TEST(OutcomeValueTest, AWonGameOutranksAnyEstimate) {
  const Position won = Corridor("blue", "g7", ",a7e");
  EXPECT_GT(OutcomeValue(won, Colour::kRed), kWinValue);
  EXPECT_LT(OutcomeValue(won, Colour::kBlue), -kWinValue / 2);
  const Position open = Corridor("red", "g7");
  EXPECT_FLOAT_EQ(OutcomeValue(open, Colour::kRed),
                  kRedOutsideRow7 - kBlueOutsideRow7 + kTempoCells);
}

// Invariants along random games of every variant: the evaluation knows the
// game is over exactly when the engine does, scores finished games as the
// engine does, and hands out no more cells than the board has.
class EveryVariantTest : public ::testing::TestWithParam<testing::Variant> {};

TEST_P(EveryVariantTest, EvaluationAgreesWithTheEngine) {
  std::mt19937_64 rng(testing::SeedFor(GetParam().name));
  int finished = 0;
  for (int game = 0; game < std::max(1, 20 / testing::kWorkDivisor); ++game) {
    testing::PlayRandomGame(
        GetParam().rules, rng, 300, [&](const Position& pos) {
          const Territory t = EstimateTerritory(pos, kCellsOnly);
          ASSERT_EQ(t.finished, IsGameOver(pos)) << PositionString(pos);
          const Evaluation e = Evaluate(pos);
          EXPECT_NEAR(WinSum(e), 1, 1e-5) << PositionString(pos);
          float cells = 0;
          for (float score : t.score) cells += score;
          EXPECT_LE(cells, kNumCells + 1e-3f) << PositionString(pos);
          if (!t.finished) return;
          ++finished;
          const Result result = ComputeResult(pos);
          for (int p = 0; p < pos.num_players(); ++p) {
            EXPECT_EQ(e.score[p], result.sheet.score[p]);
            const bool winner = result.winners & (1u << p);
            EXPECT_EQ(e.win[p] > 0, winner) << PositionString(pos);
          }
        });
  }
  EXPECT_GT(finished, 0);
}

// How often the children checked below took each shortcut's hard case.
struct ChildCases {
  std::array<int, 5> kinds{};  // by MoveKind
  int cuts = 0;                // a new wall cut a region in two
  int merges = 0;              // a broken wall joined two regions
  int finished = 0;            // the move ended the game
  int stuck = 0;               // ... with regions still shared: nobody can move
};

// Every child of `pos` as EvaluateChildren sees it equals copy, Play and
// Evaluate, to the bit.
void ExpectChildrenAsPlayed(const Position& pos, ChildCases& cases) {
  MoveList moves;
  GenerateMoves(pos, moves);
  std::array<ChildOutlook, MoveList::kCapacity> all;
  EvaluateChildren(pos, std::span(moves.begin(), moves.end()),
                   std::span(all.data(), moves.size()));
  const int regions = FindRegions(pos.walls()).count;
  const Colour me = pos.to_move();
  for (int i = 0; i < moves.size(); ++i) {
    Position child = pos;
    child.Play(moves[i]);
    const Evaluation e = Evaluate(child);
    const std::string where = PositionString(pos) + " " + MoveName(moves[i]);
    EXPECT_EQ(all[i].win, e.win[Index(me)]) << where;
    EXPECT_EQ(all[i].margin, ScoreMargin(e.score, pos.num_players(), me))
        << where;
    ++cases.kinds[static_cast<int>(moves[i].kind)];
    const int child_regions = FindRegions(child.walls()).count;
    cases.cuts += child_regions > regions;
    cases.merges += child_regions < regions;
    cases.finished += IsGameOver(child);
    cases.stuck += IsGameOver(child) && !AllRegionsSettled(child);
  }
}

// The hard cases of EvaluateChildren all came up: placements, turns, walls
// that cut a region, children that end the game, and, where the rules have
// them, broken walls that merge regions and games ended with no legal turn.
void ExpectEveryCaseMet(const Rules& rules, const ChildCases& cases) {
  EXPECT_GT(cases.kinds[static_cast<int>(MoveKind::kPlace)], 0);
  EXPECT_GT(cases.kinds[static_cast<int>(MoveKind::kTurn)], 0);
  EXPECT_GT(cases.cuts, 0);
  EXPECT_GT(cases.finished, 0);
  if (rules.breakers > 0) {
    EXPECT_GT(cases.merges, 0);
  }
  if (rules.wall_limit != kUnlimitedWalls || rules.stay != StayRule::kAlways) {
    EXPECT_GT(cases.stuck, 0);
  }
}

// Along random games, and in random positions with many walls (where
// breakers join regions more often), every rule variant.
TEST_P(EveryVariantTest, AllChildrenAtOnceEqualEachChildPlayed) {
  const Rules& rules = GetParam().rules;
  std::mt19937_64 rng(testing::SeedFor(GetParam().name));
  ChildCases cases;
  for (int game = 0; game < std::max(1, 40 / testing::kWorkDivisor); ++game) {
    testing::PlayRandomGame(rules, rng, 300, [&](const Position& pos) {
      ExpectChildrenAsPlayed(pos, cases);
    });
  }
  for (int i = 0; i < 500 / testing::kWorkDivisor; ++i) {
    const Position pos = testing::RandomPlayPosition(rules, 40, rng);
    if (!IsGameOver(pos)) ExpectChildrenAsPlayed(pos, cases);
  }
  // The sanitizer builds' shortened runs are too few to meet every case.
  if (testing::kWorkDivisor == 1) ExpectEveryCaseMet(rules, cases);
}

INSTANTIATE_TEST_SUITE_P(Variants, EveryVariantTest,
                         ::testing::ValuesIn(testing::Variants()),
                         testing::VariantTestName);

}  // namespace
}  // namespace wallgo::search
