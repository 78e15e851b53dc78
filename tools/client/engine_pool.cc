#include "tools/client/engine_pool.h"

#include <chrono>

namespace wallgo::client {

EnginePool::EnginePool(const std::vector<EngineSpec>& engines, EngineLog* log,
                       std::stop_token stop)
    : engines_(engines),
      log_(log),
      processes_(engines.size()),
      on_stop_(std::move(stop), [this] { Interrupt(); }) {}

void EnginePool::Interrupt() {
  std::lock_guard<std::mutex> lock(mutex_);
  interrupted_ = true;
  for (const std::unique_ptr<EngineProcess>& process : processes_) {
    // The worker reaps it: its command in flight sees the pipes close.
    if (process != nullptr && process->alive()) process->Interrupt();
  }
}

EngineProcess* EnginePool::Running(int engine, std::string& error) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (interrupted_) {
    error = "interrupted";
    return nullptr;
  }
  std::unique_ptr<EngineProcess>& process = processes_[engine];
  if (process != nullptr && process->alive()) return process.get();
  absl::StatusOr<std::unique_ptr<EngineProcess>> started = EngineProcess::Spawn(
      engines_[engine].command, engines_[engine].name, log_);
  if (!started.ok()) {
    error = std::string(started.status().message());
    return nullptr;
  }
  process = *std::move(started);
  return process.get();
}

void EnginePool::Kill(int engine) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (processes_[engine] != nullptr) processes_[engine]->Kill();
}

void EnginePool::QuitAll() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (std::unique_ptr<EngineProcess>& process : processes_) {
    if (process == nullptr) continue;
    if (interrupted_) {
      process->Kill();
    } else {
      process->Quit(std::chrono::milliseconds(1000));
    }
  }
}

}  // namespace wallgo::client
