// Fuzz target: the messages a page sends to wallgo-gui, straight into the
// bridge's handler (tools/gui/bridge.h), without a socket. One bridge lives
// for the whole run with the mock engine (tests/tools/mock_engine.cc)
// behind it; each input starts a new game with two people seated, then
// hands the bridge its lines (messages) one by one. A bad message gets a
// non-empty error; after every message the state is a JSON object, the
// games-list summary too, and a finished game's records line reads back as
// a referee record.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "nlohmann/json.hpp"
#include "tests/fuzz/fuzz_check.h"
#include "tools/gui/bridge.h"
#include "tools/records/records.h"

namespace {

std::unique_ptr<wallgo::gui::Bridge>& TheBridge() {
  static std::unique_ptr<wallgo::gui::Bridge> bridge;
  return bridge;
}

constexpr char kReset[] =
    R"({"type":"new","rules":"players=2","seats":[{"kind":"human"},{"kind":"human"}]})";

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using namespace wallgo::gui;
  absl::StatusOr<std::unique_ptr<Bridge>> bridge = Bridge::Create(
      {{"mock", MOCK_ENGINE}}, BridgeOptions{}, [](const std::string&) {});
  FUZZ_CHECK(bridge.ok(), std::string(bridge.status().message()));
  TheBridge() = std::move(*bridge);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wallgo;
  if (size > 16384) return 0;
  gui::Bridge& bridge = *TheBridge();
  const absl::Status reset = bridge.Handle(kReset);
  FUZZ_CHECK(reset.ok(), std::string(reset.message()));
  int handled = 0;
  for (const std::string& line : fuzz::Lines(
           std::string_view(reinterpret_cast<const char*>(data), size))) {
    if (++handled > 32) break;
    const absl::Status status = bridge.Handle(line);
    if (!status.ok()) FUZZ_CHECK(!status.message().empty(), line);
    const nlohmann::json state = nlohmann::json::parse(
        bridge.StateJson(), nullptr, /*allow_exceptions=*/false);
    FUZZ_CHECK(state.is_object(), line);
    FUZZ_CHECK(bridge.Summary().is_object(), line);
    const std::string record = bridge.RecordLine();
    if (!record.empty()) {
      absl::StatusOr<records::GameRecord> back =
          records::RecordFromJson(record);
      FUZZ_CHECK(back.ok(),
                 record + ": " + std::string(back.status().message()));
    }
  }
  return 0;
}
