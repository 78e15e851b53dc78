// A depth-limited alpha-beta player, the kind of AI public Wall Go sites
// ship, for the MCTS to beat: iterative deepening, a transposition table
// keyed by Position::hash(), move ordering (table move, killers, history and
// the static evaluation near the root) and the reachability evaluation at the
// leaves. With two players it is plain minimax of the score margin; with
// three or four it is "paranoid": the others are assumed to play against the
// searching player.
#pragma once

#include <atomic>
#include <memory>

#include "search/classic/eval.h"
#include "search/search.h"

namespace wallgo::search {

struct AlphaBetaConfig {
  int max_depth = 32;  // plies; iterative deepening stops there
  // Thinking time per move when the limits give neither a move time, a clock,
  // a node cap (visits) nor infinite analysis.
  double default_movetime_s = 1.0;
  // Nodes with at least this many plies left order their moves by the static
  // evaluation of each child; shallower ones by table move, killers, history.
  int eval_ordering_depth = 3;
  // When positive, nodes below the root ordered by the static evaluation
  // search only this many of their best moves (forward pruning).
  int beam_width = 0;
  EvalOptions eval;  // the evaluation at the leaves
};

class AlphaBetaPlayer : public Searcher {
 public:
  explicit AlphaBetaPlayer(const SearchOptions& options,
                           const AlphaBetaConfig& config = {});
  ~AlphaBetaPlayer() override;

  // hash_mb sizes the transposition table; visits caps the nodes searched.
  void SetOptions(const SearchOptions& options) override;
  void Clear() override;
  SearchResult Search(const Position& pos, const Limits& limits,
                      const InfoCallback& on_info,
                      double info_interval_s) override;
  void Stop() override { stop_.store(true, std::memory_order_relaxed); }

  // The deepest iteration the last search completed.
  int completed_depth() const { return completed_depth_; }

  class Memory;  // transposition table and history, kept between searches

 private:
  SearchOptions options_;
  AlphaBetaConfig config_;
  std::unique_ptr<Memory> memory_;
  std::atomic<bool> stop_{false};
  int completed_depth_ = 0;
};

}  // namespace wallgo::search
