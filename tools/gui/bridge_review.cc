// The bridge's records and reviews: records files loaded for review, and a
// game's review by an engine (GameReview).
#include "engine/notation.h"
#include "tools/gui/bridge.h"
#include "tools/gui/message_fields.h"
#include "tools/gui/record_game.h"

namespace wallgo::gui {

using nlohmann::json;

namespace {

// The game's moves as tokens, as a review shows them.
std::vector<std::string> MoveTokens(const GuiGame& game) {
  std::vector<std::string> tokens;
  for (const PlayedMove& m : game.moves()) tokens.push_back(MoveName(m.move));
  return tokens;
}

}  // namespace

absl::Status Bridge::LoadRecords(const json& message) {
  absl::StatusOr<std::string> text = StringField(message, "text");
  if (!text.ok()) return text.status();
  absl::StatusOr<std::vector<records::GameRecord>> records =
      ParseRecordsText(*text);
  if (!records.ok()) return records.status();
  const records::GameRecord& first = records->front();
  Replace(*GameFromRecord(first),
          std::vector<Seat>(ParseRules(first.rules)->players));
  records_ = std::move(*records);
  record_shown_ = 0;
  review_.FromRecord(records_[0], MoveTokens(game_));
  game_.Goto(0).IgnoreError();
  return absl::OkStatus();
}

absl::Status Bridge::ShowRecord(const json& message) {
  if (records_.empty())
    return absl::FailedPreconditionError("no records loaded");
  absl::StatusOr<int64_t> index =
      IntField(message, "index", 0, static_cast<int64_t>(records_.size()) - 1);
  if (!index.ok()) return index.status();
  GuiGame game = *GameFromRecord(records_[*index]);  // checked when loaded
  const int players = game.start().num_players();
  Replace(std::move(game), std::vector<Seat>(players));
  record_shown_ = static_cast<int>(*index);
  review_.FromRecord(records_[*index], MoveTokens(game_));
  game_.Goto(0).IgnoreError();
  return absl::OkStatus();
}

absl::Status Bridge::StartReview(const json& message) {
  absl::StatusOr<int> chosen = ChosenEngine(message);
  if (!chosen.ok()) return chosen.status();
  records::AnnotateOptions options;
  options.engine = specs_[*chosen];
  options.command_timeout_s = options_.timeouts.command_s;
  if (message.contains("visits")) {
    absl::StatusOr<int64_t> visits = IntField(message, "visits", 1, 10'000'000);
    if (!visits.ok()) return visits.status();
    options.visits = *visits;
  } else {
    options.movetime_s = 0.5;
    if (message.contains("movetime")) {
      absl::StatusOr<double> t = NumberField(message, "movetime", 0.01, 60);
      if (!t.ok()) return t.status();
      options.movetime_s = *t;
    }
  }
  if (game_.moves().empty()) {
    return absl::FailedPreconditionError("no moves to review");
  }
  review_.Start(GameToRecord(game_, seating_.seats(), specs_),
                MoveTokens(game_), options);
  return absl::OkStatus();
}

}  // namespace wallgo::gui
