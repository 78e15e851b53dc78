#include "search/move_history.h"

#include <gtest/gtest.h>

namespace wallgo::search {
namespace {

TEST(MoveHistoryTest, CutOffsRankMovesByDepthSquared) {
  MoveHistory history;
  const Move shallow = Move::Turn(3, 4, Side::kEast);
  const Move deep = Move::Turn(3, 10, Side::kSouth);
  const Move breaking = Move::Break(3, 4, Side::kEast);
  history.Reward(shallow, 2);
  history.Reward(shallow, 2);
  history.Reward(deep, 3);
  EXPECT_EQ(history.Score(shallow), 8);
  EXPECT_EQ(history.Score(deep), 9);
  // A break is not the turn along the same edge.
  EXPECT_EQ(history.Score(breaking), 0);
  history.Clear();
  EXPECT_EQ(history.Score(deep), 0);
}

// A minute's solve rewarded one move past INT_MAX before scores were capped.
TEST(MoveHistoryTest, ScoresStayUnderTheCapAndKeepTheirOrder) {
  MoveHistory history;
  const Move often = Move::Turn(24, 25, Side::kEast);
  const Move seldom = Move::Turn(24, 31, Side::kSouth);
  for (int i = 0; i < 2'000'000; ++i) {
    history.Reward(often, 40);
    if (i % 4 == 0) history.Reward(seldom, 40);
  }
  EXPECT_LE(history.Score(often), MoveHistory::kCap);
  EXPECT_GT(history.Score(often), MoveHistory::kCap / 4);
  EXPECT_GT(history.Score(often), history.Score(seldom));
  EXPECT_GT(history.Score(seldom), 0);
  history.Reward(often, 1'000'000);
  EXPECT_GT(history.Score(often), 0);
  EXPECT_LE(history.Score(often), 2 * MoveHistory::kCap);
}

}  // namespace
}  // namespace wallgo::search
