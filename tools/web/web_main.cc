// The engine in WebAssembly (docs/web.md): the text protocol of
// docs/protocol.md, its input handed in by JavaScript (wallgo_input) rather
// than read from stdin, its answers printed as the native engine prints them
// (emscripten hands each line to the page's or the Node runner's print
// callback). The options are the native engine's defaults but a smaller
// hash (browsers, phones most of all, give a page little memory); the
// arguments `--NAME VALUE` set the protocol's options (those of setoption)
// before the first line, so that programs start it as they start `wallgo`
// (the rest of the native command line, Boost's, is native only).
#include <emscripten/emscripten.h>

#include <iostream>
#include <istream>
#include <string_view>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "protocol/engine.h"
#include "protocol/gtp.h"
#include "protocol/log.h"
#include "protocol/options.h"
#include "search/net/builtin_weights.h"
#include "search/search.h"
#include "tools/web/line_channel.h"

namespace wallgo::web {
namespace {

constexpr int kWebHashMb = 64;
constexpr int kUsageError = 2;  // as `wallgo`

// The one input of this process: JavaScript reaches it through the C entry
// points below, which can carry no object.
LineChannel& Input() {
  static LineChannel channel;
  return channel;
}

// Sets the options named by `--NAME VALUE` pairs; false (with a message)
// at the first bad one.
bool SetOptionsFromArguments(int argc, char** argv,
                             search::SearchOptions& options) {
  for (int i = 1; i < argc; i += 2) {
    const absl::string_view flag = argv[i];
    const protocol::OptionSpec* spec =
        absl::StartsWith(flag, "--") ? protocol::FindOption(flag.substr(2))
                                     : nullptr;
    if (spec == nullptr || i + 1 == argc) {
      std::cerr << "wallgo: " << flag
                << ": expected --OPTION VALUE, OPTION one of list_options\n";
      return false;
    }
    if (absl::Status s =
            protocol::SetOptionFromText(options, *spec, argv[i + 1]);
        !s.ok()) {
      std::cerr << "wallgo: " << flag << ": " << s.message() << "\n";
      return false;
    }
  }
  return true;
}

int Main(int argc, char** argv) {
  search::SearchOptions options = protocol::DefaultOptions();
  options.hash_mb = kWebHashMb;
  if (!SetOptionsFromArguments(argc, argv, options)) return kUsageError;
  absl::StatusOr<std::shared_ptr<const search::Evaluator>> net =
      search::net::LoadNetEvaluator("");
  if (!net.ok()) {
    std::cerr << "wallgo: " << net.status().message() << "\n";
    return kUsageError;
  }
  options.net = *std::move(net);
  protocol::Engine engine(
      [](const search::SearchOptions& o) { return search::MakeSearcher(o); },
      options);
  protocol::Log log(&std::cerr, nullptr);
  protocol::GtpSession session(engine, std::cout, log, WALLGO_VERSION);
  std::istream in(&Input());
  session.Run(in);
  return 0;
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

int main(int argc, char** argv) { return wallgo::web::Main(argc, argv); }
