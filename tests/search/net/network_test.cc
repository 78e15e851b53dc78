// The network: the shipped weights load and compute what the trainer
// computed (its fixture, to 1e-4); the loader turns every kind of bad file
// into a clear error; the features and the evaluator keep their invariants
// along random games of every variant, from several threads at once.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <thread>

#include "engine/movegen.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "engine/symmetry.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "search/bench.h"
#include "search/net/accumulator.h"
#include "search/net/builtin_weights.h"
#include "search/net/feature_symmetry.h"
#include "search/net/net_evaluator.h"
#include "search/search.h"
#include "tests/engine/test_support.h"
#include "tests/temp_file.h"
#include "tools/train/fixture.h"

namespace wallgo::search::net {
namespace {

using train::CheckFixture;
using train::FixtureReport;

// The built-in network (a first layer of 128 units); wallgo-net-1 to 3 and
// 5, the generations before it, are kept for their provenance (each played
// the next one's self-play) and checked too, as is wallgo-net-4, the
// training loop's first promotion (wallgo-net-5's data, 64 units).
const std::string kShipped =
    std::string(WALLGO_SOURCE_DIR) + "/search/net/weights/wallgo-net-";
const std::string kWeights = kShipped + "6.wgn";
const std::string kFixture = kShipped + "6.fixture.json";
const std::string kNarrowWeights = kShipped + "3.wgn";  // 64 units

std::string Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A temporary file (wallgo_net_test-PID-NAME) of the test.
testing::TempFile NetTestFile(std::string_view name, std::string_view bytes) {
  return testing::TempFile("wallgo_net_test", name, bytes);
}

// Every shipped network, wallgo-multi-1 (the first for 3 and 4 players,
// --weights-multi) too, reproduces its trainer's fixture.
TEST(NetNetwork, ShippedWeightsComputeWhatTheTrainerComputed) {
  const std::string dir =
      std::string(WALLGO_SOURCE_DIR) + "/search/net/weights/";
  for (const std::string name :
       {"wallgo-net-1", "wallgo-net-2", "wallgo-net-3", "wallgo-net-4",
        "wallgo-net-5", "wallgo-net-6", "wallgo-multi-1"}) {
    SCOPED_TRACE(name);
    absl::StatusOr<Network> net = Network::Load(dir + name + ".wgn");
    ASSERT_TRUE(net.ok()) << net.status();
    absl::StatusOr<FixtureReport> r =
        CheckFixture(*net, dir + name + ".fixture.json", 1e-4);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_GE(r->samples, 8);
    EXPECT_LT(r->max_error, 1e-4);
  }
}

TEST(NetNetwork, TheBuiltInNetworkIsTheShippedFile) {
  EXPECT_EQ(BuiltinWeights(), Bytes(kWeights));
  absl::StatusOr<Network> builtin = LoadWeights("");
  ASSERT_TRUE(builtin.ok()) << builtin.status();
  absl::StatusOr<Network> file = LoadWeights(kWeights);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(builtin->checksum(), file->checksum());
  EXPECT_FALSE(LoadWeights(kWeights + ".missing").ok());
}

TEST(NetNetwork, FixtureCheckCatchesADifference) {
  absl::StatusOr<Network> net = Network::Load(kWeights);
  ASSERT_TRUE(net.ok());
  std::ifstream in(kFixture);
  nlohmann::json fixture = nlohmann::json::parse(in);
  fixture["samples"][1]["priors"][0] =
      fixture["samples"][1]["priors"][0].get<double>() + 2e-4;
  const testing::TempFile changed = NetTestFile("fixture.json", fixture.dump());
  absl::StatusOr<FixtureReport> r = CheckFixture(*net, changed.path(), 1e-4);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("sample 1 priors[0]"), std::string::npos)
      << r.status();
  const testing::TempFile bad = NetTestFile("bad.json", "{nope");
  EXPECT_FALSE(CheckFixture(*net, bad.path()).ok());
  const testing::TempFile empty = NetTestFile("empty.json", "{}");
  EXPECT_FALSE(CheckFixture(*net, empty.path()).ok());
}

// The loader's message for `bytes`, which must be refused.
std::string Refusal(const std::string& bytes) {
  absl::StatusOr<Network> net = Network::FromBytes(bytes, "w.wgn");
  EXPECT_FALSE(net.ok());
  return net.ok() ? "" : std::string(net.status().message());
}

void ExpectHas(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << message;
}

// Writes the checksum of the payload of weights file `bytes` into its
// header, so that a payload edited on purpose passes the checksum.
void Reseal(std::string& bytes) {
  const uint64_t sum = Fnv1a64(std::string_view(bytes).substr(kNetHeaderBytes));
  std::memcpy(bytes.data() + 48, &sum, sizeof sum);
}

TEST(NetNetwork, LoaderRefusesBadFilesWithAClearMessage) {
  const std::string good = Bytes(kWeights);
  ASSERT_TRUE(Network::FromBytes(good, "w.wgn").ok());

  absl::StatusOr<Network> missing = Network::Load(kWeights + ".missing");
  ASSERT_FALSE(missing.ok());
  ExpectHas(std::string(missing.status().message()),
            "cannot open weights file");

  ExpectHas(Refusal(good.substr(0, 20)), "truncated");
  ExpectHas(Refusal(good.substr(0, good.size() - 4)), "truncated");
  ExpectHas(Refusal(good + "xxxx"), "too long");
  std::string bad = good;
  bad[0] = 'X';
  ExpectHas(Refusal(bad), "not a wallgo network");
  bad = good;
  bad[8] = 2;
  ExpectHas(Refusal(bad), "version 2, this build reads version 1");
  bad = good;
  bad[24] = 65;  // hidden1
  ExpectHas(Refusal(bad), "shape");
  bad = good;
  bad[good.size() / 2] ^= 0x10;
  ExpectHas(Refusal(bad), "corrupt");
  // A NaN weight behind a matching checksum.
  bad = good;
  const float nan = std::nanf("");
  std::memcpy(bad.data() + kNetHeaderBytes, &nan, sizeof nan);
  Reseal(bad);
  ExpectHas(Refusal(bad), "not finite");
  // A first-layer weight the fixed-point sums cannot hold (a second-layer
  // weight as large is fine).
  for (const size_t at : {size_t{0}, size_t{kNumFeatures} * 128 + 128}) {
    bad = good;
    const float huge = 7.0f;
    std::memcpy(bad.data() + kNetHeaderBytes + 4 * at, &huge, sizeof huge);
    Reseal(bad);
    if (at == 0) {
      ExpectHas(Refusal(bad), "a first-layer weight of 7 is beyond +-6,");
    } else {
      EXPECT_TRUE(Network::FromBytes(bad, "w.wgn").ok());
    }
  }
  ExpectHas(Refusal(""), "truncated");
}

// Weights too small to matter (Adam's decay leaves the weights of inputs
// and outputs a 2-player game never uses near 1e-36) are read as zero, so
// that no product is a slow subnormal float.
TEST(NetNetwork, NegligibleWeightsAreReadAsZero) {
  // wallgo-net-2 was written before the trainer zeroed them too.
  EXPECT_EQ(Network::Load(kShipped + "2.wgn")->negligible_weights(), 43104);
  std::string tiny = Bytes(kWeights);
  const float w = 1e-30f;
  for (size_t at = kNetHeaderBytes; at < tiny.size(); at += sizeof w) {
    std::memcpy(tiny.data() + at, &w, sizeof w);
  }
  Reseal(tiny);
  absl::StatusOr<Network> net = Network::FromBytes(tiny, "tiny.wgn");
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_EQ(net->negligible_weights(),
            static_cast<int>((tiny.size() - kNetHeaderBytes) / sizeof w));
  Features features;
  ExtractFeatures(*Position::Start(Rules::Default(2)), features);
  const NetValue v = net->Value(net->Forward(features), 2);
  EXPECT_EQ(v.score[0], 0.0f);  // 1e-30 weights would leave about 1e-29
  EXPECT_EQ(v.score[1], 0.0f);
  EXPECT_EQ(v.win[0], 0.5f);
}

// Positions along random games of every variant, finished ones included.
std::vector<Position> RandomPositions(int games_per_variant) {
  std::vector<Position> positions;
  for (const testing::Variant& v : testing::Variants()) {
    std::mt19937_64 rng(testing::SeedFor(v.name));
    for (int g = 0; g < games_per_variant; ++g) {
      testing::PlayRandomGame(v.rules, rng, 200, [&](const Position& pos) {
        positions.push_back(pos);
      });
    }
  }
  return positions;
}

// wallgo-net-3 widened to `width` first-layer units: its own 64, then units
// with random first-layer weights whose second-layer weights are
// `extra_out` (zero: they cannot move the output).
std::string Widened(int width, float extra_out) {
  const std::string narrow = Bytes(kNarrowWeights);
  auto floats = [&narrow](size_t from, size_t count) {
    std::vector<float> v(count);
    std::memcpy(v.data(), narrow.data() + kNetHeaderBytes + 4 * from,
                4 * count);
    return v;
  };
  std::mt19937 rng(width);
  std::uniform_real_distribution<float> random(-0.5f, 0.5f);
  std::vector<float> out;
  const size_t w1 = 0, b1 = size_t{kNumFeatures} * 64, w2 = b1 + 64;
  const size_t rest = w2 + 64 * kHidden2;
  for (size_t f = 0; f < kNumFeatures; ++f) {
    for (float w : floats(w1 + f * 64, 64)) out.push_back(w);
    for (int u = 64; u < width; ++u) out.push_back(random(rng));
  }
  for (float b : floats(b1, 64)) out.push_back(b);
  for (int u = 64; u < width; ++u) out.push_back(random(rng));
  for (float w : floats(w2, 64 * kHidden2)) out.push_back(w);
  for (int i = 64 * kHidden2; i < width * kHidden2; ++i)
    out.push_back(extra_out);
  for (float w : floats(rest, (narrow.size() - kNetHeaderBytes) / 4 - rest))
    out.push_back(w);
  std::string bytes = narrow.substr(0, kNetHeaderBytes);
  const uint32_t units = width, count = out.size();
  std::memcpy(bytes.data() + 24, &units, 4);
  std::memcpy(bytes.data() + 44, &count, 4);
  bytes.append(reinterpret_cast<const char*>(out.data()), 4 * out.size());
  Reseal(bytes);
  return bytes;
}

// A wider first layer (the file's header says how wide) is computed unit by
// unit as the narrow one: units that feed nothing leave every output as it
// was, units that feed something move it; widths this build has no code for
// are refused.
TEST(NetNetwork, WiderFirstLayersComputeEveryUnit) {
  const Network narrow = *Network::Load(kNarrowWeights);
  const std::vector<Position> positions = RandomPositions(1);
  for (const int width : {128, 256}) {
    absl::StatusOr<Network> same = Network::FromBytes(Widened(width, 0), "w");
    absl::StatusOr<Network> other =
        Network::FromBytes(Widened(width, 0.01f), "w");
    ASSERT_TRUE(same.ok() && other.ok()) << same.status() << other.status();
    EXPECT_EQ(same->hidden1(), width);
    int moved = 0;
    for (size_t i = 0; i < positions.size(); i += 7) {
      Features features;
      ExtractFeatures(positions[i], features);
      const Hidden want = narrow.Forward(features);
      const Hidden got = same->Forward(features);
      for (int h = 0; h < kHidden2; ++h) ASSERT_EQ(got.h[h], want.h[h]) << i;
      moved += other->Forward(features).h != want.h;
    }
    EXPECT_GT(moved, 0) << width;
  }
  EXPECT_EQ(narrow.hidden1(), 64);
  ExpectHas(Refusal(Widened(96, 0)),
            "a first layer of 96 units, this build reads 64, 128, 256");
}

// The evaluator's value of `pos`, asked with the priors of every legal move
// (as an expansion asks it).
Value ValueWithPriors(const NetEvaluator& eval, const Position& pos) {
  MoveList moves;
  GenerateMoves(pos, moves);
  std::array<float, MoveList::kCapacity> priors;
  return eval.Evaluate(pos, std::span(moves.begin(), moves.size()),
                       std::span(priors.data(), moves.size()));
}

// The first layer's sums of every position of `positions` from one cache
// (accumulator.h), each checked against fresh sums to the bit; returns the
// cache's counts.
FirstLayerCache::Counts ExpectCachedSumsExact(
    const Network& net, const std::vector<Position>& positions,
    FirstLayerCache& cache) {
  for (size_t i = 0; i < positions.size(); ++i) {
    Features features;
    ExtractFeatures(positions[i], features);
    FirstLayerSums fresh;
    net.FirstLayer(features, fresh);
    const FirstLayerSums& got =
        cache.Sums(net, Index(positions[i].to_move()), features);
    const auto used = fresh.sum.begin() + net.hidden1();
    EXPECT_TRUE(std::equal(fresh.sum.begin(), used, got.sum.begin()))
        << "position " << i << ", " << net.hidden1() << " units";
    if (::testing::Test::HasFailure()) break;
  }
  return cache.counts();
}

// Sums made from the previous position of the same side to move by the
// features that differ equal a full recomputation to the bit, along random
// games of every variant (in game order: small differences) and in a
// shuffled order (large ones, other player counts and rules), at every
// width; and the updates did the work, with fewer rows than fresh sums.
TEST(NetAccumulator, IncrementalUpdatesEqualAFullRecomputation) {
  std::vector<Network> nets;
  nets.push_back(*Network::Load(kNarrowWeights));
  nets.push_back(*Network::Load(kWeights));
  nets.push_back(*Network::FromBytes(Widened(256, 0.01f), "w256"));
  const std::vector<Position> in_order = RandomPositions(2);
  std::vector<Position> shuffled = in_order;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(7));
  for (const Network& net : nets) {
    FirstLayerCache along_games, jumping;
    const FirstLayerCache::Counts a =
        ExpectCachedSumsExact(net, in_order, along_games);
    const FirstLayerCache::Counts j =
        ExpectCachedSumsExact(net, shuffled, jumping);
    ASSERT_FALSE(HasFailure());
    EXPECT_EQ(a.lookups, static_cast<int64_t>(in_order.size()));
    EXPECT_GT(a.updates, a.lookups * 3 / 4) << net.hidden1();
    EXPECT_LT(a.rows, a.fresh_rows * 2 / 3) << net.hidden1();
    EXPECT_GT(j.updates, 0) << net.hidden1();
    EXPECT_LT(j.updates, a.updates) << net.hidden1();
  }
}

// One cache used with two networks keeps their sums apart: the second
// network's sums are never made from the first's.
TEST(NetAccumulator, ACacheUsedByTwoNetworksKeepsThemApart) {
  const Network narrow = *Network::Load(kNarrowWeights);
  const Network wide = *Network::FromBytes(Widened(128, 0.01f), "w128");
  std::vector<Position> positions = RandomPositions(1);
  positions.erase(positions.begin() + positions.size() / 4, positions.end());
  FirstLayerCache cache;
  for (size_t i = 0; i + 1 < positions.size(); i += 2) {
    for (const Network* net : {&narrow, &wide}) {
      ExpectCachedSumsExact(*net, {positions[i], positions[i + 1]}, cache);
    }
    ASSERT_FALSE(HasFailure()) << i;
  }
  EXPECT_GT(cache.counts().updates, 0);
}

// The evaluator's values are the same to the bit whatever its thread
// evaluated before (each thread's cache of sums): positions in game order
// on one thread, shuffled on another.
TEST(ThreadedNetEvaluator, ValuesDoNotDependOnWhatTheThreadEvaluatedBefore) {
  absl::StatusOr<std::unique_ptr<NetEvaluator>> eval =
      NetEvaluator::Load(kWeights);
  ASSERT_TRUE(eval.ok());
  const std::vector<Position> positions = RandomPositions(1);
  std::vector<size_t> order(positions.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<size_t> shuffled = order;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(11));
  auto run = [&](const std::vector<size_t>& which, std::vector<Value>& out) {
    out.resize(positions.size());
    for (const size_t i : which) out[i] = ValueWithPriors(**eval, positions[i]);
  };
  std::vector<Value> a, b;
  std::thread ta(run, std::cref(order), std::ref(a));
  std::thread tb(run, std::cref(shuffled), std::ref(b));
  ta.join();
  tb.join();
  for (size_t i = 0; i < positions.size(); ++i) {
    ASSERT_EQ(a[i].win, b[i].win) << i;
    ASSERT_EQ(a[i].margin, b[i].margin) << i;
  }
}

TEST(NetFeatures, EachCellHasOneRaceClassAndEveryIndexFits) {
  for (const Position& pos : RandomPositions(3)) {
    Features f;
    ExtractFeatures(pos, f);
    ASSERT_LE(f.count, kMaxActive);
    std::set<int> seen(f.active.begin(), f.active.begin() + f.count);
    EXPECT_EQ(static_cast<int>(seen.size()), f.count) << "a feature twice";
    int race = 0, stones = 0, walls = 0;
    for (int feature : seen) {
      ASSERT_LT(feature, kNumFeatures);
      race += feature >= kRaceBase && feature < kWallBase;
      stones += feature < kRaceBase;
      walls += feature >= kWallBase && feature < kGlobalBase;
    }
    EXPECT_EQ(race, kNumCells);
    EXPECT_EQ(stones, PopCount(pos.occupied()));
    EXPECT_EQ(walls, PopCount(pos.walls().north) + PopCount(pos.walls().east));
    EXPECT_EQ(f.finished, IsGameOver(pos));
    // The side to move's stones are slot 0's.
    for (Bitboard b = pos.stones(pos.to_move()); b != 0; b = PopLowest(b)) {
      EXPECT_TRUE(seen.count(kStoneBase + LowestCell(b)));
    }
  }
}

// The search asks only for the policy's parts its moves use: each logit
// they read is the full layer's, to the bit, in every variant (placements,
// turns, breaks).
TEST(NetNetwork, PolicyLogitsOfTheMovesPartsEqualTheFullLayers) {
  absl::StatusOr<Network> net = Network::Load(kWeights);
  ASSERT_TRUE(net.ok()) << net.status();
  int placements = 0, breaks = 0;
  for (const Position& pos : RandomPositions(1)) {
    MoveList moves;
    GenerateMoves(pos, moves);
    Features features;
    ExtractFeatures(pos, features);
    const Hidden hidden = net->Forward(features);
    std::array<float, kPolicySize + 1> full, parts;
    parts.fill(std::nanf(""));
    net->PolicyLogits(hidden, full);
    net->PolicyLogits(hidden, std::span(moves.begin(), moves.size()), parts);
    for (const Move& m : moves) {
      placements += m.kind == MoveKind::kPlace;
      breaks += m.kind == MoveKind::kBreak;
      for (uint16_t index : PolicyIndices(m)) {
        ASSERT_EQ(parts[index], full[index]) << "logit " << index;
      }
    }
  }
  EXPECT_GT(placements, 0);
  EXPECT_GT(breaks, 0);
}

TEST(NetEvaluator, ValuesAndPriorsAreDistributionsAndFinishedGamesExact) {
  absl::StatusOr<std::unique_ptr<NetEvaluator>> eval =
      NetEvaluator::Load(kWeights);
  ASSERT_TRUE(eval.ok()) << eval.status();
  for (const Position& pos : RandomPositions(2)) {
    MoveList moves;
    GenerateMoves(pos, moves);
    std::vector<float> priors(moves.size(), -1);
    const Value v =
        (*eval)->Evaluate(pos, std::span(moves.begin(), moves.size()), priors);
    float total = 0, prior_total = 0;
    for (int p = 0; p < pos.num_players(); ++p) {
      EXPECT_GE(v.win[p], 0);
      total += v.win[p];
    }
    EXPECT_NEAR(total, 1, 1e-5);
    for (float prior : priors) {
      EXPECT_GT(prior, 0);
      prior_total += prior;
    }
    if (!moves.empty()) {
      EXPECT_NEAR(prior_total, 1, 1e-4);
    }
    if (pos.num_players() == 2) {
      EXPECT_NEAR(v.margin[0], -v.margin[1], 1e-4);
    }
    if (IsGameOver(pos)) {
      const Value exact = FinishedValue(pos);
      EXPECT_EQ(v.win, exact.win);
      EXPECT_EQ(v.margin, exact.margin);
      const Result result = ComputeResult(pos);
      for (int p = 0; p < pos.num_players(); ++p) {
        EXPECT_EQ(v.win[p] > 0, (result.winners >> p & 1) != 0);
      }
    }
  }
}

// Run under ThreadSanitizer in CI: the evaluator is shared by search threads.
TEST(ThreadedNetEvaluator, ThreadsGetTheSameAnswers) {
  absl::StatusOr<std::unique_ptr<NetEvaluator>> eval =
      NetEvaluator::Load(kWeights);
  ASSERT_TRUE(eval.ok());
  const std::vector<Position> positions = RandomPositions(1);
  auto run = [&](std::vector<Value>& out) {
    for (const Position& pos : positions) {
      out.push_back(ValueWithPriors(**eval, pos));
    }
  };
  std::vector<Value> alone, a, b;
  run(alone);
  std::thread ta(run, std::ref(a)), tb(run, std::ref(b));
  ta.join();
  tb.join();
  ASSERT_EQ(a.size(), alone.size());
  for (size_t i = 0; i < alone.size(); ++i) {
    EXPECT_EQ(a[i].win, alone[i].win);
    EXPECT_EQ(b[i].win, alone[i].win);
    EXPECT_EQ(b[i].margin, alone[i].margin);
  }
}

// Counts the calls that reach the network, and those that asked for priors.
class CountingEvaluator : public Evaluator {
 public:
  explicit CountingEvaluator(std::shared_ptr<const Evaluator> inner)
      : inner_(std::move(inner)) {}
  Value Evaluate(const Position& pos, std::span<const Move> moves,
                 std::span<float> priors) const override {
    calls.fetch_add(1);
    if (!moves.empty()) with_priors.fetch_add(1);
    return inner_->Evaluate(pos, moves, priors);
  }
  void LogPriors(const Position& pos, std::span<const Move> moves,
                 std::span<float> scores) const override {
    rankings.fetch_add(1);
    inner_->LogPriors(pos, moves, scores);
  }
  mutable std::atomic<int64_t> calls{0}, with_priors{0}, rankings{0};

 private:
  std::shared_ptr<const Evaluator> inner_;
};

bool IsLegalMove(const Position& pos, Move move) {
  MoveList moves;
  GenerateMoves(pos, moves);
  return std::find(moves.begin(), moves.end(), move) != moves.end();
}

// eval=net and eval=hybrid reach the network through MakeSearcher (the
// protocol's path): net for values and priors, hybrid for values only, and
// with a shortlist for values and the ranking of moves at expansions.
// Two threads: run under ThreadSanitizer in CI.
TEST(ThreadedNetSearch, ThreadedSearchesUseTheNetAsTheEvalOptionSays) {
  absl::StatusOr<std::unique_ptr<NetEvaluator>> loaded =
      NetEvaluator::Load(kWeights);
  ASSERT_TRUE(loaded.ok());
  const std::shared_ptr<const Evaluator> net = std::move(*loaded);
  struct Case {
    EvalKind eval;
    int shortlist;
    double policy_weight = 0;
  };
  int64_t shortlist_rankings = 0;
  for (const Case c :
       {Case{EvalKind::kNet, 0}, Case{EvalKind::kHybrid, 0},
        Case{EvalKind::kHybrid, 16}, Case{EvalKind::kHybrid, 16, 0.25},
        Case{EvalKind::kClassic, 16}}) {
    const EvalKind eval = c.eval;
    auto counting = std::make_shared<CountingEvaluator>(net);
    SearchOptions options = ClassicProfile();
    options.threads = 2;
    options.visits = 300;
    options.hash_mb = 4;
    options.eval = eval;
    options.shortlist = c.shortlist;
    options.policy_weight = c.policy_weight;
    options.net = counting;
    std::unique_ptr<Searcher> searcher = MakeSearcher(options);
    Position pos = BenchStart(BenchPositions()[5]);
    for (int ply = 0; ply < 6 && !IsGameOver(pos); ++ply) {
      const SearchResult r = searcher->Search(pos, Limits{}, nullptr, 0);
      ASSERT_TRUE(IsLegalMove(pos, r.best));
      EXPECT_EQ(r.info.total_visits, 300);
      pos.Play(r.best);
    }
    const int64_t calls = counting->calls.load();
    const int64_t with_priors = counting->with_priors.load();
    switch (eval) {
      case EvalKind::kNet:  // every new node: its value and its priors
        EXPECT_GE(calls, 6 * 250);
        EXPECT_GE(with_priors, 6 * 250);
        break;
      case EvalKind::kHybrid:  // values; the priors are classic
        EXPECT_GE(calls, 6 * 250);
        EXPECT_EQ(with_priors, 0);
        // A shortlist asks the network to rank the moves of about every
        // other new node (those a playout passes again).
        if (c.shortlist > 0 && c.policy_weight == 0) {
          EXPECT_GE(counting->rankings.load(), 6 * 50);
          shortlist_rankings = counting->rankings.load();
        } else if (c.shortlist > 0) {
          // The policy also blends into the priors of later chunks of
          // edges: more rankings than the shortlist alone asks for.
          EXPECT_GT(counting->rankings.load(), shortlist_rankings);
        } else {
          EXPECT_EQ(counting->rankings.load(), 0);
        }
        break;
      case EvalKind::kClassic:
        EXPECT_EQ(calls, 0);
        EXPECT_EQ(counting->rankings.load(), 0);
        break;
    }
  }
}

// The root's priors after a one-thread search of `pos`.
std::vector<double> RootPriors(Searcher& searcher, const Position& pos) {
  Limits limits;
  limits.all_moves = true;
  const SearchResult r = searcher.Search(pos, limits, nullptr, 0);
  std::vector<double> priors;
  for (const Candidate& c : r.info.candidates) priors.push_back(c.prior);
  return priors;
}

// A searcher holds its evaluator: set_option of any option that makes it
// (here policy_weight and setup_priors) must rebuild it, so that the next
// search is the one a fresh searcher with those options makes.
TEST(NetSearch, ChangingTheEvaluationsOptionsRebuildsTheSearcher) {
  absl::StatusOr<std::unique_ptr<NetEvaluator>> loaded =
      NetEvaluator::Load(kWeights);
  ASSERT_TRUE(loaded.ok());
  SearchOptions options = ClassicProfile();
  options.visits = 200;
  options.hash_mb = 4;
  options.eval = EvalKind::kHybrid;
  options.shortlist = 16;
  options.net = std::move(*loaded);
  const Position middle = BenchStart(BenchPositions()[5]);
  const Position start = *Position::Start(Rules{});
  std::unique_ptr<Searcher> searcher = MakeSearcher(options);
  const std::vector<double> classic = RootPriors(*searcher, middle);
  const std::vector<double> classic_setup = RootPriors(*searcher, start);

  options.policy_weight = 0.25;
  options.net_setup_priors = true;
  searcher->SetOptions(options);
  searcher->Clear();
  const std::vector<double> blended = RootPriors(*searcher, middle);
  const std::vector<double> net_setup = RootPriors(*searcher, start);
  EXPECT_NE(blended, classic);
  EXPECT_NE(net_setup, classic_setup);
  std::unique_ptr<Searcher> fresh = MakeSearcher(options);
  EXPECT_EQ(RootPriors(*fresh, middle), blended);
  EXPECT_EQ(RootPriors(*fresh, start), net_setup);
}

// Searches the start of a game of `players` for 200 playouts with these
// networks (MakeSearcher, the protocol's path); the move must be legal.
void SearchTheStart(int players, EvalKind eval,
                    std::shared_ptr<const Evaluator> net,
                    std::shared_ptr<const Evaluator> net_multi) {
  SearchOptions options = ClassicProfile();
  options.visits = 200;
  options.hash_mb = 4;
  options.eval = eval;
  options.net = std::move(net);
  options.net_multi = std::move(net_multi);
  std::unique_ptr<Searcher> searcher = MakeSearcher(options);
  const Position pos = *Position::Start(Rules::Default(players));
  const SearchResult r = searcher->Search(pos, Limits{}, nullptr, 0);
  EXPECT_TRUE(IsLegalMove(pos, r.best));
  EXPECT_EQ(r.info.total_visits, 200);
}

// The shipped networks learned from 2-player games: without a network for
// more players, games of 3 or 4 search with the classic evaluation.
TEST(NetSearch, GamesOfMorePlayersThanTheNetLearnedAreClassic) {
  absl::StatusOr<std::unique_ptr<NetEvaluator>> loaded =
      NetEvaluator::Load(kWeights);
  ASSERT_TRUE(loaded.ok());
  const std::shared_ptr<const Evaluator> net = std::move(*loaded);
  for (const int players : {3, 4}) {
    for (const EvalKind eval : {EvalKind::kNet, EvalKind::kHybrid}) {
      auto counting = std::make_shared<CountingEvaluator>(net);
      SearchTheStart(players, eval, counting, nullptr);
      EXPECT_EQ(counting->calls.load(), 0)
          << players << " players, eval " << static_cast<int>(eval);
    }
  }
}

// A network for 3 and 4 players (--weights-multi) is the one their games
// use, with either eval, and 2-player games still use the other.
TEST(NetSearch, GamesOfThreeAndFourPlayersUseTheMultiPlayerNetwork) {
  absl::StatusOr<std::unique_ptr<NetEvaluator>> loaded =
      NetEvaluator::Load(kWeights);
  ASSERT_TRUE(loaded.ok());
  const std::shared_ptr<const Evaluator> net = std::move(*loaded);
  for (const int players : {2, 3, 4}) {
    for (const EvalKind eval : {EvalKind::kNet, EvalKind::kHybrid}) {
      auto two = std::make_shared<CountingEvaluator>(net);
      auto multi = std::make_shared<CountingEvaluator>(net);
      SearchTheStart(players, eval, two, multi);
      const CountingEvaluator& used = players == 2 ? *two : *multi;
      const CountingEvaluator& unused = players == 2 ? *multi : *two;
      EXPECT_GT(used.calls.load(), 0) << players << " players";
      EXPECT_EQ(unused.calls.load() + unused.rankings.load(), 0)
          << players << " players";
    }
  }
}

}  // namespace
}  // namespace wallgo::search::net

namespace wallgo::search::net {
namespace {

// The trainer's augmentation is only right if permuting the features (and
// policy indices) of a position equals extracting them from the mirrored or
// rotated position.
TEST(NetSymmetry, PermutedFeaturesAreThoseOfTheTransformedPosition) {
  std::vector<std::array<uint16_t, kNumFeatures + 1>> feature_perm;
  std::vector<std::array<uint16_t, kPolicySize + 1>> policy_perm;
  for (int s = 0; s < kNumSymmetries; ++s) {
    feature_perm.push_back(FeaturePermutation(s));
    policy_perm.push_back(PolicyPermutation(s));
    // Each table is a permutation.
    EXPECT_EQ(
        std::set<int>(feature_perm[s].begin(), feature_perm[s].end()).size(),
        static_cast<size_t>(kNumFeatures + 1));
    EXPECT_EQ(
        std::set<int>(policy_perm[s].begin(), policy_perm[s].end()).size(),
        static_cast<size_t>(kPolicySize + 1));
  }
  EXPECT_EQ(TransformCell(1, CellOf(0, 0)), CellOf(6, 0));  // a1 -> g1
  EXPECT_EQ(TransformSide(1, Side::kNorth), Side::kWest);
  int checked = 0;
  for (const Position& pos : RandomPositions(1)) {
    Features f;
    ExtractFeatures(pos, f);
    MoveList moves;
    GenerateMoves(pos, moves);
    for (int s = 0; s < kNumSymmetries; ++s) {
      const absl::StatusOr<Position> transformed = TransformPosition(s, pos);
      if (!transformed.ok()) {
        // Only fourstone's fixed stones can make a mirror image impossible.
        EXPECT_EQ(pos.rules().setup, SetupRule::kFourStone);
        continue;
      }
      const Position& t = *transformed;
      Features g;
      ExtractFeatures(t, g);
      std::set<int> permuted,
          direct(g.active.begin(), g.active.begin() + g.count);
      for (int i = 0; i < f.count; ++i)
        permuted.insert(feature_perm[s][f.active[i]]);
      ASSERT_EQ(permuted, direct) << "symmetry " << s;
      // Legal moves map to legal moves, and their policy indices permute.
      MoveList t_moves;
      GenerateMoves(t, t_moves);
      std::set<uint32_t> legal;
      for (const Move& m : t_moves) legal.insert(m.Code());
      for (const Move& m : moves) {
        const Move tm = TransformMove(s, m);
        ASSERT_TRUE(legal.count(tm.Code())) << "symmetry " << s;
        const auto a = PolicyIndices(m), b = PolicyIndices(tm);
        for (int k = 0; k < 3; ++k) ASSERT_EQ(policy_perm[s][a[k]], b[k]);
      }
      EXPECT_EQ(t_moves.size(), moves.size());
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace wallgo::search::net
