#include "search/classic/eval.h"

#include <algorithm>
#include <cmath>

#include "engine/bitboard.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "search/classic/race.h"

namespace wallgo::search {
namespace {

// Calls on_owned(owner, region) for each region holding the stones of a
// single player and returns the cells of the contested rest (regions holding
// several colours). During setup every region holding stones stays
// contested: stones still to come may land anywhere.
template <typename OnOwned>
Bitboard SplitRegions(const Position& pos, OnOwned on_owned) {
  Bitboard contested = 0;
  const bool in_setup = pos.in_setup();
  ForEachStoneRegion(pos, [&](Bitboard region, int colour) {
    if (IsOwned(colour, in_setup)) {
      on_owned(colour, region);
    } else {
      contested |= region;
    }
  });
  return contested;
}

// Owned regions' cells added to `score`; returns the contested cells.
Bitboard ScoreOwnedRegions(const Position& pos,
                           std::array<float, kMaxPlayers>& score) {
  return SplitRegions(pos, [&score](int owner, Bitboard region) {
    score[owner] += PopCount(region);
  });
}

// Whether the estimate is the final count: play phase, and no region is
// contested (or nobody can move any more, where the rules allow that).
// `running`: the caller knows the game is not over (it asked the rules),
// so the rules are not asked again.
bool IsFinished(const Position& pos, Bitboard contested, bool running) {
  if (pos.in_setup()) return false;
  if (contested == 0) return true;
  return !running && CanRunOutOfTurns(pos.rules()) && IsGameOver(pos);
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
// of one turn). A cell several players reach is shared (SplitTies); in the
// first turn the mover gets `first_turn_share` of those it is in.
void ClaimTurn(const std::array<Bitboard, kMaxPlayers>& fresh, int players,
               int mover, float mover_share,
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
}

// The cells that one step in each direction may enter: open ones whose edge
// on the way in is unwalled. Step(from, walls) & open, with the wall and rim
// masks folded in once per race rather than twice per player and turn.
struct StepMasks {
  Bitboard north, south, east, west;
};

StepMasks MakeStepMasks(const WallMasks& walls, Bitboard open) {
  return {(~walls.north << 7) & open, ~walls.north & open,
          (~walls.east << 1) & ~kColA & open, ~walls.east & ~kColG & open};
}

Bitboard StepInto(Bitboard from, const StepMasks& m) {
  return (from << 7 & m.north) | (from >> 7 & m.south) | (from << 1 & m.east) |
         (from >> 1 & m.west);
}

// The reachability race in the `contested` regions: all players spread a
// turn at a time (independently: reaching a cell first does not block the
// others' paths through it), and each empty cell goes to whoever reaches it
// in the fewest turns. Calls on_turn(fresh, turn) with each player's cells
// first reached in that turn (1, 2, ...); the caller shares out ties.
template <typename OnTurn>
void RunRace(const RaceBoard& board, Bitboard contested, OnTurn on_turn) {
  const int players = board.players;
  const Bitboard empty = contested & ~board.occupied;
  const StepMasks into_empty = MakeStepMasks(board.walls, empty);
  std::array<Bitboard, kMaxPlayers> reach{};
  for (int p = 0; p < players; ++p) {
    reach[p] = board.stones[p] & contested;
  }
  Bitboard unclaimed = empty;
  for (int turn = 1; unclaimed != 0; ++turn) {
    std::array<Bitboard, kMaxPlayers> fresh{};
    Bitboard grown = 0;
    for (int p = 0; p < players; ++p) {
      Bitboard r = reach[p];
      r |= StepInto(r, into_empty);
      r |= StepInto(r, into_empty);
      fresh[p] = r & ~reach[p] & unclaimed;
      grown |= fresh[p];
      reach[p] = r;
    }
    if (grown == 0) return;
    on_turn(fresh, turn);
    unclaimed &= ~grown;
  }
}

// ScoreRace for two players splitting first-turn ties evenly. Every share
// is then a whole or a half cell (the mover's first-turn share is 0.5, the
// other's 1 - 0.5), and `score` holds whole cells, so every partial sum is
// a multiple of 1/2 below 2^23: exact in floats, in any order. Counting the
// cells won and tied at the end therefore gives the very floats ClaimTurn's
// turn-by-turn sums give, without a popcount and a float add per turn.
void ScoreRaceOfTwo(const RaceBoard& board, Bitboard contested,
                    std::array<float, kMaxPlayers>& score) {
  std::array<Bitboard, 2> won{};
  Bitboard tied = 0;
  RunRace(board, contested,
          [&](const std::array<Bitboard, kMaxPlayers>& fresh, int) {
            won[0] |= fresh[0] & ~fresh[1];
            won[1] |= fresh[1] & ~fresh[0];
            tied |= fresh[0] & fresh[1];
          });
  const float half_tied = 0.5f * static_cast<float>(PopCount(tied));
  for (int p = 0; p < 2; ++p) {
    const int cells = PopCount(board.stones[p] & contested) + PopCount(won[p]);
    score[p] += static_cast<float>(cells) + half_tied;
  }
}

// The race scored: stones count for their owner, reached cells as
// ClaimTurn shares them.
void ScoreRace(const RaceBoard& board, Bitboard contested,
               float first_turn_share, std::array<float, kMaxPlayers>& score) {
  if (board.players == 2 && first_turn_share == 0.5f) {
    ScoreRaceOfTwo(board, contested, score);
    return;
  }
  const int players = board.players;
  const int mover = board.mover;
  for (int p = 0; p < players; ++p) {
    score[p] += PopCount(board.stones[p] & contested);
  }
  RunRace(board, contested,
          [&](const std::array<Bitboard, kMaxPlayers>& fresh, int turn) {
            ClaimTurn(fresh, players, mover, turn == 1 ? first_turn_share : -1,
                      score);
          });
}

// Gives every cell of `cells` wholly to player `owner` (kMaxPlayers: nobody).
void GiveCells(Bitboard cells, int owner, Ownership& o) {
  for (; cells != 0; cells &= cells - 1) {
    std::array<float, kMaxPlayers + 1>& share = o.share[LowestCell(cells)];
    share.fill(0);
    share[owner] = 1;
  }
}

// Each cell first reached by several players in one turn, shared as the
// score's ClaimTurn/SplitTies share it.
void ShareTies(const std::array<Bitboard, kMaxPlayers>& fresh, int players,
               int mover, float mover_share, Ownership& o) {
  Bitboard once = 0, several = 0;
  for (int p = 0; p < players; ++p) {
    several |= once & fresh[p];
    once |= fresh[p];
  }
  for (int p = 0; p < players; ++p) GiveCells(fresh[p] & ~several, p, o);
  for (Bitboard cells = several; cells != 0; cells &= cells - 1) {
    const int cell = LowestCell(cells);
    int k = 0;
    for (int p = 0; p < players; ++p) k += (fresh[p] >> cell) & 1;
    const bool with_mover = mover_share >= 0 && ((fresh[mover] >> cell) & 1);
    std::array<float, kMaxPlayers + 1>& share = o.share[cell];
    share.fill(0);
    for (int p = 0; p < players; ++p) {
      if (((fresh[p] >> cell) & 1) == 0) continue;
      share[p] = !with_mover  ? 1.0f / static_cast<float>(k)
                 : p == mover ? mover_share
                              : (1 - mover_share) / static_cast<float>(k - 1);
    }
  }
}

}  // namespace

RaceBoard RaceBoardOf(const Position& pos) {
  RaceBoard board;
  for (int p = 0; p < pos.num_players(); ++p) {
    board.stones[p] = pos.stones(ColourAt(p));
  }
  board.occupied = pos.occupied();
  board.walls = pos.walls();
  board.players = pos.num_players();
  board.mover = Index(pos.to_move());
  board.in_setup = pos.in_setup();
  return board;
}

void ScoreContested(const RaceBoard& board, Bitboard contested,
                    const EvalOptions& options,
                    std::array<float, kMaxPlayers>& score) {
  ScoreRace(board, contested, options.first_turn_share, score);
  score[board.mover] += options.tempo_cells;
}

namespace {

Territory Estimate(const Position& pos, const EvalOptions& options,
                   bool running) {
  Territory t;
  const Bitboard contested = ScoreOwnedRegions(pos, t.score);
  t.contested_cells = PopCount(contested);
  t.finished = IsFinished(pos, contested, running);
  if (t.finished) {
    const ScoreSheet sheet = ComputeScores(pos);
    for (int p = 0; p < kMaxPlayers; ++p) t.score[p] = sheet.score[p];
    return t;
  }
  ScoreContested(RaceBoardOf(pos), contested, options, t.score);
  return t;
}

}  // namespace

Territory EstimateTerritory(const Position& pos, const EvalOptions& options) {
  return Estimate(pos, options, false);
}

Ownership EstimateOwnership(const Position& pos, const EvalOptions& options) {
  Ownership o;
  GiveCells(kAllCells, kMaxPlayers, o);  // nobody's until shown otherwise
  const Bitboard contested = SplitRegions(
      pos, [&o](int owner, Bitboard region) { GiveCells(region, owner, o); });
  if (IsFinished(pos, contested, false)) return o;  // contested cells: nobody's
  const int players = pos.num_players();
  const int mover = Index(pos.to_move());
  for (int p = 0; p < players; ++p) {
    GiveCells(pos.stones(ColourAt(p)) & contested, p, o);
  }
  RunRace(RaceBoardOf(pos), contested,
          [&](const std::array<Bitboard, kMaxPlayers>& fresh, int turn) {
            ShareTies(fresh, players, mover,
                      turn == 1 ? options.first_turn_share : -1, o);
          });
  return o;
}

float WinScale(int contested_cells) {
  // Fitted by eval_calibrate (docs/eval.md): the final margin's
  // spread grows like the square root of the cells still in play.
  return 0.25f + 0.55f * std::sqrt(static_cast<float>(contested_cells));
}

namespace {

// WinFromScores before its division: each player's exp((score - best) /
// scale) and their sum, in player order.
struct SoftmaxTerms {
  std::array<float, kMaxPlayers> term{};
  float total = 0;
};

SoftmaxTerms Softmax(const std::array<float, kMaxPlayers>& score, int players,
                     float scale) {
  float best = score[0];
  for (int p = 1; p < players; ++p) best = std::max(best, score[p]);
  SoftmaxTerms s;
  for (int p = 0; p < players; ++p) {
    s.term[p] = std::exp((score[p] - best) / scale);
    s.total += s.term[p];
  }
  return s;
}

}  // namespace

std::array<float, kMaxPlayers> WinFromScores(
    const std::array<float, kMaxPlayers>& score, int players, float scale) {
  SoftmaxTerms s = Softmax(score, players, scale);
  for (int p = 0; p < players; ++p) s.term[p] /= s.total;
  return s.term;
}

float WinOf(const std::array<float, kMaxPlayers>& score, int players,
            float scale, int player) {
  const SoftmaxTerms s = Softmax(score, players, scale);
  return s.term[player] / s.total;
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
  const Result result = ComputeResult(pos);
  if (!result.won(Index(colour))) return margin - kWinValue;
  return result.is_draw() ? margin : margin + kWinValue;
}

namespace {

Evaluation EvaluateKnowing(const Position& pos, bool running) {
  const Territory t = Estimate(pos, EvalOptions{}, running);
  Evaluation e;
  e.score = t.score;
  if (!t.finished) {
    e.win =
        WinFromScores(t.score, pos.num_players(), WinScale(t.contested_cells));
    return e;
  }
  const Result result = ComputeResult(pos);
  for (int p = 0; p < result.players; ++p) {
    e.win[p] = static_cast<float>(result.win_share(p));
  }
  return e;
}

}  // namespace

Evaluation Evaluate(const Position& pos) { return EvaluateKnowing(pos, false); }

Evaluation EvaluateRunning(const Position& pos) {
  return EvaluateKnowing(pos, true);
}

}  // namespace wallgo::search
