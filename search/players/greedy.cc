#include "search/players/greedy.h"

#include <chrono>
#include <vector>

#include "engine/movegen.h"
#include "search/classic/eval.h"
#include "search/players/player_common.h"

namespace wallgo::search {
namespace {

using SteadyClock = std::chrono::steady_clock;

double SecondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// The report for `move`, judged by the evaluation of the position after it.
SearchResult ReportMove(const Position& pos, Move move, int64_t nodes,
                        SteadyClock::time_point start,
                        const InfoCallback& on_info) {
  Position next = pos;
  if (move.kind != MoveKind::kResign) next.Play(move);
  const Evaluation eval = Evaluate(next);
  const SearchResult result = SingleCandidateResult(
      move, eval.win[Index(pos.to_move())],
      ScoreMargin(eval.score, pos.num_players(), pos.to_move()), {move}, nodes,
      SecondsSince(start));
  if (on_info) on_info(result.info);
  return result;
}

}  // namespace

SeededPlayer::SeededPlayer(const SearchOptions& options)
    : options_(options), rng_(options.seed) {}

void SeededPlayer::SetOptions(const SearchOptions& options) {
  if (options.seed != options_.seed) rng_.seed(options.seed);
  options_ = options;
}

void SeededPlayer::Clear() { rng_.seed(options_.seed); }

SearchResult SeededPlayer::Search(const Position& pos, const Limits&,
                                  const InfoCallback& on_info, double) {
  const auto start = SteadyClock::now();
  MoveList moves;
  GenerateMoves(pos, moves);
  // A finished game has no legal move; pass is the harmless answer.
  if (moves.empty()) return ReportMove(pos, Move::Pass(), 0, start, on_info);
  return ReportMove(pos, Choose(pos, moves), moves.size(), start, on_info);
}

Move RandomPlayer::Choose(const Position&, const MoveList& moves) {
  std::uniform_int_distribution<int> pick(0, moves.size() - 1);
  return moves[pick(rng())];
}

Move GreedyPlayer::Choose(const Position& pos, const MoveList& moves) {
  std::vector<Move> best;
  float best_value = 0;
  for (const Move& move : moves) {
    Position next = pos;
    next.Play(move);
    const float value = OutcomeValue(next, pos.to_move());
    if (best.empty() || value > best_value) {
      best.assign(1, move);
      best_value = value;
    } else if (value == best_value) {
      best.push_back(move);
    }
  }
  std::uniform_int_distribution<size_t> pick(0, best.size() - 1);
  return best[pick(rng())];
}

}  // namespace wallgo::search
