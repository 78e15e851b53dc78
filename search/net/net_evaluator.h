// The learned evaluation behind the search's Evaluator interface: features
// of the position, the network's value for every player and its policy over
// the given legal moves. Finished games are exact (ComputeResult), as with
// the classic evaluation. Immutable after construction, so any number of
// search threads may call it at once.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "search/evaluator.h"
#include "search/net/network.h"

namespace wallgo::search::net {

class NetEvaluator : public Evaluator {
 public:
  explicit NetEvaluator(std::shared_ptr<const Network> network);
  // Loads and checks the weights file (Network::Load's errors).
  static absl::StatusOr<std::unique_ptr<NetEvaluator>> Load(
      const std::string& path);

  Value Evaluate(const Position& pos, std::span<const Move> moves,
                 std::span<float> priors) const override;

  // The policy's logit of each move, without the value or the softmax.
  void LogPriors(const Position& pos, std::span<const Move> moves,
                 std::span<float> scores) const override;

  const Network& network() const { return *network_; }

 private:
  std::shared_ptr<const Network> network_;
};

// Each move's logit: the sum of its PolicyIndices' logits.
void MoveLogits(const std::array<float, kPolicySize + 1>& logits,
                std::span<const Move> moves, std::span<float> scores);
// Fills `priors` with a softmax over `moves` of their policy logits (the sum
// of PolicyIndices' logits).
void PriorsFromLogits(const std::array<float, kPolicySize + 1>& logits,
                      std::span<const Move> moves, std::span<float> priors);

}  // namespace wallgo::search::net
