// One game under the referee's own rules engine: it asks each engine in turn
// for a move, checks it, tells the other engines, keeps the clocks, and ends
// and scores the game itself. Any engine fault ends the game with that
// engine losing; the fault never escapes as an error.
#pragma once

#include <memory>
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
// a fault; each game reuses the running ones (with `newgame`).
class EnginePool {
 public:
  EnginePool(const std::vector<EngineSpec>& engines, EngineLog* log)
      : engines_(engines), log_(log), processes_(engines.size()) {}
  ~EnginePool() { QuitAll(); }

  // The running process of `engine`, started if needed; nullptr with
  // `error` set when it cannot be started.
  EngineProcess* Running(int engine, std::string& error);
  void Kill(int engine);
  void QuitAll();
  const EngineSpec& spec(int engine) const { return engines_[engine]; }

 private:
  const std::vector<EngineSpec>& engines_;
  EngineLog* log_;
  std::vector<std::unique_ptr<EngineProcess>> processes_;
};

GameRecord PlayGame(const MatchOptions& options, const GameSpec& spec,
                    const Opening& opening, EnginePool& pool);

}  // namespace wallgo::referee
