// The bridge between the page and the engines: it owns the game on show,
// who sits at each colour, the engine workers, the analysis and the
// referee records loaded for review. The page sends JSON messages (see
// docs/gui.md); each is checked whole before anything changes, and a bad
// one gets a clear error and changes nothing. Engines get only commands
// that the bridge builds itself from checked values. Every change is
// published to all pages as a "state" (or "analysis") message, so a page
// that reconnects sees the same game.
//
// The bridge composes one class per concern, each with its own state and
// its own tests: Seating (who sits at each colour, join tokens and access),
// TurnClock (the turn's time, clocks and the timeout rule), AnalysisState
// (analysis, its graph and hints), GameReview (an engine's review in a
// thread of its own, and the records files loaded for review), EngineEvents
// and state_json.h (what the pages are sent). bridge.cc handles the pages'
// messages and the engines' callbacks, bridge_review.cc the records and
// reviews, bridge_timer.cc the timer thread.
//
// Locking: one mutex, mutex_, guards the game and every part above. Each
// public method, each engine callback, the timer thread and the review
// threads (through GameReview, which is given mutex_) take it; the parts
// themselves are not thread-safe and never lock but GameReview. `publish_`
// is called with it held, so the pages get the messages in the order of
// the changes; it must not call back into the bridge. The join tokens never
// change and are read without it. The destructor sets closing_ under the
// lock (after which callbacks do nothing), then joins the review threads
// and the timer thread without it, and ends the workers last.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "tools/client/engine_process.h"
#include "tools/client/engine_spec.h"
#include "tools/gui/access.h"
#include "tools/gui/analysis_state.h"
#include "tools/gui/engine_worker.h"
#include "tools/gui/game_review.h"
#include "tools/gui/gui_game.h"
#include "tools/gui/seating.h"
#include "tools/gui/state_json.h"
#include "tools/gui/turn_clock.h"
#include "tools/records/records.h"

namespace wallgo::gui {

struct BridgeOptions {
  WorkerTimeouts timeouts;
  std::string engine_log;  // the engines' standard error; "" discards it
};

class Bridge {
 public:
  using Publish = std::function<void(const std::string& json)>;
  // Starts every engine; `publish` gets each message for all pages, from
  // any thread, and must not call back into the bridge.
  static absl::StatusOr<std::unique_ptr<Bridge>> Create(
      std::vector<EngineSpec> engines, BridgeOptions options, Publish publish);
  // The same, writing the engines' standard error to `log` (shared by the
  // games of one server).
  static std::unique_ptr<Bridge> Create(std::vector<EngineSpec> engines,
                                        BridgeOptions options, Publish publish,
                                        std::shared_ptr<client::EngineLog> log);
  // Ends every engine process.
  ~Bridge();

  // Handles one message from a page. Returns an error (and changes
  // nothing) for a bad message.
  absl::Status Handle(const std::string& text, Access access = {});
  // The colour index whose join token is `token`, or Access::kWatch.
  int SeatOfToken(const std::string& token) const {
    return seating_.SeatOfToken(token);
  }
  // Every seat's join token, by colour index (kMaxPlayers of them).
  const std::vector<std::string>& seat_tokens() const {
    return seating_.tokens();
  }
  // The whole state, as sent to a page that connects.
  std::string StateJson();
  // A line of the games list: seats, moves, turn and result.
  nlohmann::json Summary();
  // The whole game as a line of `wallgo-referee` records
  // (tools/records/records.h), or "" while it is not over.
  std::string RecordLine();

 private:
  Bridge(std::vector<EngineSpec> engines, BridgeOptions options,
         Publish publish, std::shared_ptr<client::EngineLog> log);

  // Each handler checks everything before it changes anything.
  absl::Status NewGame(const nlohmann::json& message);
  absl::Status PlayMove(const nlohmann::json& message);
  absl::Status Undo();
  absl::Status Resign();
  absl::Status Goto(const nlohmann::json& message);
  absl::Status SetAnalysis(const nlohmann::json& message);
  absl::Status RestartEngine(const nlohmann::json& message);
  absl::Status SetSeats(const nlohmann::json& message);
  absl::Status ImportMoves(const nlohmann::json& message);
  absl::Status ImportPosition(const nlohmann::json& message);
  absl::Status LoadRecords(const nlohmann::json& message);
  absl::Status ShowRecord(const nlohmann::json& message);
  absl::Status StartReview(const nlohmann::json& message);
  absl::Status AskHint(const nlohmann::json& message);

  // The engine a message names in "engine", else the analysis engine.
  absl::StatusOr<int> ChosenEngine(const nlohmann::json& message) const;
  // Replaces the game (and forgets analysis of the old one).
  void Replace(GuiGame game, std::vector<Seat> seats);
  // After every change: new version, engines told what to do, pages told.
  void Changed();
  void Schedule();
  // The parts the messages show.
  BridgeView View() const;
  void PublishState();  // a "state" message to every page
  // The timer thread: plays the timeout rule for a late seat and takes a
  // hint once its analysis has searched a second (bridge_timer.cc).
  void RunTimer();
  void PlayTimeout();
  void TakeHint();  // the analysis's best move as the hint

  void OnMove(uint64_t token, absl::StatusOr<Move> move, int64_t ms);
  void OnAnalysis(uint64_t token, std::vector<Candidate> candidates);
  void OnStatus();

  const std::vector<EngineSpec> specs_;
  const BridgeOptions options_;
  const Publish publish_;
  std::shared_ptr<client::EngineLog> log_;

  mutable std::mutex mutex_;
  GuiGame game_;
  uint64_t version_ = 0;
  Seating seating_;
  TurnClock clock_;
  AnalysisState analysis_;
  EngineEvents events_;
  std::vector<records::GameRecord> records_;  // loaded for review
  int record_shown_ = -1;
  bool closing_ = false;  // the destructor has begun: callbacks do nothing
  GameReview review_;
  std::condition_variable timer_wake_;  // with mutex_
  std::thread timer_;

  // Last: they call back into the members above, so they go first.
  std::vector<std::unique_ptr<EngineWorker>> workers_;
};

}  // namespace wallgo::gui
