// A deterministic test double for search::Searcher: it answers the last
// legal move of the position (so tests can tell it from genmove's fallback,
// the first legal move), reports a fixed number of infos, records what it
// was given, and, when asked to search without limits, runs until Stop().
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/movegen.h"
#include "search/search.h"

namespace wallgo::protocol::testing {

// What the searchers of one factory saw; shared so the test can read it
// after the Engine made (and perhaps replaced) its searcher.
struct FakeRecord {
  int made = 0;  // searchers the factory built
  int searches = 0;
  int clears = 0;
  search::SearchOptions last_options;
  search::Limits last_limits;
  std::optional<Move> forced_answer;  // answered instead of the last legal
};

class FakeSearcher : public search::Searcher {
 public:
  FakeSearcher(const search::SearchOptions& options,
               std::shared_ptr<FakeRecord> record)
      : record_(std::move(record)) {
    record_->last_options = options;
  }

  void SetOptions(const search::SearchOptions& options) override {
    record_->last_options = options;
  }
  void Clear() override { ++record_->clears; }

  search::SearchResult Search(const Position& pos, const search::Limits& limits,
                              const search::InfoCallback& on_info,
                              double info_interval_s) override {
    ++record_->searches;
    record_->last_limits = limits;
    stopped_ = false;
    MoveList moves;
    GenerateMoves(pos, moves);
    search::SearchResult result;
    result.best = record_->forced_answer.value_or(moves[moves.size() - 1]);
    // Without limits (analyze, or visits=0 and no move time) think until
    // stopped; otherwise report three times and answer.
    const bool endless =
        limits.infinite || (record_->last_options.visits == 0 &&
                            record_->last_options.movetime_s == 0);
    for (int64_t round = 1; endless ? !stopped_ : round <= 3; ++round) {
      result.info = InfoFor(moves, round);
      if (on_info) on_info(result.info);
      if (endless) absl::SleepFor(absl::Seconds(info_interval_s));
    }
    return result;
  }

  void Stop() override { stopped_ = true; }

 private:
  // Two candidates, best first, with visits that grow each round.
  static search::SearchInfo InfoFor(const MoveList& moves, int64_t round) {
    search::SearchInfo info;
    const Move best = moves[moves.size() - 1];
    const Move second = moves[0];
    info.candidates.push_back({best, 10 * round, 0.75, 2.5, {best, second}});
    if (moves.size() > 1) {
      info.candidates.push_back({second, round, 0.25, -1, {second}});
    }
    info.total_visits = 11 * round;
    info.nodes = 12 * round;
    return info;
  }

  std::shared_ptr<FakeRecord> record_;
  std::atomic<bool> stopped_{false};
};

// A factory for Engine that builds FakeSearchers sharing `record`.
inline auto FakeFactory(std::shared_ptr<FakeRecord> record) {
  return [record](const search::SearchOptions& options)
             -> std::unique_ptr<search::Searcher> {
    ++record->made;
    return std::make_unique<FakeSearcher>(options, record);
  };
}

}  // namespace wallgo::protocol::testing
