// Stepping through recorded games: a list of the games in a records file,
// one game move by move with boards and position strings, or the engine
// command lines (newgame, setup, play) that bring any engine through it.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "engine/position.h"

namespace wallgo::referee {

// Without `game`: one line per game. With it: that game, checked move by
// move by the referee's rules engine.
absl::Status Replay(const std::string& records_path, std::optional<int> game,
                    bool commands, std::ostream& out);

// A plain-text board: stones as R B G Y, walls as '|' and '---'.
std::string DrawBoard(const Position& pos);

}  // namespace wallgo::referee
