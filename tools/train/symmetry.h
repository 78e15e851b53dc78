// The eight symmetries of the square board (rotations and reflections). The
// rules do not change under them, so neither does a position's value: the
// trainer multiplies its data by eight by permuting features, policy indices
// and cells with the tables made here (the Python module's
// wallgo.net.symmetry_tables), and never needs to know the game.
#pragma once

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "engine/position.h"
#include "search/net/features.h"

namespace wallgo::search::net {

inline constexpr int kNumSymmetries = 8;

// The cell `cell` goes to under symmetry `s` (0 = identity).
int TransformCell(int s, int cell);
// The side a cell's `side` becomes under symmetry `s`.
Side TransformSide(int s, Side side);
// `pos` with every stone and wall moved by symmetry `s`. Fails when the
// result cannot arise under the rules: with setup=fourstone only the
// symmetries that keep the fixed stones on their colours' cells are
// positions of the game (the trainer uses all eight: the play is the same).
absl::StatusOr<Position> TransformPosition(int s, const Position& pos);
Move TransformMove(int s, Move move);

// Where each feature index goes (kNumFeatures maps to itself).
std::array<uint16_t, kNumFeatures + 1> FeaturePermutation(int s);
// Where each policy index goes (kNoPolicyIndex maps to itself).
std::array<uint16_t, kPolicySize + 1> PolicyPermutation(int s);

}  // namespace wallgo::search::net
