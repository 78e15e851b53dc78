#include "tools/train/selfplay_data.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "engine/zobrist.h"
#include "search/levels.h"
#include "search/net/net_evaluator.h"

namespace wallgo::train {

// The trainer speaks of the search's networks and the data's records.
using namespace search;
using namespace search::net;
using namespace train_data;
namespace {

uint64_t GameSeed(uint64_t seed, int game) {
  return zobrist::SplitMix64(zobrist::SplitMix64(seed) ^
                             static_cast<uint64_t>(game));
}

// Copies the search's visits into the record (moves it did not report keep
// 0) and its value: the visit-weighted mean over the reported candidates.
void RecordSearch(const SearchInfo& info, const MoveList& moves,
                  DataRecord& r) {
  r.total_visits = static_cast<uint32_t>(info.total_visits);
  double visits = 0, win = 0, margin = 0;
  for (const Candidate& c : info.candidates) {
    for (int i = 0; i < moves.size(); ++i) {
      if (moves[i] == c.move) {
        r.visits[i] = static_cast<uint16_t>(std::min<int64_t>(c.visits, 65535));
      }
    }
    visits += static_cast<double>(c.visits);
    win += static_cast<double>(c.visits) * c.winrate;
    margin += static_cast<double>(c.visits) * c.score_margin;
  }
  if (visits > 0) {
    r.search_win = static_cast<float>(win / visits);
    r.search_margin = static_cast<float>(margin / visits);
  } else if (!info.candidates.empty()) {
    r.search_win = static_cast<float>(info.candidates[0].winrate);
    r.search_margin = static_cast<float>(info.candidates[0].score_margin);
  }
}

// A candidate drawn with probability proportional to visits^(1/t).
Move SampleByVisits(const SearchInfo& info, float temperature,
                    std::mt19937_64& rng) {
  std::vector<double> weights;
  for (const Candidate& c : info.candidates) {
    weights.push_back(
        std::pow(static_cast<double>(c.visits), 1.0 / temperature));
  }
  double total = 0;
  for (double w : weights) total += w;
  if (total <= 0) return info.candidates.front().move;
  std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
  return info.candidates[pick(rng)].move;
}

}  // namespace

DataHeader HeaderFor(const GenerateOptions& o) {
  DataHeader h;
  h.shard_index = static_cast<uint32_t>(o.shard_index);
  h.shard_count = static_cast<uint32_t>(o.shard_count);
  h.games = static_cast<uint32_t>(o.games);
  h.visits = static_cast<uint32_t>(o.visits);
  h.random_placements = static_cast<uint32_t>(o.random_placements);
  h.temperature_plies = static_cast<uint32_t>(o.temperature_plies);
  h.temperature = o.temperature;
  h.seed = o.seed;
  h.rules = RulesString(o.rules);
  h.record_bytes = sizeof(DataRecord);
  h.eval = static_cast<uint32_t>(o.search.eval);
  if (o.search.eval != EvalKind::kClassic && o.network != nullptr) {
    h.weights_checksum = o.network->checksum();
  }
  if (o.fast_visits > 0) {
    h.fast_visits = static_cast<uint32_t>(o.fast_visits);
    h.full_share = o.full_share;
  }
  // As the search uses them: only hybrid has a shortlist, and only a
  // shortlist blends the policy.
  if (o.search.eval == EvalKind::kHybrid && o.search.shortlist > 0) {
    h.shortlist = static_cast<uint32_t>(o.search.shortlist);
    h.policy_weight = static_cast<float>(o.search.policy_weight);
  }
  return h;
}

// The searcher (o.search: level 10) of a self-play game at `visits` playouts a
// move.
std::unique_ptr<Searcher> SelfPlaySearcher(const GenerateOptions& o, int visits,
                                           uint64_t seed) {
  SearchOptions so = o.search;
  so.visits = visits;
  so.seed = seed;
  if (o.network != nullptr) {
    // The network plays the games of o.rules, whatever their player count
    // (a network for 3 and 4 players makes its own next generation's data).
    so.net = std::make_shared<const NetEvaluator>(o.network);
    so.net_multi = so.net;
  }
  return MakeLevelPlayer(so);
}

std::vector<DataRecord> PlaySelfPlayGame(const GenerateOptions& o, int game,
                                         std::stop_token stop) {
  const uint64_t seed = GameSeed(o.seed, game);
  std::mt19937_64 rng(seed);
  const std::unique_ptr<Searcher> full = SelfPlaySearcher(o, o.visits, seed);
  const std::unique_ptr<Searcher> fast =
      o.fast_visits > 0 ? SelfPlaySearcher(o, o.fast_visits, seed) : nullptr;
  std::bernoulli_distribution full_search(o.full_share);

  Position pos = *Position::Start(o.rules);
  std::vector<DataRecord> records;
  for (int ply = 0; !IsGameOver(pos); ++ply) {
    if (stop.stop_requested()) return {};
    MoveList moves;
    GenerateMoves(pos, moves);
    DataRecord& r = records.emplace_back(DataRecord{});
    SetRecordPosition(pos, r);
    r.game = static_cast<uint32_t>(game);
    r.ply = static_cast<uint16_t>(ply);
    r.num_moves = static_cast<uint16_t>(moves.size());
    for (int i = 0; i < moves.size(); ++i) r.moves[i] = PackMove(moves[i]);
    const bool is_full = fast == nullptr || full_search(rng);
    const SearchResult result =
        (is_full ? full : fast)->Search(pos, Limits{}, nullptr, 0);
    RecordSearch(result.info, moves, r);
    if (!is_full) std::fill(std::begin(r.visits), std::end(r.visits), 0);

    Move chosen = result.best;
    if (pos.in_setup() && pos.placements_done() < o.random_placements) {
      chosen = moves[static_cast<int>(rng() % moves.size())];
    } else if (ply < o.random_placements + o.temperature_plies &&
               o.temperature > 0 && !result.info.candidates.empty()) {
      chosen = SampleByVisits(result.info, o.temperature, rng);
    }
    pos.Play(chosen);
  }
  const Result result = ComputeResult(pos);
  const std::array<uint8_t, kNumCells> owners = FinalOwners(pos);
  for (DataRecord& r : records) {
    r.game_length = static_cast<uint16_t>(records.size());
    r.winners = static_cast<uint8_t>(result.winners);
    for (int p = 0; p < kMaxPlayers; ++p) {
      r.final_score[p] = static_cast<uint8_t>(result.sheet.score[p]);
    }
    std::copy(owners.begin(), owners.end(), r.final_owner);
  }
  return records;
}

absl::StatusOr<GenerateReport> GenerateData(
    const std::string& path, const GenerateOptions& o,
    const std::function<void(const GenerateReport&)>& progress,
    std::stop_token stop) {
  if (o.shard_count < 1 || o.shard_index < 0 ||
      o.shard_index >= o.shard_count) {
    return absl::InvalidArgumentError("shard must be I/N with 1 <= I <= N");
  }
  if (o.games < 0 || o.visits < 1 || o.jobs < 1 || o.temperature < 0) {
    return absl::InvalidArgumentError(
        "games >= 0, visits >= 1, jobs >= 1 and temperature >= 0 are needed");
  }
  if (o.fast_visits < 0 || o.fast_visits >= o.visits ||
      !(o.full_share > 0 && o.full_share <= 1)) {
    return absl::InvalidArgumentError(
        "fast visits must be 0 (off) or fewer than visits, and the full "
        "searches' share in (0, 1]");
  }
  if (o.search.shortlist < 0 || o.search.shortlist > kMaxRecordMoves ||
      !(o.search.policy_weight >= 0 &&
        o.search.policy_weight <= kMaxPolicyWeight)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the shortlist must be in 0..", kMaxRecordMoves,
        " and the policy weight in [0, ", kMaxPolicyWeight, "], not ",
        o.search.shortlist, " and ", o.search.policy_weight));
  }
  if (o.search.eval != EvalKind::kClassic && o.network == nullptr) {
    return absl::InvalidArgumentError("eval net or hybrid needs a network");
  }
  absl::Status rules_ok = ValidateRules(o.rules);
  if (!rules_ok.ok()) return rules_ok;
  absl::StatusOr<DataWriter> writer = DataWriter::Open(path, HeaderFor(o));
  if (!writer.ok()) return writer.status();

  std::vector<int> todo;  // this shard's games, in order
  for (int g = o.shard_index; g < o.games; g += o.shard_count) {
    todo.push_back(g);
  }
  GenerateReport report;
  report.games_before = writer->complete_games();
  report.records = writer->records();
  const auto start = std::chrono::steady_clock::now();

  // Workers take games in order; finished games wait in `done` until every
  // earlier one is written, so the file never depends on the timing.
  std::atomic<size_t> next{static_cast<size_t>(report.games_before)};
  std::mutex mutex;
  std::map<size_t, std::vector<DataRecord>> done;
  size_t next_to_write = next.load();
  absl::Status status;
  auto work = [&] {
    for (;;) {
      if (stop.stop_requested()) return;
      const size_t i = next.fetch_add(1);
      if (i >= todo.size()) return;
      std::vector<DataRecord> game = PlaySelfPlayGame(o, todo[i], stop);
      std::lock_guard<std::mutex> lock(mutex);
      if (!status.ok() || game.empty()) return;
      done.emplace(i, std::move(game));
      for (auto it = done.find(next_to_write); it != done.end();
           it = done.find(next_to_write)) {
        status = writer->AppendGame(it->second);
        if (!status.ok()) return;
        ++report.games_played;
        report.records = writer->records();
        report.seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
        done.erase(it);
        ++next_to_write;
        if (progress) progress(report);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < o.jobs; ++j) threads.emplace_back(work);
  for (std::thread& t : threads) t.join();
  if (!status.ok()) return status;
  report.interrupted =
      stop.stop_requested() &&
      report.games_before + report.games_played < static_cast<int>(todo.size());
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return report;
}

}  // namespace wallgo::train
