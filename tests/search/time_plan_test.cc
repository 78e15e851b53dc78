// How long a search plans to think: fixed move times, main time (which may
// stretch or be saved) and byo-yomi (which can be neither).
#include "search/time_plan.h"

#include "gtest/gtest.h"
#include "search/bench.h"

namespace wallgo::search {
namespace {

const Position& Middle() {
  static const Position pos = BenchStart(BenchPositions()[5]);
  return pos;
}

TEST(TimePlanTest, AFixedMoveTimeKeepsAMarginAndNeverStretches) {
  SearchOptions options = ClassicProfile();
  options.movetime_s = 1;
  const TimePlan plan = PlanTime(options, Limits{}, Middle(), 1);
  EXPECT_DOUBLE_EQ(plan.soft_s, 0.97);
  EXPECT_DOUBLE_EQ(plan.hard_s, 0.97);
  EXPECT_FALSE(plan.flexible);
}

TEST(TimePlanTest, MainTimeMayStretchOrBeSaved) {
  Limits limits;
  limits.clock.main_s = 60;
  const TimePlan plan = PlanTime(ClassicProfile(), limits, Middle(), 1);
  EXPECT_TRUE(plan.flexible);
  EXPECT_GT(plan.hard_s, plan.soft_s);
  EXPECT_LE(plan.hard_s, 0.4 * 60);
  EXPECT_TRUE(ShouldStop(plan, 0.6 * plan.soft_s, false, true));
  EXPECT_FALSE(ShouldStop(plan, 1.1 * plan.soft_s, true, false));
}

TEST(TimePlanTest, AOneStonePeriodIsAFixedMoveTime) {
  // The referee's --movetime 1: no main time, one move per 1 s period.
  Limits limits;
  limits.clock.byo_s = 1;
  limits.clock.byo_stones = limits.clock.byo_stones_left = 1;
  limits.clock.in_byo = true;
  const TimePlan plan = PlanTime(ClassicProfile(), limits, Middle(), 1);
  EXPECT_FALSE(plan.flexible);
  // As `movetime 1`: the period less min(30 ms, 5%).
  EXPECT_NEAR(plan.soft_s, 0.97, 1e-9);
  EXPECT_EQ(plan.hard_s, plan.soft_s);
  // An obvious move does not stop the search early: nothing is saved.
  EXPECT_FALSE(ShouldStop(plan, 0.6 * plan.soft_s, false, true));
  EXPECT_TRUE(ShouldStop(plan, plan.soft_s, true, false));
}

}  // namespace
}  // namespace wallgo::search
