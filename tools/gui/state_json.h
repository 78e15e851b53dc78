// The bridge's messages to the pages, made from its parts: the whole state
// (game, seats and their time, engines and the last event, analysis, hint,
// review, records), the analysis alone, a game's line in the games list and
// in a records file. Functions of what they are given, so a state can be
// checked without engines or threads; the caller holds the parts' lock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "tools/gui/analysis_state.h"
#include "tools/gui/engine_worker.h"
#include "tools/gui/gui_game.h"
#include "tools/gui/seating.h"
#include "tools/gui/turn_clock.h"
#include "tools/records/records.h"

namespace wallgo::gui {

// What the state says of the engines: each one's status, and the last
// engine failure or timeout, for people. A failure's status and its event
// are taken together, so that no state shows a failure without its event.
class EngineEvents {
 public:
  explicit EngineEvents(std::vector<EngineStatus> status)
      : status_(std::move(status)) {}
  // Engine `index`, called `name`, has `status` now.
  void Update(size_t index, const std::string& name,
              const EngineStatus& status);
  // An event that is no engine's status (a seat's time ran out).
  void Say(std::string event) { event_ = std::move(event); }
  void Clear();  // a new game, a restarted engine
  // "engines", "event" and "eventCode" of the state.
  void AddTo(nlohmann::json& state,
             const std::vector<EngineSpec>& engines) const;

 private:
  std::vector<EngineStatus> status_;  // by engine, as the states show it
  std::string event_;
  // The page's catalogue key of event_ where it has one, and its colour.
  std::string key_, colour_;
};

// The parts of a game's bridge that its messages show.
struct BridgeView {
  uint64_t version;
  const std::vector<EngineSpec>& engines;
  const GuiGame& game;
  const Seating& seating;
  const TurnClock& clock;
  const AnalysisState& analysis;
  const EngineEvents& events;
  nlohmann::json review;                            // GameReview::Json()
  const std::vector<records::GameRecord>& records;  // loaded for review
  int record_shown;  // the index of the record shown, or -1
};

// The analysis and the graph ({"analysis", "graph"}).
nlohmann::json AnalysisJson(const BridgeView& view);
// The "state" message.
nlohmann::json StateJson(const BridgeView& view);
// A line of the games list: seats, moves, turn and result.
nlohmann::json SummaryJson(const BridgeView& view);
// The whole game as a line of `wallgo-referee` records, or "" while it is
// not over.
std::string RecordLine(const BridgeView& view);

}  // namespace wallgo::gui
