#include "tools/referee/match.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tools/client/engine_process.h"
#include "tools/referee/referee_game.h"
#include "tools/referee/report.h"
#include "tools/referee/schedule.h"

namespace wallgo::referee {

using records::ReadRecords;
using records::RecordWriter;

namespace {

absl::Status CheckOptions(const MatchOptions& o) {
  if (static_cast<int>(o.engines.size()) < o.rules.players) {
    return absl::InvalidArgumentError(absl::StrCat(
        o.rules.players, "-player games need at least ", o.rules.players,
        " engines (--engine), got ", o.engines.size()));
  }
  std::set<std::string> names;
  for (const EngineSpec& e : o.engines) {
    if (!names.insert(e.name).second) {
      return absl::InvalidArgumentError("two engines are named " + e.name);
    }
  }
  if (o.games < 1 || o.concurrency < 1) {
    return absl::InvalidArgumentError("--games and --concurrency must be >= 1");
  }
  if (o.shard_count < 1 || o.shard_index < 0 ||
      o.shard_index >= o.shard_count) {
    return absl::InvalidArgumentError("--shard must be I/N with 1 <= I <= N");
  }
  return absl::OkStatus();
}

// The opening of every round the schedule uses.
absl::StatusOr<std::map<int, Opening>> OpeningsFor(
    const MatchOptions& o, const std::vector<GameSpec>& games) {
  std::vector<Opening> from_file;
  if (!o.openings_file.empty()) {
    absl::StatusOr<std::vector<Opening>> loaded =
        LoadOpenings(o.rules, o.openings_file);
    if (!loaded.ok()) return loaded.status();
    from_file = *std::move(loaded);
  }
  std::map<int, Opening> openings;
  for (const GameSpec& g : games) {
    if (openings.count(g.opening_round)) continue;
    openings.emplace(
        g.opening_round,
        from_file.empty()
            ? RandomOpening(o.rules, o.seed, g.opening_round, o.opening_plies)
            : from_file[g.opening_round % from_file.size()]);
  }
  return openings;
}

// Records already in the file, checked against this shard's schedule.
absl::StatusOr<std::vector<GameRecord>> FinishedGames(
    const MatchOptions& o, const std::vector<GameSpec>& games) {
  if (!o.resume || o.records_file.empty() ||
      !std::filesystem::exists(o.records_file)) {
    return std::vector<GameRecord>{};
  }
  absl::StatusOr<std::vector<GameRecord>> records = ReadRecords(o.records_file);
  if (!records.ok()) return records.status();
  std::map<int, const GameSpec*> by_number;
  for (const GameSpec& g : games) by_number[g.game] = &g;
  for (const GameRecord& r : *records) {
    const auto it = by_number.find(r.game);
    bool matches =
        it != by_number.end() && r.seats.size() == it->second->seats.size();
    for (size_t c = 0; matches && c < r.seats.size(); ++c) {
      matches = r.seats[c].second == o.engines[it->second->seats[c]].name;
    }
    if (!matches) {
      return absl::FailedPreconditionError(absl::StrCat(
          o.records_file, ": game ", r.game,
          " is not a game of this match (other engines, games or shard)"));
    }
  }
  return records;
}

std::vector<std::string> EngineNames(const MatchOptions& o) {
  std::vector<std::string> names;
  for (const EngineSpec& e : o.engines) names.push_back(e.name);
  return names;
}

// The shared state of the workers.
class MatchRunner {
 public:
  MatchRunner(const MatchOptions& options, std::ostream& out,
              std::map<int, Opening> openings, RecordWriter* writer,
              EngineLog* log, std::stop_token stop)
      : options_(options),
        out_(out),
        openings_(std::move(openings)),
        writer_(writer),
        log_(log),
        stop_token_(std::move(stop)) {}

  void Run(std::deque<GameSpec> pending, MatchResult& result) {
    pending_ = std::move(pending);
    result_ = &result;
    const int workers = std::min<int>(options_.concurrency, pending_.size());
    std::vector<std::thread> threads;
    for (int i = 0; i < workers; ++i) threads.emplace_back([this] { Work(); });
    for (std::thread& t : threads) t.join();
  }

  absl::Status status() const { return status_; }

 private:
  void Work() {
    EnginePool pool(options_.engines, log_, stop_token_);
    while (std::optional<GameSpec> spec = Next()) {
      GameRecord record =
          PlayGame(options_, *spec, openings_.at(spec->opening_round), pool);
      Finished(std::move(record));
    }
  }

  std::optional<GameSpec> Next() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stop_ || stop_token_.stop_requested() || pending_.empty()) {
      return std::nullopt;
    }
    GameSpec spec = std::move(pending_.front());
    pending_.pop_front();
    return spec;
  }

  // A game cut short by a stop is dropped. A cluster that pre-empts a task
  // signals every process in it, so an engine may die of that signal just
  // before the referee hears of it: a crash waits a moment for the stop
  // before it counts.
  bool Interrupted(const GameRecord& record) const {
    const auto patience = std::chrono::seconds(1);
    const auto until = SteadyClock::now() + patience;
    while (record.reason == "crash" && !stop_token_.stop_requested() &&
           SteadyClock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return stop_token_.stop_requested();
  }

  void Finished(GameRecord record) {
    if (Interrupted(record)) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (writer_ != nullptr) {
      const absl::Status written = writer_->Append(record);
      if (!written.ok()) {
        status_ = written;
        stop_ = true;
      }
    }
    result_->records.push_back(std::move(record));
    ++result_->played;
    const std::vector<std::string> names = EngineNames(options_);
    if (options_.sprt) {
      result_->sprt = SprtOf(result_->records, names, *options_.sprt);
      if (result_->sprt && result_->sprt->decision != SprtDecision::kContinue) {
        stop_ = true;
      }
    }
    if (!options_.quiet) {
      out_ << GameLine(result_->records.back()) << "\n"
           << Summary(result_->records, names, options_.sprt) << std::flush;
    }
  }

  const MatchOptions& options_;
  std::ostream& out_;
  const std::map<int, Opening> openings_;
  RecordWriter* writer_;
  EngineLog* log_;
  const std::stop_token stop_token_;
  std::mutex mutex_;
  std::deque<GameSpec> pending_;
  MatchResult* result_ = nullptr;
  bool stop_ = false;
  absl::Status status_;
};

}  // namespace

absl::StatusOr<MatchResult> RunMatch(const MatchOptions& options,
                                     std::ostream& out, std::stop_token stop) {
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  std::vector<GameSpec> games;
  for (GameSpec& g :
       BuildSchedule(options.engines.size(), options.rules.players,
                     options.games, options.gauntlet)) {
    if (InShard(g.set, options.shard_index, options.shard_count)) {
      games.push_back(std::move(g));
    }
  }
  absl::StatusOr<std::map<int, Opening>> openings = OpeningsFor(options, games);
  if (!openings.ok()) return openings.status();
  absl::StatusOr<std::vector<GameRecord>> finished =
      FinishedGames(options, games);
  if (!finished.ok()) return finished.status();

  std::unique_ptr<RecordWriter> writer;
  if (!options.records_file.empty()) {
    absl::StatusOr<std::unique_ptr<RecordWriter>> opened =
        RecordWriter::Open(options.records_file, options.resume);
    if (!opened.ok()) return opened.status();
    writer = *std::move(opened);
  }
  absl::StatusOr<std::unique_ptr<EngineLog>> log =
      EngineLog::Open(options.engine_log);
  if (!log.ok()) return log.status();

  MatchResult result;
  result.records = *std::move(finished);
  std::set<int> done;
  for (const GameRecord& r : result.records) done.insert(r.game);
  std::deque<GameSpec> pending;
  for (GameSpec& g : games) {
    if (!done.count(g.game)) pending.push_back(std::move(g));
  }
  if (options.sprt) {
    result.sprt = SprtOf(result.records, EngineNames(options), *options.sprt);
    if (result.sprt && result.sprt->decision != SprtDecision::kContinue) {
      pending.clear();
    }
  }
  const size_t shard_games = games.size();
  MatchRunner runner(options, out, *std::move(openings), writer.get(),
                     log->get(), stop);
  runner.Run(std::move(pending), result);
  if (!runner.status().ok()) return runner.status();
  const bool decided =
      result.sprt && result.sprt->decision != SprtDecision::kContinue;
  result.interrupted =
      stop.stop_requested() && !decided && result.records.size() < shard_games;
  std::sort(
      result.records.begin(), result.records.end(),
      [](const GameRecord& a, const GameRecord& b) { return a.game < b.game; });
  return result;
}

}  // namespace wallgo::referee
