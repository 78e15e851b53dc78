// The static site's program (docs/web.md): the GUI's bridge
// (tools/gui/bridge.h), which owns the game, its seats, clocks, hints and
// reviews, running in the page's Web Worker with the engine in this process
// (in_process_channel.cc) instead of in a server. The page sends the
// messages it would send wallgo-gui over its WebSocket (wallgo_site_message)
// and gets the bridge's messages on standard output, one JSON message a
// line, which the worker posts to the page. Arguments: `--threads N`, the
// engine's search threads (1 without cross-origin isolation), and
// `--hash MB`, its hash (the page sizes both for the device).
#include <emscripten/emscripten.h>

#include <iostream>
#include <mutex>
#include <optional>
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
constexpr int kMaxHashMb = 1024;  // the wasm engine's limit

// The page's messages, one a line: JavaScript reaches it through the C
// entry point below, which can carry no object.
LineChannel& Inbox() {
  static LineChannel channel;
  return channel;
}

struct SiteArguments {
  int threads = 1;
  int hash_mb = 64;  // the wasm engine's default
};

// `--threads N [--hash MB]`: the engine's search threads and hash; nullopt
// for anything else.
std::optional<SiteArguments> ParseArguments(int argc, char** argv) {
  SiteArguments parsed;
  if (argc == 1) return parsed;
  if (argc != 3 && argc != 5) return std::nullopt;
  if (std::string_view(argv[1]) != "--threads" ||
      !absl::SimpleAtoi(argv[2], &parsed.threads) || parsed.threads < 1 ||
      parsed.threads > kMaxThreads) {
    return std::nullopt;
  }
  if (argc == 5 && (std::string_view(argv[3]) != "--hash" ||
                    !absl::SimpleAtoi(argv[4], &parsed.hash_mb) ||
                    parsed.hash_mb < 1 || parsed.hash_mb > kMaxHashMb)) {
    return std::nullopt;
  }
  return parsed;
}

int Main(int argc, char** argv) {
  const std::optional<SiteArguments> arguments = ParseArguments(argc, argv);
  if (!arguments) {
    std::cerr << "wallgo-site: expected --threads N (1.." << kMaxThreads
              << ") [--hash MB (1.." << kMaxHashMb << ")]\n";
    return kUsageError;
  }
  std::mutex out_mutex;
  auto publish = [&out_mutex](const std::string& json) {
    std::lock_guard lock(out_mutex);
    std::cout << json << std::endl;
  };
  const std::vector<client::EngineSpec> engines = {
      {"wallgo", absl::StrCat("wallgo --threads ", arguments->threads,
                              " --hash ", arguments->hash_mb)}};
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
