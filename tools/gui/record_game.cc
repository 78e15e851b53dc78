#include "tools/gui/record_game.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "tools/gui/message_fields.h"
#include "tools/records/opening.h"

namespace wallgo::gui {

using nlohmann::json;

absl::StatusOr<GuiGame> GameFromTokens(const Position& start,
                                       absl::string_view text) {
  GuiGame game(start);
  int number = 0;
  for (absl::string_view token : absl::StrSplit(text, absl::ByAnyChar(" \t\n,"),
                                                absl::SkipWhitespace())) {
    ++number;
    absl::StatusOr<Move> move = ParseMove(token);
    absl::Status played = move.ok() ? game.Play(*move) : move.status();
    if (!played.ok()) {
      return Bad(
          absl::StrCat("move ", number, " (", token, "): ", played.message()));
    }
  }
  return game;
}

namespace {

// One entry of GameFromPlayed's list.
absl::StatusOr<PlayedMove> PlayedFromJson(const nlohmann::json& entry) {
  constexpr int64_t kMaxMs = int64_t{86'400'000} * 365;
  absl::StatusOr<std::string> token = StringField(entry, "move");
  if (!token.ok()) return token.status();
  absl::StatusOr<Move> move = ParseMove(*token);
  if (!move.ok()) return move.status();
  absl::StatusOr<int64_t> ms =
      entry.contains("ms") ? IntField(entry, "ms", -1, kMaxMs) : -1;
  absl::StatusOr<bool> random = OptionalBoolField(entry, "random");
  absl::StatusOr<bool> timeout = OptionalBoolField(entry, "timeout");
  for (const absl::Status& s :
       {ms.status(), random.status(), timeout.status()}) {
    if (!s.ok()) return s;
  }
  PlayedMove played;
  played.move = *move;
  played.ms = *ms;
  played.random = *random;
  played.timeout = *timeout;
  return played;
}

}  // namespace

absl::StatusOr<GuiGame> GameFromPlayed(const Position& start,
                                       const nlohmann::json& played) {
  if (!played.is_array()) return Bad("'played' must be a list of moves");
  GuiGame game(start);
  for (size_t i = 0; i < played.size(); ++i) {
    absl::StatusOr<PlayedMove> move = PlayedFromJson(played[i]);
    absl::Status ok = move.ok() ? game.Play(*move) : move.status();
    if (!ok.ok()) {
      return Bad(absl::StrCat("played move ", i + 1, ": ", ok.message()));
    }
  }
  return game;
}

absl::StatusOr<GuiGame> GameFromRecord(const records::GameRecord& record) {
  absl::StatusOr<Rules> rules = ParseRules(record.rules);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<records::Opening> opening =
      records::ResolveOpening(*rules, record.opening);
  if (!opening.ok()) return opening.status();
  absl::StatusOr<GuiGame> game =
      record.opening.find('=') != std::string::npos
          ? GuiGame(opening->start)
          : GameFromTokens(*Position::Start(*rules), record.opening);
  if (!game.ok()) return game.status();
  std::vector<PlayedMove> moves = game->moves();
  for (const records::MoveRecord& m : record.moves) {
    absl::StatusOr<Colour> colour = ParseColour(m.colour);
    absl::StatusOr<Move> move = ParseMove(m.move);
    if (!colour.ok()) return colour.status();
    if (!move.ok()) return move.status();
    moves.push_back({*colour, *move, m.ms});
  }
  return GuiGame::FromMoves(game->start(), moves);
}

json RecordSummary(const records::GameRecord& r) {
  json seats = json::object();
  for (const auto& [colour, engine] : r.seats) seats[colour] = engine;
  json scores = json::object();
  for (const auto& [colour, score] : r.scores) scores[colour] = score;
  return {{"game", r.game},     {"seats", seats},         {"winner", r.winner},
          {"reason", r.reason}, {"detail", r.detail},     {"loser", r.loser},
          {"scores", scores},   {"moves", r.moves.size()}};
}

records::GameRecord GameToRecord(const GuiGame& game,
                                 const std::vector<Seat>& seats,
                                 const std::vector<EngineSpec>& engines) {
  const Game whole = game.Whole();
  const Position& start = game.start();
  records::GameRecord r;
  r.game = 1;
  for (size_t i = 0; i < seats.size(); ++i) {
    r.seats.emplace_back(
        ColourName(ColourAt(static_cast<int>(i))),
        seats[i].engine >= 0 ? engines[seats[i].engine].name : "human");
  }
  r.rules = RulesString(start.rules());
  // A game from the rules' own start needs no opening; any other start is
  // written as its position, as the referee writes a position opening.
  absl::StatusOr<Position> standard = Position::Start(start.rules());
  if (!standard.ok() || PositionString(*standard) != PositionString(start)) {
    r.opening = PositionString(start);
  }
  for (const PlayedMove& m : game.moves()) {
    r.moves.push_back({ColourName(m.colour), MoveName(m.move),
                       std::max<int64_t>(m.ms, 0), m.random, std::nullopt});
  }
  const Result result = whole.result();
  for (int p = 0; p < start.num_players(); ++p) {
    const std::string name = ColourName(ColourAt(p));
    r.scores.emplace_back(name, result.sheet.score[p]);
    if (result.won(p)) r.winners.push_back(name);
  }
  r.winner = r.winners.size() == 1 ? r.winners[0] : std::string("draw");
  r.reason = "finished";
  if (whole.resigned()) {
    r.loser = ColourName(*whole.resigned());
    r.reason = game.moves().back().timeout ? "timeout" : "resign";
  } else if (!whole.is_over()) {
    r.reason = "unfinished";
  }
  r.final_position = PositionString(whole.position());
  return r;
}

}  // namespace wallgo::gui
