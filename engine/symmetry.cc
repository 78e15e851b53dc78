#include "engine/symmetry.h"

#include <array>
#include <utility>

namespace wallgo {
namespace {

constexpr int kLast = kBoardSize - 1;

// The linear part of symmetry s applied to a step (dx, dy).
std::pair<int, int> TransformStep(int s, int dx, int dy) {
  switch (s) {
    case 1:
      return {-dy, dx};  // rotate 90
    case 2:
      return {-dx, -dy};  // rotate 180
    case 3:
      return {dy, -dx};  // rotate 270
    case 4:
      return {-dx, dy};  // mirror left-right
    case 5:
      return {dx, -dy};  // mirror top-bottom
    case 6:
      return {dy, dx};  // transpose
    case 7:
      return {-dy, -dx};  // anti-transpose
    default:
      return {dx, dy};
  }
}

Bitboard TransformCells(int s, Bitboard cells) {
  Bitboard out = 0;
  for (; cells != 0; cells = PopLowest(cells)) {
    out |= CellBit(TransformCell(s, LowestCell(cells)));
  }
  return out;
}

WallMasks TransformWalls(int s, const WallMasks& walls) {
  WallMasks out;
  for (const bool east : {false, true}) {
    for (Bitboard b = east ? walls.east : walls.north; b != 0;
         b = PopLowest(b)) {
      const Edge e =
          TransformEdge(s, {static_cast<uint8_t>(LowestCell(b)), east});
      (e.east ? out.east : out.north) |= CellBit(e.cell);
    }
  }
  return out;
}

}  // namespace

int TransformCell(int s, int cell) {
  // Rotations and mirrors about the centre (3, 3): transform the offset.
  const auto [dx, dy] =
      TransformStep(s, ColOf(cell) - kLast / 2, RowOf(cell) - kLast / 2);
  return CellOf(dx + kLast / 2, dy + kLast / 2);
}

Side TransformSide(int s, Side side) {
  constexpr std::array<std::pair<int, int>, kNumSides> kSteps = {
      {{0, 1}, {1, 0}, {0, -1}, {-1, 0}}};  // N, E, S, W
  const auto [dx, dy] = kSteps[static_cast<int>(side)];
  const std::pair<int, int> step = TransformStep(s, dx, dy);
  for (int k = 0; k < kNumSides; ++k) {
    if (kSteps[k] == step) return static_cast<Side>(k);
  }
  return side;
}

absl::StatusOr<Position> TransformPosition(int s, const Position& pos) {
  Position::Parts parts = pos.ToParts();
  for (int p = 0; p < kMaxPlayers; ++p) {
    parts.stones[p] = TransformCells(s, parts.stones[p]);
    parts.walls[p] = TransformWalls(s, parts.walls[p]);
  }
  return Position::FromParts(parts);
}

Edge TransformEdge(int s, Edge edge) {
  return EdgeAt(TransformCell(s, edge.cell),
                TransformSide(s, edge.east ? Side::kEast : Side::kNorth))
      .edge;
}

Move TransformMove(int s, Move move) {
  if (move.kind == MoveKind::kPass || move.kind == MoveKind::kResign) {
    return move;
  }
  move.to = static_cast<uint8_t>(TransformCell(s, move.to));
  if (move.kind != MoveKind::kPlace) {
    move.from = static_cast<uint8_t>(TransformCell(s, move.from));
    move.side = TransformSide(s, move.side);
  }
  return move;
}

}  // namespace wallgo
