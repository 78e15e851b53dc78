// One engine process of the GUI with a thread of its own that does all the
// talking to it, so that the server never waits on an engine. The bridge
// says what it wants (a move for a position, an analysis of a position);
// the worker brings the engine to that position, asks, and reports back
// through callbacks. An engine that crashes, hangs or answers garbage is
// killed and reported as failed; it stays failed until Restart.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tools/client/engine_process.h"
#include "tools/gui/gui_game.h"

namespace wallgo::gui {

// How an engine plays one seat: each field unset (< 0, level 0) leaves the
// engine's own setting.
struct SeatSettings {
  int level = 0;         // 1..10
  double movetime = -1;  // seconds per move
  int64_t visits = -1;   // playouts per move
  // A clock: main seconds (0 = none) and seconds added after each move.
  double clock = 0;
  double increment = 0;
  bool operator==(const SeatSettings&) const = default;
};

struct EngineJob {
  explicit EngineJob(const Position& from) : start(from) {}
  uint64_t token = 0;  // the bridge's game version when asked
  Position start;
  std::vector<PlayedMove> moves;  // from `start` to the position to search
  SeatSettings settings;          // for a move
  double clock_left = 0;          // seconds left on the seat's clock
};

struct Candidate {
  std::string move;
  int64_t visits = 0;
  double winrate = 0;
  double score = 0;
  std::vector<std::string> pv;
};

// Parses `info move M visits N winrate W score S pv M1 M2 ...`; nullopt for
// any other line.
std::optional<Candidate> ParseInfoLine(const std::string& line);

enum class EngineState { kStarting, kReady, kThinking, kAnalysing, kFailed };
std::string StateName(EngineState state);

struct EngineStatus {
  EngineState state = EngineState::kStarting;
  std::string detail;  // why it failed, or a warning
  int pid = 0;
};

struct WorkerTimeouts {
  double command_s = 10;    // every command but genmove
  double max_think_s = 30;  // a genmove without a move time
  double margin_s = 5;      // a genmove may overrun its time by this much
  int analyze_interval_cs = 25;
};

class EngineWorker {
 public:
  struct Callbacks {
    // A move for job `token`, or an error (the engine has failed).
    std::function<void(uint64_t token, absl::StatusOr<Move> move, int64_t ms)>
        on_move;
    // The candidates of the latest analysis report for job `token`.
    std::function<void(uint64_t token, std::vector<Candidate>)> on_analysis;
    std::function<void()> on_status;  // status() changed
  };

  EngineWorker(std::string name, std::string command, client::EngineLog* log,
               WorkerTimeouts timeouts, Callbacks callbacks);
  // Asks the engine to quit (a second's grace) and joins the thread.
  ~EngineWorker();
  EngineWorker(const EngineWorker&) = delete;
  EngineWorker& operator=(const EngineWorker&) = delete;

  // What the bridge wants now: a move (played once per token) and an
  // analysis (runs until changed). A move goes first.
  void Want(std::optional<EngineJob> move, std::optional<EngineJob> analysis);
  // Kills the engine and starts it again.
  void Restart();

  const std::string& name() const { return name_; }
  EngineStatus status() const;

 private:
  void Run();
  void SetStatus(EngineState state, std::string detail);
  // Kills the engine and records why it failed.
  void Fail(const std::string& what, const client::Reply& reply);
  bool Start();
  // Brings the engine to the job's position; false when it failed.
  bool Sync(const EngineJob& job);
  bool Command(const std::string& command);
  void SendSettings(const SeatSettings& settings);
  void PlayMove(const EngineJob& job);
  void Analyse(const EngineJob& job);
  // Under mutex_: whether the analysis of `token` should stop.
  bool AnalysisInterrupted(uint64_t token) const;

  const std::string name_, command_;
  client::EngineLog* log_;
  const WorkerTimeouts timeouts_;
  const Callbacks callbacks_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<EngineJob> move_job_, analysis_job_;  // guarded by mutex_
  uint64_t moved_token_ = UINT64_MAX;                 // guarded by mutex_
  bool restart_ = false, stop_ = false;               // guarded by mutex_
  EngineStatus status_;                               // guarded by mutex_

  // Only the worker thread touches these.
  std::unique_ptr<client::EngineProcess> process_;
  std::optional<GuiGame> synced_;  // what the engine has been told
  // Each option's value as last set, and as the engine started with (from
  // get_option), which a seat that leaves the option unset gets back.
  std::map<std::string, std::string> sent_options_, default_options_;
  std::thread thread_;
};

}  // namespace wallgo::gui
