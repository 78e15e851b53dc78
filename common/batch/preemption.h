// The pre-emption contract (docs/cluster.md): a batch run (a referee match
// or annotation, `wallgo analysis`, self-play generation) that gets SIGTERM
// or SIGINT -- what Slurm and Kubernetes send before they kill a pre-empted
// task -- stops within 2 s, ends its engine processes, leaves only whole
// records or answers in its files, and exits with kExitInterrupted, which
// says "interrupted: run me again with --resume".
#pragma once

#include <signal.h>

#include <atomic>
#include <stop_token>
#include <thread>

namespace wallgo::batch {

// EX_TEMPFAIL (sysexits.h): a temporary failure, try again.
inline constexpr int kExitInterrupted = 75;

// Turns SIGTERM and SIGINT into a stop request. Construct it in main before
// any thread starts: it blocks both signals in the calling thread, which
// every later thread inherits, and a watcher thread reads them from a
// signalfd and requests the stop (std::stop_callback functions registered
// on token() then run on that thread). Child processes must unblock the
// signals themselves (the engine client does). Not copyable; one at a time.
class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

  std::stop_token token() const { return source_.get_token(); }
  bool stopped() const { return source_.stop_requested(); }
  // The signal that stopped the run (SIGTERM or SIGINT), 0 while none did.
  int signal() const { return signal_.load(); }

 private:
  void Watch();

  std::stop_source source_;
  sigset_t old_mask_;
  int signal_fd_ = -1;
  int wake_fd_ = -1;  // an eventfd: the destructor ends the watcher
  std::atomic<int> signal_{0};
  std::thread watcher_;
};

}  // namespace wallgo::batch
