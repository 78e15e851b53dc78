// Ownership maps and the analysis fields of SearchInfo: the one-position
// estimate (eval.h) against the territory estimate and the final owners, and
// the search's average over its playouts, priors and proven roots (the tests
// named Threaded* also run under ThreadSanitizer in CI).
#include <cmath>
#include <numeric>
#include <random>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "search/classic/eval.h"
#include "search/mcts.h"
#include "tests/engine/test_support.h"

namespace wallgo::search {
namespace {

using testing::Parse;

// As in mcts_test: red closes the gap at d4 and wins 28-21 at once.
constexpr char kRedClosesAndWins[] =
    "players=2 setup=empty turn=red red=c5,e5,b6,f6 blue=b2,f2,c1,e1 "
    "red-walls=a3n,b3n,c3n blue-walls=e3n,f3n,g3n";

SearchOptions Options(int64_t visits, int threads = 1) {
  SearchOptions o = ClassicProfile();
  o.visits = visits;
  o.threads = threads;
  o.hash_mb = 16;
  o.seed = 5;
  return o;
}

float CellSum(const std::array<float, kMaxPlayers + 1>& shares) {
  return std::accumulate(shares.begin(), shares.end(), 0.0f);
}

// Every position of a few random games of every variant.
template <typename Check>
void ForRandomPositions(int games, Check check) {
  for (const testing::Variant& v : testing::Variants()) {
    std::mt19937_64 rng(testing::SeedFor(v.name));
    for (int g = 0; g < games; ++g) {
      testing::PlayRandomGame(v.rules, rng, 200, check);
    }
  }
}

TEST(EstimateOwnershipTest, SharesSumToOnePerCellAndMatchTheTerritory) {
  EvalOptions no_tempo;
  no_tempo.tempo_cells = 0;
  ForRandomPositions(3, [&](const Position& pos) {
    const Ownership o = EstimateOwnership(pos);
    const Territory t = EstimateTerritory(pos, no_tempo);
    std::array<float, kMaxPlayers> cells{};
    for (int cell = 0; cell < kNumCells; ++cell) {
      ASSERT_NEAR(CellSum(o.share[cell]), 1.0f, 1e-5f) << PositionString(pos);
      for (int p = 0; p < kMaxPlayers; ++p) {
        ASSERT_GE(o.share[cell][p], 0.0f);
        cells[p] += o.share[cell][p];
      }
    }
    // The map is the territory estimate cell by cell.
    for (int p = 0; p < pos.num_players(); ++p) {
      ASSERT_NEAR(cells[p], t.score[p], 1e-3f) << PositionString(pos);
    }
  });
}

TEST(EstimateOwnershipTest, AFinishedGameGivesEachCellItsFinalOwner) {
  int finished = 0;
  ForRandomPositions(3, [&](const Position& pos) {
    if (!IsGameOver(pos)) return;
    ++finished;
    const Ownership o = EstimateOwnership(pos);
    const Regions regions = FindRegions(pos.walls());
    for (int r = 0; r < regions.count; ++r) {
      const int owner = RegionOwner(pos, regions.masks[r]);
      const int expected = owner >= 0 ? owner : kMaxPlayers;
      for (int cell = 0; cell < kNumCells; ++cell) {
        if (((regions.masks[r] >> cell) & 1) == 0) continue;
        ASSERT_EQ(o.share[cell][expected], 1.0f) << PositionString(pos);
      }
    }
  });
  EXPECT_GT(finished, 0);
}

TEST(EstimateOwnershipTest, ACellReachedFirstIsTheReachersAndTiesAreShared) {
  // Red a1, blue c1 on an open board: b1 is one step from both (shared),
  // a2 is red's at once, d1 blue's.
  const Position pos = Parse(
      "players=2 setup=empty turn=red red=a1,a7,g7,d7 blue=c1,g1,g4,d4 "
      "red-walls= blue-walls=");
  const Ownership o = EstimateOwnership(pos);
  const auto cell = [](const char* name) { return *ParseCell(name); };
  EXPECT_FLOAT_EQ(o.share[cell("b1")][0], 0.5f);
  EXPECT_FLOAT_EQ(o.share[cell("b1")][1], 0.5f);
  EXPECT_FLOAT_EQ(o.share[cell("a2")][0], 1.0f);
  EXPECT_FLOAT_EQ(o.share[cell("d1")][1], 1.0f);
  EXPECT_FLOAT_EQ(o.share[cell("a1")][0], 1.0f);  // a stone: its owner's
}

void ExpectAMap(const SearchInfo& info) {
  ASSERT_EQ(info.ownership.size(), static_cast<size_t>(kNumCells));
  for (const CellOwnership& cell : info.ownership) {
    EXPECT_NEAR(CellSum(cell), 1.0f, 1e-4f);
  }
}

TEST(SearchOwnershipTest, OnlyWhenAskedAndThenSummingToOne) {
  const Position pos = Parse(
      "players=2 setup=fourstone turn=red red=b2,f6,c3,d5 blue=b6,f2,e3,c5 "
      "red-walls= blue-walls=");
  MctsSearcher searcher(Options(400));
  EXPECT_TRUE(
      searcher.Search(pos, Limits{}, nullptr, 0).info.ownership.empty());
  Limits limits;
  limits.ownership = true;
  const SearchInfo info = searcher.Search(pos, limits, nullptr, 0).info;
  ExpectAMap(info);
  // An averaged map is not the root's own estimate (the leaves differ).
  const Ownership root = EstimateOwnership(pos);
  float difference = 0;
  for (int cell = 0; cell < kNumCells; ++cell) {
    difference += std::abs(info.ownership[cell][0] - root.share[cell][0]);
  }
  EXPECT_GT(difference, 0.01f);
}

TEST(SearchOwnershipTest, ThreadedSearchAveragesEveryThreadsPlayouts) {
  const Position pos = Parse(
      "players=2 setup=fourstone turn=blue red=b2,f6,c3,d5 blue=b6,f2,e3,c5 "
      "red-walls=c3n blue-walls=e3e");
  MctsSearcher searcher(Options(2000, 2));
  Limits limits;
  limits.ownership = true;
  int reports = 0;
  const SearchInfo info = searcher
                              .Search(
                                  pos, limits,
                                  [&reports](const SearchInfo& i) {
                                    ++reports;
                                    ExpectAMap(i);
                                  },
                                  0.001)
                              .info;
  ExpectAMap(info);
  EXPECT_GE(reports, 1);
}

TEST(SearchInfoTest, AProvenWinIsSolved) {
  // The win is proven; the margin may stay open (other moves win later by
  // margins not yet settled), so `exact` need not follow.
  const Position pos = Parse(kRedClosesAndWins);
  MctsSearcher searcher(Options(2000));
  Limits limits;
  limits.ownership = true;
  const SearchInfo info = searcher.Search(pos, limits, nullptr, 0).info;
  EXPECT_TRUE(info.solved);
  EXPECT_EQ(info.root_winrate, 1.0);
  EXPECT_GE(info.root_score_margin, 7.0);
  ExpectAMap(info);
}

TEST(SearchInfoTest, AFinishedRootIsExactWithItsFinalOwners) {
  Position pos = Parse(kRedClosesAndWins);
  MctsSearcher searcher(Options(500));
  pos.Play(searcher.Search(pos, Limits{}, nullptr, 0).best);
  ASSERT_TRUE(IsGameOver(pos));
  Limits limits;
  limits.ownership = true;
  const SearchInfo info = searcher.Search(pos, limits, nullptr, 0).info;
  EXPECT_TRUE(info.solved);
  EXPECT_TRUE(info.exact);
  EXPECT_EQ(info.root_winrate, 0.0);  // blue is to move and has lost
  EXPECT_EQ(info.root_score_margin, -7.0);
  ExpectAMap(info);
  EXPECT_EQ(info.ownership[*ParseCell("a7")][0], 1.0f);
  EXPECT_EQ(info.ownership[*ParseCell("a1")][1], 1.0f);
}

TEST(SearchInfoTest, AnOpenPositionIsNotSolved) {
  const Position pos = Parse(
      "players=2 setup=fourstone turn=red red=b2,f6,c3,d5 blue=b6,f2,e3,c5 "
      "red-walls= blue-walls=");
  MctsSearcher searcher(Options(300));
  const SearchInfo info = searcher.Search(pos, Limits{}, nullptr, 0).info;
  EXPECT_FALSE(info.solved);
  EXPECT_GT(info.root_winrate, 0.0);
  EXPECT_LT(info.root_winrate, 1.0);
}

TEST(SearchInfoTest, AllMovesListsEveryRootEdgeWithItsPrior) {
  // Edges are made lazily, in prior order: all_moves lists every root edge
  // made so far (visited or not), not only the visited ones.
  const Position pos = Parse(
      "players=2 setup=fourstone turn=red red=b2,f6,c3,d5 blue=b6,f2,e3,c5 "
      "red-walls= blue-walls=");
  MctsSearcher searcher(Options(200));
  Limits limits;
  limits.all_moves = true;
  const SearchInfo info = searcher.Search(pos, limits, nullptr, 0).info;
  const SearchInfo some = searcher.Search(pos, Limits{}, nullptr, 0).info;
  EXPECT_GE(info.candidates.size(), some.candidates.size());
  double sum = 0;
  for (const Candidate& c : info.candidates) {
    EXPECT_GT(c.prior, 0.0);
    sum += c.prior;
  }
  EXPECT_LE(sum, 1.0 + 1e-4);
  for (const Candidate& c : some.candidates) EXPECT_GT(c.prior, 0.0);
}

TEST(SearchInfoTest, FixedDepthLevelsReportTheirMoveAndTheRootsOwnMap) {
  const Position pos = Parse(
      "players=2 setup=fourstone turn=red red=b2,f6,c3,d5 blue=b6,f2,e3,c5 "
      "red-walls= blue-walls=");
  SearchOptions o = Options(0);
  o.level = 3;  // alpha-beta, 2 plies: no playouts
  std::unique_ptr<Searcher> searcher = MakeSearcher(o);
  Limits limits;
  limits.ownership = true;
  const SearchInfo info = searcher->Search(pos, limits, nullptr, 0).info;
  ASSERT_FALSE(info.candidates.empty());
  EXPECT_EQ(info.root_winrate, info.candidates[0].winrate);
  EXPECT_EQ(info.root_score_margin, info.candidates[0].score_margin);
  ExpectAMap(info);
  const Ownership root = EstimateOwnership(pos);
  for (int cell = 0; cell < kNumCells; ++cell) {
    EXPECT_EQ(info.ownership[cell], root.share[cell]);
  }
}

}  // namespace
}  // namespace wallgo::search
