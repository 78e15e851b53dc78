// The bridge's messages to the pages: the whole state (game, seats and
// clocks, engines, analysis, review, records), the analysis alone, and a
// game's line in the games list and in a records file.
#include "common/json_text.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "tools/gui/bridge.h"
#include "tools/gui/record_game.h"

namespace wallgo::gui {

using nlohmann::json;

json Bridge::AnalysisLocked() const {
  json candidates = json::array();
  for (const Candidate& c : candidates_) {
    candidates.push_back({{"move", c.move},
                          {"visits", c.visits},
                          {"winrate", c.winrate},
                          {"score", c.score},
                          {"pv", c.pv}});
  }
  json graph = json::array();
  for (const auto& [ply, point] : graph_) {
    graph.push_back({{"ply", ply},
                     {"turn", point.turn},
                     {"winrate", point.winrate},
                     {"score", point.score},
                     {"visits", point.visits}});
  }
  return {{"analysis",
           {{"on", analysis_on_},
            {"engine", specs_[analysis_engine_].name},
            {"ply", game_.cursor()},
            {"candidates", candidates}}},
          {"graph", graph}};
}

json Bridge::StateLocked() const {
  json state = AnalysisLocked();
  state["type"] = "state";
  state["version"] = version_;
  json engines = json::array();
  for (size_t i = 0; i < workers_.size(); ++i) {
    const EngineStatus& status = shown_status_[i];
    engines.push_back({{"name", workers_[i]->name()},
                       {"state", StateName(status.state)},
                       {"detail", status.detail},
                       {"pid", status.pid}});
  }
  state["engines"] = engines;
  json seats = json::array();
  for (size_t i = 0; i < seats_.size(); ++i) {
    const Seat& s = seats_[i];
    json seat = {{"colour", ColourName(ColourAt(static_cast<int>(i)))},
                 {"kind", s.engine >= 0 ? "engine" : "human"}};
    const Colour colour = ColourAt(static_cast<int>(i));
    const bool moving = Live() && turn_moves_ >= 0 &&
                        colour == game_.shown().position().to_move();
    if (s.engine >= 0) {
      seat["engine"] = specs_[s.engine].name;
      seat.update(SettingsJson(s.settings));
    } else if (s.settings.clock > 0) {
      seat["clock"] = s.settings.clock;
      seat["increment"] = s.settings.increment;
    }
    // Time left as the message leaves; the page counts down from there.
    if (s.settings.clock > 0) {
      seat["clockLeft"] = ClockLeft(colour) - (moving ? TurnElapsed() : 0);
    }
    if (s.turn > 0) {
      seat["turn"] = s.turn;
      seat["timeout"] =
          s.timeout == TimeoutRule::kForfeit ? "forfeit" : "random";
      seat["turnLeft"] = s.turn - (moving ? TurnElapsed() : 0);
    }
    seat["running"] = moving;
    seats.push_back(seat);
  }
  state["seats"] = seats;
  state["rules"] = RulesString(game_.start().rules());
  state["start"] = PositionString(game_.start());
  state["moves"] = MovesJson(game_.moves());
  // How long the turn to play has run (0 when the end is not shown): the
  // static site keeps it across a reload (the "seats" message takes it).
  state["turnElapsed"] = Live() && turn_moves_ >= 0 ? TurnElapsed() : 0.0;
  state["cursor"] = game_.cursor();
  state["board"] = BoardJson(game_);
  state["event"] = event_;
  state["eventCode"] =
      event_key_.empty() ? json()
                         : json{{"key", event_key_}, {"colour", event_colour_}};
  state["review"] = ReviewJson();
  state["hint"] = {
      {"pending", hint_.pending}, {"ply", hint_.ply}, {"move", hint_.move}};
  const std::string record_line = RecordLineLocked();
  state["recordLine"] = record_line.empty() ? json() : json(record_line);
  state["records"] = nullptr;
  if (!records_.empty()) {
    json games = json::array();
    for (const records::GameRecord& r : records_)
      games.push_back(RecordSummary(r));
    state["records"] = {{"games", games}, {"shown", record_shown_}};
  }
  return state;
}

std::string Bridge::RecordLineLocked() const {
  if (!game_.Whole().is_over()) return "";
  return records::RecordToJson(GameRecordLocked());
}

std::string Bridge::RecordLine() {
  std::lock_guard<std::mutex> lock(mutex_);
  return RecordLineLocked();
}

json Bridge::Summary() {
  std::lock_guard<std::mutex> lock(mutex_);
  const Game whole = game_.Whole();
  json seats = json::array();
  for (size_t i = 0; i < seats_.size(); ++i) {
    json seat = {{"colour", ColourName(ColourAt(static_cast<int>(i)))},
                 {"kind", seats_[i].engine >= 0 ? "engine" : "human"}};
    if (seats_[i].engine >= 0) {
      seat["engine"] = specs_[seats_[i].engine].name;
      seat.update(SettingsJson(seats_[i].settings));
    }
    seats.push_back(seat);
  }
  json winners = json::array();
  if (whole.is_over()) {
    for (int p : whole.result().winner_indices()) {
      winners.push_back(ColourName(ColourAt(p)));
    }
  }
  return {{"seats", seats},
          {"moves", game_.moves().size()},
          {"turn", ColourName(whole.position().to_move())},
          {"over", whole.is_over()},
          {"winners", winners},
          {"version", version_}};
}

std::string Bridge::StateJson() {
  std::lock_guard<std::mutex> lock(mutex_);
  return common::JsonText(StateLocked());
}

records::GameRecord Bridge::GameRecordLocked() const {
  return GameToRecord(game_, seats_, specs_);
}

}  // namespace wallgo::gui
