// Fuzz target: referee records files as resume, merge, replay and annotate
// read them (tools/records/records.h, replay.h, annotate.h). The input is a
// records file (JSON Lines). Every record that parses prints to JSON that
// parses back to the same record; reading, merging (as shards and
// renumbered), replaying each game move by move (checked by the rules
// engine) and reopening the file for --resume either work or give an error,
// and never crash.
#include "tools/records/records.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "tests/fuzz/fuzz_check.h"
#include "tools/referee/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wallgo;
  using namespace wallgo::records;
  using namespace wallgo::referee;
  if (size > 16384) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const std::string& line : fuzz::Lines(text)) {
    absl::StatusOr<GameRecord> record = RecordFromJson(line);
    if (!record.ok()) continue;
    const std::string json = RecordToJson(*record);
    absl::StatusOr<GameRecord> again = RecordFromJson(json);
    FUZZ_CHECK(again.ok(), json + ": " + std::string(again.status().message()));
    FUZZ_CHECK(RecordToJson(*again) == json, line + " -> " + json);
  }
  const fuzz::TempFile file("records.jsonl", text);
  const std::string& path = file.path();
  bool truncated = false;
  absl::StatusOr<std::vector<GameRecord>> records =
      ReadRecords(path, &truncated);
  // The same file twice: shards of one match (equal copies agree) and two
  // matches (renumbered).
  absl::StatusOr<std::vector<GameRecord>> shards = MergeRecords({path, path});
  absl::StatusOr<std::vector<GameRecord>> renumbered =
      MergeRecords({path, path}, /*renumber=*/true);
  if (records.ok()) {
    // Renumbering merges any two files, unless one holds a game twice with
    // different records (no match writes that): then it says which.
    std::map<int, std::string> seen;
    bool conflict = false;
    for (const GameRecord& r : *records) {
      const auto [it, inserted] = seen.emplace(r.game, RecordToJson(r));
      conflict |= !inserted && it->second != RecordToJson(r);
    }
    if (conflict) {
      FUZZ_CHECK(
          !renumbered.ok() && absl::StrContains(renumbered.status().message(),
                                                "appears twice with different"),
          path);
    } else {
      FUZZ_CHECK(renumbered.ok(), std::string(renumbered.status().message()));
      FUZZ_CHECK(renumbered->size() == 2 * records->size(), path);
    }
  }
  std::ostringstream out;
  (void)Replay(path, std::nullopt, false, out);
  if (records.ok()) {
    std::set<int> games;
    for (const GameRecord& r : *records) games.insert(r.game);
    int replayed = 0;
    for (int game : games) {
      if (++replayed > 4) break;
      (void)Replay(path, game, false, out);
      (void)Replay(path, game, true, out);
    }
  }
  // --resume keeps the complete lines.
  absl::StatusOr<std::unique_ptr<RecordWriter>> writer =
      RecordWriter::Open(path, /*resume=*/true);
  if (writer.ok() && records.ok()) {
    writer->reset();
    absl::StatusOr<std::vector<GameRecord>> kept = ReadRecords(path);
    FUZZ_CHECK(kept.ok(), std::string(kept.status().message()));
  }
  return 0;
}
