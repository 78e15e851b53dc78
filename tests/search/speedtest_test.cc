#include "search/speedtest.h"

#include <vector>

#include "gtest/gtest.h"

namespace wallgo::search {
namespace {

TEST(SpeedtestTest, ThreadCountsDoubleUpToTheMostAndEndThere) {
  EXPECT_EQ(SpeedtestThreadCounts(1), std::vector<int>({1}));
  EXPECT_EQ(SpeedtestThreadCounts(2), std::vector<int>({1, 2}));
  EXPECT_EQ(SpeedtestThreadCounts(6), std::vector<int>({1, 2, 4, 6}));
  EXPECT_EQ(SpeedtestThreadCounts(16), std::vector<int>({1, 2, 4, 8, 16}));
}

TEST(SpeedtestTest, ThreadedRowsMeasureTheSearchAndTheCeiling) {
  SearchOptions options = ClassicProfile();  // the classic evaluation
  std::vector<int> reported;
  const std::vector<SpeedtestRow> rows = RunSpeedtest(
      options, {.max_threads = 2, .seconds = 0.2, .rounds = 2},
      [&](const SpeedtestRow& row) { reported.push_back(row.threads); });
  EXPECT_EQ(reported, std::vector<int>({1, 2}));
  ASSERT_EQ(rows.size(), 2u);
  for (const SpeedtestRow& row : rows) {
    EXPECT_GT(row.search.playouts, 0);
    EXPECT_GT(row.search.seconds, 0.3);  // two rounds of 0.2 s
    EXPECT_GT(row.search.cpu_seconds, 0);
  }
  EXPECT_EQ(rows[0].ceiling.playouts, 0);  // one thread has no ceiling row
  EXPECT_GT(rows[1].ceiling.playouts, 0);
  EXPECT_GT(rows[1].ceiling.seconds, 0.3);
  EXPECT_GT(rows[1].ceiling.cpu_seconds, 0);
}

}  // namespace
}  // namespace wallgo::search
