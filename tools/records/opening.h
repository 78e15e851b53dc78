// An opening: where a recorded game starts. A record names it as a position
// string or as the moves from the rules' start; the referee plays games from
// openings and the GUI and annotate replay records from them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/position.h"

namespace wallgo::records {

// The position the engines start from, with the commands that bring an
// engine there after `newgame`.
struct Opening {
  std::string text;  // as written in the openings file or generated
  Position start;
  std::vector<std::string> commands;  // `setup ...` or `play COLOUR MOVE`s
};

// Parses one opening: a position string (it has '=' in it; its rules must
// be `rules`) or a space-separated list of moves from the start, each
// checked by the referee's own move generator.
absl::StatusOr<Opening> ResolveOpening(const Rules& rules,
                                       std::string_view text);

}  // namespace wallgo::records
