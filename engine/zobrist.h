// Zobrist keys: one random 64-bit key per (player, stone cell), per
// (player, wall edge), per side to move, per placement count and per
// (player, breakers left). The keys are fixed at compile time (splitmix64 of a
// constant seed), so hashes are identical across runs and machines.
#pragma once

#include <array>
#include <cstdint>

#include "engine/bitboard.h"
#include "engine/types.h"

namespace wallgo::zobrist {

inline constexpr uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

struct Keys {
  std::array<std::array<uint64_t, kNumCells>, kMaxPlayers> stone{};
  // Edge index: cell * 2 + (east ? 1 : 0).
  std::array<std::array<uint64_t, 2 * kNumCells>, kMaxPlayers> wall{};
  std::array<uint64_t, kMaxPlayers> to_move{};
  std::array<uint64_t, 16> placements{};
  std::array<std::array<uint64_t, 2>, kMaxPlayers> breakers{};
};

constexpr Keys MakeKeys() {
  Keys k;
  uint64_t state = 0x57A11600ULL;
  auto next = [&state] { return SplitMix64(state++); };
  for (auto& row : k.stone)
    for (auto& key : row) key = next();
  for (auto& row : k.wall)
    for (auto& key : row) key = next();
  for (auto& key : k.to_move) key = next();
  for (auto& key : k.placements) key = next();
  for (auto& row : k.breakers)
    for (auto& key : row) key = next();
  return k;
}

inline constexpr Keys kKeys = MakeKeys();

constexpr int EdgeIndex(Edge e) { return e.cell * 2 + (e.east ? 1 : 0); }

}  // namespace wallgo::zobrist
