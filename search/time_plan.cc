#include "search/time_plan.h"

#include <algorithm>

#include "search/eval/player_common.h"

namespace wallgo::search {
namespace {

// Kept back from a fixed move time for the protocol's round trip.
constexpr double kMoveTimeMarginS = 0.03;
constexpr double kMoveTimeMarginShare = 0.05;
// How far a critical position may stretch the planned time.
constexpr double kMaxStretch = 3.0;
// Never more than this share of the main time on one move.
constexpr double kMaxMainShare = 0.4;

double FixedMoveTime(double movetime_s) {
  const double margin =
      std::min(kMoveTimeMarginS, kMoveTimeMarginShare * movetime_s);
  return std::max(0.001, movetime_s - margin);
}

}  // namespace

TimePlan PlanTime(const SearchOptions& options, const Limits& limits,
                  const Position& pos, double default_s) {
  if (limits.infinite) return {kNoTimeLimit, kNoTimeLimit, false};
  if (options.movetime_s > 0) {
    const double t = FixedMoveTime(options.movetime_s);
    return {t, t, false};
  }
  if (limits.clock.active()) {
    // MoveTimeBudget already keeps a safety margin off the clock.
    const double soft = MoveTimeBudget(options, limits, pos);
    const Clock& clock = limits.clock;
    double hard = soft;
    if (!clock.in_byo) {
      hard = std::max(
          soft, std::min(kMaxStretch * soft, kMaxMainShare * clock.main_s));
    }
    return {soft, hard, true};
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
