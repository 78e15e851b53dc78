// A Wall Go position: stones, walls, side to move and phase, with an
// incrementally updated Zobrist hash. Positions are small values; the way to
// play a move is copy-make: `Position next = pos; next.Play(move);`.
#pragma once

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "engine/bitboard.h"
#include "engine/types.h"

namespace wallgo {

// OK when `rules` is a rule set of docs/rules.md: 2-4 players, fourstone setup
// only with 2 players, breakers 0 or 1 and 0 with 2 players, wall limit
// unlimited or 0..84.
absl::Status ValidateRules(const Rules& rules);

class Position {
 public:
  // The start of a game under `rules` (setup phase, first placement due).
  // Fails with InvalidArgument for rules outside docs/rules.md.
  static absl::StatusOr<Position> Start(const Rules& rules);

  // Builds a position from raw parts, as notation's position string does, and
  // checks that it can arise under `rules` (stone counts consistent with the
  // placement order, no two stones on a cell, wall counts within the limit,
  // breakers in range, `to_move` in the game). The setup phase is derived
  // from the number of stones placed.
  struct Parts {
    Rules rules;
    Colour to_move = Colour::kRed;
    std::array<Bitboard, kMaxPlayers> stones{};
    std::array<WallMasks, kMaxPlayers> walls{};  // who built which wall
    std::array<int, kMaxPlayers> breakers_left{};
  };
  static absl::StatusOr<Position> FromParts(const Parts& parts);
  Parts ToParts() const;

  const Rules& rules() const { return rules_; }
  int num_players() const { return rules_.players; }
  Colour to_move() const { return to_move_; }

  // Setup phase: placements remain. `placements_done` counts placements made
  // in the game (the four fixed stones of setup=fourstone are not placements).
  bool in_setup() const { return placements_done_ < TotalPlacements(rules_); }
  int placements_done() const { return placements_done_; }
  static int TotalPlacements(const Rules& rules);
  // Who places the `index`-th stone (0-based) under `rules`.
  static Colour PlacerAt(const Rules& rules, int index);

  Bitboard stones(Colour c) const { return stones_[Index(c)]; }
  Bitboard occupied() const { return occupied_; }
  const WallMasks& walls() const { return walls_; }  // every wall
  const WallMasks& walls_of(Colour c) const { return walls_by_[Index(c)]; }
  int walls_on_board(Colour c) const;
  // Walls `c` may still build, or kUnlimitedWalls.
  int walls_left(Colour c) const;
  int breakers_left(Colour c) const { return breakers_left_[Index(c)]; }

  uint64_t hash() const { return hash_; }
  uint64_t ComputeHash() const;  // from scratch, to check the incremental one

  // Plays `move` for the side to move. The move must be legal (see
  // movegen.h); playing an illegal move is undefined.
  void Play(Move move);

  bool operator==(const Position& other) const;

 private:
  Position() = default;
  void AdvanceTurn();  // play phase: the next colour in turn order
  void ToggleWall(Colour builder, Edge edge);

  Rules rules_;
  std::array<Bitboard, kMaxPlayers> stones_{};
  std::array<WallMasks, kMaxPlayers> walls_by_{};
  Bitboard occupied_ = 0;
  WallMasks walls_;
  uint64_t hash_ = 0;
  std::array<uint8_t, kMaxPlayers> breakers_left_{};
  uint8_t placements_done_ = 0;
  Colour to_move_ = Colour::kRed;
};

}  // namespace wallgo
