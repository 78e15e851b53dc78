// The outcome of a position, stated once for every room that needs it (the
// evaluators, the analysis JSON, the referee, the GUI, the Python module,
// the trainer): scores, winners, each player's share of the win, margins,
// rewards and who owns each cell. For a finished game that is its result;
// for a running one, the result if the game ended now (only regions with a
// single owner count). Also whether a game can end with regions still
// shared.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/position.h"
#include "engine/regions.h"

namespace wallgo {

// Whether a game under `rules` can also end because nobody has a legal turn
// while regions are still shared: only with a wall limit or stay=mobile;
// with unlimited walls and stay=always a stone in a shared region can
// always stay and wall one of its open edges.
bool CanRunOutOfTurns(const Rules& rules);

// `player`'s share of a win held by `winners` (one bit per colour index):
// 1 for a sole winner, 1/k for each of k sharing a draw, 0 for the others.
double WinShare(unsigned winners, int player);

// The result by score, then tie-break. `winners` has one bit per colour
// index; more than one bit set is a draw shared among those players.
struct Result {
  ScoreSheet sheet;
  unsigned winners = 0;
  int players = 0;  // the players in the game (the sheet's first entries)

  bool is_draw() const { return (winners & (winners - 1)) != 0; }
  bool won(int player) const { return (winners >> player & 1) != 0; }
  double win_share(int player) const { return WinShare(winners, player); }
  // `player`'s score minus the best score among the other players.
  int margin(int player) const;
  // The reward of the learning environments: 1 for a sole win, 0 for a
  // shared draw, -1 for the others.
  float reward(int player) const;
  // The winners' colour indices, lowest first.
  std::vector<int> winner_indices() const;
};

// The players of `eligible` (one bit per colour index) that rank first by
// score, then by largest region.
unsigned RankWinners(const ScoreSheet& sheet, unsigned eligible);

// The outcome of `pos` as it stands. `out` (a player who resigned or
// forfeited) never wins: the others are ranked among themselves.
Result ComputeResult(const Position& pos,
                     std::optional<Colour> out = std::nullopt);

// Each cell's owner as the score counts it: its region's single colour
// index, kNoCellOwner for a region without stones and kSharedCell for one
// holding several colours.
inline constexpr int8_t kNoCellOwner = -1;
inline constexpr int8_t kSharedCell = -2;
using CellOwners = std::array<int8_t, kNumCells>;
CellOwners ComputeCellOwners(const Position& pos);

}  // namespace wallgo
