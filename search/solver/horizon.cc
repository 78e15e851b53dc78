// Sound bounds on a two-player position's value at the solver's horizon
// (docs/solver.md, "Bounds at the horizon"), from what no line of play can
// change: without wall breakers a stone never leaves its region and a wall
// is built inside the builder's region, so a region owned by one player
// stays owned by that player (its cells cut off by the owner's own walls
// become stoneless) and a stoneless region stays stoneless.
#include <algorithm>
#include <array>

#include "engine/regions.h"
#include "search/solver/solver_table.h"

namespace wallgo::search::solver_internal {
namespace {

// What the board says of each player, by region.
struct Census {
  std::array<int, 2> settled_cells{};   // cells of regions the player owns
  std::array<int, 2> settled_stones{};  // its stones in them
  std::array<int, 2> shared_stones{};   // its stones in shared regions
  std::array<int, 2> frozen_stones{};   // its stones in frozen ones
  int shared_cells = 0;
  bool frozen = false;  // a shared region without an empty cell
};

// From the contested regions alone: every other region holding stones is
// one player's, so a flood from a player's stones outside the contest
// fills exactly its settled regions (stoneless regions never enter).
Census TakeCensus(const Position& pos, const ContestedRegions& contested) {
  Census c;
  const Bitboard shared = contested.cells;
  c.shared_cells = PopCount(shared);
  c.frozen = contested.full != 0;
  for (int p = 0; p < 2; ++p) {
    const Bitboard stones = pos.stones(ColourAt(p));
    c.settled_cells[p] = PopCount(FloodFill(stones & ~shared, pos.walls()));
    c.settled_stones[p] = PopCount(stones & ~shared);
    c.shared_stones[p] = PopCount(stones & shared);
    c.frozen_stones[p] = PopCount(stones & contested.full);
  }
  return c;
}

// The least final score player `p` can make sure of, whatever the other
// does. With stay=always a stone in a shared region can always stay and
// wall one of its open edges (a shared region has two cells or more), or,
// out of walls under a wall limit, has no turn: so a player who moves in
// shared regions while there are any never walls inside its own regions,
// and keeps them whole until the game ends. With unlimited walls the game
// then ends only with every region owned, each stone's cell its owner's.
// With stay=mobile a stone can be walled in while its owner still has
// moves in its own regions, which may cost all but the stones' cells.
int Guaranteed(const Position& pos, const Census& c, int p) {
  const Rules& rules = pos.rules();
  if (rules.stay == StayRule::kMobile) return c.settled_stones[p];
  if (rules.wall_limit != kUnlimitedWalls) return c.settled_cells[p];
  return c.settled_cells[p] + c.shared_stones[p];
}

// The most player `p` can score: no cell of the other's regions (they stay
// the other's or become stoneless), no stoneless cell, and not the cells
// the other's stones in shared regions end the game on (a stone never
// leaves its region, and a region with one of its stones is never ours). Under
// stay=mobile with unlimited walls, a shared region full of stones never thaws
// (ContestsStayFrozen), and the game can then end only when no stone can
// move, every region full: the player's stones outside such regions.
int Most(const Position& pos, const Census& c, int p) {
  const int most = c.settled_cells[p] + c.shared_cells - c.shared_stones[1 - p];
  if (c.frozen && ContestsStayFrozen(pos)) {
    const int stones = PopCount(pos.stones(ColourAt(p)));
    return std::min(most, stones - c.frozen_stones[p]);
  }
  return most;
}

// The least and the most value (relative to a draw) of final margins from
// `low` to `high`. A margin of 0 is a win, a draw or a loss by the
// tie-break (the largest region), which these bounds do not follow.
int LeastValue(int low) {
  return low > 0 ? kDrawUtility + low : -kDrawUtility + std::min(low, 0);
}
int MostValue(int high) {
  return high < 0 ? -kDrawUtility + high : kDrawUtility + high;
}

}  // namespace

std::optional<HorizonBounds> BoundsAtHorizon(const Position& pos) {
  return BoundsAtHorizon(pos, FindContestedRegions(pos, kAllCells));
}

std::optional<HorizonBounds> BoundsAtHorizon(
    const Position& pos, const ContestedRegions& contested) {
  if (pos.num_players() != 2 || pos.in_setup()) return std::nullopt;
  for (int p = 0; p < 2; ++p) {
    if (pos.breakers_left(ColourAt(p)) > 0) return std::nullopt;
  }
  const Census c = TakeCensus(pos, contested);
  const int me = Index(pos.to_move()), other = 1 - me;
  HorizonBounds b;
  b.lower = LeastValue(Guaranteed(pos, c, me) - Most(pos, c, other));
  b.upper = MostValue(Most(pos, c, me) - Guaranteed(pos, c, other));
  return b;
}

}  // namespace wallgo::search::solver_internal
