// Text forms of docs/protocol.md: colours, cells, edges, moves, rules and the
// whole-position string. Parsing is case-insensitive and returns a status
// that says what is wrong; printing is lowercase. Print-then-parse gives back
// the same value.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/position.h"

namespace wallgo {

std::string ColourName(Colour c);                            // "red"
absl::StatusOr<Colour> ParseColour(absl::string_view text);  // red / r

std::string CellName(int cell);  // "c3"
absl::StatusOr<int> ParseCell(absl::string_view text);

char SideLetter(Side side);  // 'n', 'e', 's', 'w'
absl::StatusOr<Side> ParseSide(char letter);

std::string EdgeName(Edge edge);  // canonical: "c3n" or "c3e"
// "c3n", "c4s", "d3w", ... ; rim edges are an error.
absl::StatusOr<Edge> ParseEdge(absl::string_view text);

// "d4", "c3c5n", "c3c4xw", "pass", "resign".
std::string MoveName(Move move);
// Syntax only: whether the move is legal is movegen's CheckMove.
absl::StatusOr<Move> ParseMove(absl::string_view text);

// "players=2 setup=fourstone stay=always wall-limit=unlimited breakers=0".
std::string RulesString(const Rules& rules);
// Space-separated key=value tokens; missing keys take docs/rules.md's defaults
// for the player count (breakers=1 with 3-4 players); unknown keys and bad
// values are errors.
absl::StatusOr<Rules> ParseRules(absl::string_view text);

// The whole position as one line of docs/protocol.md, every field, fixed order:
// rules keys, turn, each colour's stones, each colour's walls, and
// COLOUR-breakers for each colour when the rules have breakers.
std::string PositionString(const Position& pos);
// Missing fields take defaults (no stones, no walls, full breakers, turn red);
// a position that cannot arise is InvalidArgument("invalid position: ...").
absl::StatusOr<Position> ParsePosition(absl::string_view text);

}  // namespace wallgo
