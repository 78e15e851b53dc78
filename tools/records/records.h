// Game records: one JSON object per game, one game per line (JSON Lines),
// appended and flushed when the game ends, so that an interrupted match
// loses at most the games in progress.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "common/batch/line_file.h"

namespace wallgo::records {

// An analysing engine's view of one move (`wallgo-referee annotate`): the
// mover's win rate before and after it, the engine's choice, the loss and
// its judgement (annotate.h).
struct MoveNote {
  double before = 0.5;
  double after = 0.5;
  std::string best;       // the engine's best move in the position before
  double loss = 0;        // max(0, before - after)
  std::string judgement;  // "", "inaccuracy", "mistake" or "blunder"
};

struct MoveRecord {
  std::string colour;
  std::string move;
  int64_t ms = 0;
  bool random = false;  // chosen by the referee after a timeout
  std::optional<MoveNote> note;
};

// What annotate adds to a whole game.
struct GameNote {
  std::string engine;  // the analysing engine's command
  std::string budget;  // "visits 1000" or "movetime 0.5"
  // Per colour (colour order), lichess-style accuracy in 0..100.
  std::vector<std::pair<std::string, double>> accuracy;
  int turning_point = 0;  // 1-based index into moves; 0 = none
};

struct GameRecord {
  int game = 0;
  int set = 0;
  // (colour, engine name) in colour order.
  std::vector<std::pair<std::string, std::string>> seats;
  std::string rules;
  std::string opening;
  std::vector<MoveRecord> moves;                    // after the opening
  std::vector<std::pair<std::string, int>> scores;  // colour order
  std::string winner;                               // a colour or "draw"
  std::vector<std::string> winners;  // every colour sharing the result
  std::string reason;          // "finished", "resign", "timeout", "crash", ...
  std::string loser;           // the colour at fault, when one is
  std::string detail;          // what the engine did wrong, for people
  std::string final_position;  // engine/notation.h PositionString
  std::optional<GameNote> annotation;

  // The engine seated at `colour`, or "" if none.
  std::string EngineAt(const std::string& colour) const;
};

// The record as one line of JSON (no newline).
std::string RecordToJson(const GameRecord& record);
absl::StatusOr<GameRecord> RecordFromJson(const std::string& line);

// Reads a records file. A last line cut short by an interrupted write is
// skipped (and reported through `truncated_tail` when given); any other bad
// line is an error.
absl::StatusOr<std::vector<GameRecord>> ReadRecords(
    const std::string& path, bool* truncated_tail = nullptr);

// The records of several files as one list by game number. The files are
// the shards of one match (`renumber` false: the same game twice is an
// error unless both copies agree), or separate matches, such as runs with
// other seeds (`renumber` true: each file's games and sets are numbered on
// after the previous file's, so that its pairs stay whole and apart).
absl::StatusOr<std::vector<GameRecord>> MergeRecords(
    const std::vector<std::string>& paths, bool renumber = false);

// Appends records to a file, one flushed line per game, from any thread.
class RecordWriter {
 public:
  // With `resume`, keeps the file's complete lines (dropping a cut-short
  // last line); without, the file must not exist or be empty.
  static absl::StatusOr<std::unique_ptr<RecordWriter>> Open(
      const std::string& path, bool resume);
  absl::Status Append(const GameRecord& record);

 private:
  explicit RecordWriter(std::unique_ptr<batch::LineFile> file)
      : file_(std::move(file)) {}
  std::unique_ptr<batch::LineFile> file_;
};

}  // namespace wallgo::records
