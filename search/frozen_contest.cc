#include "search/frozen_contest.h"

#include <algorithm>

#include "engine/regions.h"

namespace wallgo::search {

std::optional<std::array<int, kMaxPlayers>> FrozenContestCaps(
    const Position& pos) {
  const Rules& rules = pos.rules();
  if (rules.stay != StayRule::kMobile || rules.wall_limit != kUnlimitedWalls ||
      pos.in_setup()) {
    return std::nullopt;
  }
  const int players = pos.num_players();
  for (int p = 0; p < players; ++p) {
    if (pos.breakers_left(ColourAt(p)) > 0) return std::nullopt;
  }
  const Regions regions = FindRegions(pos.walls());
  Bitboard frozen = 0;
  for (int i = 0; i < regions.count; ++i) {
    const Bitboard region = regions.masks[i];
    const bool full = (region & ~pos.occupied()) == 0;
    if (full && RegionOwner(pos, region) == -2) frozen |= region;
  }
  if (frozen == 0) return std::nullopt;
  std::array<int, kMaxPlayers> caps{};
  for (int p = 0; p < players; ++p) {
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
