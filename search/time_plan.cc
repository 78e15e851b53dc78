#include "search/time_plan.h"

#include <algorithm>

#include "search/players/player_common.h"

namespace wallgo::search {
namespace {

// How far a critical position may stretch the planned time.
constexpr double kMaxStretch = 3.0;
// Never more than this share of the main time on one move.
constexpr double kMaxMainShare = 0.4;

// The plan from the clock alone (MoveTimeBudget already keeps a safety
// margin off it).
TimePlan ClockPlan(const SearchOptions& options, const Limits& limits,
                   const Position& pos) {
  SearchOptions clock_only = options;
  clock_only.movetime_s = 0;
  const double soft = MoveTimeBudget(clock_only, limits, pos);
  const Clock& clock = limits.clock;
  // Only main time carries over from move to move: in byo-yomi a move that
  // stops early saves nothing, and one that stretches overruns its period.
  const bool main_time_left = !clock.in_byo && clock.main_s > 0;
  if (!main_time_left) return {soft, soft, false};
  const double hard = std::max(
      soft, std::min(kMaxStretch * soft, kMaxMainShare * clock.main_s));
  return {soft, hard, true};
}

}  // namespace

TimePlan PlanTime(const SearchOptions& options, const Limits& limits,
                  const Position& pos, double default_s) {
  if (limits.infinite) return {kNoTimeLimit, kNoTimeLimit, false};
  const double movetime_s = EffectiveMoveTime(options, limits);
  if (limits.clock.active()) {
    TimePlan plan = ClockPlan(options, limits, pos);
    if (movetime_s > 0) {  // the user's movetime too: whichever is shorter
      const double t = MoveTimeLessMargin(movetime_s);
      plan.soft_s = std::min(plan.soft_s, t);
      plan.hard_s = std::min(plan.hard_s, t);
    }
    return plan;
  }
  if (movetime_s > 0) {
    const double t = MoveTimeLessMargin(movetime_s);
    return {t, t, false};
  }
  if (options.visits > 0) return {kNoTimeLimit, kNoTimeLimit, false};
  return {default_s, default_s, false};
}

bool ShouldStop(const TimePlan& plan, double elapsed_s, bool unclear,
                bool obvious) {
  if (elapsed_s >= plan.hard_s) return true;
  if (elapsed_s >= plan.soft_s) return !(plan.flexible && unclear);
  return plan.flexible && elapsed_s >= 0.5 * plan.soft_s && obvious;
}

}  // namespace wallgo::search
