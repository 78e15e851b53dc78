// Fuzz target: `wallgo analysis` query lines (protocol/analysis_json.h and
// the server of analysis_server.h) over the real searcher kept tiny
// (tiny_searcher.h). A line that parses as a query prints to JSON that
// parses back to the same query; every line the server writes is one JSON
// object; bad lines get an error line, never a crash.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "nlohmann/json.hpp"
#include "protocol/analysis_json.h"
#include "protocol/analysis_server.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/tiny_searcher.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wallgo;
  using namespace wallgo::protocol;
  if (size > 8192) return 0;
  std::vector<std::string> lines =
      fuzz::Lines(std::string_view(reinterpret_cast<const char*>(data), size));
  if (lines.size() > 16) lines.resize(16);
  for (const std::string& line : lines) {
    const ParsedLine parsed = ParseQueryLine(line);
    if (const auto* query = std::get_if<AnalysisQuery>(&parsed.request)) {
      const std::string json = QueryToJson(*query);
      const ParsedLine again = ParseQueryLine(json);
      const auto* back = std::get_if<AnalysisQuery>(&again.request);
      FUZZ_CHECK(back != nullptr, line + " -> " + json);
      FUZZ_CHECK(QueryToJson(*back) == json, line + " -> " + json);
    }
  }
  AnalysisConfig config;
  config.defaults = fuzz::Tiny({});
  config.version = "fuzz";
  std::mutex mutex;
  std::vector<std::string> out;
  {
    AnalysisServer server(config, fuzz::MakeTinySearcher,
                          [&](const std::string& line) {
                            std::lock_guard<std::mutex> lock(mutex);
                            out.push_back(line);
                          });
    for (const std::string& line : lines) server.HandleLine(line);
    server.Finish();
  }
  for (const std::string& line : out) {
    const nlohmann::json answer =
        nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    FUZZ_CHECK(answer.is_object(), line);
  }
  return 0;
}
