// The game shown by the GUI: a start position, the moves played from it and
// a cursor (the ply on display), so that the user can step back and forward
// and continue from any ply with another move. The rules engine checks every
// move; the page gets everything it draws (stones, walls, owned regions,
// score, legal moves) as JSON, so it needs no rules code of its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/game.h"
#include "engine/position.h"
#include "nlohmann/json.hpp"

namespace wallgo::gui {

struct PlayedMove {
  Colour colour = Colour::kRed;
  Move move;
  int64_t ms = -1;  // thinking time, when known (engines, records)
  // Played by the server for a seat whose time ran out: a random turn
  // (`random`), or its resignation (`timeout`, the forfeit rule).
  bool random = false;
  bool timeout = false;
};

class GuiGame {
 public:
  explicit GuiGame(const Position& start);

  // A game from `start` through `moves` (each checked); the cursor at the end.
  static absl::StatusOr<GuiGame> FromMoves(
      const Position& start, const std::vector<PlayedMove>& moves);

  const Position& start() const { return start_; }
  const std::vector<PlayedMove>& moves() const { return moves_; }
  int cursor() const { return cursor_; }
  bool at_end() const { return cursor_ == static_cast<int>(moves_.size()); }
  // The game up to the cursor.
  const Game& shown() const { return shown_; }

  // Plays `move` for the side to move at the cursor. Moves after the cursor
  // are dropped first ("continue from here"). Changes nothing on error.
  absl::Status Play(Move move, int64_t ms = -1);
  // The same, with how the server played it (PlayedMove's flags).
  absl::Status Play(const PlayedMove& played);
  // The whole game, whatever ply is shown.
  Game Whole() const;
  // Drops the last move and shows the end.
  absl::Status Undo();
  // Shows ply `ply` (0 = the start) without changing the moves.
  absl::Status Goto(int ply);

 private:
  void Replay();  // rebuilds shown_ from start_, moves_ and cursor_

  Position start_;
  std::vector<PlayedMove> moves_;
  int cursor_ = 0;
  Game shown_;
};

// The board at the cursor as the page draws it: position string, turn,
// phase, stones, walls with their builders, owned regions, scores, walls and
// breakers left, the last move, the legal moves and the result.
nlohmann::json BoardJson(const GuiGame& game);

// The move list: colour, move token and milliseconds of each move.
nlohmann::json MovesJson(const std::vector<PlayedMove>& moves);

}  // namespace wallgo::gui
