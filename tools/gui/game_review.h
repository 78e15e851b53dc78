// A game's review by an engine (`wallgo-referee annotate`'s judgement,
// records::AnnotateGame) run in a thread of its own with a fresh process of
// the engine, or the review that a loaded record carries; and the records
// files loaded for review.
//
// Locking: the owner's mutex guards a GameReview. Every method but Close is
// called with it held; a review thread takes it to report progress and its
// end, and then calls `changed` with it held (the owner publishes the
// state; `changed` must not call back into the review).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "tools/client/engine_process.h"
#include "tools/records/annotate.h"
#include "tools/records/records.h"

namespace wallgo::gui {

// The game records of a records file's text (JSON Lines; blank lines are
// skipped), each checked as a game; an error names the first bad line.
absl::StatusOr<std::vector<records::GameRecord>> ParseRecordsText(
    const std::string& text);

class GameReview {
 public:
  // `log` takes the review engines' standard error (may be null).
  GameReview(std::mutex& mutex, client::EngineLog* log,
             std::function<void()> changed);
  ~GameReview();  // Close()
  GameReview(const GameReview&) = delete;
  GameReview& operator=(const GameReview&) = delete;

  // Reviews `record` (the game so far, whose moves are `moves`) in a new
  // thread with `options`; the review in progress stops.
  void Start(records::GameRecord record, std::vector<std::string> moves,
             const records::AnnotateOptions& options);
  // No review; the one in progress stops.
  void Reset();
  // The notes of an annotated record as the review of its game, whose
  // moves are `moves`; none if the record has none.
  void FromRecord(const records::GameRecord& record,
                  std::vector<std::string> moves);
  // The review as the state shows it.
  nlohmann::json Json() const;
  // Without the lock: stops every review and joins its thread; no call of
  // `changed` follows.
  void Close();

 private:
  // The review thread's body.
  void Run(uint64_t id, records::GameRecord record,
           records::AnnotateOptions options, std::stop_token stop);

  std::mutex& mutex_;
  client::EngineLog* const log_;
  const std::function<void()> changed_;
  bool closed_ = false;
  // `moves` are the move tokens it judged, `record` the annotated record
  // (its moves are the game's last record.moves.size()).
  struct State {
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
  // are joined when the next starts (the rest by Close).
  struct Thread {
    std::shared_ptr<std::atomic<bool>> ended;
    std::thread thread;
  };
  std::vector<Thread> threads_;
};

}  // namespace wallgo::gui
