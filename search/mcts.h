// Parallel Monte Carlo graph search (PUCT over a transposition graph, see
// graph.h) with an Evaluator at the leaves (the classic reachability one
// unless another is injected), an MCTS solver for proven results, tree reuse
// between moves, and a memory bound: a full graph is recycled (its least
// visited parts freed), never frozen.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "search/classic/classic_evaluator.h"
#include "search/evaluator.h"
#include "search/graph.h"
#include "search/search.h"

namespace wallgo::search {

// The graph search's settings beside SearchOptions: what a level or an
// evaluation makes of it (SearchOptions holds the tunables the option
// table reaches: c_puct, first play urgency, deferral, thread affinity).
struct MctsConfig {
  // The evaluator's values are eval=hybrid's network (UseEvaluation in
  // levels.cc): PUCT explores with SearchOptions::c_puct_hybrid in 2-player
  // games.
  bool hybrid_values = false;
  // Leaf values and priors. Null: a ClassicEvaluator with `classic`.
  std::shared_ptr<const Evaluator> evaluator;
  // The classic evaluator's knobs (prior kind, temperature, random moves);
  // why these values: docs/search.md#design-choices.
  ClassicEvaluatorConfig classic;
  // A move not tried yet (first play urgency, for the mover) is worth its
  // parent's evaluation, less SearchOptions::fpu_reduction, plus
  // SearchOptions::fpu_prior_scale * log(prior / best prior): with the
  // classic prior (a softmax of child utilities at temperature 0.2) that is
  // the child's own evaluation, as the search had when it evaluated every
  // child; a policy's log odds play the same part. It falls with the prior,
  // so prior order stays selection order (tree_policy.h). When true, the
  // "parent's evaluation" is the evaluator's estimate
  // of the best-prior child instead (Evaluator::ChildEstimate): with the
  // classic prior that makes every untried move's urgency its own static
  // evaluation, as in the old engine. The parent's own value (after random
  // moves of both sides) lies below its best child's, so the untried moves
  // started too low (docs/search.md#how-it-works, "First play urgency").
  bool fpu_from_best_child = true;
  // Build a node's first edges when it is created rather than when a playout
  // passes it again: for an evaluator whose priors come with the value (a
  // network); the classic one computes priors apart, and half the nodes
  // are never passed again.
  bool expand_at_creation = false;
  // Share of either arena a recycling keeps at most (the rest is freed).
  double recycle_keep_share = 0.5;
  // What recycling or compacting the graph costs a node it holds (an upper
  // estimate on one core): a full graph is not recycled when that would
  // take the search past its hard time limit (the search ends instead), and
  // a kept graph is cleared when compacting it would eat more than a tenth
  // of the planned time.
  double recycle_seconds_per_node = 2e-6;
  // Thinking time when the limits give no visits, time or clock.
  double default_movetime_s = 1.0;
  // A cap on playouts on top of options.visits (the weaker levels); 0 = none.
  int64_t max_visits = 0;
  // With several threads, a visit deferred (SearchOptions::deferred_visits)
  // is written to the shared graph with the thread's next batch, every
  // deferred_batch playouts (PendingVisits): the top nodes' lines, which
  // every playout passes, are then written a batch at a time instead of
  // twice a playout. The thread's own choices count its pending visits.
  // docs/search.md, "Deferred visits".
  int deferred_batch = 32;
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
  void set_config(const MctsConfig& config);
  // The graph after the last search (node counts, memory).
  GraphStats graph_stats() const;
  // The graph itself, between searches (for tests and tools that inspect it).
  Graph& graph() { return *graph_; }
  // Nodes passed by the last search's playouts (the root counted once per
  // playout): the bench's signature, which any change of behaviour moves.
  int64_t last_nodes_visited() const { return last_nodes_visited_; }
  // Recyclings during the last search, and playouts it abandoned because
  // the graph was full (never counted as visits).
  int64_t last_recycles() const { return last_recycles_; }
  int64_t last_abandoned() const { return last_abandoned_; }

  class Run;  // one search in progress

 private:
  SearchOptions options_;
  MctsConfig config_;
  std::shared_ptr<const Evaluator> evaluator_;  // config_'s or a classic one
  std::unique_ptr<Graph> graph_;
  std::atomic<bool> stop_{false};
  uint64_t searches_ = 0;
  int64_t last_nodes_visited_ = 0;
  int64_t last_recycles_ = 0;
  int64_t last_abandoned_ = 0;
};

}  // namespace wallgo::search
