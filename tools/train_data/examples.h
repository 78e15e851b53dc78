// Training examples: what the trainer reads, made from self-play data by
// the engine's own feature code (wallgo-net features), so the trainer holds
// no game logic. One fixed-size, padding-free record per data record, after
// a 64-byte header (magic "WGEXMPL1", u32 version, u32 header bytes, u32
// record bytes, u32 feature set, u32 features, u32 max active, u32 max
// moves, u32 policy size); the Python module's wallgo.data has the numpy dtype.
// Targets are by slot (slot 0 = side to move, features.h).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "search/net/features.h"
#include "tools/train_data/training_data.h"

namespace wallgo::train_data {

inline constexpr char kExampleMagic[8] = {'W', 'G', 'E', 'X',
                                          'M', 'P', 'L', '1'};
inline constexpr uint32_t kExampleVersion = 1;
inline constexpr int kExampleHeaderBytes = 64;

struct Example {
  uint16_t features[search::net::kMaxActive];  // padded with kNumFeatures
  uint16_t move_index[kMaxRecordMoves][3];     // PolicyIndices, padded
  float visit_share[kMaxRecordMoves];  // the search's visits, summing to 1
                                       // (all 0 when it reported none)
  float win[kMaxPlayers];    // final result by slot: 1 sole win, 1/k draw
  float score[kMaxPlayers];  // final score by slot, cells
  float search_win;          // the search's win rate for slot 0
  uint32_t data_index;       // record number in the data file
  uint32_t game;
  uint16_t num_features, num_moves;
  uint8_t owner[kNumCells];  // final owner by slot, kMaxPlayers = nobody
  uint8_t players, in_setup, finished;
  uint8_t reserved[4];
};

absl::StatusOr<Example> MakeExample(const DataRecord& record,
                                    uint32_t data_index);

// The header's fields after the magic, as this build writes them (a reader
// made for another layout compares them with a file's).
inline constexpr int kExampleHeaderFields = 8;
std::array<uint32_t, kExampleHeaderFields> ExampleHeaderFields();

// Writes the examples of every record of the data file at `data_path`;
// returns how many.
absl::StatusOr<int64_t> WriteExamplesFile(const std::string& data_path,
                                          const std::string& out_path);

}  // namespace wallgo::train_data
