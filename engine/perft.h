// perft: the number of distinct legal move sequences of a given length, with
// bulk counting at the last ply; divide gives the count under each first move.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/position.h"

namespace wallgo {

uint64_t Perft(const Position& pos, int depth);
std::vector<std::pair<Move, uint64_t>> PerftDivide(const Position& pos,
                                                   int depth);

}  // namespace wallgo
