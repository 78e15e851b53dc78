#include "tools/python/action_space.h"

namespace wallgo::python {
namespace {

// kOffsets' index of the step (dcol, drow), or -1: [drow + 2][dcol + 2].
constexpr std::array<std::array<int8_t, 5>, 5> OffsetIndexTable() {
  std::array<std::array<int8_t, 5>, 5> table{};
  for (auto& row : table) row.fill(-1);
  for (int i = 0; i < kNumOffsets; ++i) {
    table[kOffsets[i][1] + 2][kOffsets[i][0] + 2] = static_cast<int8_t>(i);
  }
  return table;
}
constexpr auto kOffsetIndex = OffsetIndexTable();

void WritePlane(Bitboard cells, uint8_t* out) {
  for (int cell = 0; cell < kNumCells; ++cell) out[cell] = (cells >> cell) & 1;
}

}  // namespace

std::optional<int> MoveToAction(Move move) {
  switch (move.kind) {
    case MoveKind::kPlace:
      return move.to;
    case MoveKind::kPass:
      return kPassAction;
    case MoveKind::kResign:
      return std::nullopt;
    case MoveKind::kTurn:
    case MoveKind::kBreak:
      break;
  }
  const int dcol = ColOf(move.to) - ColOf(move.from);
  const int drow = RowOf(move.to) - RowOf(move.from);
  if (dcol < -2 || dcol > 2 || drow < -2 || drow > 2) return std::nullopt;
  const int offset = kOffsetIndex[drow + 2][dcol + 2];
  if (offset < 0) return std::nullopt;
  const int base = move.kind == MoveKind::kTurn ? kTurnBase : kBreakBase;
  return base + (move.from * kNumOffsets + offset) * kNumSides +
         static_cast<int>(move.side);
}

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
