// A game: the current position plus the history needed to undo, and
// resignation. Every mutator checks legality and changes nothing on failure.
#pragma once

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/movegen.h"
#include "engine/outcome.h"
#include "engine/position.h"

namespace wallgo {

class Game {
 public:
  explicit Game(const Position& start) : start_(start), current_(start) {}
  static absl::StatusOr<Game> New(const Rules& rules);

  const Position& position() const { return current_; }
  const Position& start() const { return start_; }
  const std::vector<Move>& moves() const { return moves_; }

  // Plays `move` for `colour` if legal (CheckMove); resign ends the game.
  absl::Status Play(Colour colour, Move move);
  // Takes back the last move (a resignation too); FailedPrecondition
  // "cannot undo" at the start.
  absl::Status Undo();

  bool is_over() const { return resigned_.has_value() || IsGameOver(current_); }
  std::optional<Colour> resigned() const { return resigned_; }
  // The result; a resigned player never wins (the others are ranked by
  // score, and with two players the opponent wins).
  Result result() const;

 private:
  Position start_;
  Position current_;
  std::vector<Position> history_;  // positions before each move
  std::vector<Move> moves_;
  std::optional<Colour> resigned_;
};

}  // namespace wallgo
