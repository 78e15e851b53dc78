// The static site's program (docs/web.md): the GUI's bridge
// (tools/gui/bridge.h), which owns the game, its seats, clocks, hints and
// reviews, running in the page's Web Worker with the engine in this process
// (in_process_channel.cc) instead of in a server. The page sends the
// messages it would send wallgo-gui over its WebSocket (wallgo_site_message)
// and gets the bridge's messages on standard output, one JSON message a
// line, which the worker posts to the page. Arguments: `--threads N`, the
// engine's search threads (1 without cross-origin isolation).
#include <emscripten/emscripten.h>

#include <iostream>
#include <mutex>
#include <string>
#include <string_view>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/json_text.h"
#include "nlohmann/json.hpp"
#include "tools/gui/bridge.h"
#include "tools/gui/message_fields.h"
#include "tools/web/cooperative_threads.h"
#include "tools/web/line_channel.h"

namespace wallgo::web {
namespace {

constexpr int kUsageError = 2;
constexpr int kMaxThreads = 16;

// The page's messages, one a line: JavaScript reaches it through the C
// entry point below, which can carry no object.
LineChannel& Inbox() {
  static LineChannel channel;
  return channel;
}

// The engine's search threads from `--threads N`, or 0 for a bad argument.
int ThreadsArgument(int argc, char** argv) {
  if (argc == 1) return 1;
  int threads = 0;
  if (argc != 3 || std::string_view(argv[1]) != "--threads" ||
      !absl::SimpleAtoi(argv[2], &threads) || threads < 1 ||
      threads > kMaxThreads) {
    return 0;
  }
  return threads;
}

int Main(int argc, char** argv) {
  const int threads = ThreadsArgument(argc, argv);
  if (threads == 0) {
    std::cerr << "wallgo-site: expected --threads N (1.." << kMaxThreads
              << ")\n";
    return kUsageError;
  }
  std::mutex out_mutex;
  auto publish = [&out_mutex](const std::string& json) {
    std::lock_guard lock(out_mutex);
    std::cout << json << std::endl;
  };
  const std::vector<client::EngineSpec> engines = {
      {"wallgo", absl::StrCat("wallgo --threads ", threads)}};
  absl::StatusOr<std::unique_ptr<gui::Bridge>> bridge =
      gui::Bridge::Create(engines, gui::BridgeOptions{}, publish);
  if (!bridge.ok()) {
    publish(gui::PageError("refused", bridge.status().message()));
    return 1;
  }
  // As wallgo-gui greets a page on loopback: it may do everything.
  publish(common::JsonText(
      nlohmann::json{{"type", "role"}, {"seat", "all"}, {"tokens", false}}));
  publish((*bridge)->StateJson());
  std::istream in(&Inbox());
  for (std::string line; std::getline(in, line);) {
    if (absl::Status s = (*bridge)->Handle(line); !s.ok()) {
      publish(gui::PageError("error", s.message()));
    }
  }
  return 0;
}

}  // namespace
}  // namespace wallgo::web

extern "C" {

// One message of the page (JSON text, without a newline).
EMSCRIPTEN_KEEPALIVE void wallgo_site_message(const char* bytes, int size) {
  wallgo::web::Inbox().Push(std::string_view(bytes, size));
  wallgo::web::Inbox().Push("\n");
}

}  // extern "C"

int main(int argc, char** argv) {
  return wallgo::web::RunProgramMain(&wallgo::web::Main, argc, argv);
}
