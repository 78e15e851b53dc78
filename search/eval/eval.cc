#include "search/eval/eval.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/bitboard.h"
#include "engine/regions.h"

namespace wallgo::search {
namespace {

// Rules under which a game can also end because nobody has a legal turn
// while regions are still shared; with unlimited walls and stay=always a
// stone in a shared region can always stay and wall one of its open edges.
bool CanRunOutOfTurns(const Rules& rules) {
  return rules.wall_limit != kUnlimitedWalls || rules.stay != StayRule::kAlways;
}

// Splits the cells of regions holding stones into those owned by a single
// player (added to `score`) and the contested rest (returned). During setup
// every region stays contested: stones still to come may land anywhere.
Bitboard ScoreOwnedRegions(const Position& pos,
                           std::array<float, kMaxPlayers>& score) {
  Bitboard contested = 0;
  Bitboard stones_left = pos.occupied();
  while (stones_left != 0) {
    const Bitboard region =
        FloodFill(CellBit(LowestCell(stones_left)), pos.walls());
    stones_left &= ~region;
    int owner = -1;
    int colours = 0;
    for (int p = 0; p < pos.num_players(); ++p) {
      if (pos.stones(ColourAt(p)) & region) {
        owner = p;
        ++colours;
      }
    }
    if (colours == 1 && !pos.in_setup()) {
      score[owner] += PopCount(region);
    } else {
      contested |= region;
    }
  }
  return contested;
}

// The cells of `cells` held by exactly `k` of the `sets`, for k = 0..4: a
// bit-sliced counter of how many sets hold each cell.
std::array<Bitboard, kMaxPlayers + 1> ByNumberOfSets(
    Bitboard cells, const std::array<Bitboard, kMaxPlayers>& sets,
    int players) {
  Bitboard ones = 0, twos = 0, fours = 0;
  for (int p = 0; p < players; ++p) {
    const Bitboard x = sets[p] & cells;
    const Bitboard carry = ones & x;
    ones ^= x;
    fours |= twos & carry;
    twos ^= carry;
  }
  return {cells & ~ones & ~twos & ~fours, ones & ~twos,
          ~ones & twos & ~fours & cells, ones & twos, fours};
}

// Shares out each cell of `cells` among the players whose `sets` hold it:
// evenly, except that when `mover_share` >= 0 and `mover` is among them, the
// mover gets `mover_share` and the others split the rest.
void SplitTies(Bitboard cells, const std::array<Bitboard, kMaxPlayers>& sets,
               int players, int mover, float mover_share,
               std::array<float, kMaxPlayers>& score) {
  const auto by_sharers = ByNumberOfSets(cells, sets, players);
  for (int k = 2; k <= players; ++k) {
    const Bitboard shared = by_sharers[k];
    if (shared == 0) continue;
    const Bitboard with_mover = mover_share >= 0 ? shared & sets[mover] : 0;
    const float even = 1.0f / static_cast<float>(k);
    const float rest = (1 - mover_share) / static_cast<float>(k - 1);
    for (int p = 0; p < players; ++p) {
      score[p] += even * PopCount(sets[p] & shared & ~with_mover);
      const float share = p == mover ? mover_share : rest;
      if (with_mover != 0) score[p] += share * PopCount(sets[p] & with_mover);
    }
  }
}

// Hands out the cells `fresh` (each player's newly reached, unclaimed cells
// of one turn), removing them from `unclaimed`. A cell several players reach
// is shared (SplitTies); in the first turn the mover gets
// `first_turn_share` of those it is in.
void ClaimTurn(const std::array<Bitboard, kMaxPlayers>& fresh, int players,
               int mover, float mover_share, Bitboard& unclaimed,
               std::array<float, kMaxPlayers>& score) {
  Bitboard once = 0;
  Bitboard several = 0;
  for (int p = 0; p < players; ++p) {
    several |= once & fresh[p];
    once |= fresh[p];
  }
  for (int p = 0; p < players; ++p) {
    score[p] += PopCount(fresh[p] & ~several);
  }
  SplitTies(several, fresh, players, mover, mover_share, score);
  unclaimed &= ~once;
}

// The reachability race in the `contested` regions: all players spread a
// turn at a time (independently: reaching a cell first does not block the
// others' paths through it), and each cell goes to whoever reaches it in the
// fewest turns, ties shared (ClaimTurn).
void ScoreRace(const Position& pos, Bitboard contested, float first_turn_share,
               std::array<float, kMaxPlayers>& score) {
  const int players = pos.num_players();
  const WallMasks& walls = pos.walls();
  const Bitboard empty = contested & ~pos.occupied();
  const int mover = Index(pos.to_move());
  std::array<Bitboard, kMaxPlayers> reach{};
  for (int p = 0; p < players; ++p) {
    reach[p] = pos.stones(ColourAt(p)) & contested;
    score[p] += PopCount(reach[p]);
  }
  Bitboard unclaimed = empty;
  for (int turn = 1; unclaimed != 0; ++turn) {
    std::array<Bitboard, kMaxPlayers> fresh{};
    Bitboard grown = 0;
    for (int p = 0; p < players; ++p) {
      Bitboard r = reach[p];
      r |= Step(r, walls) & empty;
      r |= Step(r, walls) & empty;
      fresh[p] = r & ~reach[p] & unclaimed;
      grown |= fresh[p];
      reach[p] = r;
    }
    if (grown == 0) return;
    ClaimTurn(fresh, players, mover, turn == 1 ? first_turn_share : -1,
              unclaimed, score);
  }
}

}  // namespace

Territory EstimateTerritory(const Position& pos, const EvalOptions& options) {
  Territory t;
  const Bitboard contested = ScoreOwnedRegions(pos, t.score);
  t.contested_cells = PopCount(contested);
  t.finished =
      !pos.in_setup() &&
      (contested == 0 || (CanRunOutOfTurns(pos.rules()) && IsGameOver(pos)));
  if (t.finished) {
    const ScoreSheet sheet = ComputeScores(pos);
    for (int p = 0; p < kMaxPlayers; ++p) t.score[p] = sheet.score[p];
    return t;
  }
  ScoreRace(pos, contested, options.first_turn_share, t.score);
  t.score[Index(pos.to_move())] += options.tempo_cells;
  return t;
}

float WinScale(int contested_cells) {
  // Fitted by eval_calibrate (docs/eval.md): the final margin's
  // spread grows like the square root of the cells still in play.
  return 0.25f + 0.55f * std::sqrt(static_cast<float>(contested_cells));
}

std::array<float, kMaxPlayers> WinFromScores(
    const std::array<float, kMaxPlayers>& score, int players, float scale) {
  float best = score[0];
  for (int p = 1; p < players; ++p) best = std::max(best, score[p]);
  std::array<float, kMaxPlayers> win{};
  float total = 0;
  for (int p = 0; p < players; ++p) {
    win[p] = std::exp((score[p] - best) / scale);
    total += win[p];
  }
  for (int p = 0; p < players; ++p) win[p] /= total;
  return win;
}

float ScoreMargin(const std::array<float, kMaxPlayers>& score, int players,
                  Colour colour) {
  const int me = Index(colour);
  float best_other = -1e9f;
  for (int p = 0; p < players; ++p) {
    if (p != me) best_other = std::max(best_other, score[p]);
  }
  return score[me] - best_other;
}

float OutcomeValue(const Position& pos, Colour colour,
                   const EvalOptions& options) {
  const Territory t = EstimateTerritory(pos, options);
  const float margin = ScoreMargin(t.score, pos.num_players(), colour);
  if (!t.finished) return margin;
  const unsigned winners = ComputeResult(pos).winners;
  if ((winners & (1u << Index(colour))) == 0) return margin - kWinValue;
  return std::popcount(winners) == 1 ? margin + kWinValue : margin;
}

Evaluation Evaluate(const Position& pos) {
  const Territory t = EstimateTerritory(pos);
  Evaluation e;
  e.score = t.score;
  if (!t.finished) {
    e.win =
        WinFromScores(t.score, pos.num_players(), WinScale(t.contested_cells));
    return e;
  }
  const Result result = ComputeResult(pos);
  const float share = 1.0f / static_cast<float>(std::popcount(result.winners));
  for (int p = 0; p < pos.num_players(); ++p) {
    if (result.winners & (1u << p)) e.win[p] = share;
  }
  return e;
}

}  // namespace wallgo::search
