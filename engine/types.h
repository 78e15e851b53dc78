// Basic value types of the rules: colours, sides, edges, moves and rules.
#pragma once

#include <array>
#include <cstdint>

namespace wallgo {

inline constexpr int kMaxPlayers = 4;

// Colours in turn order; a game of N players uses the first N.
enum class Colour : uint8_t { kRed = 0, kBlue = 1, kGreen = 2, kYellow = 3 };

constexpr int Index(Colour c) { return static_cast<int>(c); }
constexpr Colour ColourAt(int index) { return static_cast<Colour>(index); }

// The four sides of a cell, in the order the notation lists them.
enum class Side : uint8_t { kNorth = 0, kEast = 1, kSouth = 2, kWest = 3 };
inline constexpr int kNumSides = 4;

constexpr int CellOf(int col, int row) { return row * 7 + col; }
constexpr int ColOf(int cell) { return cell % 7; }
constexpr int RowOf(int cell) { return cell / 7; }

// An interior edge in canonical form: the north or east edge of `cell`.
struct Edge {
  uint8_t cell = 0;
  bool east = false;
  constexpr bool operator==(const Edge&) const = default;
};

// The edge on `side` of `cell`; `valid` is false for a rim edge.
struct EdgeOrRim {
  Edge edge;
  bool valid = false;
};
constexpr EdgeOrRim EdgeAt(int cell, Side side) {
  const int col = ColOf(cell), row = RowOf(cell);
  switch (side) {
    case Side::kNorth:
      return {{static_cast<uint8_t>(cell), false}, row < 6};
    case Side::kEast:
      return {{static_cast<uint8_t>(cell), true}, col < 6};
    case Side::kSouth:
      return {{static_cast<uint8_t>(cell - 7), false}, row > 0};
    case Side::kWest:
      return {{static_cast<uint8_t>(cell - 1), true}, col > 0};
  }
  return {};
}

enum class MoveKind : uint8_t {
  kPlace,   // setup phase: a stone on `to`
  kTurn,    // move `from` -> `to`, build a wall on `side` of `to`
  kBreak,   // move `from` -> `to`, remove the wall on `side` of `to`
  kPass,    // only when the player has no legal turn
  kResign,  // accepted from a player, never generated
};

struct Move {
  MoveKind kind = MoveKind::kPass;
  uint8_t from = 0;
  uint8_t to = 0;
  Side side = Side::kNorth;

  static constexpr Move Place(int cell) {
    return {MoveKind::kPlace, 0, static_cast<uint8_t>(cell), Side::kNorth};
  }
  static constexpr Move Turn(int from, int to, Side side) {
    return {MoveKind::kTurn, static_cast<uint8_t>(from),
            static_cast<uint8_t>(to), side};
  }
  static constexpr Move Break(int from, int to, Side side) {
    return {MoveKind::kBreak, static_cast<uint8_t>(from),
            static_cast<uint8_t>(to), side};
  }
  static constexpr Move Pass() { return {}; }
  static constexpr Move Resign() {
    return {MoveKind::kResign, 0, 0, Side::kNorth};
  }
  // A compact 32-bit code, unique per move, handy as a map key.
  constexpr uint32_t Code() const {
    return static_cast<uint32_t>(kind) << 24 | uint32_t{from} << 16 |
           uint32_t{to} << 8 | static_cast<uint32_t>(side);
  }
  constexpr bool operator==(const Move&) const = default;
};

enum class SetupRule : uint8_t { kFourStone, kEmpty };
enum class StayRule : uint8_t { kAlways, kMobile };

inline constexpr int kUnlimitedWalls = -1;

// The rule options of docs/rules.md; defaults are the research (WallZero)
// rules.
struct Rules {
  int players = 2;
  SetupRule setup = SetupRule::kFourStone;  // 3-4 players: always kEmpty
  StayRule stay = StayRule::kAlways;
  int wall_limit = kUnlimitedWalls;  // walls a player may have on the board
  int breakers = 0;                  // per player; 0 or 1, only 3-4 players

  // Rules for `players` players with every other option at its default.
  static Rules Default(int players) {
    Rules r;
    r.players = players;
    r.setup = players == 2 ? SetupRule::kFourStone : SetupRule::kEmpty;
    r.breakers = players >= 3 ? 1 : 0;
    return r;
  }
  constexpr bool operator==(const Rules&) const = default;
};

}  // namespace wallgo
