#include "tools/gui/gui_game.h"

#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "engine/regions.h"

namespace wallgo::gui {
namespace {

nlohmann::json CellList(Bitboard cells) {
  nlohmann::json list = nlohmann::json::array();
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (cells & CellBit(cell)) list.push_back(CellName(cell));
  }
  return list;
}

std::string Phase(const Game& game) {
  if (game.is_over()) return "finished";
  return game.position().in_setup() ? "setup" : "play";
}

}  // namespace

GuiGame::GuiGame(const Position& start) : start_(start), shown_(start) {}

absl::StatusOr<GuiGame> GuiGame::FromMoves(
    const Position& start, const std::vector<PlayedMove>& moves) {
  GuiGame game(start);
  for (size_t i = 0; i < moves.size(); ++i) {
    if (game.shown_.position().to_move() != moves[i].colour &&
        moves[i].move.kind != MoveKind::kResign) {
      return absl::InvalidArgumentError(absl::StrCat(
          "move ", i + 1, " (", MoveName(moves[i].move), "): it is ",
          ColourName(game.shown_.position().to_move()), "'s turn, not ",
          ColourName(moves[i].colour), "'s"));
    }
    const absl::Status played = game.Play(moves[i]);
    if (!played.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("move ", i + 1, " (",
                                                     MoveName(moves[i].move),
                                                     "): ", played.message()));
    }
  }
  return game;
}

void GuiGame::Replay() {
  shown_ = Game(start_);
  for (int i = 0; i < cursor_; ++i) {
    // Every stored move was checked when it was added.
    shown_.Play(moves_[i].colour, moves_[i].move).IgnoreError();
  }
}

absl::Status GuiGame::Play(Move move, int64_t ms) {
  PlayedMove played;
  played.move = move;
  played.ms = ms;
  return Play(played);
}

absl::Status GuiGame::Play(const PlayedMove& played) {
  if (shown_.is_over()) return absl::FailedPreconditionError("game over");
  const Colour colour = shown_.position().to_move();
  absl::Status ok = shown_.Play(colour, played.move);
  if (!ok.ok()) return ok;
  moves_.resize(cursor_);
  moves_.push_back(played);
  moves_.back().colour = colour;
  ++cursor_;
  return absl::OkStatus();
}

Game GuiGame::Whole() const {
  Game whole(start_);
  for (const PlayedMove& m : moves_) {
    whole.Play(m.colour, m.move).IgnoreError();  // checked when added
  }
  return whole;
}

absl::Status GuiGame::Undo() {
  if (moves_.empty()) return absl::FailedPreconditionError("cannot undo");
  moves_.pop_back();
  cursor_ = static_cast<int>(moves_.size());
  Replay();
  return absl::OkStatus();
}

absl::Status GuiGame::Goto(int ply) {
  if (ply < 0 || ply > static_cast<int>(moves_.size())) {
    return absl::OutOfRangeError(absl::StrCat("no ply ", ply, ": the game has ",
                                              moves_.size(), " moves"));
  }
  cursor_ = ply;
  Replay();
  return absl::OkStatus();
}

nlohmann::json BoardJson(const GuiGame& gui) {
  const Game& game = gui.shown();
  const Position& pos = game.position();
  const int players = pos.num_players();
  nlohmann::json board;
  board["position"] = PositionString(pos);
  board["players"] = players;
  board["turn"] = ColourName(pos.to_move());
  board["phase"] = Phase(game);
  board["placementsLeft"] =
      Position::TotalPlacements(pos.rules()) - pos.placements_done();
  nlohmann::json stones = nlohmann::json::object();
  nlohmann::json walls = nlohmann::json::array();
  nlohmann::json walls_left = nlohmann::json::object();
  nlohmann::json breakers = nlohmann::json::object();
  nlohmann::json scores = nlohmann::json::object();
  const ScoreSheet sheet = ComputeScores(pos);
  for (int p = 0; p < players; ++p) {
    const Colour c = ColourAt(p);
    const std::string name = ColourName(c);
    stones[name] = CellList(pos.stones(c));
    const WallMasks& built = pos.walls_of(c);
    for (int cell = 0; cell < kNumCells; ++cell) {
      for (bool east : {false, true}) {
        if ((east ? built.east : built.north) & CellBit(cell)) {
          walls.push_back(
              {{"edge", EdgeName(Edge{static_cast<uint8_t>(cell), east})},
               {"colour", name}});
        }
      }
    }
    walls_left[name] = pos.walls_left(c);  // -1: unlimited
    if (pos.rules().breakers > 0) breakers[name] = pos.breakers_left(c);
    scores[name] = sheet.score[p];
  }
  board["stones"] = stones;
  board["walls"] = walls;
  board["wallsLeft"] = walls_left;
  board["breakersLeft"] = breakers;
  board["scores"] = scores;
  nlohmann::json regions = nlohmann::json::array();
  const Regions found = FindRegions(pos.walls());
  for (int r = 0; r < found.count; ++r) {
    const int owner = RegionOwner(pos, found.masks[r]);
    if (owner >= 0) {
      regions.push_back({{"owner", ColourName(ColourAt(owner))},
                         {"cells", CellList(found.masks[r])}});
    }
  }
  board["regions"] = regions;
  board["last"] = nullptr;
  if (gui.cursor() > 0) {
    const PlayedMove& last = gui.moves()[gui.cursor() - 1];
    board["last"] = {{"colour", ColourName(last.colour)},
                     {"move", MoveName(last.move)}};
  }
  nlohmann::json legal = nlohmann::json::array();
  if (!game.is_over()) {
    MoveList moves;
    GenerateMoves(pos, moves);
    for (Move m : moves) legal.push_back(MoveName(m));
  }
  board["legal"] = legal;
  board["result"] = nullptr;
  if (game.is_over()) {
    const Result result = game.result();
    nlohmann::json winners = nlohmann::json::array();
    for (int p : result.winner_indices()) {
      winners.push_back(ColourName(ColourAt(p)));
    }
    board["result"] = {
        {"winners", winners},
        {"draw", result.is_draw()},
        {"resigned",
         game.resigned() ? ColourName(*game.resigned()) : std::string()}};
  }
  return board;
}

nlohmann::json MovesJson(const std::vector<PlayedMove>& moves) {
  nlohmann::json list = nlohmann::json::array();
  for (const PlayedMove& m : moves) {
    nlohmann::json entry = {{"colour", ColourName(m.colour)},
                            {"move", MoveName(m.move)}};
    if (m.ms >= 0) entry["ms"] = m.ms;
    if (m.random) entry["random"] = true;
    if (m.timeout) entry["timeout"] = true;
    list.push_back(entry);
  }
  return list;
}

}  // namespace wallgo::gui
