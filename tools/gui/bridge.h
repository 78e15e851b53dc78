// The bridge between the page and the engines: it owns the game on show,
// who sits at each colour, the engine workers, the analysis and the
// referee records loaded for review. The page sends JSON messages (see
// docs/gui.md); each is checked whole before anything changes, and a bad
// one gets a clear error and changes nothing. Engines get only commands
// that the bridge builds itself from checked values. Every change is
// published to all pages as a "state" (or "analysis") message, so a page
// that reconnects sees the same game.
//
// The class's definitions are split by concern: bridge.cc (messages from
// the pages, the engines' callbacks), bridge_clock.cc (clocks and the timer
// thread), bridge_review.cc (records loaded for review, reviews),
// bridge_state.cc (the state and analysis messages). Seats, access rights,
// message fields and records conversion are plain functions (seats.h,
// access.h, message_fields.h, record_game.h).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "tools/client/engine_process.h"
#include "tools/client/engine_spec.h"
#include "tools/gui/access.h"
#include "tools/gui/engine_worker.h"
#include "tools/gui/gui_game.h"
#include "tools/gui/seats.h"
#include "tools/records/annotate.h"
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
    return gui::SeatOfToken(seat_tokens_, token);
  }
  // Every seat's join token, by colour index (kMaxPlayers of them).
  const std::vector<std::string>& seat_tokens() const { return seat_tokens_; }
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
  nlohmann::json StateLocked() const;
  nlohmann::json AnalysisLocked() const;
  bool EngineToMove() const;
  std::string RecordLineLocked() const;
  // The game so far as a referee record (finished or not).
  records::GameRecord GameRecordLocked() const;
  // The review thread's body: `wallgo-referee annotate`'s judgement of the
  // whole game (records::AnnotateGame) with a fresh process of the engine.
  void RunReview(uint64_t id, records::GameRecord record,
                 records::AnnotateOptions options, std::stop_token stop);
  // A new review (or none) in place of the current one, which stops.
  void ResetReview();
  // Takes the notes of an annotated record as the review of the game shown.
  void ReviewFromRecord(const records::GameRecord& record);
  nlohmann::json ReviewJson() const;
  // Seconds left on `colour`'s clock at the ply shown: its main time plus an
  // increment per move, less the time its moves took (a random turn played
  // for it after its clock ran out starts it again at the increment).
  double ClockLeft(Colour colour) const;
  // Whether the clocks run: the game's last position is shown and live.
  bool Live() const;
  double TurnElapsed() const;  // seconds since the turn to play began
  // When the side to move runs out of time (turn or clock), if it can.
  std::optional<std::chrono::steady_clock::time_point> Deadline() const;
  // The timer thread: plays the timeout rule for a late seat.
  void RunTimer();
  void PlayTimeout();
  void TakeHint();  // the analysis's best move as the hint

  void OnMove(uint64_t token, absl::StatusOr<Move> move, int64_t ms);
  void OnAnalysis(uint64_t token, std::vector<Candidate> candidates);
  void OnStatus();

  const std::vector<EngineSpec> specs_;
  const std::vector<std::string> seat_tokens_;  // unguessable, per colour
  const BridgeOptions options_;
  const Publish publish_;
  std::shared_ptr<client::EngineLog> log_;

  mutable std::mutex mutex_;
  GuiGame game_;
  std::vector<Seat> seats_;
  uint64_t version_ = 0;
  bool analysis_on_ = false;
  int analysis_engine_ = 0;
  std::vector<Candidate> candidates_;
  struct GraphPoint {
    std::string turn;  // whose win rate and margin these are
    double winrate = 0, score = 0;
    int64_t visits = 0;
  };
  std::map<int, GraphPoint> graph_;  // by ply of the current game
  std::vector<records::GameRecord> records_;
  int record_shown_ = -1;
  std::string event_;  // the last engine failure, for people
  // Each engine's status as the states show it: taken in OnStatus together
  // with event_, so that no state shows a failure without its event.
  std::vector<EngineStatus> shown_status_;
  // The page's catalogue key of event_ where it has one, and its colour.
  std::string event_key_, event_colour_;
  bool closing_ = false;  // the destructor has begun: callbacks do nothing
  // The review of the game: `moves` are the move tokens it judged, `record`
  // the annotated record (its moves are the game's last record.moves.size()).
  struct Review {
    uint64_t id = 0;    // a new review makes an older one's thread stop
    std::string state;  // "", "running", "done", "failed"
    std::string engine, error;
    int done = 0, total = 0;
    std::vector<std::string> moves;
    std::optional<records::GameRecord> record;
    // Stops its engine's command in flight (a new review, a closed game).
    std::shared_ptr<std::stop_source> stop =
        std::make_shared<std::stop_source>();
  } review_;
  // The review threads; each sets its flag as it ends, and the ended ones
  // are joined when the next starts (the rest by the destructor).
  struct ReviewThread {
    std::shared_ptr<std::atomic<bool>> ended;
    std::thread thread;
  };
  std::vector<ReviewThread> review_threads_;
  // A hint: the engine's best move for the position at ply `ply`, taken
  // from its analysis once it has searched a second.
  struct Hint {
    bool pending = false;
    int engine = 0;
    int ply = -1;
    std::chrono::steady_clock::time_point asked;
    std::string move;
  } hint_;
  // The turn at the end of the game began at `turn_started_`, after
  // `turn_moves_` moves (-1: a new game, not yet timed).
  std::chrono::steady_clock::time_point turn_started_;
  int turn_moves_ = -1;
  std::condition_variable timer_wake_;              // with mutex_
  std::mt19937_64 random_{std::random_device{}()};  // random turns
  std::thread timer_;

  // Last: they call back into the members above, so they go first.
  std::vector<std::unique_ptr<EngineWorker>> workers_;
};

}  // namespace wallgo::gui
