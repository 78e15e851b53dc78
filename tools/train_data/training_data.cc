#include "tools/train_data/training_data.h"

#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "engine/outcome.h"

namespace wallgo::train_data {

static_assert(std::endian::native == std::endian::little,
              "the data format is little-endian");
static_assert(sizeof(DataRecord) == 1216, "DataRecord must have no padding");

namespace {

constexpr int kRulesBytes = 160;
constexpr int kRulesOffset = 56;
constexpr int kEvalOffset = kRulesOffset + kRulesBytes;        // 216
constexpr int kWeightsChecksumOffset = kEvalOffset + 8;        // 224
constexpr int kFastVisitsOffset = kWeightsChecksumOffset + 8;  // 232
constexpr int kFullShareOffset = kFastVisitsOffset + 4;        // 236
constexpr int kShortlistOffset = kFullShareOffset + 4;         // 240
constexpr int kPolicyWeightOffset = kShortlistOffset + 4;      // 244
static_assert(kPolicyWeightOffset + 4 <= kDataHeaderBytes);

template <typename T>
void Put(std::array<char, kDataHeaderBytes>& bytes, int offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
}
template <typename T>
T Get(const std::array<char, kDataHeaderBytes>& bytes, int offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

std::array<char, kDataHeaderBytes> EncodeHeader(const DataHeader& h) {
  std::array<char, kDataHeaderBytes> bytes{};
  std::memcpy(bytes.data(), kDataMagic, sizeof(kDataMagic));
  Put<uint32_t>(bytes, 8, h.version);
  Put<uint32_t>(bytes, 12, kDataHeaderBytes);
  Put<uint32_t>(bytes, 16, h.record_bytes);
  Put<uint32_t>(bytes, 20, h.shard_index);
  Put<uint32_t>(bytes, 24, h.shard_count);
  Put<uint32_t>(bytes, 28, h.games);
  Put<uint32_t>(bytes, 32, h.visits);
  Put<uint32_t>(bytes, 36, h.random_placements);
  Put<uint32_t>(bytes, 40, h.temperature_plies);
  Put<float>(bytes, 44, h.temperature);
  Put<uint64_t>(bytes, 48, h.seed);
  std::memcpy(bytes.data() + kRulesOffset, h.rules.data(),
              std::min<size_t>(h.rules.size(), kRulesBytes - 1));
  Put<uint32_t>(bytes, kEvalOffset, h.eval);
  Put<uint64_t>(bytes, kWeightsChecksumOffset, h.weights_checksum);
  Put<uint32_t>(bytes, kFastVisitsOffset, h.fast_visits);
  Put<float>(bytes, kFullShareOffset, h.full_share);
  Put<uint32_t>(bytes, kShortlistOffset, h.shortlist);
  Put<float>(bytes, kPolicyWeightOffset, h.policy_weight);
  return bytes;
}

absl::StatusOr<DataHeader> DecodeHeader(
    const std::array<char, kDataHeaderBytes>& bytes, const std::string& path) {
  if (std::memcmp(bytes.data(), kDataMagic, sizeof(kDataMagic)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a wallgo self-play data file (bad magic)"));
  }
  DataHeader h;
  h.version = Get<uint32_t>(bytes, 8);
  if (h.version != kDataVersion) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": data format version ", h.version,
                     ", this build reads version ", kDataVersion));
  }
  h.record_bytes = Get<uint32_t>(bytes, 16);
  if (Get<uint32_t>(bytes, 12) != kDataHeaderBytes ||
      h.record_bytes != sizeof(DataRecord)) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": header or record size does not match version ", kDataVersion));
  }
  h.shard_index = Get<uint32_t>(bytes, 20);
  h.shard_count = Get<uint32_t>(bytes, 24);
  h.games = Get<uint32_t>(bytes, 28);
  h.visits = Get<uint32_t>(bytes, 32);
  h.random_placements = Get<uint32_t>(bytes, 36);
  h.temperature_plies = Get<uint32_t>(bytes, 40);
  h.temperature = Get<float>(bytes, 44);
  h.seed = Get<uint64_t>(bytes, 48);
  const char* rules = bytes.data() + kRulesOffset;
  h.rules.assign(rules, strnlen(rules, kRulesBytes));
  h.eval = Get<uint32_t>(bytes, kEvalOffset);
  h.weights_checksum = Get<uint64_t>(bytes, kWeightsChecksumOffset);
  h.fast_visits = Get<uint32_t>(bytes, kFastVisitsOffset);
  h.full_share = Get<float>(bytes, kFullShareOffset);
  h.shortlist = Get<uint32_t>(bytes, kShortlistOffset);
  h.policy_weight = Get<float>(bytes, kPolicyWeightOffset);
  return h;
}

// Records in the file after the header, and whether a partial record trails.
struct FileShape {
  int64_t records = 0;
  bool partial = false;
};
FileShape ShapeOf(const std::string& path) {
  const auto size = static_cast<int64_t>(std::filesystem::file_size(path));
  const int64_t body = std::max<int64_t>(0, size - kDataHeaderBytes);
  return {body / static_cast<int64_t>(sizeof(DataRecord)),
          body % static_cast<int64_t>(sizeof(DataRecord)) != 0};
}

}  // namespace

uint16_t PackMove(Move move) {
  const int kind = move.kind == MoveKind::kPlace   ? 0
                   : move.kind == MoveKind::kTurn  ? 1
                   : move.kind == MoveKind::kBreak ? 2
                                                   : 3;
  if (kind == 3) return 3 << 14;
  return static_cast<uint16_t>(kind << 14 | move.from << 8 | move.to << 2 |
                               static_cast<int>(move.side));
}

absl::StatusOr<Move> UnpackMove(uint16_t packed) {
  const int kind = packed >> 14, from = packed >> 8 & 63, to = packed >> 2 & 63;
  const Side side = static_cast<Side>(packed & 3);
  if (from >= kNumCells || to >= kNumCells) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad packed move ", packed, ": cell out of range"));
  }
  switch (kind) {
    case 0:
      return Move::Place(to);
    case 1:
      return Move::Turn(from, to, side);
    case 2:
      return Move::Break(from, to, side);
    default:
      return Move::Pass();
  }
}

void SetRecordPosition(const Position& pos, DataRecord& r) {
  const Rules& rules = pos.rules();
  r.players = static_cast<uint8_t>(rules.players);
  r.setup = static_cast<uint8_t>(rules.setup);
  r.stay = static_cast<uint8_t>(rules.stay);
  r.wall_limit = static_cast<int8_t>(rules.wall_limit);
  r.breakers = static_cast<uint8_t>(rules.breakers);
  r.to_move = static_cast<uint8_t>(Index(pos.to_move()));
  r.placements_done = static_cast<uint8_t>(pos.placements_done());
  for (int p = 0; p < kMaxPlayers; ++p) {
    const Colour c = ColourAt(p);
    r.stones[p] = pos.stones(c);
    r.wall_north[p] = pos.walls_of(c).north;
    r.wall_east[p] = pos.walls_of(c).east;
    r.breakers_left[p] = static_cast<uint8_t>(pos.breakers_left(c));
  }
}

absl::StatusOr<Position> RecordPosition(const DataRecord& r) {
  if (r.players < 2 || r.players > kMaxPlayers || r.setup > 1 || r.stay > 1 ||
      r.to_move >= r.players) {
    return absl::InvalidArgumentError(absl::StrCat(
        "record of game ", r.game, " ply ", r.ply, ": bad rules fields"));
  }
  Position::Parts parts;
  parts.rules.players = r.players;
  parts.rules.setup = static_cast<SetupRule>(r.setup);
  parts.rules.stay = static_cast<StayRule>(r.stay);
  parts.rules.wall_limit = r.wall_limit;
  parts.rules.breakers = r.breakers;
  parts.to_move = ColourAt(r.to_move);
  for (int p = 0; p < kMaxPlayers; ++p) {
    parts.stones[p] = r.stones[p];
    parts.walls[p] = {r.wall_north[p], r.wall_east[p]};
    parts.breakers_left[p] = r.breakers_left[p];
  }
  return Position::FromParts(parts);
}

std::array<uint8_t, kNumCells> FinalOwners(const Position& pos) {
  const CellOwners owners = ComputeCellOwners(pos);
  std::array<uint8_t, kNumCells> owner;
  for (int cell = 0; cell < kNumCells; ++cell) {
    owner[cell] =
        owners[cell] >= 0 ? static_cast<uint8_t>(owners[cell]) : kNoOwner;
  }
  return owner;
}

absl::StatusOr<DataHeader> ReadDataHeader(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::array<char, kDataHeaderBytes> bytes{};
  if (!in.read(bytes.data(), bytes.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": shorter than the data header"));
  }
  return DecodeHeader(bytes, path);
}

absl::StatusOr<std::vector<DataRecord>> ReadDataFile(const std::string& path,
                                                     DataHeader* header) {
  absl::StatusOr<DataHeader> h = ReadDataHeader(path);
  if (!h.ok()) return h.status();
  if (header != nullptr) *header = *h;
  const FileShape shape = ShapeOf(path);
  std::vector<DataRecord> records(shape.records);
  std::ifstream in(path, std::ios::binary);
  in.seekg(kDataHeaderBytes);
  in.read(reinterpret_cast<char*>(records.data()),
          static_cast<std::streamsize>(records.size() * sizeof(DataRecord)));
  if (!in) return absl::DataLossError(absl::StrCat(path, ": read failed"));
  return records;
}

absl::StatusOr<DataWriter> DataWriter::Open(const std::string& path,
                                            const DataHeader& wanted) {
  DataHeader header = wanted;
  header.record_bytes = sizeof(DataRecord);
  header.version = kDataVersion;
  if (header.rules.size() >= kRulesBytes) {
    return absl::InvalidArgumentError("rules string too long for the header");
  }
  DataWriter writer;
  writer.path_ = path;
  std::error_code error;
  if (!std::filesystem::exists(path, error) ||
      std::filesystem::file_size(path, error) == 0) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const auto bytes = EncodeHeader(header);
    if (!out.write(bytes.data(), bytes.size()) || !out.flush()) {
      return absl::PermissionDeniedError(absl::StrCat("cannot write ", path));
    }
    return writer;
  }
  absl::StatusOr<DataHeader> existing = ReadDataHeader(path);
  if (!existing.ok()) return existing.status();
  if (!(*existing == header)) {
    return absl::FailedPreconditionError(absl::StrCat(
        path,
        " was generated with other options (seed, visits, games, shard, "
        "randomness, rules, evaluation or weights, shortlist or policy "
        "weight); resume it with the same ones or use another file"));
  }
  // Keep whole games only: the last record of a whole game has
  // ply == game_length - 1, and games are written in order.
  absl::StatusOr<std::vector<DataRecord>> records = ReadDataFile(path);
  if (!records.ok()) return records.status();
  int64_t keep = 0;
  for (int64_t i = 0; i < static_cast<int64_t>(records->size()); ++i) {
    const DataRecord& r = (*records)[i];
    if (r.ply + 1 == r.game_length) {
      keep = i + 1;
      ++writer.complete_games_;
    }
  }
  writer.records_ = keep;
  std::filesystem::resize_file(
      path, kDataHeaderBytes + keep * static_cast<int64_t>(sizeof(DataRecord)),
      error);
  if (error) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot truncate ", path, ": ", error.message()));
  }
  return writer;
}

absl::Status DataWriter::AppendGame(const std::vector<DataRecord>& game) {
  std::ofstream out(path_, std::ios::binary | std::ios::app);
  out.write(reinterpret_cast<const char*>(game.data()),
            static_cast<std::streamsize>(game.size() * sizeof(DataRecord)));
  if (!out.flush()) {
    return absl::DataLossError(absl::StrCat("cannot append to ", path_));
  }
  records_ += static_cast<int64_t>(game.size());
  ++complete_games_;
  return absl::OkStatus();
}

}  // namespace wallgo::train_data
