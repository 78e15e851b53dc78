// The history heuristic's table for move ordering, shared by the
// alpha-beta player and the exact solver: a move that cuts off gains
// depth², and moves are tried by their score after the table move and the
// killers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/bitboard.h"
#include "engine/types.h"

namespace wallgo::search {

class MoveHistory {
 public:
  // A reward that would take a score past this halves every score first,
  // so scores stay under 1.5 times it. A long solve otherwise overflows an int
  // (a 60-second solve did), and halving keeps the order while it ages old
  // cut-offs.
  static constexpr int kCap = 1 << 28;

  MoveHistory() : scores_(kSize, 0) {}

  void Reward(Move m, int depth) {
    int& score = scores_[Index(m)];
    const int gain =
        static_cast<int>(std::min<int64_t>(int64_t{depth} * depth, kCap));
    if (score > kCap - gain) {
      for (int& s : scores_) s /= 2;
    }
    score += gain;
  }
  int Score(Move m) const { return scores_[Index(m)]; }
  void Clear() { std::fill(scores_.begin(), scores_.end(), 0); }

 private:
  static constexpr int kSize = kNumCells * kNumCells * kNumSides * 2;
  static int Index(Move m) {
    const int breaks = m.kind == MoveKind::kBreak ? 1 : 0;
    return ((m.from * kNumCells + m.to) * kNumSides +
            static_cast<int>(m.side)) *
               2 +
           breaks;
  }

  std::vector<int> scores_;
};

}  // namespace wallgo::search
