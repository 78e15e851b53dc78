#include "search/players/player_common.h"

#include <algorithm>
#include <utility>

#include "engine/bitboard.h"

namespace wallgo::search {
namespace {

constexpr int kInteriorEdges = 84;
// Games end when every region is settled, long before the board is walled:
// in 253 games of level 10 against itself (2-player four-stone, 11,256
// positions, docs/search.md) about this many edges were still open at the
// end. Counting them as playable made the clock plan expect twice the
// turns that were left in the late game, so a third of the clock went unused.
constexpr int kOpenEdgesAtEnd = 32;
constexpr int kMinTurnsLeft = 4;
// Kept back from every clock-based budget for the protocol's round trip.
constexpr double kSafetyMarginS = 0.05;
constexpr double kMinimumBudgetS = 0.01;
// Kept back from a fixed move time for the protocol's round trip.
constexpr double kMoveTimeMarginS = 0.03;
constexpr double kMoveTimeMarginShare = 0.05;

double ByoYomiShare(const Clock& clock) {
  if (clock.byo_s <= 0) return 0;
  const int stones = clock.in_byo ? clock.byo_stones_left : clock.byo_stones;
  return 0.9 * clock.byo_s / std::max(1, stones);
}

// Spending past the main time is safe only into a byo-yomi period, and the
// main time's share (at most a quarter: ExpectedTurnsLeft >= 4) leaves plenty.
double ClockBudget(const Clock& clock, int turns_left) {
  // The period's last stone has the rest of the period to itself and
  // nothing to save for: a fixed move time, with the same margin.
  if (clock.in_byo && clock.byo_stones_left == 1) {
    return MoveTimeLessMargin(clock.byo_s);
  }
  double budget = ByoYomiShare(clock);
  if (!clock.in_byo) budget += clock.main_s / turns_left;
  return std::max(kMinimumBudgetS, budget - kSafetyMarginS);
}

}  // namespace

double MoveTimeLessMargin(double movetime_s) {
  const double margin =
      std::min(kMoveTimeMarginS, kMoveTimeMarginShare * movetime_s);
  return std::max(0.001, movetime_s - margin);
}

int ExpectedTurnsLeft(const Position& pos) {
  const WallMasks& walls = pos.walls();
  const int open_edges =
      kInteriorEdges - PopCount(walls.north) - PopCount(walls.east);
  const int placements_left =
      Position::TotalPlacements(pos.rules()) - pos.placements_done();
  const int turns =
      (std::max(0, open_edges - kOpenEdgesAtEnd) + placements_left) /
      std::max(1, pos.num_players());
  return std::max(kMinTurnsLeft, turns);
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
  // The root is worth its chosen move: what analysis shows as the root's.
  result.info.root_winrate = winrate;
  result.info.root_score_margin = score_margin;
  result.info.total_visits = nodes;
  result.info.nodes = nodes;
  result.info.elapsed_s = elapsed_s;
  return result;
}

}  // namespace wallgo::search
