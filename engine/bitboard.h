// Bitboards for the 7x7 board: bit (row * 7 + col) is a cell, a1 = bit 0,
// g1 = bit 6, a7 = bit 42, g7 = bit 48. Bits 49..63 are always zero.
#pragma once

#include <bit>
#include <cstdint>

namespace wallgo {

using Bitboard = uint64_t;

inline constexpr int kBoardSize = 7;
inline constexpr int kNumCells = 49;

inline constexpr Bitboard kAllCells = (Bitboard{1} << kNumCells) - 1;
inline constexpr Bitboard kColA = 0x0040810204081ULL;  // a1, a2, ..., a7
inline constexpr Bitboard kColG = kColA << 6;
inline constexpr Bitboard kRow1 = 0x7FULL;
inline constexpr Bitboard kRow7 = kRow1 << 42;

constexpr Bitboard CellBit(int cell) { return Bitboard{1} << cell; }
constexpr int PopCount(Bitboard b) { return std::popcount(b); }
constexpr int LowestCell(Bitboard b) { return std::countr_zero(b); }
constexpr Bitboard PopLowest(Bitboard b) { return b & (b - 1); }

// Walls are two masks: `wall_n` has the bit of every cell whose north edge is
// walled (never row 7: the rim), `wall_e` of every cell whose east edge is
// walled (never column g). A cell's south edge is the north edge of the cell
// below it, its west edge the east edge of the cell to its left.
struct WallMasks {
  Bitboard north = 0;
  Bitboard east = 0;
  constexpr bool operator==(const WallMasks&) const = default;
};

// One orthogonal step of every cell in `from`, not through walls or the rim.
constexpr Bitboard StepNorth(Bitboard from, const WallMasks& w) {
  return (from & ~w.north & ~kRow7) << 7;
}
constexpr Bitboard StepSouth(Bitboard from, const WallMasks& w) {
  return (from >> 7) & ~w.north;
}
constexpr Bitboard StepEast(Bitboard from, const WallMasks& w) {
  return (from & ~w.east & ~kColG) << 1;
}
constexpr Bitboard StepWest(Bitboard from, const WallMasks& w) {
  return (from >> 1) & ~w.east & ~kColG;
}
constexpr Bitboard Step(Bitboard from, const WallMasks& w) {
  return StepNorth(from, w) | StepSouth(from, w) | StepEast(from, w) |
         StepWest(from, w);
}

// The region (cells connected through unwalled edges) holding `seed`.
constexpr Bitboard FloodFill(Bitboard seed, const WallMasks& w) {
  Bitboard filled = seed;
  for (;;) {
    const Bitboard next = filled | Step(filled, w);
    if (next == filled) return filled;
    filled = next;
  }
}

}  // namespace wallgo
