// Fuzz target: an engine's genmove_analyze answer as `wallgo-referee
// annotate` reads it (tools/records/annotate.h: ParseAnalyzeAnswer), then
// the notes it leads to (AddNotes) on a two-player game made of the
// answer's candidate moves: win rates stay in 0..1, losses are not
// negative, judgements are known words and accuracies are in 0..100.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_check.h"
#include "tools/records/annotate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wallgo;
  using namespace wallgo::records;
  if (size > 8192) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<EngineView> view = ParseAnalyzeAnswer(text);
  if (!view.ok()) {
    FUZZ_CHECK(!view.status().message().empty(), text);
    return 0;
  }
  FUZZ_CHECK(!view->best.empty() && !view->candidates.empty(), text);
  FUZZ_CHECK(view->winrate >= 0 && view->winrate <= 1, text);
  for (const auto& [move, winrate] : view->candidates) {
    FUZZ_CHECK(winrate >= 0 && winrate <= 1, move);
  }
  GameRecord record;
  record.game = 1;
  record.seats = {{"red", "a"}, {"blue", "b"}};
  record.rules = "players=2";
  record.winner = "red";
  record.winners = {"red"};
  record.scores = {{"red", 25}, {"blue", 24}};
  std::vector<WinRates> rates;
  std::vector<std::optional<EngineView>> views;
  const size_t moves = std::min<size_t>(view->candidates.size(), 8);
  for (size_t i = 0; i <= moves; ++i) {
    WinRates r;
    r.fill(NAN);
    const double w = view->candidates[i % view->candidates.size()].second;
    r[i % 2] = w;
    r[(i + 1) % 2] = 1 - w;
    rates.push_back(r);
    views.push_back(i < moves ? std::optional<EngineView>(*view)
                              : std::nullopt);
    if (i < moves) {
      MoveRecord m;
      m.colour = i % 2 == 0 ? "red" : "blue";
      m.move = view->candidates[i].first;
      record.moves.push_back(m);
    }
  }
  AnnotateOptions options;
  options.visits = 100;
  AddNotes(record, rates, views, options);
  for (const MoveRecord& m : record.moves) {
    if (!m.note.has_value()) continue;
    FUZZ_CHECK(m.note->loss >= 0 && m.note->loss <= 1, m.move);
    FUZZ_CHECK(m.note->judgement == Judge(m.note->loss), m.move);
  }
  if (record.annotation.has_value()) {
    for (const auto& [colour, accuracy] : record.annotation->accuracy) {
      FUZZ_CHECK(accuracy >= 0 && accuracy <= 100,
                 colour + " " + std::to_string(accuracy));
    }
  }
  // The annotated record survives its JSON.
  absl::StatusOr<GameRecord> again = RecordFromJson(RecordToJson(record));
  FUZZ_CHECK(again.ok(), std::string(again.status().message()));
  return 0;
}
