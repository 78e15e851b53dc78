// Invariants that must hold on every position of random games: the
// incremental hash, undo, termination, walls that only grow, the round trips
// of positions and moves through their text forms, and scores that add up
// over regions.
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "tests/engine/test_support.h"

namespace wallgo {
namespace {

constexpr int kGamesPerVariant = 40 / testing::kWorkDivisor;

// A bound on the length of any game (docs/rules.md): every turn but a pass adds
// a wall (at most 84 on the board) or spends a breaker, which removes one, and
// at most players - 1 passes come in a row (someone still has a turn).
int MaxGameLength(const Rules& rules) {
  const int breaks = rules.players * rules.breakers;
  const int non_pass_turns = 84 + 2 * breaks;
  return Position::TotalPlacements(rules) +
         (non_pass_turns + 1) * rules.players;
}

int WallCount(const WallMasks& w) {
  return PopCount(w.north) + PopCount(w.east);
}

void ExpectTextRoundTrips(const Position& pos) {
  const std::string text = PositionString(pos);
  absl::StatusOr<Position> parsed = ParsePosition(text);
  ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status();
  EXPECT_TRUE(*parsed == pos) << text;
  EXPECT_EQ(parsed->hash(), pos.hash()) << text;
  EXPECT_EQ(PositionString(*parsed), text);
  absl::StatusOr<Position> rebuilt = Position::FromParts(pos.ToParts());
  ASSERT_TRUE(rebuilt.ok()) << text << ": " << rebuilt.status();
  EXPECT_TRUE(*rebuilt == pos) << text;
}

void ExpectMoveNamesRoundTrip(const Position& pos) {
  MoveList moves;
  GenerateMoves(pos, moves);
  for (const Move& m : moves) {
    const std::string name = MoveName(m);
    absl::StatusOr<Move> parsed = ParseMove(name);
    ASSERT_TRUE(parsed.ok()) << name;
    EXPECT_EQ(*parsed, m) << name;
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(c));
    EXPECT_EQ(ParseMove(upper).value_or(Move::Resign()), m) << upper;
  }
}

// CheckMove accepts exactly the generated moves, for every from/to/side
// combination of the side to move's stones, and nothing for other colours.
void ExpectCheckMoveMatchesGeneration(const Position& pos) {
  SCOPED_TRACE(PositionString(pos));
  MoveList moves;
  GenerateMoves(pos, moves);
  std::set<uint32_t> legal;
  for (const Move& m : moves) legal.insert(m.Code());
  std::vector<Move> candidates = {Move::Pass()};
  for (int to = 0; to < kNumCells; ++to) candidates.push_back(Move::Place(to));
  for (Bitboard s = pos.stones(pos.to_move()); s; s = PopLowest(s)) {
    for (int to = 0; to < kNumCells; ++to) {
      for (int side = 0; side < kNumSides; ++side) {
        const Side sd = static_cast<Side>(side);
        candidates.push_back(Move::Turn(LowestCell(s), to, sd));
        candidates.push_back(Move::Break(LowestCell(s), to, sd));
      }
    }
  }
  for (const Move& m : candidates) {
    EXPECT_EQ(CheckMove(pos, pos.to_move(), m).ok(), legal.contains(m.Code()))
        << MoveName(m);
  }
  const Colour other = ColourAt((Index(pos.to_move()) + 1) % pos.num_players());
  for (const Move& m : moves) {
    EXPECT_FALSE(CheckMove(pos, other, m).ok()) << MoveName(m);
  }
}

// The score sheets of two sets of whole regions add up to the board's.
void ExpectScoresAddUpOverRegions(const Position& pos) {
  const Regions regions = FindRegions(pos.walls());
  Bitboard every_other = 0;
  for (int r = 0; r < regions.count; r += 2) every_other |= regions.masks[r];
  ScoreSheet sum = ComputeScoresAt(pos, every_other);
  sum.Add(ComputeScoresAt(pos, ~every_other));
  const ScoreSheet whole = ComputeScores(pos);
  EXPECT_EQ(sum.score, whole.score) << PositionString(pos);
  EXPECT_EQ(sum.largest_region, whole.largest_region) << PositionString(pos);
}

class InvariantsTest : public ::testing::TestWithParam<testing::Variant> {};

TEST_P(InvariantsTest, RandomGamesKeepTheInvariants) {
  const Rules& rules = GetParam().rules;
  std::mt19937_64 rng(testing::SeedFor("invariants " + GetParam().name));
  const int max_length = MaxGameLength(rules);
  for (int g = 0; g < kGamesPerVariant && !HasFailure(); ++g) {
    absl::StatusOr<Game> game = Game::New(rules);
    ASSERT_TRUE(game.ok());
    std::vector<Position> seen = {game->position()};
    while (!game->is_over()) {
      ASSERT_LT(static_cast<int>(game->moves().size()), max_length);
      const Position before = game->position();
      const Move move = testing::RandomMove(before, rng);
      ASSERT_TRUE(game->Play(before.to_move(), move).ok()) << MoveName(move);
      const Position& after = game->position();
      ASSERT_EQ(after.hash(), after.ComputeHash()) << PositionString(after);
      EXPECT_NE(after.hash(), before.hash()) << MoveName(move);
      if (rules.breakers == 0) {
        EXPECT_EQ(after.walls().north & before.walls().north,
                  before.walls().north);
        EXPECT_EQ(after.walls().east & before.walls().east,
                  before.walls().east);
        EXPECT_EQ(
            WallCount(after.walls()),
            WallCount(before.walls()) + (move.kind == MoveKind::kTurn ? 1 : 0));
      }
      for (int p = 0; p < rules.players; ++p) {
        EXPECT_LE(after.breakers_left(ColourAt(p)),
                  before.breakers_left(ColourAt(p)));
      }
      seen.push_back(after);
      if (seen.size() % 4 == 0) {
        ExpectTextRoundTrips(after);
        ExpectMoveNamesRoundTrip(after);
        ExpectScoresAddUpOverRegions(after);
      }
      if (seen.size() % 16 == 0) ExpectCheckMoveMatchesGeneration(after);
    }
    EXPECT_FALSE(game->Play(game->position().to_move(), Move::Pass()).ok());
    // Undo all the way back, checking every position on the way.
    for (size_t i = seen.size() - 1; i > 0; --i) {
      ASSERT_TRUE(game->Undo().ok());
      ASSERT_TRUE(game->position() == seen[i - 1]) << "undo to move " << i - 1;
      ASSERT_EQ(game->position().hash(), seen[i - 1].hash());
    }
    EXPECT_FALSE(game->Undo().ok());
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, InvariantsTest,
                         ::testing::ValuesIn(testing::Variants()),
                         testing::VariantTestName);

TEST(InvariantsTest, TwoPlayerGamesNeverRepeatAPosition) {
  std::mt19937_64 rng(testing::SeedFor("no repeats"));
  for (int g = 0; g < 20 / testing::kWorkDivisor; ++g) {
    std::set<uint64_t> hashes;
    testing::PlayRandomGame(
        Rules::Default(2), rng, 1000, [&](const Position& pos) {
          EXPECT_TRUE(hashes.insert(pos.hash()).second) << PositionString(pos);
        });
  }
}

TEST(InvariantsTest, PositionsDifferingInOneFieldHaveDifferentHashes) {
  const Position a =
      testing::Parse("turn=red red=d4,a1,a3,a5 blue=g1,g3,g5,g7");
  const Position b =
      testing::Parse("turn=blue red=d4,a1,a3,a5 blue=g1,g3,g5,g7");
  const Position c =
      testing::Parse("turn=red red=d4,a1,a3,a5 blue=g1,g3,g5,g7 red-walls=d4n");
  const Position d = testing::Parse(
      "turn=red red=d4,a1,a3,a5 blue=g1,g3,g5,g7 blue-walls=d4n");
  EXPECT_FALSE(a == b);
  EXPECT_FALSE(c == d);
  const std::set<uint64_t> hashes = {a.hash(), b.hash(), c.hash(), d.hash()};
  EXPECT_EQ(hashes.size(), 4u);
  for (const Position& p : {a, b, c, d}) EXPECT_EQ(p.hash(), p.ComputeHash());
}

}  // namespace
}  // namespace wallgo
