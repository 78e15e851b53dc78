// The classic evaluation behind the Evaluator interface: the reachability
// estimate of search/classic (after a few random moves) for the value, and
// priors from evaluating the children (or a cheaper, weaker grouped prior).
#pragma once

#include <cstdint>
#include <span>

#include "engine/position.h"
#include "search/classic/eval.h"
#include "search/evaluator.h"
#include "search/value.h"

namespace wallgo::search {

enum class PriorKind : uint8_t {
  // Every child evaluated: the default, far stronger than the cheaper
  // kGrouped (docs/search.md#design-choices).
  kChildEval,
  // One evaluation per stone destination (the child of its first wall),
  // then every wall of the best destinations evaluated on its own: about a
  // third of the evaluations, 1.15-1.5x the playouts a second, but far
  // weaker: the wall is most of a Wall Go move.
  kGrouped,
  kUniform,  // no knowledge: all moves alike
};

struct ClassicEvaluatorConfig {
  // Random moves played from the position before it is evaluated; they
  // are drawn from the position's key, so a position always gets the same
  // value. Why 2: docs/search.md#design-choices.
  int playout_moves = 2;
  // The same with 3 or 4 players, where two random moves leave the others
  // unmoved and the movers handicapped. Why 12:
  // docs/history/eval.md#against-81696ec-at-equal-time-the-rounds-target.
  int multi_player_playout_moves = 12;
  PriorKind prior = PriorKind::kChildEval;
  // Priors are a softmax of the children's utilities at this temperature.
  double prior_temperature = 0.2;
  // kGrouped: destinations whose walls are all evaluated.
  int refined_groups = 2;
};

// The classic value for every player of `players`.
Value ValueOf(const Evaluation& ev, int players);
// priors[i] = a softmax of utility[i] / temperature (same sizes).
void SoftmaxOfUtilities(std::span<const float> utility, double temperature,
                        std::span<float> priors);

class ClassicEvaluator : public Evaluator {
 public:
  explicit ClassicEvaluator(const ClassicEvaluatorConfig& config = {})
      : config_(config) {}
  Value Evaluate(const Position& pos, std::span<const Move> moves,
                 std::span<float> priors) const override;
  // The static evaluation the priors are a softmax of (no random moves), so
  // that a first play urgency from the prior's log odds is each move's own
  // evaluation.
  Value ChildEstimate(const Position& child) const override;
  // A softmax of the children's utilities, without the leaf value's random
  // moves and evaluation.
  void Priors(const Position& pos, std::span<const Move> moves,
              std::span<float> priors) const override;
  // The mover's utility of each child, by the prior kind (into `utility`):
  // what the priors are a softmax of.
  void ChildUtilities(const Position& pos, std::span<const Move> moves,
                      std::span<float> utility) const;
  const ClassicEvaluatorConfig& config() const { return config_; }

 private:
  Value LeafValue(const Position& pos) const;

  ClassicEvaluatorConfig config_;
};

}  // namespace wallgo::search
