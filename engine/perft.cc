#include "engine/perft.h"

#include "engine/movegen.h"

namespace wallgo {

uint64_t Perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return CountMoves(pos);  // bulk counting at the last ply
  MoveList moves;
  GenerateMoves(pos, moves);
  uint64_t total = 0;
  for (const Move& move : moves) {
    Position next = pos;
    next.Play(move);
    total += Perft(next, depth - 1);
  }
  return total;
}

std::vector<std::pair<Move, uint64_t>> PerftDivide(const Position& pos,
                                                   int depth) {
  std::vector<std::pair<Move, uint64_t>> out;
  if (depth <= 0) return out;
  MoveList moves;
  GenerateMoves(pos, moves);
  for (const Move& move : moves) {
    Position next = pos;
    next.Play(move);
    out.emplace_back(move, Perft(next, depth - 1));
  }
  return out;
}

}  // namespace wallgo
