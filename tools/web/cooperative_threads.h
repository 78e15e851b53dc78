// Threads for the single-threaded WebAssembly build (docs/web.md): a page
// without cross-origin isolation has no SharedArrayBuffer, so no Web Worker
// can share the engine's memory and emscripten's pthreads cannot run. The
// engine, its input reader and the site's bridge are written with
// std::thread, std::mutex and std::condition_variable all the same: in that
// build cooperative_threads.cc links under the pthread functions those call
// (the linker's --wrap) and runs every thread as a fiber (emscripten's
// Asyncify fibers) on the one JavaScript thread. A fiber runs until it
// blocks (a condition variable, a join, a sleep, a contended mutex) or
// yields (std::this_thread::yield: the search yields every few hundred
// playouts); between fibers the JavaScript event loop gets its turn every
// few hundredths of a second, so that the page's messages arrive.
#pragma once

#include <emscripten/emscripten.h>

namespace wallgo::web {

// Runs `main` as the first fiber and the others until it returns; its
// status. Defined in the single-threaded build only.
int RunCooperativeMain(int (*main)(int, char**), int argc, char** argv);

// The wasm programs' main in either build: `main` itself on threads, or
// as the first fiber.
inline int RunProgramMain(int (*main)(int, char**), int argc, char** argv) {
#if WALLGO_COOPERATIVE_THREADS
  // main's status does not survive Asyncify's sleeps, and the runtime,
  // kept alive by them, would not end (nor call onExit) on a plain exit.
  emscripten_force_exit(RunCooperativeMain(main, argc, argv));  // noreturn
#else
  return main(argc, argv);
#endif
}

}  // namespace wallgo::web
