// `wallgo analysis`: many analysis queries in flight at once. Query lines
// are handed in one at a time (HandleLine); their turns wait in a priority
// queue; `analysis_threads` workers, each an Engine with its own searcher
// (`search_threads` threads, hash/analysis_threads MB, reused for every
// query), take them best priority first and write each answer as it is
// done. Answers go through one callback, one whole line at a time.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/string_view.h"
#include "protocol/analysis_json.h"
#include "protocol/engine.h"

namespace wallgo::protocol {

struct AnalysisConfig {
  int analysis_threads = 1;
  int search_threads = 1;
  // The searches' defaults (visits, movetime, seed, level); `hash_mb` is the
  // total for all workers together.
  search::SearchOptions defaults;
  std::string version;
  // HandleLine waits while this many turns are queued, so that memory stays
  // bounded however fast queries arrive.
  size_t max_queued_turns = 256;
};

class AnalysisServer {
 public:
  // `write` gets each answer line (without '\n'); it is called from the
  // workers and the caller's thread, never two at once. A `stop` request
  // (common/batch/preemption.h) ends the searches at once and drops their
  // answers and the queued turns: only whole, real answers are written.
  AnalysisServer(const AnalysisConfig& config, SearcherFactory factory,
                 std::function<void(const std::string&)> write,
                 std::stop_token stop = {});
  ~AnalysisServer();  // Finish()
  AnalysisServer(const AnalysisServer&) = delete;
  AnalysisServer& operator=(const AnalysisServer&) = delete;

  // Handles one input line: answers errors, warnings and actions at once and
  // queues the turns of a query. Blank lines are ignored.
  void HandleLine(absl::string_view line);
  // Queues the turns of a parsed query (HandleLine's path for queries).
  void Submit(AnalysisQuery query);
  // Answers every queued turn, then stops the workers (end of input).
  void Finish();

 private:
  struct Query;  // a query and whether it was terminated
  struct Task {
    std::shared_ptr<Query> query;
    int turn = 0;
    int priority = 0;
    uint64_t order = 0;  // arrival
    bool operator<(const Task& other) const;
  };

  void Terminate(const TerminateAction& action);
  void Work(int worker);
  std::string Analyse(Engine& engine, const Task& task);
  void Write(const std::string& line);

  const AnalysisConfig config_;
  SearcherFactory factory_;
  std::function<void(const std::string&)> write_;
  std::mutex write_mutex_;

  std::mutex mutex_;  // guards the rest
  std::condition_variable changed_;
  std::set<Task> queue_;                         // best first
  std::vector<std::shared_ptr<Query>> running_;  // per worker, or null
  uint64_t arrivals_ = 0;
  bool closing_ = false;
  std::stop_token stop_;
  std::stop_callback<std::function<void()>> on_stop_;  // wakes the waiters
  std::vector<std::thread> workers_;
};

}  // namespace wallgo::protocol
