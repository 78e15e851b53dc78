// Parallel Monte Carlo graph search (PUCT over a transposition graph, see
// graph.h) with the reachability evaluation at the leaves, an MCTS solver
// for proven results, tree reuse between moves and a memory bound.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "search/graph.h"
#include "search/search.h"

namespace wallgo::search {

struct MctsConfig {
  // Exploration constant of PUCT, in utility units (a win is worth 1).
  double c_puct = 1.0;
  // Priors: a softmax of each child's evaluation (utility for the mover)
  // at this temperature; with eval_priors off, uniform priors and a first
  // play urgency of the parent's value minus fpu_reduction.
  bool eval_priors = true;
  // Measured: 0.1 beat 0.05 (65%) and 0.2 beat 0.1 (67.5%), 20 games each.
  double prior_temperature = 0.2;
  double fpu_reduction = 0.2;
  // Random moves played from a new leaf before it is evaluated. Measured
  // (docs/search.md, figures): 2 beats 0 by ~69% in 40 games at 0.1 s a move;
  // 1, 2 and 4 are alike.
  int playout_moves = 2;
  // Thinking time when the limits give no visits, time or clock.
  double default_movetime_s = 1.0;
  // A cap on playouts on top of options.visits (the weaker levels); 0 = none.
  int64_t max_visits = 0;
  // Chooses the final move among candidates with probability proportional
  // to visits^(1/temperature) (0 = always the best): weaker, human-like play.
  double move_temperature = 0;
};

class MctsSearcher : public Searcher {
 public:
  explicit MctsSearcher(const SearchOptions& options,
                        const MctsConfig& config = {});
  ~MctsSearcher() override;

  void SetOptions(const SearchOptions& options) override;
  void Clear() override;
  SearchResult Search(const Position& pos, const Limits& limits,
                      const InfoCallback& on_info,
                      double info_interval_s) override;
  void Stop() override { stop_.store(true, std::memory_order_relaxed); }

  const MctsConfig& config() const { return config_; }
  void set_config(const MctsConfig& config) { config_ = config; }
  // The graph after the last search (node counts, memory).
  GraphStats graph_stats() const;
  // Nodes passed by the last search's playouts (the root counted once per
  // playout): the bench's signature, which any change of behaviour moves.
  int64_t last_nodes_visited() const { return last_nodes_visited_; }

  class Run;  // one search in progress

 private:
  SearchOptions options_;
  MctsConfig config_;
  std::unique_ptr<Graph> graph_;
  std::atomic<bool> stop_{false};
  uint64_t searches_ = 0;
  int64_t last_nodes_visited_ =
      0;  // varies the random streams between searches
};

}  // namespace wallgo::search
