// The eight symmetries of the square board (rotations and reflections). The
// rules do not change under them, so neither does a position's value: the
// trainer multiplies its data by eight by moving positions, moves and cells
// with these (and the network's inputs with search/net/feature_symmetry.h),
// and the Python module offers them as Game.symmetry.
#pragma once

#include "absl/status/statusor.h"
#include "engine/position.h"

namespace wallgo {

inline constexpr int kNumSymmetries = 8;

// The cell `cell` goes to under symmetry `s` (0 = identity).
int TransformCell(int s, int cell);
// The side a cell's `side` becomes under symmetry `s`.
Side TransformSide(int s, Side side);
// The edge `edge` becomes under symmetry `s`.
Edge TransformEdge(int s, Edge edge);
// `pos` with every stone and wall moved by symmetry `s`. Fails when the
// result cannot arise under the rules: with setup=fourstone only the
// symmetries that keep the fixed stones on their colours' cells are
// positions of the game (the trainer uses all eight: the play is the same).
absl::StatusOr<Position> TransformPosition(int s, const Position& pos);
Move TransformMove(int s, Move move);

}  // namespace wallgo
