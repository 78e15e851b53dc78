#include "engine/game.h"

namespace wallgo {

absl::StatusOr<Game> Game::New(const Rules& rules) {
  absl::StatusOr<Position> start = Position::Start(rules);
  if (!start.ok()) return start.status();
  return Game(*start);
}

absl::Status Game::Play(Colour colour, Move move) {
  if (resigned_) return absl::FailedPreconditionError("game over");
  if (absl::Status s = CheckMove(current_, colour, move); !s.ok()) return s;
  history_.push_back(current_);
  moves_.push_back(move);
  if (move.kind == MoveKind::kResign) {
    resigned_ = colour;
  } else {
    current_.Play(move);
  }
  return absl::OkStatus();
}

absl::Status Game::Undo() {
  if (history_.empty()) return absl::FailedPreconditionError("cannot undo");
  current_ = history_.back();
  history_.pop_back();
  moves_.pop_back();
  resigned_.reset();
  return absl::OkStatus();
}

Result Game::result() const { return ComputeResult(current_, resigned_); }

}  // namespace wallgo
