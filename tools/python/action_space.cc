#include "tools/python/action_space.h"

#include <cstring>

namespace wallgo::python {
namespace {

// The 8 bytes (0 or 1) of each byte's bits, lowest bit first.
constexpr std::array<uint64_t, 256> BitsToBytes() {
  std::array<uint64_t, 256> table{};
  for (int byte = 0; byte < 256; ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      table[byte] |= uint64_t((byte >> bit) & 1) << (8 * bit);
    }
  }
  return table;
}
constexpr auto kBitsToBytes = BitsToBytes();

void WritePlane(Bitboard cells, uint8_t* out) {
  for (int i = 0; i < 6; ++i) {  // cells 0..47, eight at a time
    std::memcpy(out + 8 * i, &kBitsToBytes[(cells >> (8 * i)) & 0xFF], 8);
  }
  out[48] = (cells >> 48) & 1;
}

}  // namespace

std::optional<Move> ActionToMove(int64_t action) {
  if (action < 0 || action >= kActionSize) return std::nullopt;
  if (action < kTurnBase) return Move::Place(static_cast<int>(action));
  if (action == kPassAction) return Move::Pass();
  const bool is_break = action >= kBreakBase;
  const int k = static_cast<int>(action - (is_break ? kBreakBase : kTurnBase));
  const auto side = static_cast<Side>(k % kNumSides);
  const int offset = k / kNumSides % kNumOffsets;
  const int from = k / kNumSides / kNumOffsets;
  const int col = ColOf(from) + kOffsets[offset][0];
  const int row = RowOf(from) + kOffsets[offset][1];
  if (col < 0 || col >= kBoardSize || row < 0 || row >= kBoardSize) {
    return std::nullopt;
  }
  const int to = CellOf(col, row);
  return is_break ? Move::Break(from, to, side) : Move::Turn(from, to, side);
}

void WriteObservation(const Position& pos, uint8_t* out) {
  const int players = pos.num_players();
  const int mover = Index(pos.to_move());
  for (int slot = 0; slot < kMaxPlayers; ++slot) {
    const Bitboard stones =
        slot < players ? pos.stones(ColourAt((mover + slot) % players)) : 0;
    WritePlane(stones, out + slot * kNumCells);
  }
  WritePlane(pos.walls().north, out + kMaxPlayers * kNumCells);
  WritePlane(pos.walls().east, out + (kMaxPlayers + 1) * kNumCells);
}

}  // namespace wallgo::python
