// The text forms of docs/protocol.md: names print lowercase, parse in any case,
// round-trip, accept the non-canonical edge forms and reject malformed input.
#include "engine/notation.h"

#include <string>

#include "engine/movegen.h"
#include "gtest/gtest.h"
#include "tests/engine/test_support.h"

namespace wallgo {
namespace {

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(c));
  return text;
}

TEST(NotationTest, CellsRoundTripInBothCases) {
  EXPECT_EQ(CellName(CellOf(0, 0)), "a1");
  EXPECT_EQ(CellName(CellOf(6, 6)), "g7");
  EXPECT_EQ(CellName(CellOf(2, 2)), "c3");
  EXPECT_EQ(CellName(CellOf(6, 0)), "g1");
  for (int cell = 0; cell < kNumCells; ++cell) {
    const std::string name = CellName(cell);
    EXPECT_EQ(ParseCell(name).value_or(-1), cell) << name;
    EXPECT_EQ(ParseCell(Upper(name)).value_or(-1), cell) << name;
  }
}

TEST(NotationTest, MalformedCellsAreRejected) {
  for (const char* bad :
       {"h1", "a0", "a8", "", "c", "3c", "c33", "c3 ", "aa"}) {
    EXPECT_FALSE(ParseCell(bad).ok()) << '"' << bad << '"';
  }
}

TEST(NotationTest, EdgesRoundTripAndAcceptEveryNaming) {
  int interior = 0;
  for (int cell = 0; cell < kNumCells; ++cell) {
    for (int s = 0; s < kNumSides; ++s) {
      const Side side = static_cast<Side>(s);
      const EdgeOrRim edge = EdgeAt(cell, side);
      const std::string name = CellName(cell) + SideLetter(side);
      if (!edge.valid) {
        EXPECT_FALSE(ParseEdge(name).ok()) << name << " is the rim";
        continue;
      }
      ++interior;
      EXPECT_EQ(ParseEdge(name).value_or(Edge{}), edge.edge) << name;
      EXPECT_EQ(ParseEdge(Upper(name)).value_or(Edge{}), edge.edge) << name;
      const std::string canonical = EdgeName(edge.edge);
      EXPECT_TRUE(canonical.back() == 'n' || canonical.back() == 'e');
      EXPECT_EQ(ParseEdge(canonical).value_or(Edge{}), edge.edge) << name;
    }
  }
  EXPECT_EQ(interior, 2 * 84);  // each interior edge seen from both cells
}

TEST(NotationTest, NonCanonicalEdgeNamesMeanTheSameEdge) {
  EXPECT_EQ(ParseEdge("c4s").value(), ParseEdge("c3n").value());
  EXPECT_EQ(ParseEdge("d3w").value(), ParseEdge("c3e").value());
  EXPECT_EQ(EdgeName(ParseEdge("c4s").value()), "c3n");
  EXPECT_EQ(EdgeName(ParseEdge("D3W").value()), "c3e");
  for (const char* bad : {"c3", "c3x", "h3n", "c3ne", "", "a1w", "g7n"}) {
    EXPECT_FALSE(ParseEdge(bad).ok()) << '"' << bad << '"';
  }
}

TEST(NotationTest, SidesAndColours) {
  for (int s = 0; s < kNumSides; ++s) {
    const Side side = static_cast<Side>(s);
    EXPECT_EQ(ParseSide(SideLetter(side)).value(), side);
    EXPECT_EQ(
        ParseSide(static_cast<char>(std::toupper(SideLetter(side)))).value(),
        side);
  }
  EXPECT_EQ(std::string("nesw"),
            std::string({SideLetter(Side::kNorth), SideLetter(Side::kEast),
                         SideLetter(Side::kSouth), SideLetter(Side::kWest)}));
  EXPECT_FALSE(ParseSide('x').ok());
  const char* names[] = {"red", "blue", "green", "yellow"};
  for (int i = 0; i < kMaxPlayers; ++i) {
    EXPECT_EQ(ColourName(ColourAt(i)), names[i]);
    EXPECT_EQ(ParseColour(names[i]).value(), ColourAt(i));
    EXPECT_EQ(ParseColour(std::string(1, names[i][0])).value(), ColourAt(i));
    EXPECT_EQ(ParseColour(Upper(names[i])).value(), ColourAt(i));
  }
  for (const char* bad : {"", "purple", "re", "x", "redd"}) {
    EXPECT_FALSE(ParseColour(bad).ok()) << '"' << bad << '"';
  }
}

TEST(NotationTest, MovesParseInAnyCaseAndPrintLowercase) {
  const int c3 = CellOf(2, 2), c4 = CellOf(2, 3), c5 = CellOf(2, 4);
  EXPECT_EQ(ParseMove("C3C5N").value(), Move::Turn(c3, c5, Side::kNorth));
  EXPECT_EQ(ParseMove("c3c3e").value(), Move::Turn(c3, c3, Side::kEast));
  EXPECT_EQ(ParseMove("c3c4xw").value(), Move::Break(c3, c4, Side::kWest));
  EXPECT_EQ(ParseMove("d4").value(), Move::Place(CellOf(3, 3)));
  EXPECT_EQ(ParseMove("PASS").value(), Move::Pass());
  EXPECT_EQ(ParseMove("resign").value(), Move::Resign());
  EXPECT_EQ(MoveName(Move::Turn(c3, c5, Side::kNorth)), "c3c5n");
  EXPECT_EQ(MoveName(Move::Break(c3, c4, Side::kWest)), "c3c4xw");
  EXPECT_EQ(MoveName(Move::Place(CellOf(3, 3))), "d4");
  EXPECT_EQ(MoveName(Move::Pass()), "pass");
  EXPECT_EQ(MoveName(Move::Resign()), "resign");
  // The side is the destination's: c5's south edge, not c4's north.
  EXPECT_EQ(ParseMove("c3c5s").value(), Move::Turn(c3, c5, Side::kSouth));
}

TEST(NotationTest, MalformedMovesAreRejected) {
  for (const char* bad :
       {"", "h1", "a0", "c3c5q", "c3c5", "c3c5nn", "c3c5xx", "c3c5x", "c3h5n",
        "pas", "passs", "c3-c5n", "d44", "c3c5 n"}) {
    EXPECT_FALSE(ParseMove(bad).ok()) << '"' << bad << '"';
  }
}

TEST(NotationTest, WallsOnTheRimParseButAreNeverLegal) {
  // ParseMove checks syntax only (notation.h), so that `play` can say why a
  // move is illegal; CheckMove names the rim.
  const Position pos =
      testing::Parse("turn=red red=c3,e5,a1,f7 blue=b6,f2,c5,e3");
  for (const char* text : {"c3g7n", "f7f7n", "f7g7e", "a1a1w", "a1a1s"}) {
    const absl::StatusOr<Move> move = ParseMove(text);
    ASSERT_TRUE(move.ok()) << text;
    const absl::Status status = CheckMove(pos, Colour::kRed, *move);
    ASSERT_FALSE(status.ok()) << text;
    if (std::string(text) != "c3g7n") {  // c3g7n is also out of reach
      EXPECT_NE(status.message().find("rim"), absl::string_view::npos)
          << status;
    }
  }
  EXPECT_FALSE(ParseEdge("g7n").ok());
}

TEST(NotationTest, RulesRoundTripAndDefaults) {
  for (const testing::Variant& v : testing::Variants()) {
    const std::string text = RulesString(v.rules);
    EXPECT_EQ(ParseRules(text).value_or(Rules{}), v.rules) << text;
  }
  EXPECT_EQ(RulesString(Rules::Default(2)),
            "players=2 setup=fourstone stay=always wall-limit=unlimited "
            "breakers=0");
  EXPECT_EQ(ParseRules("").value(), Rules::Default(2));
  EXPECT_EQ(ParseRules("players=3").value(), Rules::Default(3));
  EXPECT_EQ(ParseRules("PLAYERS=4").value(), Rules::Default(4));
  EXPECT_EQ(ParseRules("wall-limit=20").value().wall_limit, 20);
  EXPECT_EQ(ParseRules("stay=mobile").value().stay, StayRule::kMobile);
  EXPECT_EQ(ParseRules("players=3 breakers=0").value().breakers, 0);
}

TEST(NotationTest, MalformedRulesAreRejected) {
  for (const char* bad :
       {"players=5", "players=1", "players=", "players", "setup=full",
        "stay=sometimes", "wall-limit=-3", "wall-limit=many", "breakers=2",
        "players=2 breakers=1", "colour=red", "players=2 players"}) {
    EXPECT_FALSE(ParseRules(bad).ok()) << '"' << bad << '"';
  }
}

TEST(NotationTest, PositionStringsRoundTrip) {
  for (const testing::Variant& v : testing::Variants()) {
    const Position start = testing::StartOf(v.rules);
    const std::string text = PositionString(start);
    SCOPED_TRACE(text);
    EXPECT_TRUE(text.starts_with(RulesString(v.rules)));
    const Position parsed = testing::Parse(text);
    EXPECT_TRUE(parsed == start);
    EXPECT_EQ(PositionString(parsed), text);
  }
  const Position pos = testing::Parse(
      "PLAYERS=2 Turn=Blue red=B2,f6,c3,e5 blue=b6,f2,c5,e3 red-walls=C4S");
  EXPECT_EQ(pos.to_move(), Colour::kBlue);
  EXPECT_EQ(pos.walls_of(Colour::kRed).north, CellBit(CellOf(2, 2)));
  EXPECT_EQ(pos.placements_done(), 4);
  EXPECT_FALSE(pos.in_setup());
  EXPECT_EQ(PositionString(testing::Parse(PositionString(pos))),
            PositionString(pos));
}

TEST(NotationTest, ImpossiblePositionsAreRejected) {
  for (const char* bad : {
           "players=5",
           "red=a1,a1",
           "red=a1 blue=a1",
           "red=a1,a2,a3,a4,a5",                              // too many stones
           "red=a1,a2,a3,a4 blue=b1,b2,b3,b4 red-walls=a1w",  // rim
           "red=a1,a2,a3,a4 blue=b1,b2,b3,b4 red-walls=c3n blue-walls=c4s",
           "green=a1",  // no green in a 2-player game
           "turn=green",
           "turn=purple",
           "red=h1",
           "colour=red",
           "wall-limit=1 red=a1,a2,a3,a4 blue=b1,b2,b3,b4 red-walls=c3n,d3n",
           "players=3 red-breakers=2",
       }) {
    absl::StatusOr<Position> pos = ParsePosition(bad);
    EXPECT_FALSE(pos.ok()) << '"' << bad << '"';
  }
}

}  // namespace
}  // namespace wallgo
