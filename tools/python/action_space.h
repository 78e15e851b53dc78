// The Python module's fixed integer action space and observation planes
// (docs/python.md): every move of every variant has one action number, so a
// learner can use one output layer and a legal-action mask.
//   0 .. 48            place a stone on cell c (a1 = 0, b1 = 1, ..., g7 = 48)
//   49 + k             turn:  move and build, k = (from * 13 + offset) * 4 +
//   side 49 + 2548 + k      break: move and remove a wall, same k 5145 pass
// `offset` numbers the 13 cells within two orthogonal steps of `from`
// (kOffsets); a destination is never farther. Resign has no action.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "engine/position.h"
#include "engine/types.h"

namespace wallgo::python {

inline constexpr int kNumOffsets = 13;
// (column, row) steps from the origin to the destination.
inline constexpr std::array<std::array<int, 2>, kNumOffsets> kOffsets = {
    {{0, 0},
     {0, 1},
     {1, 0},
     {0, -1},
     {-1, 0},
     {0, 2},
     {2, 0},
     {0, -2},
     {-2, 0},
     {1, 1},
     {1, -1},
     {-1, -1},
     {-1, 1}}};

inline constexpr int kTurnBase = kNumCells;
inline constexpr int kMovesPerKind = kNumCells * kNumOffsets * kNumSides;
inline constexpr int kBreakBase = kTurnBase + kMovesPerKind;
inline constexpr int kPassAction = kBreakBase + kMovesPerKind;
inline constexpr int kActionSize = kPassAction + 1;
static_assert(kActionSize <= 65536, "VectorEnv keeps actions in 16 bits");

namespace internal {
// kOffsets' index of a step by its difference of cell numbers (dcol + 7 *
// drow, all distinct within two steps), at [difference + 16]; -1 for none.
constexpr std::array<int8_t, 33> OffsetByCellStep() {
  std::array<int8_t, 33> table{};
  table.fill(-1);
  for (int i = 0; i < kNumOffsets; ++i) {
    table[kOffsets[i][0] + 7 * kOffsets[i][1] + 16] = static_cast<int8_t>(i);
  }
  return table;
}
inline constexpr std::array<int8_t, 33> kOffsetByCellStep = OffsetByCellStep();
}  // namespace internal

// The action of `move`; nullopt for resign and for a destination more than
// two steps away (no action). Inline: VectorEnv maps every legal move.
inline std::optional<int> MoveToAction(Move move) {
  if (move.kind == MoveKind::kPlace) return move.to;
  if (move.kind == MoveKind::kPass) return kPassAction;
  if (move.kind == MoveKind::kResign) return std::nullopt;
  const int dcol = ColOf(move.to) - ColOf(move.from);
  const int step = move.to - move.from;
  if (dcol < -2 || dcol > 2 || step < -16 || step > 16) return std::nullopt;
  const int offset = internal::kOffsetByCellStep[step + 16];
  if (offset < 0) return std::nullopt;
  const int base = move.kind == MoveKind::kTurn ? kTurnBase : kBreakBase;
  return base + (move.from * kNumOffsets + offset) * kNumSides +
         static_cast<int>(move.side);
}

// The move of `action`; nullopt outside 0..kActionSize-1 or for a
// destination off the board.
std::optional<Move> ActionToMove(int64_t action);

// Observation planes of one position, seen from the side to move, each 7x7
// (index row * 7 + column, a1 first): the stones of slot 0 (the side to
// move), 1, 2, 3 (the next players in turn order), then the walls on the
// north edges and on the east edges of cells.
inline constexpr int kObservationPlanes = 6;
inline constexpr int kObservationSize = kObservationPlanes * kNumCells;
void WriteObservation(const Position& pos, uint8_t* out);

}  // namespace wallgo::python
