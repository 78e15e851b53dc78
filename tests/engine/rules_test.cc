// Every edge case of docs/rules.md as a named test on a hand-built position.
// The expected answers are worked out by hand from docs/rules.md.
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "tests/engine/test_support.h"

namespace wallgo {
namespace {

using ::wallgo::testing::CellAt;
using ::wallgo::testing::EngineMoveNames;
using ::wallgo::testing::Parse;
using ::wallgo::testing::RowWalls;
using ::wallgo::testing::StartOf;

Bitboard CellsAt(std::initializer_list<absl::string_view> names) {
  Bitboard b = 0;
  for (absl::string_view name : names) b |= CellBit(CellAt(name));
  return b;
}

Move MoveOf(absl::string_view text) {
  absl::StatusOr<Move> move = ParseMove(text);
  EXPECT_TRUE(move.ok()) << text;
  return move.value_or(Move::Pass());
}

// The moves of the side to move that start on `from`.
std::set<std::string> MovesFrom(const Position& pos, const std::string& from) {
  std::set<std::string> out;
  for (const std::string& m : EngineMoveNames(pos)) {
    if (m.starts_with(from) && m.size() > 2) out.insert(m);
  }
  return out;
}

void PlayAll(Position& pos, std::initializer_list<absl::string_view> moves) {
  for (absl::string_view text : moves) {
    const Move move = MoveOf(text);
    ASSERT_TRUE(CheckMove(pos, pos.to_move(), move).ok()) << text;
    pos.Play(move);
  }
}

TEST(RulesTest, TwoStepMayTurnTheCornerAroundAWall) {
  // A wall east of d4: e4 is out of reach, e5 and e3 are reached around it.
  const Position pos =
      Parse("turn=red red=d4,a1,a3,a5 blue=g1,g3,g5,g7 red-walls=d4e");
  EXPECT_EQ(Destinations(pos, CellAt("d4")),
            CellsAt({"d4", "d5", "d3", "c4", "d6", "c5", "e5", "d2", "c3", "e3",
                     "b4"}));
  const std::set<std::string> moves = EngineMoveNames(pos);
  EXPECT_TRUE(moves.contains("d4e5e"));
  EXPECT_TRUE(moves.contains("d4e3s"));
  EXPECT_FALSE(moves.contains("d4e4n"));
  EXPECT_FALSE(moves.contains("d4f4n"));
}

TEST(RulesTest, StoneBlocksBothStepsThroughItsCell) {
  // Blue on d5 and the wall east of d4: d6 and e5 can no longer be reached.
  const Position pos =
      Parse("turn=red red=d4,a1,a3,a5 blue=d5,g3,g5,g7 red-walls=d4e");
  EXPECT_EQ(Destinations(pos, CellAt("d4")),
            CellsAt({"d4", "d3", "c4", "c5", "d2", "c3", "e3", "b4"}));
}

TEST(RulesTest, OwnStoneBlocksAStepToo) {
  const Position pos = Parse("turn=red red=d4,d5,a3,a5 blue=g1,g3,g5,g7");
  const Bitboard dest = Destinations(pos, CellAt("d4"));
  EXPECT_FALSE(dest & CellsAt({"d5", "d6"}));
  EXPECT_TRUE(dest & CellBit(CellAt("e5")));  // via e4
}

TEST(RulesTest, WallBlocksASingleStep) {
  const Position pos =
      Parse("turn=red red=d4,a1,a3,a5 blue=g1,g3,g5,g7 blue-walls=d4n");
  const Bitboard dest = Destinations(pos, CellAt("d4"));
  EXPECT_FALSE(dest & CellsAt({"d5", "d6"}));
  EXPECT_TRUE(dest & CellsAt({"c5", "e5"}));  // around the wall
}

TEST(RulesTest, TwoStepBackToTheStartUnderStayMobile) {
  // Walls on three sides of d4: its only way out is west, and back.
  const Position pos = Parse(
      "stay=mobile turn=red red=d4,a1,a3,a5 blue=g1,g3,g5,g7 "
      "red-walls=d4n,d4e,d3n");
  EXPECT_EQ(Destinations(pos, CellAt("d4")),
            CellsAt({"d4", "c4", "b4", "c5", "c3"}));
  const std::set<std::string> moves = EngineMoveNames(pos);
  EXPECT_TRUE(moves.contains("d4d4w"));
  EXPECT_FALSE(moves.contains("d4d4s"));  // walled
}

TEST(RulesTest, StayMobileForbidsStayingWithoutAFreeNeighbour) {
  // a1 is boxed in by blue stones on a2 and b1.
  const std::string stones = "turn=red red=a1,c4,c6,e6 blue=a2,b1,g5,g7";
  const Position mobile = Parse("stay=mobile " + stones);
  EXPECT_EQ(Destinations(mobile, CellAt("a1")), Bitboard{0});
  EXPECT_TRUE(MovesFrom(mobile, "a1").empty());

  const Position always = Parse("stay=always " + stones);
  EXPECT_EQ(Destinations(always, CellAt("a1")), CellsAt({"a1"}));
  EXPECT_EQ(MovesFrom(always, "a1"), (std::set<std::string>{"a1a1n", "a1a1e"}));
}

TEST(RulesTest, StayAlwaysAllowsStayingWithFreeNeighbours) {
  const Position pos = Parse("turn=red red=d4,a1,a3,a5 blue=g1,g3,g5,g7");
  const std::set<std::string> moves = EngineMoveNames(pos);
  for (const char* m : {"d4d4n", "d4d4e", "d4d4s", "d4d4w"}) {
    EXPECT_TRUE(moves.contains(m)) << m;
  }
}

TEST(RulesTest, RimEdgesAreNeverWallable) {
  const Position pos = Parse("turn=red red=a1,g7,a7,g1 blue=c3,e3,c5,e5");
  EXPECT_EQ(MovesFrom(pos, "a1a1"), (std::set<std::string>{"a1a1n", "a1a1e"}));
  EXPECT_EQ(MovesFrom(pos, "g7g7"), (std::set<std::string>{"g7g7s", "g7g7w"}));
  MoveList moves;
  GenerateMoves(pos, moves);
  for (const Move& m : moves) {
    EXPECT_TRUE(EdgeAt(m.to, m.side).valid) << MoveName(m);
  }
  const WallMasks none;
  EXPECT_EQ(FreeSideMask(none, Side::kNorth), kAllCells & ~kRow7);
  EXPECT_EQ(FreeSideMask(none, Side::kSouth), kAllCells & ~kRow1);
  EXPECT_EQ(FreeSideMask(none, Side::kEast), kAllCells & ~kColG);
  EXPECT_EQ(FreeSideMask(none, Side::kWest), kAllCells & ~kColA);
  EXPECT_FALSE(ParseEdge("a1s").ok());
  EXPECT_FALSE(ParseEdge("g4e").ok());
  EXPECT_FALSE(
      ParsePosition("red=a1,g7,a7,g1 blue=c3,e3,c5,e5 red-walls=a7n").ok());
}

TEST(RulesTest, PlayerWithoutWallsLeftMustPass) {
  const Position pos = Parse(
      "wall-limit=1 turn=red red=a1,a3,a5,a7 blue=g1,g3,g5,g7 "
      "red-walls=d4n");
  EXPECT_EQ(pos.walls_left(Colour::kRed), 0);
  EXPECT_EQ(pos.walls_left(Colour::kBlue), 1);
  EXPECT_FALSE(HasLegalTurn(pos, Colour::kRed));
  EXPECT_TRUE(HasLegalTurn(pos, Colour::kBlue));
  EXPECT_FALSE(IsGameOver(pos));
  EXPECT_EQ(EngineMoveNames(pos), (std::set<std::string>{"pass"}));

  Position next = pos;
  next.Play(Move::Pass());
  EXPECT_EQ(next.to_move(), Colour::kBlue);
  EXPECT_EQ(next.walls(), pos.walls());
  EXPECT_FALSE(EngineMoveNames(next).contains("pass"));
}

TEST(RulesTest, PlayerWithoutALegalTurnMustPass) {
  // stay=mobile; red's stones fill a1-a4, boxed in by blue on b1-b4 and a
  // wall above a4: no red stone has a step, so none may stay either.
  const Position pos = Parse(
      "stay=mobile turn=red red=a1,a2,a3,a4 blue=b1,b2,b3,b4 "
      "blue-walls=a4n");
  EXPECT_FALSE(HasLegalTurn(pos, Colour::kRed));
  EXPECT_FALSE(IsGameOver(pos));
  EXPECT_EQ(EngineMoveNames(pos), (std::set<std::string>{"pass"}));
  EXPECT_EQ(CountMoves(pos), 1);
  EXPECT_TRUE(CheckMove(pos, Colour::kRed, Move::Pass()).ok());

  Position next = pos;
  next.Play(Move::Pass());
  EXPECT_EQ(next.to_move(), Colour::kBlue);
  EXPECT_EQ(next.occupied(), pos.occupied());
  EXPECT_TRUE(HasLegalTurn(next, Colour::kBlue));
}

// A line of walls between columns c and d with a gap east of c4.
constexpr char kAlmostSplit[] =
    "turn=red red=a1,a3,a5,b4 blue=g1,g3,g5,g7 "
    "red-walls=c1e,c2e,c3e blue-walls=c5e,c6e,c7e";

TEST(RulesTest, GameEndsTheMomentTheLastSharedRegionSplits) {
  Position pos = Parse(kAlmostSplit);
  EXPECT_FALSE(IsGameOver(pos));
  EXPECT_FALSE(AllRegionsSettled(pos));

  Position other = pos;
  PlayAll(other, {"b4c4n"});  // the gap stays open
  EXPECT_FALSE(IsGameOver(other));

  PlayAll(pos, {"b4c4e"});
  EXPECT_TRUE(AllRegionsSettled(pos));
  EXPECT_TRUE(IsGameOver(pos));
  EXPECT_TRUE(HasLegalTurn(pos, Colour::kBlue));  // ended by (a), not (b)
  MoveList moves;
  GenerateMoves(pos, moves);
  EXPECT_TRUE(moves.empty());
  EXPECT_EQ(CountMoves(pos), 0);
  EXPECT_EQ(Perft(pos, 1), 0u);

  const Result result = ComputeResult(pos);
  EXPECT_EQ(result.sheet.score[Index(Colour::kRed)], 21);
  EXPECT_EQ(result.sheet.score[Index(Colour::kBlue)], 28);
  EXPECT_EQ(result.winners, 1u << Index(Colour::kBlue));
  EXPECT_FALSE(result.is_draw());
}

// Only the regions holding a stone on the given cells count: the solver
// asks of the regions a move may have changed.
TEST(RulesTest, RegionsSettledAtLooksOnlyAtTheRegionsOfItsCells) {
  const Position pos = Parse(
      "turn=red red=a1,a3,a5,e4 blue=g1,g3,g5,g7 "
      "red-walls=c1e,c2e,c3e,c4e blue-walls=c5e,c6e,c7e");
  const auto at = [](const char* cell) { return CellBit(*ParseCell(cell)); };
  EXPECT_FALSE(AllRegionsSettled(pos));
  EXPECT_TRUE(RegionsSettledAt(pos, at("a1") | at("a5")));  // red's alone
  EXPECT_FALSE(RegionsSettledAt(pos, at("g1")));  // shared with red's e4
  EXPECT_FALSE(RegionsSettledAt(pos, at("a1") | at("e4")));
  EXPECT_TRUE(RegionsSettledAt(pos, at("b2")));  // no stone there
  EXPECT_EQ(RegionsSettledAt(pos, pos.occupied()), AllRegionsSettled(pos));

  const ContestedRegions all = FindContestedRegions(pos, pos.occupied());
  EXPECT_EQ(all.count, 1);
  EXPECT_EQ(PopCount(all.cells), 28);  // columns d to g
  EXPECT_TRUE(all.cells & at("e4"));
  EXPECT_FALSE(all.cells & at("a1"));
  EXPECT_EQ(IsGameOverWith(pos, all), IsGameOver(pos));
  EXPECT_FALSE(IsGameOverWith(pos, all));
  // Asked of red's own region alone, nothing is contested there: the
  // caller vouches for the rest of the board.
  const ContestedRegions left = FindContestedRegions(pos, at("a1") | at("a5"));
  EXPECT_EQ(left.count, 0);
  EXPECT_EQ(left.cells, Bitboard{0});
  EXPECT_TRUE(IsGameOverWith(pos, left));

  const Position split = Parse(kAlmostSplit);
  EXPECT_FALSE(RegionsSettledAt(split, at("a1")));
  Position after = split;
  PlayAll(after, {"b4c4e"});
  EXPECT_TRUE(RegionsSettledAt(after, at("a1") | at("g7")));
}

TEST(RulesTest, AFullContestedRegionStaysFrozenOnlyUnderStayMobile) {
  const auto at = [](const char* cell) { return CellBit(*ParseCell(cell)); };
  // a1 and b1 walled off together, a red and a blue stone in them.
  const std::string board =
      " turn=red red=a1,a3,a5,a7 blue=b1,g3,g5,g7 red-walls=a1n,b1n "
      "blue-walls=b1e";
  const Position pos = Parse("stay=mobile" + board);
  const ContestedRegions contested = FindContestedRegions(pos, kAllCells);
  EXPECT_EQ(contested.count, 2);  // the pair and the rest of the board
  EXPECT_EQ(contested.full, at("a1") | at("b1"));
  EXPECT_TRUE(ContestsStayFrozen(pos));
  // A stone may stay and build, a wall limit can end the game around it,
  // a breaker can open it.
  EXPECT_FALSE(ContestsStayFrozen(Parse("stay=always" + board)));
  EXPECT_FALSE(ContestsStayFrozen(Parse("stay=mobile wall-limit=20" + board)));
  const std::string three =
      "players=3 stay=mobile breakers=1 turn=red red=a1,a3 blue=b1,g3 "
      "green=g5,g7 red-walls=a1n,b1n blue-walls=b1e";
  EXPECT_FALSE(ContestsStayFrozen(Parse(three)));
  EXPECT_TRUE(ContestsStayFrozen(
      Parse(three + " red-breakers=0 blue-breakers=0 green-breakers=0")));
  // Once the pair has an empty cell, it is not full.
  const Position open = Parse(
      "stay=mobile turn=red red=a1,a3,a5,a7 blue=b1,g3,g5,g7 red-walls=a1n,"
      "b1n blue-walls=c1e,c1n");
  EXPECT_EQ(FindContestedRegions(open, kAllCells).full, Bitboard{0});
}

TEST(RulesTest, GameEndsWhenNobodyCanMove) {
  // wall-limit=1: red has built its wall; once blue builds, nobody can move.
  Position pos = Parse(
      "wall-limit=1 turn=blue red=a1,a3,a5,a7 blue=g1,g3,g5,g7 "
      "red-walls=d4n");
  EXPECT_FALSE(IsGameOver(pos));
  PlayAll(pos, {"g1g1n"});
  EXPECT_FALSE(AllRegionsSettled(pos));
  EXPECT_FALSE(HasLegalTurn(pos, Colour::kRed));
  EXPECT_FALSE(HasLegalTurn(pos, Colour::kBlue));
  EXPECT_TRUE(IsGameOver(pos));
  EXPECT_EQ(CountMoves(pos), 0);
  const Result result = ComputeResult(pos);  // one shared region: 0 to 0
  EXPECT_EQ(result.sheet.score[0], 0);
  EXPECT_EQ(result.sheet.score[1], 0);
  EXPECT_TRUE(result.is_draw());
}

TEST(RulesTest, EmptyAndSharedRegionsScoreForNobody) {
  // {a1} has no stone, {g7} is red's, {a7} blue's, the other 46 are shared.
  const Position pos = Parse(
      "turn=red red=g7,a3,a5,c4 blue=a7,g1,g3,e4 "
      "red-walls=a1n,a1e,g6n,f7e blue-walls=a6n,a7e");
  const Regions regions = FindRegions(pos.walls());
  ASSERT_EQ(regions.count, 4);
  EXPECT_EQ(regions.masks[0], CellsAt({"a1"}));  // ordered by lowest cell
  EXPECT_EQ(PopCount(regions.masks[1]), 46);
  EXPECT_EQ(RegionOwner(pos, CellsAt({"a1"})), -1);
  EXPECT_EQ(RegionOwner(pos, regions.masks[1]), -2);
  EXPECT_EQ(RegionOwner(pos, CellsAt({"g7"})), Index(Colour::kRed));
  EXPECT_EQ(RegionOwner(pos, CellsAt({"a7"})), Index(Colour::kBlue));
  EXPECT_FALSE(IsGameOver(pos));

  const ScoreSheet sheet = ComputeScores(pos);
  EXPECT_EQ(sheet.score[0], 1);
  EXPECT_EQ(sheet.score[1], 1);
  EXPECT_EQ(sheet.largest_region[0], 1);
  EXPECT_EQ(sheet.largest_region[1], 1);
}

TEST(RulesTest, TieOnScoreGoesToTheLargerRegion) {
  // Bands: row 1 (7), row 2 (7), rows 3-4 (14), rows 5-7 (21, empty).
  const Position pos = Parse("turn=red red=a1,c1,a2,c2 blue=a3,c3,a4,c4 " +
                             ("red-walls=" + RowWalls({1, 2, 4})));
  EXPECT_TRUE(IsGameOver(pos));
  const Result result = ComputeResult(pos);
  EXPECT_EQ(result.sheet.score[0], 14);
  EXPECT_EQ(result.sheet.score[1], 14);
  EXPECT_EQ(result.sheet.largest_region[0], 7);
  EXPECT_EQ(result.sheet.largest_region[1], 14);
  EXPECT_EQ(result.winners, 1u << Index(Colour::kBlue));
}

TEST(RulesTest, EqualScoreAndLargestRegionIsADraw) {
  // Bands: rows 1-2 (14) red, rows 3-4 (14) blue, rows 5-7 empty.
  const Position pos = Parse("turn=red red=a1,c1,a2,c2 blue=a3,c3,a4,c4 " +
                             ("red-walls=" + RowWalls({2, 4})));
  EXPECT_TRUE(IsGameOver(pos));
  const Result result = ComputeResult(pos);
  EXPECT_EQ(result.sheet.score[0], 14);
  EXPECT_EQ(result.sheet.score[1], 14);
  EXPECT_TRUE(result.is_draw());
  EXPECT_EQ(result.winners, 0b11u);
}

TEST(RulesTest, ThreePlayersTiedAtTheTopShareTheDraw) {
  // Rows 1-2 red (14), rows 3-4 blue (14), row 5 green (7), rows 6-7 empty.
  const Position pos =
      Parse("players=3 turn=red red=a1,a2 blue=a3,a4 green=a5,c5 " +
            ("blue-walls=" + RowWalls({2, 4, 5})));
  EXPECT_TRUE(IsGameOver(pos));
  const Result result = ComputeResult(pos);
  EXPECT_EQ(result.sheet.score[Index(Colour::kGreen)], 7);
  EXPECT_TRUE(result.is_draw());
  EXPECT_EQ(result.winners, 0b011u);
}

std::set<std::string> BreakMoves(const Position& pos) {
  std::set<std::string> out;
  for (const std::string& m : EngineMoveNames(pos)) {
    if (m.find('x') != std::string::npos) out.insert(m);
  }
  return out;
}

TEST(RulesTest, WallBreakerRemovesAWallOncePerGame) {
  Position pos = Parse(
      "players=3 turn=red red=d4,a1 blue=g1,g7 green=a7,g4 blue-walls=d4n");
  EXPECT_EQ(pos.breakers_left(Colour::kRed), 1);
  // d5 is behind the wall and out of reach: only d4 touches it.
  EXPECT_EQ(BreakMoves(pos), (std::set<std::string>{"d4d4xn"}));
  PlayAll(pos, {"d4d4xn"});
  EXPECT_EQ(pos.walls(), WallMasks{});
  EXPECT_EQ(pos.walls_on_board(Colour::kBlue), 0);
  EXPECT_EQ(pos.breakers_left(Colour::kRed), 0);
  EXPECT_EQ(pos.breakers_left(Colour::kBlue), 1);
  EXPECT_EQ(pos.to_move(), Colour::kBlue);

  PlayAll(pos, {"g1g2n", "g4g4w"});  // blue and green build
  ASSERT_EQ(pos.to_move(), Colour::kRed);
  // Red could reach g4's west edge (f4e) from d4 but its breaker is spent.
  EXPECT_TRUE(BreakMoves(pos).empty());
  EXPECT_FALSE(CheckMove(pos, Colour::kRed, MoveOf("d4f4xe")).ok());
  EXPECT_FALSE(CheckMove(pos, Colour::kRed, MoveOf("d4f4e")).ok());  // walled
  PlayAll(pos, {"d4e4n"});
  ASSERT_EQ(pos.to_move(), Colour::kBlue);
  EXPECT_TRUE(BreakMoves(pos).contains("g2g2xn"));  // blue still has one
}

TEST(RulesTest, NoBreakersInTwoPlayerGamesOrWithBreakersZero) {
  const Position two =
      Parse("turn=red red=d4,a1,a3,a5 blue=g1,g3,g5,g7 blue-walls=d4n");
  EXPECT_EQ(two.breakers_left(Colour::kRed), 0);
  EXPECT_TRUE(BreakMoves(two).empty());
  const Position three = Parse(
      "players=3 breakers=0 turn=red red=d4,a1 blue=g1,g7 green=a7,g4 "
      "blue-walls=d4n");
  EXPECT_TRUE(BreakMoves(three).empty());
  EXPECT_FALSE(CheckMove(three, Colour::kRed, MoveOf("d4d4xn")).ok());
}

TEST(RulesTest, FourPlayerBreakersAreOncePerPlayer) {
  Position pos = Parse(
      "players=4 turn=yellow red=a1,a2 blue=g1,g2 green=a7,a6 yellow=d4,g7 "
      "red-walls=d4n,d4e green-walls=b1n");
  EXPECT_EQ(BreakMoves(pos), (std::set<std::string>{"d4d4xn", "d4d4xe"}));
  PlayAll(pos, {"d4d4xe"});
  EXPECT_EQ(pos.breakers_left(Colour::kYellow), 0);
  EXPECT_EQ(pos.walls_on_board(Colour::kRed), 1);
  // Red reaches b1's north edge; its own breaker is still there.
  ASSERT_EQ(pos.to_move(), Colour::kRed);
  EXPECT_TRUE(BreakMoves(pos).contains("a1b1xn"));
  PlayAll(pos, {"a1b1xn", "g1g1n", "a7a7e"});
  ASSERT_EQ(pos.to_move(), Colour::kYellow);
  EXPECT_TRUE(BreakMoves(pos).empty());
  EXPECT_TRUE(EngineMoveNames(pos).contains("d4d4e"));  // free again
}

TEST(RulesTest, BrokenWallsNoLongerCountAgainstTheirBuildersLimit) {
  // types.h: the wall limit counts the walls a player has on the board.
  Position pos = Parse(
      "players=3 wall-limit=1 turn=red red=d4,a1 blue=g1,g7 green=a7,g4 "
      "red-walls=b6n blue-walls=d4n");
  EXPECT_EQ(pos.walls_left(Colour::kRed), 0);
  EXPECT_EQ(pos.walls_left(Colour::kBlue), 0);
  // Out of walls, red can still break: a break builds nothing.
  EXPECT_TRUE(HasLegalTurn(pos, Colour::kRed));
  EXPECT_EQ(BreakMoves(pos), (std::set<std::string>{"d4d4xn"}));
  PlayAll(pos, {"d4d4xn"});
  EXPECT_EQ(pos.walls_left(Colour::kBlue), 1);
  EXPECT_TRUE(EngineMoveNames(pos).contains("g1g1n"));
}

TEST(RulesTest, WallLimitZeroEndsTheGameAfterTheSetup) {
  Rules rules = Rules::Default(2);
  rules.wall_limit = 0;
  Position pos = StartOf(rules);
  PlayAll(pos, {"c3", "e3", "c5"});
  EXPECT_FALSE(IsGameOver(pos));
  PlayAll(pos, {"e5"});
  EXPECT_FALSE(pos.in_setup());
  EXPECT_TRUE(IsGameOver(pos));  // nobody can build: no legal turn for anyone
  EXPECT_EQ(CountMoves(pos), 0);
  EXPECT_TRUE(ComputeResult(pos).is_draw());
}

struct SetupCase {
  const char* name;
  Rules rules;
  std::vector<Colour> order;
};

std::vector<SetupCase> SetupCases() {
  using enum Colour;
  Rules empty2 = Rules::Default(2);
  empty2.setup = SetupRule::kEmpty;
  return {
      {"2p fourstone", Rules::Default(2), {kRed, kBlue, kBlue, kRed}},
      {"2p empty",
       empty2,
       {kRed, kBlue, kBlue, kRed, kRed, kBlue, kBlue, kRed}},
      {"3p", Rules::Default(3), {kRed, kBlue, kGreen, kGreen, kBlue, kRed}},
      {"4p",
       Rules::Default(4),
       {kRed, kBlue, kGreen, kYellow, kYellow, kGreen, kBlue, kRed}},
  };
}

TEST(RulesTest, PlacementOrdersOfAllSetups) {
  for (const SetupCase& c : SetupCases()) {
    SCOPED_TRACE(c.name);
    Position pos = StartOf(c.rules);
    ASSERT_EQ(Position::TotalPlacements(c.rules),
              static_cast<int>(c.order.size()));
    for (size_t i = 0; i < c.order.size(); ++i) {
      ASSERT_TRUE(pos.in_setup());
      EXPECT_EQ(Position::PlacerAt(c.rules, static_cast<int>(i)), c.order[i]);
      ASSERT_EQ(pos.to_move(), c.order[i]) << "placement " << i;
      EXPECT_FALSE(IsGameOver(pos));
      // Place on the lowest empty cell.
      const Move place = Move::Place(LowestCell(~pos.occupied() & kAllCells));
      ASSERT_TRUE(CheckMove(pos, c.order[i], place).ok());
      pos.Play(place);
    }
    EXPECT_FALSE(pos.in_setup());
    EXPECT_EQ(pos.to_move(), Colour::kRed);
    for (int p = 0; p < c.rules.players; ++p) {
      EXPECT_EQ(PopCount(pos.stones(ColourAt(p))),
                c.rules.players == 2 ? 4 : 2);
    }
  }
}

TEST(RulesTest, FourStoneSetupStartsWithTheShowsStones) {
  const Position pos = StartOf(Rules::Default(2));
  EXPECT_EQ(pos.stones(Colour::kRed), CellsAt({"b2", "f6"}));
  EXPECT_EQ(pos.stones(Colour::kBlue), CellsAt({"b6", "f2"}));
  EXPECT_EQ(EngineMoveNames(pos).size(), 45u);  // placements on empty cells
  Rules empty = Rules::Default(2);
  empty.setup = SetupRule::kEmpty;
  EXPECT_EQ(StartOf(empty).occupied(), Bitboard{0});
  EXPECT_EQ(StartOf(Rules::Default(4)).occupied(), Bitboard{0});
}

TEST(RulesTest, PlacementOnAnOccupiedCellIsIllegal) {
  const Position pos = StartOf(Rules::Default(2));
  EXPECT_FALSE(CheckMove(pos, Colour::kRed, MoveOf("b2")).ok());
  EXPECT_FALSE(CheckMove(pos, Colour::kRed, MoveOf("b2b2n")).ok());
  EXPECT_FALSE(CheckMove(pos, Colour::kRed, Move::Pass()).ok());
  EXPECT_TRUE(CheckMove(pos, Colour::kRed, MoveOf("d4")).ok());
}

// CheckMove's verdict on an illegal move: a non-OK status whose message
// names what is wrong.
void ExpectIllegal(const Position& pos, Colour colour, Move move,
                   std::initializer_list<absl::string_view> mentions) {
  const absl::Status status = CheckMove(pos, colour, move);
  ASSERT_FALSE(status.ok()) << MoveName(move);
  for (absl::string_view word : mentions) {
    EXPECT_NE(status.message().find(word), absl::string_view::npos)
        << MoveName(move) << ": \"" << status.message() << "\" should mention "
        << word;
  }
}

TEST(RulesTest, CheckMoveExplainsIllegalMoves) {
  const Position pos =
      Parse("turn=red red=d4,a1,a3,a5 blue=d6,g3,g5,g7 red-walls=d4e");
  using enum Colour;
  EXPECT_TRUE(CheckMove(pos, kRed, MoveOf("d4e5n")).ok());
  ExpectIllegal(pos, kBlue, MoveOf("g3g4n"), {"turn"});  // wrong turn
  ExpectIllegal(pos, kRed, MoveOf("b4b5n"), {"b4"});     // no red stone on b4
  ExpectIllegal(pos, kRed, MoveOf("g3g4n"), {"g3"});     // blue's stone
  ExpectIllegal(pos, kRed, MoveOf("d4e4n"), {"e4"});     // path walled off
  ExpectIllegal(pos, kRed, MoveOf("d4f4n"), {"f4"});     // too far
  ExpectIllegal(pos, kRed, MoveOf("d4d6n"), {"d6"});     // occupied destination
  ExpectIllegal(pos, kRed, MoveOf("d4d4e"), {"d4e"});    // wall already there
  ExpectIllegal(pos, kRed, Move::Turn(CellAt("a1"), CellAt("a1"), Side::kWest),
                {"rim"});                                 // the board's rim
  ExpectIllegal(pos, kRed, MoveOf("pass"), {"pass"});     // a turn exists
  ExpectIllegal(pos, kRed, MoveOf("d4d4xe"), {"break"});  // no breakers in 2p
}

TEST(RulesTest, NoMoveIsLegalOnceTheGameIsOver) {
  Position pos = Parse(kAlmostSplit);
  PlayAll(pos, {"b4c4e"});
  ASSERT_TRUE(IsGameOver(pos));
  EXPECT_FALSE(CheckMove(pos, Colour::kBlue, MoveOf("g1g2n")).ok());
  EXPECT_FALSE(CheckMove(pos, Colour::kBlue, Move::Pass()).ok());
}

TEST(RulesTest, GameRejectsIllegalMovesAndUndoes) {
  absl::StatusOr<Game> game = Game::New(Rules::Default(2));
  ASSERT_TRUE(game.ok());
  EXPECT_EQ(game->Undo().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(game->Play(Colour::kBlue, MoveOf("d4")).ok());
  EXPECT_EQ(game->position(), game->start());
  ASSERT_TRUE(game->Play(Colour::kRed, MoveOf("d4")).ok());
  EXPECT_EQ(game->position().to_move(), Colour::kBlue);
  ASSERT_TRUE(game->Undo().ok());
  EXPECT_EQ(game->position(), game->start());
}

TEST(RulesTest, CheckMoveRejectsCellsOffTheBoard) {
  const Position pos = Parse("turn=red red=d4,a1,a3,a5 blue=g1,g3,g5,g7");
  const int d4 = CellAt("d4");
  for (int cell : {49, 55, 63, 64, 200, 255}) {
    EXPECT_FALSE(
        CheckMove(pos, Colour::kRed, Move::Turn(cell, d4, Side::kNorth)).ok());
    EXPECT_FALSE(
        CheckMove(pos, Colour::kRed, Move::Turn(d4, cell, Side::kNorth)).ok());
    EXPECT_FALSE(
        CheckMove(pos, Colour::kRed, Move::Break(d4, cell, Side::kWest)).ok());
  }
  const Position setup = StartOf(Rules::Default(2));
  for (int cell : {49, 63, 64, 255}) {
    EXPECT_FALSE(CheckMove(setup, Colour::kRed, Move::Place(cell)).ok());
  }
}

TEST(RulesTest, ResignationInAThreePlayerGameLeavesTheOthersToShare) {
  absl::StatusOr<Game> game = Game::New(Rules::Default(3));
  ASSERT_TRUE(game.ok());
  ASSERT_TRUE(game->Play(Colour::kRed, Move::Resign()).ok());
  EXPECT_TRUE(game->is_over());
  EXPECT_EQ(game->resigned(), Colour::kRed);
  // Nobody owns anything yet: the two others share the draw.
  EXPECT_EQ(game->result().winners, 0b110u);
  EXPECT_EQ(game->Play(Colour::kBlue, MoveOf("d4")).code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(RulesTest, ResignationEndsTheGameForTheOpponent) {
  absl::StatusOr<Game> game = Game::New(Rules::Default(2));
  ASSERT_TRUE(game.ok());
  ASSERT_TRUE(game->Play(Colour::kRed, Move::Resign()).ok());
  EXPECT_TRUE(game->is_over());
  EXPECT_EQ(game->result().winners, 1u << Index(Colour::kBlue));
  ASSERT_TRUE(game->Undo().ok());
  EXPECT_FALSE(game->is_over());
}

}  // namespace
}  // namespace wallgo
