// The engine in WebAssembly (docs/web.md): the text protocol of
// docs/protocol.md (engine_session.h), its input handed in by JavaScript
// (wallgo_input) rather than read from stdin, its answers printed as the
// native engine prints them (emscripten hands each line to the page's or the
// Node runner's print callback).
#include <emscripten/emscripten.h>

#include <iostream>
#include <istream>
#include <string_view>

#include "tools/web/cooperative_threads.h"
#include "tools/web/engine_session.h"
#include "tools/web/line_channel.h"

namespace wallgo::web {
namespace {

// The one input of this process: JavaScript reaches it through the C entry
// points below, which can carry no object.
LineChannel& Input() {
  static LineChannel channel;
  return channel;
}

int Main(int argc, char** argv) {
  std::istream in(&Input());
  return RunEngineSession(std::vector<std::string>(argv + 1, argv + argc), in,
                          std::cout, std::cerr);
}

}  // namespace
}  // namespace wallgo::web

extern "C" {

// Bytes of input, as they would come on stdin (lines end with '\n'): the
// Node runner hands its stdin over unchanged, the Web Worker each message
// with a newline, so that the engine splits and cleans lines itself.
EMSCRIPTEN_KEEPALIVE void wallgo_input(const char* bytes, int size) {
  wallgo::web::Input().Push(std::string_view(bytes, size));
}

// The end of input, as when stdin closes: the session ends.
EMSCRIPTEN_KEEPALIVE void wallgo_close_input() { wallgo::web::Input().Close(); }

}  // extern "C"

int main(int argc, char** argv) {
  return wallgo::web::RunProgramMain(&wallgo::web::Main, argc, argv);
}
