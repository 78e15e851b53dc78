// Parts of the reachability evaluation shared by Evaluate (eval.cc) and the
// evaluation of all children at once (children.cc), which builds its
// children's boards without a Position. Internal to search/classic.
#pragma once

#include <array>

#include "engine/bitboard.h"
#include "engine/position.h"
#include "search/classic/eval.h"

namespace wallgo::search {

// What the evaluation reads of a position besides the rules.
struct RaceBoard {
  std::array<Bitboard, kMaxPlayers> stones{};  // zero beyond `players`
  Bitboard occupied = 0;
  WallMasks walls;
  int players = 2;
  int mover = 0;          // the player to move: it gets the tempo
  bool in_setup = false;  // every region holding stones is contested
};
RaceBoard RaceBoardOf(const Position& pos);

// The one colour with stones in `region` among the first `players`, whose
// stones stones_of(p) gives; -1 when none has, -2 when several have.
template <typename StonesOf>
int RegionColour(int players, Bitboard region, StonesOf stones_of) {
  int colour = -1;
  int colours = 0;
  for (int p = 0; p < players; ++p) {
    if ((stones_of(p) & region) != 0) {
      colour = p;
      ++colours;
    }
  }
  return colours > 1 ? -2 : colour;
}
inline int RegionColour(const RaceBoard& board, Bitboard region) {
  return RegionColour(board.players, region,
                      [&board](int p) { return board.stones[p]; });
}

// Whether a region of `colour` (as RegionColour) counts exactly for that
// colour: a single colour's, and no more stones to come.
constexpr bool IsOwned(int colour, bool in_setup) {
  return colour >= 0 && !in_setup;
}

// Calls on_region(region, colour) for each region of `pos` holding stones,
// in order of its lowest stone. It reads `pos` itself, not a RaceBoard made
// of it: the hot callers evaluate a position they have just played, and a copy
// made then (probably stalling on the stores of Play) measured 6-13% slower
// (eval_bench BM_PlayAndEvaluate, BM_ChildrenOneByOne).
template <typename OnRegion>
void ForEachStoneRegion(const Position& pos, OnRegion on_region) {
  for (Bitboard left = pos.occupied(); left != 0;) {
    const Bitboard region = FloodFill(CellBit(LowestCell(left)), pos.walls());
    left &= ~region;
    on_region(region, RegionColour(pos.num_players(), region, [&pos](int p) {
                return pos.stones(ColourAt(p));
              }));
  }
}

// The estimate of an unfinished position on top of `score`, which holds the
// cells of the owned regions: the contested stones, the race for the
// `contested` cells and the mover's tempo.
void ScoreContested(const RaceBoard& board, Bitboard contested,
                    const EvalOptions& options,
                    std::array<float, kMaxPlayers>& score);

// WinFromScores(score, players, scale)[player], without the other entries.
float WinOf(const std::array<float, kMaxPlayers>& score, int players,
            float scale, int player);

}  // namespace wallgo::search
