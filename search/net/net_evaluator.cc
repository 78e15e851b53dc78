#include "search/net/net_evaluator.h"

#include <algorithm>
#include <cmath>

#include "search/classic/eval.h"
#include "search/net/accumulator.h"

namespace wallgo::search::net {
namespace {

// The hidden layer of `pos`, whose features are `features`. Its first layer
// comes from this thread's cache of sums (accumulator.h): the only state the
// evaluation keeps, and one that cannot change a value (integer sums), so
// NetEvaluator stays immutable to its callers and every thread gets the
// same answers.
Hidden HiddenOf(const Network& net, const Position& pos,
                const Features& features) {
  thread_local FirstLayerCache cache;
  return net.Forward(cache.Sums(net, Index(pos.to_move()), features));
}

}  // namespace

NetEvaluator::NetEvaluator(std::shared_ptr<const Network> network)
    : network_(std::move(network)) {}

absl::StatusOr<std::unique_ptr<NetEvaluator>> NetEvaluator::Load(
    const std::string& path) {
  absl::StatusOr<Network> net = Network::Load(path);
  if (!net.ok()) return net.status();
  return std::make_unique<NetEvaluator>(
      std::make_shared<const Network>(*std::move(net)));
}

void MoveLogits(const std::array<float, kPolicySize + 1>& logits,
                std::span<const Move> moves, std::span<float> scores) {
  for (size_t i = 0; i < moves.size(); ++i) {
    const std::array<uint16_t, 3> idx = PolicyIndices(moves[i]);
    scores[i] = logits[idx[0]] + logits[idx[1]] + logits[idx[2]];
  }
}

void PriorsFromLogits(const std::array<float, kPolicySize + 1>& logits,
                      std::span<const Move> moves, std::span<float> priors) {
  MoveLogits(logits, moves, priors);
  float best = -1e30f;
  for (size_t i = 0; i < moves.size(); ++i) best = std::max(best, priors[i]);
  float total = 0;
  for (size_t i = 0; i < moves.size(); ++i) {
    priors[i] = std::exp(priors[i] - best);
    total += priors[i];
  }
  for (size_t i = 0; i < moves.size(); ++i) priors[i] /= total;
}

Value NetEvaluator::Evaluate(const Position& pos, std::span<const Move> moves,
                             std::span<float> priors) const {
  Features features;
  ExtractFeatures(pos, features);
  const bool finished = features.finished;
  if (finished && moves.empty()) return FinishedValue(pos);
  const Hidden hidden = HiddenOf(*network_, pos, features);
  if (!moves.empty()) {
    std::array<float, kPolicySize + 1> logits;
    network_->PolicyLogits(hidden, moves, logits);
    PriorsFromLogits(logits, moves, priors);
  }
  if (finished) return FinishedValue(pos);
  const int players = pos.num_players();
  const int mover = Index(pos.to_move());
  const NetValue nv = network_->Value(hidden, players);
  Value v;
  std::array<float, kMaxPlayers> score{};
  for (int p = 0; p < players; ++p) {
    const int s = SlotOf(p, mover, players);
    v.win[p] = nv.win[s];
    score[p] = nv.score[s];
  }
  for (int p = 0; p < players; ++p) {
    v.margin[p] = ScoreMargin(score, players, ColourAt(p));
  }
  return v;
}

void NetEvaluator::LogPriors(const Position& pos, std::span<const Move> moves,
                             std::span<float> scores) const {
  Features features;
  ExtractFeatures(pos, features);
  std::array<float, kPolicySize + 1> logits;
  network_->PolicyLogits(HiddenOf(*network_, pos, features), moves, logits);
  MoveLogits(logits, moves, scores);
}

}  // namespace wallgo::search::net
