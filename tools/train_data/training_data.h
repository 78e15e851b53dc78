// Self-play training data: a file of fixed-size records, one per position
// of a self-play game, behind a versioned header. Little-endian and without
// padding, so numpy reads it with one structured dtype (the Python module's
// wallgo.data, built from this struct's offsets):
//   np.fromfile(path, dtype=RECORD_DTYPE, offset=kDataHeaderBytes)
// Games are written whole and in order of their number, so a file cut short
// by a kill is repaired by dropping its last, incomplete game (resume).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/movegen.h"
#include "engine/position.h"

namespace wallgo::train_data {

inline constexpr char kDataMagic[8] = {'W', 'G', 'S', 'P', 'D', 'A', 'T', 'A'};
inline constexpr uint32_t kDataVersion = 1;
inline constexpr int kDataHeaderBytes = 256;
inline constexpr int kMaxRecordMoves = MoveList::kCapacity;  // 256
inline constexpr uint8_t kNoOwner = 255;

// What a file was generated with; a resumed run must match it exactly.
struct DataHeader {
  uint32_t version = kDataVersion;
  uint32_t record_bytes = 0;
  uint32_t shard_index = 0;  // 0-based
  uint32_t shard_count = 1;
  uint32_t games = 0;  // games of the whole run (all shards)
  uint32_t visits = 0;
  uint32_t random_placements = 0;
  uint32_t temperature_plies = 0;
  float temperature = 0;
  uint64_t seed = 0;
  std::string rules;  // RulesString, at most 160 characters
  // The self-play search's evaluation (EvalKind: 0 classic, 1 net, 2
  // hybrid) and, with a network, its weights' checksum. Files made before
  // these fields existed read 0, 0: classic, as they were.
  uint32_t eval = 0;
  uint64_t weights_checksum = 0;
  // Playout cap randomisation (selfplay_data.h); files made before these
  // fields existed read 0, 0: every move searched with `visits`.
  uint32_t fast_visits = 0;
  float full_share = 0;
  // eval=hybrid's shortlist and the policy's weight in the priors
  // (selfplay_data.h), 0 when the search has no shortlist; files made before
  // these fields existed read 0, 0: no shortlist and no blend, as they were.
  uint32_t shortlist = 0;
  float policy_weight = 0;
  bool operator==(const DataHeader&) const = default;
};

// One position and what became of it. Field order keeps every field
// naturally aligned, so the struct has no padding (static_assert in .cc).
struct DataRecord {
  uint64_t stones[kMaxPlayers];      // by colour
  uint64_t wall_north[kMaxPlayers];  // by builder (WallMasks.north)
  uint64_t wall_east[kMaxPlayers];
  uint32_t game;          // game number in the whole run, from 0
  uint32_t total_visits;  // the search's playouts at this position
  float search_win;       // the search's win rate for the side to move
  float search_margin;    // and its expected score margin (cells)
  uint16_t ply;           // position number within the game, from 0
  uint16_t game_length;   // positions recorded in the game
  uint16_t num_moves;     // legal moves (entries of `moves`)
  uint16_t reserved;
  uint8_t players, setup, stay, to_move;  // rules and side to move
  int8_t wall_limit;                      // -1 = unlimited
  uint8_t breakers;                       // rule: breakers per player
  uint8_t placements_done;
  uint8_t winners;  // final result: one bit per colour (several = draw)
  uint8_t breakers_left[kMaxPlayers];
  uint8_t final_score[kMaxPlayers];
  uint8_t final_owner[kNumCells];  // colour index, or kNoOwner
  uint8_t reserved2[7];
  uint16_t moves[kMaxRecordMoves];   // PackMove, in GenerateMoves order
  uint16_t visits[kMaxRecordMoves];  // the search's visits (saturated)
};

// A move in 16 bits: kind (2), from (6), to (6), side (2). Pass = 3 << 14.
uint16_t PackMove(Move move);
absl::StatusOr<Move> UnpackMove(uint16_t packed);

// The rules and position of a record, checked (Position::FromParts).
absl::StatusOr<Position> RecordPosition(const DataRecord& record);
// Fills the position fields of `record` (stones, walls, rules, to_move...).
void SetRecordPosition(const Position& pos, DataRecord& record);
// The final owner of every cell of a finished game, kNoOwner for cells of
// regions that hold no stone or several colours.
std::array<uint8_t, kNumCells> FinalOwners(const Position& final_position);

// Reads the header; a missing file, a foreign file, another version or a
// header that does not fit the records is an error that says so.
absl::StatusOr<DataHeader> ReadDataHeader(const std::string& path);
absl::StatusOr<std::vector<DataRecord>> ReadDataFile(
    const std::string& path, DataHeader* header = nullptr);

// Appends whole games to a data file.
class DataWriter {
 public:
  // Creates `path` with `header`, or, when it exists, checks that it was made
  // with the same header, drops a last game that was cut short, and
  // positions the writer after the last whole game.
  static absl::StatusOr<DataWriter> Open(const std::string& path,
                                         const DataHeader& header);
  // Whole games already in the file.
  int complete_games() const { return complete_games_; }
  int64_t records() const { return records_; }
  // Appends one game's records and flushes.
  absl::Status AppendGame(const std::vector<DataRecord>& game);

 private:
  std::string path_;
  int complete_games_ = 0;
  int64_t records_ = 0;
};

}  // namespace wallgo::train_data
