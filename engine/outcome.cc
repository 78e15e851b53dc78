#include "engine/outcome.h"

#include <algorithm>
#include <bit>

namespace wallgo {

bool CanRunOutOfTurns(const Rules& rules) {
  return rules.wall_limit != kUnlimitedWalls || rules.stay != StayRule::kAlways;
}

double WinShare(unsigned winners, int player) {
  // No winner at all (nobody eligible) shares nothing: never a division by 0.
  if (!(winners >> player & 1)) return 0;
  return 1.0 / std::popcount(winners);
}

int Result::margin(int player) const {
  int best_other = -1;
  for (int p = 0; p < players; ++p) {
    if (p != player) best_other = std::max(best_other, sheet.score[p]);
  }
  return sheet.score[player] - best_other;
}

float Result::reward(int player) const {
  if (!won(player)) return -1.0f;
  return is_draw() ? 0.0f : 1.0f;
}

std::vector<int> Result::winner_indices() const {
  std::vector<int> indices;
  for (int p = 0; p < players; ++p) {
    if (won(p)) indices.push_back(p);
  }
  return indices;
}

unsigned RankWinners(const ScoreSheet& sheet, unsigned eligible) {
  unsigned winners = 0;
  int best_score = -1, best_region = -1;
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (!(eligible >> p & 1)) continue;
    const int score = sheet.score[p], region = sheet.largest_region[p];
    if (score > best_score || (score == best_score && region > best_region)) {
      winners = 0;
      best_score = score;
      best_region = region;
    }
    if (score == best_score && region == best_region) winners |= 1u << p;
  }
  return winners;
}

Result ComputeResult(const Position& pos, std::optional<Colour> out) {
  Result result;
  result.players = pos.num_players();
  result.sheet = ComputeScores(pos);
  unsigned eligible = (1u << result.players) - 1;
  if (out) eligible &= ~(1u << Index(*out));
  result.winners = RankWinners(result.sheet, eligible);
  return result;
}

CellOwners ComputeCellOwners(const Position& pos) {
  CellOwners owners;
  const Regions regions = FindRegions(pos.walls());
  for (int r = 0; r < regions.count; ++r) {
    const auto owner = static_cast<int8_t>(RegionOwner(pos, regions.masks[r]));
    for (Bitboard cells = regions.masks[r]; cells != 0;
         cells = PopLowest(cells)) {
      owners[LowestCell(cells)] = owner;
    }
  }
  return owners;
}

}  // namespace wallgo
