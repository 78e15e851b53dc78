#include "tools/train_data/examples.h"

#include <algorithm>
#include <cstring>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "engine/outcome.h"

namespace wallgo::train_data {

using search::net::ExtractFeatures;
using search::net::Features;
using search::net::kFeatureSetVersion;
using search::net::kMaxActive;
using search::net::kNoPolicyIndex;
using search::net::kNumFeatures;
using search::net::kPolicySize;
using search::net::PolicyIndices;
using search::net::SlotOf;

static_assert(sizeof(Example) == 2984, "Example must have no padding");

absl::StatusOr<Example> MakeExample(const DataRecord& r, uint32_t data_index) {
  absl::StatusOr<Position> pos = RecordPosition(r);
  if (!pos.ok()) return pos.status();
  if (r.num_moves > kMaxRecordMoves) {
    return absl::InvalidArgumentError("record with too many moves");
  }
  Example e{};
  Features f;
  ExtractFeatures(*pos, f);
  std::fill(std::begin(e.features), std::end(e.features),
            static_cast<uint16_t>(kNumFeatures));
  std::copy(f.active.begin(), f.active.begin() + f.count, e.features);
  e.num_features = static_cast<uint16_t>(f.count);
  e.finished = f.finished;
  const int players = r.players, mover = r.to_move;
  e.players = r.players;
  e.in_setup = pos->in_setup();
  e.data_index = data_index;
  e.game = r.game;
  e.search_win = r.search_win;

  double total = 0;
  for (int i = 0; i < kMaxRecordMoves; ++i) {
    for (int k = 0; k < 3; ++k) e.move_index[i][k] = kNoPolicyIndex;
  }
  for (int i = 0; i < r.num_moves; ++i) {
    absl::StatusOr<Move> move = UnpackMove(r.moves[i]);
    if (!move.ok()) return move.status();
    const std::array<uint16_t, 3> idx = PolicyIndices(*move);
    std::copy(idx.begin(), idx.end(), e.move_index[i]);
    total += r.visits[i];
  }
  e.num_moves = r.num_moves;
  for (int i = 0; i < r.num_moves && total > 0; ++i) {
    e.visit_share[i] = static_cast<float>(r.visits[i] / total);
  }

  for (int p = 0; p < players; ++p) {
    const int s = SlotOf(p, mover, players);
    e.win[s] = static_cast<float>(WinShare(r.winners, p));
    e.score[s] = r.final_score[p];
  }
  for (int c = 0; c < kNumCells; ++c) {
    const int owner = r.final_owner[c];
    e.owner[c] = static_cast<uint8_t>(
        owner == kNoOwner ? kMaxPlayers : SlotOf(owner, mover, players));
  }
  return e;
}

std::array<uint32_t, kExampleHeaderFields> ExampleHeaderFields() {
  return {kExampleVersion,    kExampleHeaderBytes, sizeof(Example),
          kFeatureSetVersion, kNumFeatures,        kMaxActive,
          kMaxRecordMoves,    kPolicySize};
}

absl::StatusOr<int64_t> WriteExamplesFile(const std::string& data_path,
                                          const std::string& out_path) {
  absl::StatusOr<std::vector<DataRecord>> records = ReadDataFile(data_path);
  if (!records.ok()) return records.status();
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  if (!out)
    return absl::PermissionDeniedError(absl::StrCat("cannot write ", out_path));
  std::array<char, kExampleHeaderBytes> header{};
  std::memcpy(header.data(), kExampleMagic, sizeof kExampleMagic);
  const auto fields = ExampleHeaderFields();
  std::memcpy(header.data() + 8, fields.data(), sizeof fields);
  out.write(header.data(), header.size());
  for (size_t i = 0; i < records->size(); ++i) {
    absl::StatusOr<Example> e =
        MakeExample((*records)[i], static_cast<uint32_t>(i));
    if (!e.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(data_path, ": record ", i, ": ", e.status().message()));
    }
    out.write(reinterpret_cast<const char*>(&*e), sizeof(Example));
  }
  if (!out.flush())
    return absl::DataLossError(absl::StrCat("cannot write ", out_path));
  return static_cast<int64_t>(records->size());
}

}  // namespace wallgo::train_data
