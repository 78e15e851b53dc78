#include "search/speedtest.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "search/bench.h"

namespace wallgo::search {
namespace {

// The 2-player positions of the bench (bench.cc) that stand for every
// stage: the setup, an early, a middle and a late play-phase position.
constexpr int kStagePositions[] = {0, 4, 5, 6};
// Graph memory of a one-thread search; a search of N threads gets N times
// as much, up to kMaxHashMb. Arenas are taken lazily (graph.h), so only
// what a search fills costs memory.
constexpr int kHashMbPerThread = 1024;
constexpr int kMaxHashMb = 4096;

double CpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * now.tv_nsec;
}

// One searcher's pass over the stage positions, each from an empty graph
// for seconds / positions: its playouts and wall time.
SpeedSample SearchStages(const SearchOptions& options, double seconds) {
  constexpr int kPositions = std::size(kStagePositions);
  SearchOptions timed = options;
  timed.visits = 0;
  timed.movetime_s = seconds / kPositions;
  timed.movetime_set = true;
  const std::unique_ptr<Searcher> searcher = MakeSearcher(timed);
  SpeedSample sample;
  for (int index : kStagePositions) {
    searcher->Clear();
    const Position pos = BenchStart(BenchPositions()[index]);
    const SearchResult result = searcher->Search(pos, Limits{}, nullptr, 0);
    sample.playouts += result.info.total_visits;
    sample.seconds += result.info.elapsed_s;
  }
  return sample;
}

// `searches` searches of `threads` threads each, all at once.
SpeedSample Measure(const SearchOptions& options, int threads, int searches,
                    double seconds) {
  SearchOptions each = options;
  each.threads = threads;
  each.hash_mb = std::min(kHashMbPerThread * threads, kMaxHashMb);
  std::vector<SpeedSample> samples(searches);
  const double cpu_start = CpuSeconds();
  std::vector<std::thread> runners;
  for (int i = 0; i < searches; ++i) {
    runners.emplace_back([&, i] { samples[i] = SearchStages(each, seconds); });
  }
  for (std::thread& runner : runners) runner.join();
  SpeedSample total;
  total.cpu_seconds = CpuSeconds() - cpu_start;
  for (const SpeedSample& s : samples) {
    total.playouts += s.playouts;
    total.seconds = std::max(total.seconds, s.seconds);
  }
  return total;
}

}  // namespace

std::vector<int> SpeedtestThreadCounts(int max) {
  std::vector<int> counts;
  for (int t = 1; t < max; t *= 2) counts.push_back(t);
  counts.push_back(std::max(1, max));
  return counts;
}

std::vector<SpeedtestRow> RunSpeedtest(
    const SearchOptions& options, const SpeedtestConfig& config,
    const std::function<void(const SpeedtestRow&)>& on_row) {
  std::vector<SpeedtestRow> rows;
  for (int threads : SpeedtestThreadCounts(config.max_threads)) {
    SpeedtestRow row;
    row.threads = threads;
    row.search = Measure(options, threads, 1, config.seconds);
    if (threads > 1) {
      row.ceiling = Measure(options, 1, threads, config.seconds);
    }
    if (on_row) on_row(row);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace wallgo::search
