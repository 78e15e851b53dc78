// What the search asks of a position it expands: a value for every player
// and prior probabilities for the moves it may try. The classic evaluation
// (reachability) and the learned network both implement it, so the search
// never knows which one it uses.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>

#include "engine/position.h"
#include "search/value.h"

namespace wallgo::search {

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // The value of `pos`, a game not over, for every player (the search asks
  // the rules once whether a position is over and values a finished one
  // itself: FinishedValue). When `moves` is not empty (legal
  // moves of `pos`, in any order), also writes their priors, summing to 1,
  // into `priors` (same size as `moves`). Called by many search threads at
  // once, so it must be thread-safe.
  virtual Value Evaluate(const Position& pos, std::span<const Move> moves,
                         std::span<float> priors) const = 0;
  // The estimate of a child position (not finished) on the scale that the
  // priors' log odds measure against: the search adds those to it to value
  // a move it has not tried (MctsConfig::fpu_from_best_child). By default
  // its value.
  virtual Value ChildEstimate(const Position& child) const {
    return Evaluate(child, {}, {});
  }
  // Only the priors of `moves` (not empty) into `priors`: what the search
  // asks when it adds edges to a node it has already valued. By default
  // Evaluate's, its value dropped; an evaluator whose value costs work of
  // its own skips it.
  virtual void Priors(const Position& pos, std::span<const Move> moves,
                      std::span<float> priors) const {
    Evaluate(pos, moves, priors);
  }
  // The log of each move's prior up to a constant (Priors are their
  // softmax): all that a ranking of the moves needs. By default the log of
  // Priors'; a policy network's logits skip the softmax.
  virtual void LogPriors(const Position& pos, std::span<const Move> moves,
                         std::span<float> scores) const {
    Priors(pos, moves, scores);
    for (float& x : scores) x = std::log(std::max(x, 1e-30f));
  }
  // The priors the search asks for when it makes edges for a node that has
  // `edges` already (0: its expansion). The more edges, the more playouts
  // passed it, so an evaluator may spend more on them (ShortlistEvaluator);
  // by default Priors'.
  virtual void ChunkPriors(const Position& pos, std::span<const Move> moves,
                           std::span<float> priors, int edges) const {
    (void)edges;
    Priors(pos, moves, priors);
  }
};

// Leaf values from one evaluator and priors from another: the learned
// value with the classic priors (eval=hybrid). A first play urgency starts
// from the value evaluator's estimate of the best-prior child, so that
// tried and untried moves are valued on one scale; the prior's log odds
// come from the prior evaluator.
class CompositeEvaluator : public Evaluator {
 public:
  CompositeEvaluator(std::shared_ptr<const Evaluator> value,
                     std::shared_ptr<const Evaluator> priors)
      : value_(std::move(value)), priors_(std::move(priors)) {}
  Value Evaluate(const Position& pos, std::span<const Move> moves,
                 std::span<float> priors) const override {
    if (!moves.empty()) priors_->Priors(pos, moves, priors);
    return value_->Evaluate(pos, {}, {});
  }
  void Priors(const Position& pos, std::span<const Move> moves,
              std::span<float> priors) const override {
    priors_->Priors(pos, moves, priors);
  }
  void ChunkPriors(const Position& pos, std::span<const Move> moves,
                   std::span<float> priors, int edges) const override {
    priors_->ChunkPriors(pos, moves, priors, edges);
  }
  Value ChildEstimate(const Position& child) const override {
    return value_->ChildEstimate(child);
  }

 private:
  std::shared_ptr<const Evaluator> value_;
  std::shared_ptr<const Evaluator> priors_;
};

// Priors from `policy` while stones are being placed (the setup phase),
// from `rest` afterwards; values and child estimates always from `rest`.
// The network's policy agrees with a deep search on placements four times
// as often as the classic priors do (docs/eval.md, "Policy by stage"), and
// it costs no child evaluations.
class SetupPriorsEvaluator : public Evaluator {
 public:
  SetupPriorsEvaluator(std::shared_ptr<const Evaluator> policy,
                       std::shared_ptr<const Evaluator> rest)
      : policy_(std::move(policy)), rest_(std::move(rest)) {}
  Value Evaluate(const Position& pos, std::span<const Move> moves,
                 std::span<float> priors) const override {
    if (!pos.in_setup()) return rest_->Evaluate(pos, moves, priors);
    if (!moves.empty()) policy_->Priors(pos, moves, priors);
    return rest_->Evaluate(pos, {}, {});
  }
  void Priors(const Position& pos, std::span<const Move> moves,
              std::span<float> priors) const override {
    For(pos).Priors(pos, moves, priors);
  }
  void LogPriors(const Position& pos, std::span<const Move> moves,
                 std::span<float> scores) const override {
    For(pos).LogPriors(pos, moves, scores);
  }
  void ChunkPriors(const Position& pos, std::span<const Move> moves,
                   std::span<float> priors, int edges) const override {
    if (pos.in_setup()) {
      policy_->Priors(pos, moves, priors);
    } else {
      rest_->ChunkPriors(pos, moves, priors, edges);
    }
  }
  Value ChildEstimate(const Position& child) const override {
    return rest_->ChildEstimate(child);
  }

 private:
  const Evaluator& For(const Position& pos) const {
    return pos.in_setup() ? *policy_ : *rest_;
  }
  std::shared_ptr<const Evaluator> policy_;
  std::shared_ptr<const Evaluator> rest_;
};

// One evaluator for games of `players` players, another for the rest: a
// learned evaluation where it was trained, the classic one elsewhere.
class PlayerCountEvaluator : public Evaluator {
 public:
  PlayerCountEvaluator(int players, std::shared_ptr<const Evaluator> those,
                       std::shared_ptr<const Evaluator> others)
      : players_(players),
        those_(std::move(those)),
        others_(std::move(others)) {}
  Value Evaluate(const Position& pos, std::span<const Move> moves,
                 std::span<float> priors) const override {
    return For(pos).Evaluate(pos, moves, priors);
  }
  void Priors(const Position& pos, std::span<const Move> moves,
              std::span<float> priors) const override {
    For(pos).Priors(pos, moves, priors);
  }
  void ChunkPriors(const Position& pos, std::span<const Move> moves,
                   std::span<float> priors, int edges) const override {
    For(pos).ChunkPriors(pos, moves, priors, edges);
  }
  Value ChildEstimate(const Position& child) const override {
    return For(child).ChildEstimate(child);
  }

 private:
  const Evaluator& For(const Position& pos) const {
    return pos.num_players() == players_ ? *those_ : *others_;
  }
  int players_;
  std::shared_ptr<const Evaluator> those_;
  std::shared_ptr<const Evaluator> others_;
};

}  // namespace wallgo::search
