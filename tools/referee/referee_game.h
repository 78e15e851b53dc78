// One game under the referee's own rules engine: it asks each engine in turn
// for a move, checks it, tells the other engines, keeps the clocks, and ends
// and scores the game itself. Any engine fault ends the game with that
// engine losing; the fault never escapes as an error.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <vector>

#include "tools/client/engine_process.h"
#include "tools/referee/options.h"
#include "tools/referee/records.h"
#include "tools/referee/schedule.h"

namespace wallgo::referee {

// The referee speaks to engines through the shared client.
using client::EngineLog;
using client::EngineProcess;
using client::Fault;
using client::Reply;
using client::SteadyClock;

// The engine processes of one worker, started on demand and restarted after
// a fault; each game reuses the running ones (with `newgame`). A `stop`
// request (the pre-emption contract, common/batch/preemption.h) kills the
// running engines at once, from the requesting thread, so that a command in
// flight fails now rather than when the engine answers, and no engine
// starts after it.
class EnginePool {
 public:
  EnginePool(const std::vector<EngineSpec>& engines, EngineLog* log,
             std::stop_token stop = {});
  ~EnginePool() { QuitAll(); }

  // The running process of `engine`, started if needed; nullptr with
  // `error` set when it cannot be started (or the pool is stopped).
  EngineProcess* Running(int engine, std::string& error);
  void Kill(int engine);
  void QuitAll();
  const EngineSpec& spec(int engine) const { return engines_[engine]; }

 private:
  void Interrupt();

  const std::vector<EngineSpec>& engines_;
  EngineLog* log_;
  std::mutex mutex_;  // guards processes_ against Interrupt
  bool interrupted_ = false;
  std::vector<std::unique_ptr<EngineProcess>> processes_;
  std::stop_callback<std::function<void()>> on_stop_;  // last: uses the rest
};

GameRecord PlayGame(const MatchOptions& options, const GameSpec& spec,
                    const Opening& opening, EnginePool& pool);

}  // namespace wallgo::referee
