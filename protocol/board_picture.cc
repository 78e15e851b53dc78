#include "protocol/board_picture.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/notation.h"
#include "engine/outcome.h"

namespace wallgo::protocol {
namespace {

// Text columns: a row starts " 7 | ", so cell `col` sits at kFirstCell + 4 *
// col, the edge east of it at 2 further, and the right rim at kRightRim.
constexpr int kFirstCell = 5;
constexpr int kCellPitch = 4;
constexpr int kRightRim = kFirstCell + kCellPitch * (kBoardSize - 1) + 2;

constexpr char kStoneLetters[kMaxPlayers] = {'R', 'B', 'G', 'Y'};

bool HasWall(Bitboard mask, int col, int row) {
  return col >= 0 && col < kBoardSize && row >= 0 && row < kBoardSize &&
         (mask & CellBit(CellOf(col, row))) != 0;
}

std::string ColumnLetters() {
  std::string line(kRightRim + 1, ' ');
  for (int col = 0; col < kBoardSize; ++col) {
    line[kFirstCell + kCellPitch * col] = static_cast<char>('a' + col);
  }
  return line;
}

std::string RimLine() {
  std::string line(kRightRim + 1, '-');
  line.replace(0, kFirstCell - 2, kFirstCell - 2, ' ');
  line[kFirstCell - 2] = '+';
  line[kRightRim] = '+';
  return line;
}

char CellChar(const Position& pos, int cell) {
  for (int i = 0; i < pos.num_players(); ++i) {
    if (pos.stones(ColourAt(i)) & CellBit(cell)) return kStoneLetters[i];
  }
  return '.';
}

// A row of cells, with `|` for each wall on a cell's east edge.
std::string CellRow(const Position& pos, int row) {
  std::string line(kRightRim + 1, ' ');
  line[1] = static_cast<char>('1' + row);
  line[kFirstCell - 2] = '|';
  line[kRightRim] = '|';
  for (int col = 0; col < kBoardSize; ++col) {
    const int x = kFirstCell + kCellPitch * col;
    line[x] = CellChar(pos, CellOf(col, row));
    if (col + 1 < kBoardSize && HasWall(pos.walls().east, col, row)) {
      line[x + 2] = '|';
    }
  }
  return absl::StrCat(line, " ", row + 1);
}

// The corner where four cells meet, east of (col, row) and north of (col,
// row): joins the walls that end there so that enclosures read as lines.
char Junction(const WallMasks& walls, int col, int row) {
  const bool up = HasWall(walls.east, col, row + 1);
  const bool down = HasWall(walls.east, col, row);
  const bool left = HasWall(walls.north, col, row);
  const bool right = HasWall(walls.north, col + 1, row);
  if ((up || down) && (left || right)) return '+';
  if (up && down) return '|';
  if (left && right) return '-';
  return ' ';
}

// The gap between `row` and the row above: `---` for each wall on the north
// edge of a cell of `row`.
std::string GapRow(const Position& pos, int row) {
  const WallMasks& walls = pos.walls();
  std::string line(kRightRim + 1, ' ');
  line[kFirstCell - 2] = '|';
  line[kRightRim] = '|';
  for (int col = 0; col < kBoardSize; ++col) {
    const int x = kFirstCell + kCellPitch * col;
    if (HasWall(walls.north, col, row)) line.replace(x - 1, 3, "---");
    if (col + 1 < kBoardSize) line[x + 2] = Junction(walls, col, row);
  }
  return line;
}

// "last move: blue b6b7e". Game keeps no movers: a resignation is by
// resigned() (any player may resign), any other move by the side to move
// before it, found by replaying from the start (only the last move can be a
// resignation).
std::string LastMoveLine(const Game& game) {
  const std::vector<Move>& moves = game.moves();
  Colour mover;
  if (moves.back().kind == MoveKind::kResign && game.resigned()) {
    mover = *game.resigned();
  } else {
    Position before = game.start();
    for (size_t i = 0; i + 1 < moves.size(); ++i) before.Play(moves[i]);
    mover = before.to_move();
  }
  return absl::StrCat("last move: ", ColourName(mover), " ",
                      MoveName(moves.back()));
}

std::string PhaseLine(const Game& game) {
  const Position& pos = game.position();
  const std::string mover = ColourName(pos.to_move());
  if (game.is_over()) {
    const std::string resigned =
        game.resigned()
            ? absl::StrCat(ColourName(*game.resigned()), " resigned, ")
            : "";
    const Result result = game.result();
    return absl::StrCat(
        "game over: ", resigned,
        result.is_draw() ? "a draw" : WinnerText(result) + " wins");
  }
  if (pos.in_setup()) {
    const int left =
        Position::TotalPlacements(pos.rules()) - pos.placements_done();
    return absl::StrCat("setup phase: ", mover, " to place a stone (", left,
                        left == 1 ? " placement" : " placements", " left)");
  }
  return absl::StrCat("play phase: ", mover, " to move");
}

// "label: red X, blue Y" over the players of the game.
template <typename ValueOf>
std::string PerPlayerLine(const Position& pos, absl::string_view label,
                          ValueOf value_of) {
  std::vector<std::string> parts;
  for (int i = 0; i < pos.num_players(); ++i) {
    parts.push_back(absl::StrCat(ColourName(ColourAt(i)), " ", value_of(i)));
  }
  return absl::StrCat(label, ": ", absl::StrJoin(parts, ", "));
}

}  // namespace

std::string WinnerText(const Result& result) {
  if (result.is_draw() || result.winners == 0) return "draw";
  for (int i = 0; i < kMaxPlayers; ++i) {
    if (result.won(i)) return ColourName(ColourAt(i));
  }
  return "draw";
}

std::string BoardPicture(const Game& game) {
  const Position& pos = game.position();
  std::vector<std::string> lines = {ColumnLetters(), RimLine()};
  for (int row = kBoardSize - 1; row >= 0; --row) {
    lines.push_back(CellRow(pos, row));
    if (row > 0) lines.push_back(GapRow(pos, row - 1));
  }
  lines.push_back(RimLine());
  lines.push_back(ColumnLetters());
  lines.push_back(PhaseLine(game));
  if (!game.moves().empty()) {
    lines.push_back(LastMoveLine(game));
  }
  const ScoreSheet sheet = ComputeScores(pos);
  lines.push_back(PerPlayerLine(
      pos, "score", [&](int i) { return absl::StrCat(sheet.score[i]); }));
  lines.push_back(PerPlayerLine(pos, "walls left", [&](int i) {
    const int left = pos.walls_left(ColourAt(i));
    return left == kUnlimitedWalls ? std::string("unlimited")
                                   : absl::StrCat(left);
  }));
  if (pos.rules().breakers > 0) {
    lines.push_back(PerPlayerLine(pos, "breakers left", [&](int i) {
      return absl::StrCat(pos.breakers_left(ColourAt(i)));
    }));
  }
  for (std::string& line : lines) {
    line.erase(line.find_last_not_of(' ') + 1);  // no trailing blanks
  }
  return absl::StrJoin(lines, "\n");
}

}  // namespace wallgo::protocol
