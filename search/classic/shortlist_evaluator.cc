#include "search/classic/shortlist_evaluator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "engine/movegen.h"

namespace wallgo::search {

ShortlistEvaluator::ShortlistEvaluator(
    std::shared_ptr<const Evaluator> policy,
    std::shared_ptr<const ClassicEvaluator> classic, int size,
    double policy_weight)
    : policy_(std::move(policy)),
      classic_(std::move(classic)),
      size_(size),
      policy_weight_(policy_weight) {}

Value ShortlistEvaluator::Evaluate(const Position& pos,
                                   std::span<const Move> moves,
                                   std::span<float> priors) const {
  if (!moves.empty()) Priors(pos, moves, priors);
  return classic_->Evaluate(pos, {}, {});
}

namespace {

// An integer that orders as the float does (IEEE 754: flip a negative's
// bits, set a non-negative's sign bit).
uint32_t OrderedBits(float x) {
  const auto bits = std::bit_cast<uint32_t>(x);
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}

// Moves the `size` largest of `key` (all different) to its front, in no
// order, and returns their smallest. Swaps in a few of the rest, so it does
// far less than a sort or nth_element, whose branches mispredict (they took
// 7% of a playout's time); the minimum is taken without a branch.
uint64_t KeepLargest(std::span<uint64_t> key, int size) {
  const auto smallest = [&key, size] {
    uint64_t m = key[0];
    for (int r = 1; r < size; ++r) m = std::min(m, key[r]);
    return m;
  };
  uint64_t lowest = smallest();
  for (size_t i = size; i < key.size(); ++i) {
    if (key[i] > lowest) {
      int r = 0;
      while (key[r] != lowest) ++r;
      std::swap(key[i], key[r]);
      lowest = smallest();
    }
  }
  return lowest;
}

}  // namespace

void ShortlistEvaluator::Priors(const Position& pos,
                                std::span<const Move> moves,
                                std::span<float> priors) const {
  const int count = static_cast<int>(moves.size());
  if (count <= size_) {
    classic_->Priors(pos, moves, priors);
    return;
  }
  // The shortlist: the `size_` best by the policy, ties to the lower index
  // so that it is the same every time; one integer key a move selects fast.
  std::array<float, MoveList::kCapacity> score;
  policy_->LogPriors(pos, moves, std::span<float>(score.data(), count));
  std::array<uint64_t, MoveList::kCapacity> key;
  for (int i = 0; i < count; ++i) {
    key[i] = uint64_t{OrderedBits(score[i])} << 32 |
             static_cast<uint32_t>(MoveList::kCapacity - 1 - i);
  }
  const uint64_t last_key =
      KeepLargest(std::span<uint64_t>(key.data(), count), size_);
  const auto index_of = [](uint64_t k) {
    return MoveList::kCapacity - 1 - static_cast<int>(k & 0xffff);
  };
  const auto index = [&key, &index_of](int r) { return index_of(key[r]); };
  // The classic utilities of the shortlist, the policy's log odds against
  // the shortlist's last move for the rest.
  MoveList listed;
  for (int r = 0; r < size_; ++r) listed.push_back(moves[index(r)]);
  std::array<float, MoveList::kCapacity> listed_utility;
  classic_->ChildUtilities(pos, std::span<const Move>(listed.begin(), size_),
                           std::span<float>(listed_utility.data(), size_));
  std::array<float, MoveList::kCapacity> utility;
  float worst = std::numeric_limits<float>::infinity();
  const double temperature = classic_->config().prior_temperature;
  const float last = score[index_of(last_key)];
  const auto lean = static_cast<float>(policy_weight_ * temperature);
  for (int r = 0; r < size_; ++r) {
    const int i = index(r);
    utility[i] = listed_utility[r] + lean * (score[i] - last);
    worst = std::min(worst, listed_utility[r]);
  }
  for (int r = size_; r < count; ++r) {
    const int i = index(r);
    utility[i] = worst + static_cast<float>(temperature) * (score[i] - last);
  }
  SoftmaxOfUtilities(std::span<const float>(utility.data(), count), temperature,
                     priors);
}

void ShortlistEvaluator::ChunkPriors(const Position& pos,
                                     std::span<const Move> moves,
                                     std::span<float> priors, int edges) const {
  if (edges == 0) {
    Priors(pos, moves, priors);
  } else if (policy_weight_ > 0) {
    BlendedPriors(pos, moves, priors);
  } else {
    classic_->Priors(pos, moves, priors);
  }
}

void ShortlistEvaluator::BlendedPriors(const Position& pos,
                                       std::span<const Move> moves,
                                       std::span<float> priors) const {
  const size_t count = moves.size();
  std::array<float, MoveList::kCapacity> score;
  std::array<float, MoveList::kCapacity> utility;
  policy_->LogPriors(pos, moves, std::span<float>(score.data(), count));
  classic_->ChildUtilities(pos, moves, std::span<float>(utility.data(), count));
  const double temperature = classic_->config().prior_temperature;
  const auto lean = static_cast<float>(policy_weight_ * temperature);
  for (size_t i = 0; i < count; ++i) utility[i] += lean * score[i];
  SoftmaxOfUtilities(std::span<const float>(utility.data(), count), temperature,
                     priors);
}

}  // namespace wallgo::search
