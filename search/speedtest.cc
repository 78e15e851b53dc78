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

// `count` searches of `threads` threads each, on graphs of their own.
std::vector<std::unique_ptr<Searcher>> MakeSearchers(
    const SearchOptions& options, int threads, int count, double seconds) {
  SearchOptions each = options;
  each.threads = threads;
  each.hash_mb = std::min(kHashMbPerThread * threads, kMaxHashMb);
  each.visits = 0;
  each.movetime_s = seconds;
  each.movetime_set = true;
  std::vector<std::unique_ptr<Searcher>> searchers;
  for (int i = 0; i < count; ++i) searchers.push_back(MakeSearcher(each));
  return searchers;
}

// The searchers all at once, each from an empty graph on `pos`: their
// playouts, the longest one's time, and the process's CPU time.
SpeedSample SearchAtOnce(
    const std::vector<std::unique_ptr<Searcher>>& searchers,
    const Position& pos) {
  std::vector<SearchInfo> infos(searchers.size());
  for (const std::unique_ptr<Searcher>& searcher : searchers) searcher->Clear();
  const double cpu_start = CpuSeconds();
  std::vector<std::thread> runners;
  for (size_t i = 0; i < searchers.size(); ++i) {
    runners.emplace_back([&, i] {
      infos[i] = searchers[i]->Search(pos, Limits{}, nullptr, 0).info;
    });
  }
  for (std::thread& runner : runners) runner.join();
  SpeedSample sample;
  sample.cpu_seconds = CpuSeconds() - cpu_start;
  for (const SearchInfo& info : infos) {
    sample.playouts += info.total_visits;
    sample.seconds = std::max(sample.seconds, info.elapsed_s);
  }
  return sample;
}

void Add(SpeedSample& total, const SpeedSample& part) {
  total.playouts += part.playouts;
  total.seconds += part.seconds;
  total.cpu_seconds += part.cpu_seconds;
}

// One row: position by position, the search, then its ceiling, so that a
// host whose speed drifts (a shared virtual machine) slows both alike.
SpeedtestRow MeasureRow(const SearchOptions& options,
                        const SpeedtestConfig& config, int threads) {
  const double seconds = config.seconds / std::size(kStagePositions);
  const auto search = MakeSearchers(options, threads, 1, seconds);
  const auto ceiling = threads > 1 ? MakeSearchers(options, 1, threads, seconds)
                                   : std::vector<std::unique_ptr<Searcher>>{};
  SpeedtestRow row;
  row.threads = threads;
  for (int round = 0; round < config.rounds; ++round) {
    for (int index : kStagePositions) {
      const Position pos = BenchStart(BenchPositions()[index]);
      Add(row.search, SearchAtOnce(search, pos));
      if (!ceiling.empty()) Add(row.ceiling, SearchAtOnce(ceiling, pos));
    }
  }
  return row;
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
    rows.push_back(MeasureRow(options, config, threads));
    if (on_row) on_row(rows.back());
  }
  return rows;
}

}  // namespace wallgo::search
