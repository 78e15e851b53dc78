#include "common/batch/preemption.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cstdint>

namespace wallgo::batch {
namespace {

sigset_t StopSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

StopOnSignals::StopOnSignals() {
  const sigset_t set = StopSignals();
  pthread_sigmask(SIG_BLOCK, &set, &old_mask_);
  signal_fd_ = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  wake_fd_ = eventfd(0, EFD_CLOEXEC);
  watcher_ = std::thread([this] { Watch(); });
}

StopOnSignals::~StopOnSignals() {
  const uint64_t one = 1;
  if (write(wake_fd_, &one, sizeof one) != sizeof one) {
    // Cannot happen with an eventfd; the join below would then wait for a
    // signal, so end the watcher the hard way instead of hanging.
    watcher_.detach();
  } else {
    watcher_.join();
  }
  // Signals that came after the watcher stopped are dropped rather than
  // delivered (and acted on by default) when the old mask comes back.
  signalfd_siginfo info;
  while (read(signal_fd_, &info, sizeof info) == sizeof info) {
  }
  close(signal_fd_);
  close(wake_fd_);
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

void StopOnSignals::Watch() {
  for (;;) {
    pollfd fds[2] = {{signal_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) continue;  // EINTR
    if (fds[1].revents != 0) return;
    signalfd_siginfo info;
    if (read(signal_fd_, &info, sizeof info) != sizeof info) continue;
    int expected = 0;
    signal_.compare_exchange_strong(expected, static_cast<int>(info.ssi_signo));
    // The first signal stops the run; later ones find it stopping already.
    source_.request_stop();
  }
}

}  // namespace wallgo::batch
