#include "search/frozen_contest.h"

#include <algorithm>

#include "engine/regions.h"

namespace wallgo::search {

std::optional<std::array<int, kMaxPlayers>> FrozenContestCaps(
    const Position& pos) {
  if (!ContestsStayFrozen(pos)) return std::nullopt;
  const Bitboard frozen = FindContestedRegions(pos, kAllCells).full;
  if (frozen == 0) return std::nullopt;
  std::array<int, kMaxPlayers> caps{};
  for (int p = 0; p < pos.num_players(); ++p) {
    caps[p] = PopCount(pos.stones(ColourAt(p)) & ~frozen);
  }
  return caps;
}

Value ValueOfCaps(const std::array<int, kMaxPlayers>& caps, int players) {
  const int top = *std::max_element(caps.begin(), caps.begin() + players);
  const int at_top =
      static_cast<int>(std::count(caps.begin(), caps.begin() + players, top));
  Value v;
  for (int p = 0; p < players; ++p) {
    int best_other = -1;
    for (int q = 0; q < players; ++q) {
      if (q != p) best_other = std::max(best_other, caps[q]);
    }
    v.win[p] = caps[p] == top ? 1.0f / static_cast<float>(at_top) : 0.0f;
    v.margin[p] = static_cast<float>(caps[p] - best_other);
  }
  return v;
}

Value FrozenContestEvaluator::Evaluate(const Position& pos,
                                       std::span<const Move> moves,
                                       std::span<float> priors) const {
  const auto caps = FrozenContestCaps(pos);
  if (!caps) return inner_->Evaluate(pos, moves, priors);
  if (!moves.empty()) inner_->Priors(pos, moves, priors);
  return ValueOfCaps(*caps, pos.num_players());
}

Value FrozenContestEvaluator::ChildEstimate(const Position& child) const {
  const auto caps = FrozenContestCaps(child);
  return caps ? ValueOfCaps(*caps, child.num_players())
              : inner_->ChildEstimate(child);
}

}  // namespace wallgo::search
