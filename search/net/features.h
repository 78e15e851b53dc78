// The network's input: a sparse set of binary features of a position, seen
// from the side to move. Players are numbered by *slot*: slot 0 is the side
// to move, slot 1 the next in turn order, and so on, so one network serves
// every seat. The features are what the engine computes cheaply:
//   - stones: slot s has a stone on cell c (4 x 49);
//   - the reachability race, one class per cell (49 x 18): in a region owned
//     by slot s (4); reached first by slot s alone in turn 0-1, 2, or 3+
//     (4 x 3); reached first by several players in the same turn (1); or by
//     nobody / in a region without stones (1);
//   - walls: one per interior edge (84), whoever built it;
//   - globals: players, placements left, breakers left per slot, setup and
//     stay rules, whether walls are limited.
// The same code makes the trainer's inputs (wallgo-net features), so the
// trainer and the engine can never disagree on them.
#pragma once

#include <array>
#include <cstdint>

#include "engine/position.h"

namespace wallgo::search::net {

inline constexpr int kFeatureSetVersion = 1;

inline constexpr int kStoneBase = 0;
inline constexpr int kRaceClasses = 18;
inline constexpr int kRaceBase = kStoneBase + kMaxPlayers * kNumCells;
inline constexpr int kWallBase = kRaceBase + kRaceClasses * kNumCells;
inline constexpr int kNumEdges = 84;
inline constexpr int kGlobalBase = kWallBase + kNumEdges;
inline constexpr int kPlayersBase = kGlobalBase;              // 2, 3, 4
inline constexpr int kPlacementsLeftBase = kPlayersBase + 3;  // 0..8
inline constexpr int kBreakersBase = kPlacementsLeftBase + 9;
inline constexpr int kSetupEmpty = kBreakersBase + kMaxPlayers;
inline constexpr int kStayMobile = kSetupEmpty + 1;
inline constexpr int kWallsLimited = kStayMobile + 1;
inline constexpr int kNumFeatures = kWallsLimited + 1;
// At most 16 stones + 49 race classes + 84 walls + 9 globals are active.
inline constexpr int kMaxActive = 160;

// Race classes of a cell.
inline constexpr int kRaceOwned = 0;  // + slot
inline constexpr int kRaceFirst = 4;  // + 3 * slot + turn bucket
inline constexpr int kRaceTie = 16;
inline constexpr int kRaceNobody = 17;

// The policy head: one logit per placement cell, per stone origin, per
// destination, per (destination, side) for building and for breaking.
// A move's logit is the sum of its parts (PolicyIndices).
inline constexpr int kPolicyPlace = 0;
inline constexpr int kPolicyFrom = kPolicyPlace + kNumCells;
inline constexpr int kPolicyTo = kPolicyFrom + kNumCells;
inline constexpr int kPolicyWall = kPolicyTo + kNumCells;
inline constexpr int kPolicyBreak = kPolicyWall + kNumCells * kNumSides;
inline constexpr int kPolicySize = kPolicyBreak + kNumCells * kNumSides;
inline constexpr int kNoPolicyIndex = kPolicySize;  // contributes 0

// The policy logits a move's logit is the sum of (kNoPolicyIndex: none).
// Inline: the search asks it for every legal move of every node it expands.
inline std::array<uint16_t, 3> PolicyIndices(Move move) {
  constexpr uint16_t kNone = kNoPolicyIndex;
  const int side = static_cast<int>(move.side);
  switch (move.kind) {
    case MoveKind::kPlace:
      return {static_cast<uint16_t>(kPolicyPlace + move.to), kNone, kNone};
    case MoveKind::kTurn:
    case MoveKind::kBreak: {
      const int wall_base =
          move.kind == MoveKind::kTurn ? kPolicyWall : kPolicyBreak;
      return {static_cast<uint16_t>(kPolicyFrom + move.from),
              static_cast<uint16_t>(kPolicyTo + move.to),
              static_cast<uint16_t>(wall_base + move.to * kNumSides + side)};
    }
    default:
      return {kNone, kNone, kNone};
  }
}

// The feature of a wall on `edge`: north edges of rows 1-6 first (the
// edge's cell index), then east edges of columns a-f (row * 6 + column).
constexpr int WallFeature(Edge edge) {
  return kWallBase +
         (edge.east ? 42 + edge.cell - RowOf(edge.cell) : edge.cell);
}

// The slot of `colour` when `mover` is to move in a game of `players`.
constexpr int SlotOf(int colour, int mover, int players) {
  return (colour - mover + players) % players;
}

struct Features {
  std::array<uint16_t, kMaxActive> active;
  int count = 0;
  // The game is over (as the classic evaluation decides it: every region
  // settled, or, where it can happen, nobody able to move).
  bool finished = false;
};

// Extracts the active features of `pos` (each once, in no set order).
void ExtractFeatures(const Position& pos, Features& out);

}  // namespace wallgo::search::net
