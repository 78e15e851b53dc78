#include "search/eval/player_common.h"

#include <algorithm>
#include <utility>

#include "engine/bitboard.h"

namespace wallgo::search {
namespace {

constexpr int kInteriorEdges = 84;
// Kept back from every clock-based budget for the protocol's round trip.
constexpr double kSafetyMarginS = 0.05;
constexpr double kMinimumBudgetS = 0.01;

double ByoYomiShare(const Clock& clock) {
  if (clock.byo_s <= 0) return 0;
  const int stones = clock.in_byo ? clock.byo_stones_left : clock.byo_stones;
  return 0.9 * clock.byo_s / std::max(1, stones);
}

// Spending past the main time is safe only into a byo-yomi period, and the
// main time's share (at most a sixth: ExpectedTurnsLeft >= 6) leaves plenty.
double ClockBudget(const Clock& clock, int turns_left) {
  double budget = ByoYomiShare(clock);
  if (!clock.in_byo) budget += clock.main_s / turns_left;
  return std::max(kMinimumBudgetS, budget - kSafetyMarginS);
}

}  // namespace

int ExpectedTurnsLeft(const Position& pos) {
  const WallMasks& walls = pos.walls();
  const int open_edges =
      kInteriorEdges - PopCount(walls.north) - PopCount(walls.east);
  const int placements_left =
      Position::TotalPlacements(pos.rules()) - pos.placements_done();
  const int turns =
      (open_edges / 2 + placements_left) / std::max(1, pos.num_players());
  return std::max(6, turns);
}

double EffectiveMoveTime(const SearchOptions& options, const Limits& limits) {
  if (limits.clock.active() && !options.movetime_set) return 0;
  return options.movetime_s;
}

double MoveTimeBudget(const SearchOptions& options, const Limits& limits,
                      const Position& pos) {
  if (limits.infinite) return kNoTimeLimit;
  double budget = kNoTimeLimit;
  if (const double t = EffectiveMoveTime(options, limits); t > 0) budget = t;
  // The clock is binding: a move time never lets a move overrun it.
  if (limits.clock.active())
    budget =
        std::min(budget, ClockBudget(limits.clock, ExpectedTurnsLeft(pos)));
  return budget;
}

SearchResult SingleCandidateResult(Move best, double winrate,
                                   double score_margin, std::vector<Move> pv,
                                   int64_t nodes, double elapsed_s) {
  SearchResult result;
  result.best = best;
  Candidate candidate;
  candidate.move = best;
  candidate.visits = nodes;
  candidate.winrate = winrate;
  candidate.score_margin = score_margin;
  candidate.pv = std::move(pv);
  if (candidate.pv.empty()) candidate.pv.push_back(best);
  result.info.candidates.push_back(std::move(candidate));
  result.info.total_visits = nodes;
  result.info.nodes = nodes;
  result.info.elapsed_s = elapsed_s;
  return result;
}

}  // namespace wallgo::search
