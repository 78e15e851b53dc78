// Frozen contests under stay=mobile: a region that holds stones of several
// colours and no empty cell, with no wall breaker left and no wall limit.
// No stone in it can step, so none can stay and build either (stay=mobile),
// and no stone outside can reach it: it stays contested for good, so the
// game can only end when no player has a turn, every stone walled in with
// no empty cell beside it. Then a player's score is at most its stones
// outside such regions, whatever cells it holds now: a lead in territory is
// worth nothing. docs/search.md, "Won games stay won".
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>

#include "engine/position.h"
#include "search/evaluator.h"
#include "search/value.h"

namespace wallgo::search {

// Each player's stones outside frozen contests, when `pos` has one; else
// nullopt (also when the rules let a region thaw: stay=always, a wall limit,
// a breaker left).
std::optional<std::array<int, kMaxPlayers>> FrozenContestCaps(
    const Position& pos);

// The value of a position with a frozen contest: the players' caps as their
// final scores (the most stones wins; equal caps share a draw, which the
// tie-break may still decide).
Value ValueOfCaps(const std::array<int, kMaxPlayers>& caps, int players);

// Another evaluator's values and priors, except that a position with a
// frozen contest is worth ValueOfCaps.
class FrozenContestEvaluator : public Evaluator {
 public:
  explicit FrozenContestEvaluator(std::shared_ptr<const Evaluator> inner)
      : inner_(std::move(inner)) {}

  Value Evaluate(const Position& pos, std::span<const Move> moves,
                 std::span<float> priors) const override;
  Value ChildEstimate(const Position& child) const override;
  void Priors(const Position& pos, std::span<const Move> moves,
              std::span<float> priors) const override {
    inner_->Priors(pos, moves, priors);
  }
  void LogPriors(const Position& pos, std::span<const Move> moves,
                 std::span<float> scores) const override {
    inner_->LogPriors(pos, moves, scores);
  }
  void ChunkPriors(const Position& pos, std::span<const Move> moves,
                   std::span<float> priors, int edges) const override {
    inner_->ChunkPriors(pos, moves, priors, edges);
  }

 private:
  std::shared_ptr<const Evaluator> inner_;
};

}  // namespace wallgo::search
