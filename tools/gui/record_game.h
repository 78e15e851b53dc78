// The GUI's game and the referee's game records (tools/records), both ways:
// a loaded record becomes a game to show and review, and the game on show
// becomes a record to save or to annotate.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/position.h"
#include "nlohmann/json.hpp"
#include "tools/gui/gui_game.h"
#include "tools/gui/seats.h"
#include "tools/records/records.h"

namespace wallgo::gui {

// The moves of a list like "d4 c3 c3c5n", each for the side to move.
absl::StatusOr<GuiGame> GameFromTokens(const Position& start,
                                       absl::string_view text);

// The moves of a state message's "moves" list (docs/gui.md), each
// {"move": M, "ms": time taken, "random": true, "timeout": true} with all
// but "move" optional ("colour", if there, is the side to move's anyway):
// the game with its times, so that its clocks read as they did.
absl::StatusOr<GuiGame> GameFromPlayed(const Position& start,
                                       const nlohmann::json& played);

// The recorded game as the GUI's game: the opening's moves (or its
// position) and then the recorded moves with their times.
absl::StatusOr<GuiGame> GameFromRecord(const records::GameRecord& record);

// A line of the loaded records' list: seats, result and length.
nlohmann::json RecordSummary(const records::GameRecord& record);

// The game so far as a record (finished or not), its seats named by
// engine or "human".
records::GameRecord GameToRecord(const GuiGame& game,
                                 const std::vector<Seat>& seats,
                                 const std::vector<EngineSpec>& engines);

}  // namespace wallgo::gui
