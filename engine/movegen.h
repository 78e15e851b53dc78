// Legal moves on bitboards: placements, turns (move 0-2 steps, then build),
// turns with the wall breaker, and forced passes.
#pragma once

#include <array>
#include <cstdint>

#include "absl/status/status.h"
#include "engine/position.h"

namespace wallgo {

// Fixed-capacity list; 256 covers the worst case of every variant
// (4 stones x 13 destinations x 4 sides = 208).
class MoveList {
 public:
  static constexpr int kCapacity = 256;
  void push_back(Move m) { moves_[size_++] = m; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move& operator[](int i) const { return moves_[i]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  void clear() { size_ = 0; }

 private:
  std::array<Move, kCapacity> moves_;
  int size_ = 0;
};

// Cells the stone on `from` may end its move on (0-2 steps through empty
// cells and unwalled edges; staying per the `stay` rule). The destination
// must still have a buildable or breakable edge for a turn to exist.
Bitboard Destinations(const Position& pos, int from);

// Cells with a free (unwalled, non-rim) edge on `side`.
Bitboard FreeSideMask(const WallMasks& walls, Side side);
// Cells with a wall on `side`.
Bitboard WalledSideMask(const WallMasks& walls, Side side);

// True when `colour` could complete a turn now (ignores whose turn it is and
// whether the setup phase is over).
bool HasLegalTurn(const Position& pos, Colour colour);

// All legal moves of the side to move. Empty exactly when the game is over
// (see regions.h: IsGameOver). During setup: placements on empty cells.
// In play: every (stone, destination, wall/break) triple once; `pass` alone
// when the side to move has no legal turn.
void GenerateMoves(const Position& pos, MoveList& out);

// The same count GenerateMoves would produce, without listing the moves
// (perft's bulk counting at the last ply).
int CountMoves(const Position& pos);

// OK when `colour` may play `move` now; otherwise a FailedPrecondition or
// InvalidArgument status whose message says why, e.g.
// "the path to c5 is walled off". Resign is legal for any player in a game
// that is not over.
absl::Status CheckMove(const Position& pos, Colour colour, Move move);

}  // namespace wallgo
