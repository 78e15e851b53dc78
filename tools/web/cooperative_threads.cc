// Cooperative threads for the single-threaded WebAssembly build: what
// cooperative_threads.h says, and how.
//
// The build links with --wrap=F for each pthread function below, so that
// libc++'s std::thread, std::mutex and std::condition_variable (and the
// engine's own code through them) call __wrap_F here instead of
// emscripten's single-threaded stubs (which cannot start a thread, and whose
// waits return at once). Each thread is a fiber with its own C stack and
// Asyncify stack. The scheduler runs in main's own context: it switches to
// each fiber that can run, in turn, and gets control back when that fiber
// blocks, yields or ends. Between rounds it sleeps (emscripten_sleep, which
// returns to the JavaScript event loop) when nothing can run, and for a
// moment every kEventLoopEveryMs while fibers keep running, so that the
// page's messages (`stop`, a move) get in.
//
// The scheduler is process-wide state, as a C library's thread table is:
// the functions it stands behind take no context to carry it.
#include "tools/web/cooperative_threads.h"

#include <emscripten/emscripten.h>
#include <emscripten/fiber.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

namespace wallgo::web {
namespace {

using Ms = double;  // milliseconds of the real-time clock
constexpr Ms kForever = std::numeric_limits<double>::infinity();
// The C stack of a thread: emscripten's default for a pthread.
constexpr size_t kStackBytes = 2 << 20;
// What Asyncify saves of a fiber's calls when it switches away.
constexpr size_t kAsyncifyBytes = 1 << 20;
// How long fibers may run before the event loop gets a turn: well inside
// the 100 ms in which `stop` must be answered.
constexpr Ms kEventLoopEveryMs = 20;
// The longest idle sleep: how late a message may wait to be seen when every
// fiber waits for one.
constexpr Ms kIdleSleepMs = 5;

Ms NowMs() {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<Ms>(now.tv_sec) * 1e3 + static_cast<Ms>(now.tv_nsec) / 1e6;
}

Ms DeadlineOf(const timespec* at) {
  return static_cast<Ms>(at->tv_sec) * 1e3 + static_cast<Ms>(at->tv_nsec) / 1e6;
}

struct Fiber {
  emscripten_fiber_t context;
  std::unique_ptr<char[]> c_stack{new char[kStackBytes]};
  std::unique_ptr<char[]> asyncify_stack{new char[kAsyncifyBytes]};
  void* (*start)(void*) = nullptr;
  void* arg = nullptr;
  void* result = nullptr;
  bool finished = false;
  bool detached = false;  // nobody will join it: freed when it ends
  bool joined = false;    // joined: freed now
  // While blocked: what wakes it (a condition variable, a mutex, a fiber
  // ending; nullptr for a sleep) and when it runs again anyway.
  bool blocked = false;
  const void* waiting_on = nullptr;
  Ms deadline = kForever;
};

class Scheduler {
 public:
  Scheduler() {
    emscripten_fiber_init_from_current_context(
        &context_, context_asyncify_.get(), kAsyncifyBytes);
  }

  Fiber* Spawn(void* (*start)(void*), void* arg) {
    auto fiber = std::make_unique<Fiber>();
    fiber->start = start;
    fiber->arg = arg;
    emscripten_fiber_init(&fiber->context, &Scheduler::Entry, fiber.get(),
                          fiber->c_stack.get(), kStackBytes,
                          fiber->asyncify_stack.get(), kAsyncifyBytes);
    fibers_.push_back(std::move(fiber));
    return fibers_.back().get();
  }

  // Blocks the running fiber on `on` until Wake(on) or `deadline`; false
  // when the deadline came first. Outside any fiber (main's context before
  // or after the fibers, or JavaScript calling in) nothing can block: it
  // runs the other fibers once (unless JavaScript called in while the
  // scheduler sleeps) and returns false, a spurious wake to the caller.
  bool Block(const void* on, Ms deadline) {
    if (running_ == nullptr) {
      if (!sleeping_) RunOnce();
      return false;
    }
    Fiber* self = running_;
    self->blocked = true;
    self->waiting_on = on;
    self->deadline = deadline;
    SwitchToScheduler(self);
    const bool woken = !self->blocked;
    self->blocked = false;
    self->waiting_on = nullptr;
    return woken;
  }

  // Wakes the fibers blocked on `on` (the first of them unless `all`).
  void Wake(const void* on, bool all) {
    if (on == nullptr) return;
    for (const std::unique_ptr<Fiber>& fiber : fibers_) {
      if (fiber->blocked && fiber->waiting_on == on) {
        fiber->blocked = false;
        if (!all) return;
      }
    }
  }

  void Yield() {
    if (running_ == nullptr) {
      if (!sleeping_) RunOnce();
      return;
    }
    SwitchToScheduler(running_);
  }

  int Join(Fiber* fiber, void** result) {
    while (!fiber->finished) Block(fiber, kForever);
    if (result != nullptr) *result = fiber->result;
    fiber->joined = true;
    Reap();
    return 0;
  }

  int Detach(Fiber* fiber) {
    fiber->detached = true;
    Reap();
    return 0;
  }

  // Who holds a mutex: the running fiber, or 1 outside any fiber.
  intptr_t Me() const {
    return running_ != nullptr ? reinterpret_cast<intptr_t>(running_) : 1;
  }
  bool InFiber() const { return running_ != nullptr; }

  int RunMain(int (*main)(int, char**), int argc, char** argv) {
    struct Call {
      int (*main)(int, char**);
      int argc;
      char** argv;
      int status = 0;
    } call{main, argc, argv};
    Fiber* fiber = Spawn(
        [](void* p) -> void* {
          Call* c = static_cast<Call*>(p);
          c->status = c->main(c->argc, c->argv);
          return nullptr;
        },
        &call);
    while (!fiber->finished) RunOnce();
    Join(fiber, nullptr);
    return call.status;
  }

 private:
  static void Entry(void* p);

  void SwitchToScheduler(Fiber* self) {
    emscripten_fiber_swap(&self->context, &context_);
  }

  // One round: every fiber that can run, runs until it blocks, yields or
  // ends. Then the event loop's turn, when it is due or nothing can run.
  void RunOnce() {
    bool ran = false;
    Ms next_deadline = kForever;
    for (size_t i = 0; i < fibers_.size(); ++i) {
      Fiber* fiber = fibers_[i].get();
      if (fiber->finished) continue;
      if (fiber->blocked) {
        if (NowMs() < fiber->deadline) {
          next_deadline = std::min(next_deadline, fiber->deadline);
          continue;
        }
        fiber->waiting_on = nullptr;  // timed out: still marked blocked
      }
      running_ = fiber;
      emscripten_fiber_swap(&context_, &fiber->context);
      running_ = nullptr;
      ran = true;
    }
    Reap();
    const Ms now = NowMs();
    if (!ran) {
      Sleep(std::clamp(next_deadline - now, 0.0, kIdleSleepMs));
    } else if (now - last_event_loop_ >= kEventLoopEveryMs) {
      Sleep(0);
    }
  }

  void Sleep(Ms ms) {
    sleeping_ = true;
    emscripten_sleep(static_cast<unsigned>(ms));
    sleeping_ = false;
    last_event_loop_ = NowMs();
  }

  // Frees the fibers that ended and that nobody will join any more. Never
  // the running one, whose stack is in use.
  void Reap() {
    std::erase_if(fibers_, [this](const std::unique_ptr<Fiber>& fiber) {
      return fiber->finished && (fiber->detached || fiber->joined) &&
             fiber.get() != running_;
    });
  }

  emscripten_fiber_t context_;  // main's, where the scheduler runs
  std::unique_ptr<char[]> context_asyncify_{new char[kAsyncifyBytes]};
  std::vector<std::unique_ptr<Fiber>> fibers_;
  Fiber* running_ = nullptr;
  bool sleeping_ = false;  // in emscripten_sleep: JavaScript may call in
  Ms last_event_loop_ = 0;
};

Scheduler& TheScheduler() {
  static Scheduler scheduler;
  return scheduler;
}

void Scheduler::Entry(void* p) {
  Fiber* fiber = static_cast<Fiber*>(p);
  fiber->result = fiber->start(fiber->arg);
  fiber->finished = true;
  Scheduler& scheduler = TheScheduler();
  scheduler.Wake(fiber, true);
  // An ended fiber is never switched to again (a fiber may not return).
  scheduler.SwitchToScheduler(fiber);
}

// A mutex is a count and an owner in the first words of pthread_mutex_t
// (whose initializer is all zeros); a fiber may lock one it holds again.
struct MutexWords {
  int unused;
  int count;
  intptr_t owner;
};
static_assert(sizeof(MutexWords) <= sizeof(pthread_mutex_t));

MutexWords& Words(pthread_mutex_t* mutex) {
  return *reinterpret_cast<MutexWords*>(mutex);
}

void Lock(pthread_mutex_t* mutex) {
  Scheduler& scheduler = TheScheduler();
  MutexWords& words = Words(mutex);
  // JavaScript calling in while a fiber holds the mutex cannot wait for it
  // (the holder runs only after JavaScript returns): it nests instead.
  while (words.count > 0 && words.owner != scheduler.Me() &&
         scheduler.InFiber()) {
    scheduler.Block(mutex, kForever);
  }
  if (words.count == 0) words.owner = scheduler.Me();
  ++words.count;
}

void Unlock(pthread_mutex_t* mutex) {
  MutexWords& words = Words(mutex);
  if (words.count > 0 && --words.count == 0) {
    words.owner = 0;
    TheScheduler().Wake(mutex, true);
  }
}

int Wait(pthread_cond_t* condition, pthread_mutex_t* mutex, Ms deadline) {
  MutexWords& words = Words(mutex);
  const int held = words.count;
  words.count = 1;
  Unlock(mutex);
  const bool woken = TheScheduler().Block(condition, deadline);
  Lock(mutex);
  words.count = held;
  return !woken && NowMs() >= deadline ? ETIMEDOUT : 0;
}

Fiber* FiberOf(pthread_t thread) { return reinterpret_cast<Fiber*>(thread); }

}  // namespace

int RunCooperativeMain(int (*main)(int, char**), int argc, char** argv) {
  return TheScheduler().RunMain(main, argc, argv);
}

}  // namespace wallgo::web

using wallgo::web::TheScheduler;

extern "C" {

int __wrap_pthread_create(pthread_t* thread, const pthread_attr_t*,
                          void* (*start)(void*), void* arg) {
  *thread = reinterpret_cast<pthread_t>(TheScheduler().Spawn(start, arg));
  return 0;
}

int __wrap_pthread_join(pthread_t thread, void** result) {
  return TheScheduler().Join(wallgo::web::FiberOf(thread), result);
}

int __wrap_pthread_detach(pthread_t thread) {
  return TheScheduler().Detach(wallgo::web::FiberOf(thread));
}

int __wrap_pthread_mutex_init(pthread_mutex_t* mutex,
                              const pthread_mutexattr_t*) {
  *mutex = pthread_mutex_t{};
  return 0;
}

int __wrap_pthread_mutex_lock(pthread_mutex_t* mutex) {
  wallgo::web::Lock(mutex);
  return 0;
}

int __wrap_pthread_mutex_trylock(pthread_mutex_t* mutex) {
  const wallgo::web::MutexWords& words = wallgo::web::Words(mutex);
  if (words.count > 0 && words.owner != TheScheduler().Me()) return EBUSY;
  wallgo::web::Lock(mutex);
  return 0;
}

int __wrap_pthread_mutex_unlock(pthread_mutex_t* mutex) {
  wallgo::web::Unlock(mutex);
  return 0;
}

int __wrap_pthread_cond_wait(pthread_cond_t* condition,
                             pthread_mutex_t* mutex) {
  return wallgo::web::Wait(condition, mutex, wallgo::web::kForever);
}

int __wrap_pthread_cond_timedwait(pthread_cond_t* condition,
                                  pthread_mutex_t* mutex, const timespec* at) {
  return wallgo::web::Wait(condition, mutex, wallgo::web::DeadlineOf(at));
}

int __wrap_pthread_cond_signal(pthread_cond_t* condition) {
  TheScheduler().Wake(condition, false);
  return 0;
}

int __wrap_pthread_cond_broadcast(pthread_cond_t* condition) {
  TheScheduler().Wake(condition, true);
  return 0;
}

int __wrap_sched_yield() {
  TheScheduler().Yield();
  return 0;
}

int __wrap_nanosleep(const timespec* duration, timespec* remaining) {
  const wallgo::web::Ms deadline =
      wallgo::web::NowMs() + wallgo::web::DeadlineOf(duration);
  while (wallgo::web::NowMs() < deadline) {
    TheScheduler().Block(nullptr, deadline);
  }
  if (remaining != nullptr) *remaining = timespec{};
  return 0;
}

}  // extern "C"
