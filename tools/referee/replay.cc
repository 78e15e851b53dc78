#include "tools/referee/replay.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "tools/records/records.h"
#include "tools/referee/report.h"
#include "tools/referee/schedule.h"

namespace wallgo::referee {

using records::MoveRecord;
using records::ReadRecords;

namespace {

char StoneAt(const Position& pos, int cell) {
  static constexpr char kLetters[] = "RBGY";
  for (int p = 0; p < pos.num_players(); ++p) {
    if (pos.stones(ColourAt(p)) & CellBit(cell)) return kLetters[p];
  }
  return '.';
}

absl::Status PrintCommands(const GameRecord& record, const Opening& opening,
                           std::ostream& out) {
  out << "newgame " << record.rules << "\n";
  for (const std::string& command : opening.commands) out << command << "\n";
  for (const MoveRecord& m : record.moves) {
    out << "play " << m.colour << " " << m.move << "\n";
  }
  return absl::OkStatus();
}

absl::Status PrintGame(const GameRecord& record, const Opening& opening,
                       std::ostream& out) {
  out << GameLine(record) << "\nrules: " << record.rules
      << "\nopening: " << record.opening << "\n\n"
      << DrawBoard(opening.start) << PositionString(opening.start) << "\n";
  Game game(opening.start);
  for (size_t i = 0; i < record.moves.size(); ++i) {
    const MoveRecord& m = record.moves[i];
    absl::StatusOr<Colour> colour = ParseColour(m.colour);
    absl::StatusOr<Move> move = ParseMove(m.move);
    absl::Status played = !colour.ok() ? colour.status()
                          : !move.ok() ? move.status()
                                       : game.Play(*colour, *move);
    if (!played.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("move ", i + 1, " (",
                                                     m.colour, " ", m.move,
                                                     "): ", played.message()));
    }
    out << "\n"
        << i + 1 << ". " << m.colour << " " << m.move << "  (" << m.ms << " ms"
        << (m.random ? ", random after a timeout" : "") << ")\n"
        << DrawBoard(game.position()) << PositionString(game.position())
        << "\n";
  }
  if (PositionString(game.position()) != record.final_position) {
    return absl::DataLossError("the moves do not lead to the recorded final");
  }
  out << "\nresult: " << record.winner << " (" << record.reason << ")\n";
  return absl::OkStatus();
}

}  // namespace

std::string DrawBoard(const Position& pos) {
  const WallMasks& walls = pos.walls();
  std::string text = "    a   b   c   d   e   f   g\n";
  for (int row = kBoardSize - 1; row >= 0; --row) {
    absl::StrAppend(&text, row + 1, "   ");
    for (int col = 0; col < kBoardSize; ++col) {
      const int cell = CellOf(col, row);
      text += StoneAt(pos, cell);
      if (col + 1 < kBoardSize)
        text += walls.east & CellBit(cell) ? " | " : "   ";
    }
    text += "\n";
    if (row == 0) break;
    std::string between(3 + 4 * kBoardSize, ' ');
    for (int col = 0; col < kBoardSize; ++col) {
      if (walls.north & CellBit(CellOf(col, row - 1))) {
        between.replace(3 + 4 * col, 3, "---");
      }
    }
    between.erase(between.find_last_not_of(' ') + 1);
    text += between + "\n";
  }
  return text;
}

absl::Status Replay(const std::string& records_path, std::optional<int> game,
                    bool commands, std::ostream& out) {
  absl::StatusOr<std::vector<GameRecord>> records = ReadRecords(records_path);
  if (!records.ok()) return records.status();
  if (!game) {
    for (const GameRecord& r : *records) out << GameLine(r) << "\n";
    return absl::OkStatus();
  }
  const auto it =
      std::find_if(records->begin(), records->end(),
                   [&](const GameRecord& r) { return r.game == *game; });
  if (it == records->end()) {
    return absl::NotFoundError(
        absl::StrCat("no game ", *game, " in ", records_path));
  }
  absl::StatusOr<Rules> rules = ParseRules(it->rules);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<Opening> opening = ResolveOpening(*rules, it->opening);
  if (!opening.ok()) return opening.status();
  return commands ? PrintCommands(*it, *opening, out)
                  : PrintGame(*it, *opening, out);
}

}  // namespace wallgo::referee
