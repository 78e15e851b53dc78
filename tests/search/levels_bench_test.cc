// Levels dispatch to their players and keep to the limits; the bench
// positions are valid and the bench is deterministic.
#include "engine/movegen.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "search/bench.h"
#include "search/levels.h"

namespace wallgo::search {
namespace {

TEST(LevelsTest, EveryLevelPlaysLegalMoves) {
  const Position start = BenchStart(BenchPositions()[0]);
  const Position middle = BenchStart(BenchPositions()[5]);
  for (int level = 1; level <= 10; ++level) {
    SearchOptions o = ClassicProfile();
    o.level = level;
    o.hash_mb = 8;
    o.movetime_s = 0.05;
    std::unique_ptr<Searcher> searcher = MakeSearcher(o);
    for (const Position& pos : {start, middle}) {
      const SearchResult r = searcher->Search(pos, Limits{}, nullptr, 0);
      EXPECT_TRUE(CheckMove(pos, pos.to_move(), r.best).ok())
          << "level " << level;
    }
  }
}

TEST(LevelsTest, LowerMctsLevelsUseSmallerBudgets) {
  for (int level = 6; level <= 9; ++level) {
    EXPECT_GT(LevelConfig(level).max_visits, LevelConfig(level - 1).max_visits);
  }
  EXPECT_EQ(LevelConfig(10).max_visits, 0);  // full strength: no cap
  const Position pos = BenchStart(BenchPositions()[5]);
  SearchOptions o = ClassicProfile();
  o.level = 5;
  o.hash_mb = 8;
  o.movetime_s = 5;
  std::unique_ptr<Searcher> searcher = MakeSearcher(o);
  const SearchResult r = searcher->Search(pos, Limits{}, nullptr, 0);
  EXPECT_EQ(r.info.total_visits, LevelConfig(5).max_visits);
}

TEST(BenchTest, PositionsAreValidAndUnfinished) {
  for (const BenchPosition& bench : BenchPositions()) {
    const Position pos = BenchStart(bench);
    EXPECT_FALSE(IsGameOver(pos)) << bench.moves;
  }
}

TEST(BenchTest, SignatureRepeats) {
  SearchOptions o = ClassicProfile();
  o.visits = 200;
  o.hash_mb = 16;
  const BenchReport a = RunBench(o);
  const BenchReport b = RunBench(o);
  EXPECT_EQ(a.positions, static_cast<int>(BenchPositions().size()));
  EXPECT_EQ(a.visits, 200 * a.positions);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_GT(a.nodes, a.visits);  // playouts pass several nodes each
}

}  // namespace
}  // namespace wallgo::search
