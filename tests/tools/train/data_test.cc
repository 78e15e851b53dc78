// Self-play data: the writer and reader round trip, a run killed mid-game
// resumes to the same bytes, shards and jobs change nothing but speed, and
// files made with other options or of another kind are refused.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <numeric>
#include <set>
#include <span>
#include <string>
#include <system_error>

#include "engine/movegen.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "tests/temp_file.h"
#include "tools/train/selfplay_data.h"
#include "tools/train_data/examples.h"

namespace wallgo::train {
namespace {

using namespace search::net;
using namespace train_data;

std::string Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

GenerateOptions Small() {
  GenerateOptions o;
  o.games = 3;
  o.visits = 12;
  o.seed = 5;
  o.search.hash_mb = 4;
  o.jobs = 3;  // a search at a few visits mostly waits: overlap the waits
  return o;
}

// Each test's files are in a folder of its own, removed after it.
class NetData : public ::testing::Test {
 protected:
  // A path in the folder, with no file there.
  std::string TempPath(const std::string& name) const {
    const std::string path = dir_ / name;
    std::filesystem::remove(path);
    return path;
  }
  // Generates `o` into a fresh file and returns its bytes.
  std::string Generate(const std::string& name, const GenerateOptions& o) {
    const std::string path = TempPath(name);
    absl::StatusOr<GenerateReport> r = GenerateData(path, o);
    EXPECT_TRUE(r.ok()) << r.status();
    return Bytes(path);
  }

 private:
  const wallgo::testing::TempDir dir_{"wallgo-net-data-test"};
};

// Resuming the file at `path` with each of `others` is refused with a
// message that names `what`.
void ExpectResumeRefused(const std::string& path,
                         std::initializer_list<GenerateOptions> others,
                         const std::string& what) {
  for (const GenerateOptions& other : others) {
    absl::StatusOr<GenerateReport> r = GenerateData(path, other);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find(what), std::string::npos) << r.status();
  }
}

TEST_F(NetData, RoundTripRecordsWholeGames) {
  const std::string path = TempPath("round_trip.wgd");
  const GenerateOptions o = Small();
  ASSERT_TRUE(GenerateData(path, o).ok());
  DataHeader header;
  absl::StatusOr<std::vector<DataRecord>> records = ReadDataFile(path, &header);
  ASSERT_TRUE(records.ok()) << records.status();
  EXPECT_EQ(header, HeaderFor(o));
  ASSERT_FALSE(records->empty());

  int games = 0;
  for (size_t i = 0; i < records->size(); ++i) {
    const DataRecord& r = (*records)[i];
    absl::StatusOr<Position> pos = RecordPosition(r);
    ASSERT_TRUE(pos.ok()) << pos.status();
    // The legal moves are the position's, and the search's visits are there.
    MoveList moves;
    GenerateMoves(*pos, moves);
    ASSERT_EQ(r.num_moves, moves.size());
    int64_t visits = 0;
    for (int k = 0; k < moves.size(); ++k) {
      EXPECT_EQ(r.moves[k], PackMove(moves[k]));
      EXPECT_EQ(*UnpackMove(r.moves[k]), moves[k]);
      visits += r.visits[k];
    }
    if (moves.size() > 1) {
      EXPECT_GT(visits, 0);
    }
    EXPECT_GE(r.search_win, 0.0f);
    EXPECT_LE(r.search_win, 1.0f);
    // Each record is the position after one of the previous one's moves.
    if (r.ply > 0) {
      const Position before = *RecordPosition((*records)[i - 1]);
      bool reached = false;
      for (uint16_t packed :
           std::span((*records)[i - 1].moves, (*records)[i - 1].num_moves)) {
        Position next = before;
        next.Play(*UnpackMove(packed));
        reached |= next == *pos;
      }
      EXPECT_TRUE(reached) << "game " << r.game << " ply " << r.ply;
    } else {
      EXPECT_EQ(r.game, static_cast<uint32_t>(games));
      ++games;
    }
    // The final owners add up to the final scores.
    std::array<int, kMaxPlayers> owned{};
    for (uint8_t owner : r.final_owner) {
      if (owner != kNoOwner) ++owned[owner];
    }
    for (int p = 0; p < kMaxPlayers; ++p) EXPECT_EQ(owned[p], r.final_score[p]);
    EXPECT_NE(r.winners, 0);
    // The example made from it has its targets by slot.
    absl::StatusOr<Example> e = MakeExample(r, static_cast<uint32_t>(i));
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(e->score[0], r.final_score[r.to_move]);
    EXPECT_EQ(e->in_setup, pos->in_setup());
  }
  EXPECT_EQ(games, o.games);
  EXPECT_EQ(records->back().ply + 1, records->back().game_length);
}

TEST_F(NetData, KilledRunResumesToTheSameBytes) {
  const GenerateOptions o = Small();
  const std::string whole = Generate("whole.wgd", o);
  EXPECT_FALSE(ReadDataFile(TempPath("missing.wgd")).ok());

  // Cut the file in the middle of a record of the second game.
  DataRecord game0;
  std::memcpy(&game0, whole.data() + kDataHeaderBytes, sizeof game0);
  const size_t cut =
      kDataHeaderBytes + (game0.game_length + 2) * sizeof(DataRecord) + 100;
  ASSERT_LT(cut, whole.size());
  const std::string path = TempPath("resumed.wgd");
  std::ofstream(path, std::ios::binary) << whole.substr(0, cut);

  absl::StatusOr<GenerateReport> r = GenerateData(path, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->games_before, 1);
  EXPECT_EQ(r->games_played, 2);
  EXPECT_EQ(Bytes(path), whole);

  // Resuming a finished file plays nothing.
  r = GenerateData(path, o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->games_played, 0);
  EXPECT_EQ(Bytes(path), whole);
}

TEST_F(NetData, JobsAndShardsChangeNothingButSpeed) {
  GenerateOptions o = Small();
  const std::string one_job_path = TempPath("jobs1.wgd");
  o.jobs = 1;
  ASSERT_TRUE(GenerateData(one_job_path, o).ok());
  o.jobs = 3;
  EXPECT_EQ(Generate("jobs3.wgd", o), Bytes(one_job_path));

  absl::StatusOr<std::vector<DataRecord>> read = ReadDataFile(one_job_path);
  ASSERT_TRUE(read.ok());
  const std::vector<DataRecord> whole = *std::move(read);
  std::set<uint32_t> seen;
  for (int shard = 0; shard < 2; ++shard) {
    o.shard_index = shard;
    o.shard_count = 2;
    const std::string path = TempPath("shard" + std::to_string(shard));
    ASSERT_TRUE(GenerateData(path, o).ok());
    absl::StatusOr<std::vector<DataRecord>> part = ReadDataFile(path);
    ASSERT_TRUE(part.ok());
    for (const DataRecord& r : *part) {
      EXPECT_EQ(static_cast<int>(r.game) % 2, shard);
      seen.insert(r.game);
      // The same game, byte for byte, as in the unsharded run.
      bool found = false;
      for (const DataRecord& w : whole) {
        found |= std::memcmp(&w, &r, sizeof r) == 0;
      }
      EXPECT_TRUE(found) << "game " << r.game << " ply " << r.ply;
    }
  }
  EXPECT_EQ(seen, (std::set<uint32_t>{0, 1, 2}));
}

TEST_F(NetData, RefusesOtherOptionsAndForeignFiles) {
  GenerateOptions o = Small();
  o.games = 1;
  const std::string path = TempPath("options.wgd");
  ASSERT_TRUE(GenerateData(path, o).ok());
  o.seed = 6;
  absl::StatusOr<GenerateReport> r = GenerateData(path, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("other options"), std::string::npos)
      << r.status();

  const std::string foreign = TempPath("foreign.wgd");
  std::ofstream(foreign, std::ios::binary) << std::string(300, 'x');
  absl::StatusOr<std::vector<DataRecord>> read = ReadDataFile(foreign);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("not a wallgo self-play data file"),
            std::string::npos);

  std::string bytes = Bytes(path);
  bytes[8] = 9;  // version 9
  const std::string newer = TempPath("newer.wgd");
  std::ofstream(newer, std::ios::binary) << bytes;
  read = ReadDataFile(newer);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("version 9"), std::string::npos);

  GenerateOptions bad = Small();
  bad.shard_index = 2;
  bad.shard_count = 2;
  EXPECT_FALSE(GenerateData(TempPath("bad.wgd"), bad).ok());
}

TEST_F(NetData, PlayoutCapRandomisationRecordsPolicyOnlyForFullSearches) {
  GenerateOptions o = Small();
  o.games = 6;
  o.visits = 48;
  o.fast_visits = 8;
  o.full_share = 0.25f;
  const std::string path = TempPath("capped.wgd");
  ASSERT_TRUE(GenerateData(path, o).ok());
  DataHeader header;
  absl::StatusOr<std::vector<DataRecord>> records = ReadDataFile(path, &header);
  ASSERT_TRUE(records.ok()) << records.status();
  EXPECT_EQ(header.fast_visits, 8u);
  EXPECT_FLOAT_EQ(header.full_share, 0.25f);
  int full = 0, fast = 0;
  for (const DataRecord& r : *records) {
    const int visits = std::accumulate(r.visits, r.visits + r.num_moves, 0);
    if (visits > 0) {
      ++full;
      EXPECT_GE(r.total_visits, 48u);
    } else {
      ++fast;
      EXPECT_LT(r.total_visits, 48u);  // a fast search: no policy target
      absl::StatusOr<Example> ex = MakeExample(r, 0);
      ASSERT_TRUE(ex.ok()) << ex.status();
      EXPECT_EQ(
          std::accumulate(ex->visit_share, ex->visit_share + r.num_moves, 0.0f),
          0.0f);
    }
  }
  // About a quarter searched in full (binomial over a few hundred moves).
  const double share = static_cast<double>(full) / (full + fast);
  EXPECT_GT(share, 0.12) << full << " full, " << fast << " fast";
  EXPECT_LT(share, 0.40) << full << " full, " << fast << " fast";

  GenerateOptions one_job = o;
  one_job.jobs = 1;
  EXPECT_EQ(Generate("capped_one_job.wgd", one_job), Bytes(path));
  GenerateOptions other_share = o;
  other_share.full_share = 0.5f;
  absl::StatusOr<GenerateReport> resumed = GenerateData(path, other_share);
  ASSERT_FALSE(resumed.ok());
  EXPECT_NE(resumed.status().message().find("other options"),
            std::string::npos);
  GenerateOptions too_many = o;
  too_many.fast_visits = 48;
  EXPECT_FALSE(GenerateData(TempPath("too_many.wgd"), too_many).ok());
}

std::shared_ptr<const Network> ShippedNetwork(int generation) {
  absl::StatusOr<Network> network =
      Network::Load(WALLGO_SOURCE_DIR "/search/net/weights/wallgo-net-" +
                    std::to_string(generation) + ".wgn");
  EXPECT_TRUE(network.ok()) << network.status();
  return network.ok() ? std::make_shared<const Network>(*std::move(network))
                      : nullptr;
}

TEST_F(NetData, SelfPlayWithTheNetRecordsWhichNetAndUsesIt) {
  const std::shared_ptr<const Network> network = ShippedNetwork(1);
  ASSERT_NE(network, nullptr);
  GenerateOptions hybrid = Small();
  hybrid.games = 1;
  hybrid.search.eval = EvalKind::kHybrid;
  hybrid.network = network;
  const std::string path = TempPath("hybrid.wgd");
  ASSERT_TRUE(GenerateData(path, hybrid).ok());
  absl::StatusOr<DataHeader> header = ReadDataHeader(path);
  ASSERT_TRUE(header.ok()) << header.status();
  EXPECT_EQ(header->eval, static_cast<uint32_t>(EvalKind::kHybrid));
  EXPECT_NE(header->weights_checksum, 0u);
  EXPECT_EQ(header->weights_checksum, network->checksum());

  // The same game with the classic evaluation searches differently.
  GenerateOptions classic = hybrid;
  classic.search.eval = EvalKind::kClassic;
  const std::string hybrid_bytes = Bytes(path);
  const std::string classic_bytes = Generate("classic.wgd", classic);
  EXPECT_NE(hybrid_bytes.substr(kDataHeaderBytes),
            classic_bytes.substr(kDataHeaderBytes));

  // A resumed run must use the same evaluation and the same weights.
  GenerateOptions other_net = hybrid;
  other_net.network = ShippedNetwork(2);
  ASSERT_NE(other_net.network, nullptr);
  ExpectResumeRefused(path, {classic, other_net}, "evaluation or weights");
  GenerateOptions no_net = hybrid;
  no_net.network = nullptr;
  EXPECT_FALSE(GenerateData(TempPath("no_net.wgd"), no_net).ok());
}

// Hybrid self-play searches as the engine does: the network's shortlist and
// its policy in the priors, recorded in the header, so that a resumed run
// with other ones is refused; files made before they were recorded (zeros:
// no shortlist, no blend) still read and resume with 0, 0.
TEST_F(NetData, HybridSelfPlaySearchesWithTheEnginesShortlistAndBlend) {
  GenerateOptions engine = Small();
  engine.games = 1;
  engine.search.eval = EvalKind::kHybrid;
  engine.network = ShippedNetwork(3);
  ASSERT_NE(engine.network, nullptr);
  EXPECT_EQ(engine.search.shortlist, SearchOptions{}.shortlist);
  EXPECT_EQ(engine.search.policy_weight, SearchOptions{}.policy_weight);
  const std::string path = TempPath("engine_search.wgd");
  ASSERT_TRUE(GenerateData(path, engine).ok());
  absl::StatusOr<DataHeader> header = ReadDataHeader(path);
  ASSERT_TRUE(header.ok()) << header.status();
  EXPECT_EQ(header->shortlist, 16u);
  EXPECT_FLOAT_EQ(header->policy_weight, 0.25f);
  EXPECT_EQ(*header, HeaderFor(engine));

  // Deterministic, and another game than the search without them.
  const std::string bytes = Bytes(path);
  EXPECT_EQ(Generate("engine_search_again.wgd", engine), bytes);
  GenerateOptions plain = engine;
  plain.search.shortlist = 0;
  plain.search.policy_weight = 0;
  const std::string plain_bytes = Generate("plain_search.wgd", plain);
  EXPECT_NE(plain_bytes.substr(kDataHeaderBytes),
            bytes.substr(kDataHeaderBytes));
  GenerateOptions no_blend = engine;
  no_blend.search.policy_weight = 0;
  EXPECT_NE(Generate("no_blend.wgd", no_blend).substr(kDataHeaderBytes),
            bytes.substr(kDataHeaderBytes));

  // Without a shortlist the weight blends nothing; without hybrid neither
  // matters: the header says 0, 0.
  GenerateOptions unused_weight = plain;
  unused_weight.search.policy_weight = 0.5;
  EXPECT_EQ(HeaderFor(unused_weight), HeaderFor(plain));
  GenerateOptions net = engine;
  net.search.eval = EvalKind::kNet;
  EXPECT_EQ(HeaderFor(net).shortlist, 0u);
  EXPECT_EQ(HeaderFor(net).policy_weight, 0.0f);

  // A resumed run with another shortlist or weight is refused.
  GenerateOptions other_shortlist = engine, other_weight = engine;
  other_shortlist.search.shortlist = 8;
  other_weight.search.policy_weight = 0.5;
  ExpectResumeRefused(path, {other_shortlist, other_weight, plain},
                      "shortlist or policy weight");
  GenerateOptions bad = engine;
  bad.search.shortlist = -1;
  EXPECT_FALSE(GenerateData(TempPath("bad_shortlist.wgd"), bad).ok());
  bad = engine;
  bad.search.policy_weight = -0.5;
  EXPECT_FALSE(GenerateData(TempPath("bad_weight.wgd"), bad).ok());

  // A hybrid file made before the fields is one of no shortlist and no
  // blend, whose header's bytes 240..247 (the fields) are zero: it reads,
  // and resumes with 0, 0 only.
  EXPECT_EQ(plain_bytes.substr(240, 8), std::string(8, '\0'));
  const std::string old_path = TempPath("before_the_fields.wgd");
  std::ofstream(old_path, std::ios::binary) << plain_bytes;
  DataHeader old_header;
  absl::StatusOr<std::vector<DataRecord>> old_records =
      ReadDataFile(old_path, &old_header);
  ASSERT_TRUE(old_records.ok()) << old_records.status();
  EXPECT_FALSE(old_records->empty());
  EXPECT_EQ(old_header.shortlist, 0u);
  EXPECT_EQ(old_header.policy_weight, 0.0f);
  EXPECT_EQ(old_header.eval, static_cast<uint32_t>(EvalKind::kHybrid));
  EXPECT_FALSE(GenerateData(old_path, engine).ok());
  absl::StatusOr<GenerateReport> resumed = GenerateData(old_path, plain);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  EXPECT_EQ(resumed->games_before, 1);
  EXPECT_EQ(resumed->games_played, 0);
}

}  // namespace
}  // namespace wallgo::train
