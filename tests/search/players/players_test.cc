// The random, greedy and alpha-beta players: tactics in constructed
// positions, legal moves in every variant, determinism, stopping.
#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "search/classic/eval.h"
#include "search/players/alphabeta.h"
#include "search/players/greedy.h"
#include "tests/engine/test_support.h"

namespace wallgo::search {
namespace {

using testing::Parse;

SearchOptions Seeded(uint64_t seed) {
  SearchOptions options = ClassicProfile();
  options.seed = seed;
  return options;
}

// Alpha-beta capped by nodes rather than time, so it is reproducible.
SearchOptions NodeCapped(int64_t nodes) {
  SearchOptions options = ClassicProfile();
  options.visits = nodes;
  options.hash_mb = 4;
  return options;
}

Move Best(Searcher& player, const Position& pos) {
  return player.Search(pos, {}, nullptr, 1).best;
}

TEST(GreedyPlayerTest, ClosesTheOneGapThatWinsTheGame) {
  // Red's 28 cells and blue's 21 meet only at d4e; d3 can step to d4 and
  // wall its east side, which ends the game with red ahead.
  const Position pos = Parse(
      "players=2 setup=empty turn=red red=a1,b4,c2,d3 blue=e3,f5,g7,g1"
      " red-walls=d1e,d2e,d3e,d5e,d6e,d7e");
  ASSERT_FALSE(IsGameOver(pos));
  GreedyPlayer greedy(Seeded(1));
  const Move move = Best(greedy, pos);
  Position next = pos;
  next.Play(move);
  EXPECT_TRUE(IsGameOver(next)) << MoveName(move);
  EXPECT_EQ(ComputeResult(next).winners, 1u) << MoveName(move);
}

// Gaps at d2e and d6e, each plugged by a red stone that blue cannot pass:
// no single wall ends the game, but closing either gap now and the other
// next turn wins whatever blue does in between.
// Both fence positions below have no move that ends the game at once.
void ExpectNoWinInOne(const Position& pos) {
  MoveList moves;
  GenerateMoves(pos, moves);
  for (const Move& m : moves) {
    Position next = pos;
    next.Play(m);
    ASSERT_FALSE(IsGameOver(next)) << MoveName(m);
  }
}

// The winning plan starts by walling one of the fence's gaps, d2e or d6e.
bool ClosesGapD2eOrD6e(const Position& pos, Move move) {
  Position next = pos;
  next.Play(move);
  const WallMasks& walls = next.walls();
  return (walls.east & CellBit(CellOf(3, 1))) ||
         (walls.east & CellBit(CellOf(3, 5)));
}

constexpr char kTwoGaps[] =
    "players=2 setup=empty turn=red red=a1,b4,d2,d6 blue=e3,f5,g7,g1"
    " red-walls=d1e,d3e,d4e,d5e,d7e";

TEST(AlphaBetaPlayerTest, FindsAWinTwoTurnsDeep) {
  const Position pos = Parse(kTwoGaps);
  ExpectNoWinInOne(pos);
  AlphaBetaPlayer player(NodeCapped(2'000'000));
  const SearchResult result = player.Search(pos, {}, nullptr, 1);
  EXPECT_GE(player.completed_depth(), 3);
  EXPECT_EQ(result.info.candidates.front().winrate, 1);
  EXPECT_TRUE(ClosesGapD2eOrD6e(pos, result.best)) << MoveName(result.best);
}

// Three players, no breakers: red's two stones plug the gaps d2e and d6e of
// a fence between columns d and e; right of it, blue holds the top (rows
// 5-7, 9 cells) and green the bottom (12 cells). Closing one gap now and the
// other on red's next turn settles every region with red on 28, whatever
// blue and green do in between, and no single wall does it now.
TEST(AlphaBetaPlayerTest, FindsAWinARoundDeepWithThreePlayers) {
  const Position pos = Parse(
      "players=3 breakers=0 turn=red red=d2,d6 blue=f6,g7 green=f2,g1"
      " red-walls=d1e,d3e,d4e,d5e,d7e,e4n,f4n,g4n");
  ExpectNoWinInOne(pos);
  AlphaBetaPlayer player(NodeCapped(2'000'000));
  const SearchResult result = player.Search(pos, {}, nullptr, 1);
  EXPECT_GE(player.completed_depth(), 4);
  EXPECT_EQ(result.info.candidates.front().winrate, 1);
  EXPECT_TRUE(ClosesGapD2eOrD6e(pos, result.best)) << MoveName(result.best);
}

// Each player's move is legal at positions along random games of every
// variant: setup, play, passes, breakers, 3-4 players.
class EveryVariantTest : public ::testing::TestWithParam<testing::Variant> {};

TEST_P(EveryVariantTest, PlayersReturnLegalMoves) {
  std::mt19937_64 rng(testing::SeedFor(GetParam().name));
  std::vector<std::unique_ptr<Searcher>> players;
  players.push_back(std::make_unique<RandomPlayer>(Seeded(1)));
  players.push_back(std::make_unique<GreedyPlayer>(Seeded(2)));
  players.push_back(std::make_unique<AlphaBetaPlayer>(NodeCapped(400)));
  int checked = 0;
  // One game under the sanitizers, which run several times slower.
  const int games = std::max(1, 3 / testing::kWorkDivisor);
  for (int game = 0; game < games; ++game) {
    testing::PlayRandomGame(
        GetParam().rules, rng, 200, [&](const Position& pos) {
          if (IsGameOver(pos)) return;
          for (auto& player : players) {
            const Move move = Best(*player, pos);
            ASSERT_TRUE(CheckMove(pos, pos.to_move(), move).ok())
                << MoveName(move) << " in " << PositionString(pos);
            ASSERT_NE(move.kind, MoveKind::kResign);
          }
          ++checked;
        });
  }
  EXPECT_GT(checked, 8 * games);
}

INSTANTIATE_TEST_SUITE_P(Variants, EveryVariantTest,
                         ::testing::ValuesIn(testing::Variants()),
                         testing::VariantTestName);

// A whole game between two players, as the list of moves.
std::vector<Move> PlayGame(Searcher& red, Searcher& blue, const Rules& rules) {
  Position pos = testing::StartOf(rules);
  std::vector<Move> moves;
  while (!IsGameOver(pos)) {
    Searcher& mover = pos.to_move() == Colour::kRed ? red : blue;
    moves.push_back(Best(mover, pos));
    pos.Play(moves.back());
  }
  return moves;
}

TEST(DeterminismTest, AFixedSeedReplaysTheSameGame) {
  const Rules rules = Rules::Default(2);
  GreedyPlayer greedy_a(Seeded(7)), random_a(Seeded(8));
  GreedyPlayer greedy_b(Seeded(7)), random_b(Seeded(8));
  RandomPlayer random_c(Seeded(8)), random_d(Seeded(8));
  EXPECT_EQ(PlayGame(greedy_a, random_c, rules),
            PlayGame(greedy_b, random_d, rules));
}

TEST(DeterminismTest, ADifferentSeedPlaysDifferently) {
  const Rules rules = Rules::Default(2);
  RandomPlayer a(Seeded(1)), b(Seeded(1)), c(Seeded(2)), d(Seeded(2));
  EXPECT_NE(PlayGame(a, b, rules), PlayGame(c, d, rules));
}

TEST(DeterminismTest, ANodeCappedAlphaBetaRepeatsItself) {
  const Position pos = Parse(kTwoGaps);
  AlphaBetaPlayer first(NodeCapped(3000)), second(NodeCapped(3000));
  const Move move = Best(first, pos);
  EXPECT_EQ(Best(second, pos), move);
  first.Clear();
  EXPECT_EQ(Best(first, pos), move);
}

TEST(AlphaBetaPlayerTest, StopEndsAnInfiniteSearchWithALegalMove) {
  Position pos = testing::StartOf(Rules::Default(2));
  AlphaBetaPlayer player(ClassicProfile());
  Limits limits;
  limits.infinite = true;
  int infos = 0;
  std::thread stopper([&player] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    player.Stop();
  });
  const auto start = std::chrono::steady_clock::now();
  const SearchResult result = player.Search(
      pos, limits, [&infos](const SearchInfo&) { ++infos; }, 0.05);
  stopper.join();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_TRUE(CheckMove(pos, pos.to_move(), result.best).ok());
  EXPECT_LT(elapsed, 5.0);  // far above the 200 ms; only a hang fails
  EXPECT_GE(infos, 1);
}

TEST(AlphaBetaPlayerTest, KeepsToTheMoveTime) {
  Position pos = testing::StartOf(Rules::Default(2));
  SearchOptions options = ClassicProfile();
  options.movetime_s = 0.2;
  AlphaBetaPlayer player(options);
  const SearchResult result = player.Search(pos, {}, nullptr, 1);
  EXPECT_TRUE(CheckMove(pos, pos.to_move(), result.best).ok());
  EXPECT_LT(result.info.elapsed_s, 2.0);  // generous: only overruns fail
  EXPECT_GT(result.info.nodes, 0);
}

}  // namespace
}  // namespace wallgo::search
