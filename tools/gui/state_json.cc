#include "tools/gui/state_json.h"

#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "tools/gui/record_game.h"

namespace wallgo::gui {

using nlohmann::json;

void EngineEvents::Update(size_t index, const std::string& name,
                          const EngineStatus& status) {
  if (status.state == EngineState::kFailed) {
    key_.clear();
    event_ = absl::StrCat(name, " ", status.detail,
                          "; the game is kept: restart the engine to go on");
  }
  status_[index] = status;
}

void EngineEvents::Clear() {
  event_.clear();
  key_.clear();
}

void EngineEvents::AddTo(json& state,
                         const std::vector<EngineSpec>& engines) const {
  json list = json::array();
  for (size_t i = 0; i < status_.size(); ++i) {
    const EngineStatus& status = status_[i];
    list.push_back({{"name", engines[i].name},
                    {"state", StateName(status.state)},
                    {"detail", status.detail},
                    {"pid", status.pid}});
  }
  state["engines"] = list;
  state["event"] = event_;
  state["eventCode"] =
      key_.empty() ? json() : json{{"key", key_}, {"colour", colour_}};
}

json AnalysisJson(const BridgeView& view) {
  return view.analysis.Json(view.engines[view.analysis.engine()].name,
                            view.game.cursor());
}

json StateJson(const BridgeView& view) {
  const GuiGame& game = view.game;
  json state = AnalysisJson(view);
  state["type"] = "state";
  state["version"] = view.version;
  view.events.AddTo(state, view.engines);
  json seats = json::array();
  for (size_t i = 0; i < view.seating.seats().size(); ++i) {
    json seat = view.seating.StateJson(i, view.engines);
    seat.update(view.clock.SeatTimes(game, view.seating.seats()[i],
                                     ColourAt(static_cast<int>(i))));
    seats.push_back(seat);
  }
  state["seats"] = seats;
  state["rules"] = RulesString(game.start().rules());
  state["start"] = PositionString(game.start());
  state["moves"] = MovesJson(game.moves());
  // How long the turn to play has run (0 when the end is not shown): the
  // static site keeps it across a reload (the "seats" message takes it).
  state["turnElapsed"] =
      view.clock.Running(game) ? view.clock.TurnElapsed() : 0.0;
  state["cursor"] = game.cursor();
  state["board"] = BoardJson(game);
  state["review"] = view.review;
  state["hint"] = view.analysis.HintJson();
  const std::string record_line = RecordLine(view);
  state["recordLine"] = record_line.empty() ? json() : json(record_line);
  state["records"] = nullptr;
  if (!view.records.empty()) {
    json games = json::array();
    for (const records::GameRecord& r : view.records) {
      games.push_back(RecordSummary(r));
    }
    state["records"] = {{"games", games}, {"shown", view.record_shown}};
  }
  return state;
}

json SummaryJson(const BridgeView& view) {
  const Game whole = view.game.Whole();
  json seats = json::array();
  for (size_t i = 0; i < view.seating.seats().size(); ++i) {
    seats.push_back(view.seating.SummaryJson(i, view.engines));
  }
  json winners = json::array();
  if (whole.is_over()) {
    for (int p : whole.result().winner_indices()) {
      winners.push_back(ColourName(ColourAt(p)));
    }
  }
  return {{"seats", seats},
          {"moves", view.game.moves().size()},
          {"turn", ColourName(whole.position().to_move())},
          {"over", whole.is_over()},
          {"winners", winners},
          {"version", view.version}};
}

std::string RecordLine(const BridgeView& view) {
  if (!view.game.Whole().is_over()) return "";
  return records::RecordToJson(
      GameToRecord(view.game, view.seating.seats(), view.engines));
}

}  // namespace wallgo::gui
