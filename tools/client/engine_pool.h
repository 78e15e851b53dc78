// The engine processes of one worker (a referee's match worker, an annotate
// run, a GUI review), started on demand and restarted after a fault; each
// game reuses the running ones (with `newgame`).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "tools/client/engine_process.h"
#include "tools/client/engine_spec.h"

namespace wallgo::client {

// A `stop` request (the pre-emption contract, common/batch/preemption.h)
// kills the running engines at once, from the requesting thread, so that a
// command in flight fails now rather than when the engine answers, and no
// engine starts after it.
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

}  // namespace wallgo::client
